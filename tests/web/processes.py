"""`cardcore serve` and `cardcore web` as real processes on 127.0.0.1 (every wait bounded)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

WAIT = 30.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _line(proc: subprocess.Popen[str], pattern: str, timeout: float = WAIT) -> re.Match[str]:
    """The first line of the process's stdout that matches ``pattern`` (a thread reads the
    output to its end, so the pipe never fills)."""
    assert proc.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    stdout = proc.stdout
    threading.Thread(target=lambda: [lines.put(line) for line in stdout], daemon=True).start()
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            break
        seen.append(line)
        found = re.search(pattern, line)
        if found:
            return found
    raise AssertionError(f"no {pattern!r} from the process; it printed {seen!r}")


@contextlib.contextmanager
def running(*args: str, env: dict[str, str] | None = None) -> Iterator[subprocess.Popen[str]]:
    """``cardcore ARGS`` as a process (``env``: added to this one's environment)."""
    proc = subprocess.Popen([sys.executable, "-m", "cardcore", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, **env} if env else None)
    try:
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@contextlib.contextmanager
def serve() -> Iterator[str]:
    """``cardcore serve`` on a free port: its ws:// URL."""
    with running("serve", "--port", "0", "--bot-delay", "0") as proc:
        found = _line(proc, r"listening on (?:ws://)?127\.0\.0\.1:(\d+)")
        yield f"ws://127.0.0.1:{found.group(1)}"


@contextlib.contextmanager
def web(server: str) -> Iterator[str]:
    """``cardcore web`` for ``server`` on a free port: its http:// URL, once it answers."""
    port = free_port()
    with running("web", "--server", server, "--port", str(port)) as proc:
        threading.Thread(target=proc.communicate, daemon=True).start()  # never a full pipe
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + WAIT
        while True:
            try:
                with urllib.request.urlopen(url + "/", timeout=2) as page:
                    if page.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield url


def ask(server: str, message: Any) -> Any:
    """One request to the server, its answer (a connection of its own)."""
    from cardcore.services.net.client import Connection

    async def go() -> Any:
        conn = await Connection.open(server)
        try:
            return await conn.call(message)
        finally:
            await conn.close()

    return asyncio.run(go())


def table_now(server: str, code: str) -> Any:
    """The table as a spectator sees it now (its first update)."""
    from cardcore.apps.tui.remote import RemoteSession
    from cardcore.services.net.client import Connection
    from cardcore.services.plugins import load_registry

    async def go() -> Any:
        conn = await Connection.open(server)
        try:
            session = await RemoteSession.join(load_registry(), conn, code, None)
            return session
        finally:
            await conn.close()

    return asyncio.run(go())


def browser_apps(server: str) -> list[int]:
    """The pids of the per-browser app processes (``join --remote-only``) for ``server``."""
    from pathlib import Path

    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--remote-only" in cmdline and server.encode() in cmdline:
            found.append(int(entry.name))
    return found
