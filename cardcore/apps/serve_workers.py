"""``cardcore serve --workers N``: N server processes on 127.0.0.1, sharing the library as
the slots of one card room, and HAProxy in front of them on the one port, its
configuration generated from the placement rule into the data dir (``proxy``). Ctrl-C or
SIGTERM stops them all together; a server that dies is started again (meanwhile the next
one in its tables' chain holds them: docs/hosting.md, "Several server processes")."""

from __future__ import annotations

import argparse
import contextlib
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Any

from cardcore.apps.args import UsageError
from cardcore.language import _
from cardcore.services.files import data_dir
from cardcore.services.net.proxy import haproxy_config

#: How long a server has to start, and to stop before it is killed (seconds).
START_WAIT, STOP_WAIT = 60.0, 20.0
#: A server that died is started again after this (seconds).
RESTART_AFTER = 1.0


def find_haproxy() -> str | None:
    """HAProxy's program: on the PATH, or where Debian puts it (/usr/sbin: not on a plain
    user's PATH)."""
    return shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/usr/local/sbin")


def run(args: argparse.Namespace, options: list[str]) -> int:
    """Start the servers (each with ``options``, besides its own) and the proxy; wait for a
    signal; stop them all."""
    haproxy = find_haproxy()
    if haproxy is None:
        raise UsageError(_("--workers needs HAProxy in front of the servers: apt-get install haproxy "
                           "(docs/hosting.md, Several server processes)"))
    if args.tls_cert:
        raise UsageError(_("--workers: terminate TLS in a reverse proxy in front of HAProxy "
                           "(docs/hosting.md), not with --tls-cert"))
    n = args.workers
    ports = _free_ports(n + (1 if args.port == 0 else 0))
    port = args.port or ports.pop()
    host = f"[{args.host}]" if ":" in args.host else args.host
    public = args.public_url or f"ws://{host}:{port}"
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "haproxy.cfg"
    config.write_text(haproxy_config(f"{host}:{port}", [f"127.0.0.1:{p}" for p in ports]), encoding="utf-8")
    base = [sys.executable, "-m", "cardcore", "serve", *options, "--host", "127.0.0.1",
            "--slots", str(n), "--public-url", public, "--proxy-protocol"]
    room = Room([[*base, "--port", str(p), "--slot", str(k)] for k, p in enumerate(ports)],
                [haproxy, "-db", "-f", str(config)], (args.host, port))
    return room.run(f"cardcore serve: listening on ws://{host}:{port}/ ({n} servers behind HAProxy; "
                    f"its configuration: {config})")


class Room:
    """The servers and the proxy, as processes: started, watched, stopped together."""

    def __init__(self, servers: list[list[str]], proxy: list[str], address: tuple[str, int]) -> None:
        self.address = address
        self.commands = servers
        self.proxy_command = proxy
        self.servers: list[subprocess.Popen[bytes] | None] = [None] * len(servers)
        self.proxy: subprocess.Popen[bytes] | None = None
        self.stopping = threading.Event()

    def run(self, banner: str) -> int:
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: self.stopping.set())
        try:
            for k in range(len(self.commands)):
                self._start(k)
            self.proxy = subprocess.Popen(self.proxy_command, stdin=subprocess.DEVNULL,
                                          start_new_session=True)
            if not _listening(self.proxy, self.address):
                raise UsageError(_("HAProxy did not start (its lines above say why)"))
            _say(f"cardcore serve: HAProxy (pid {self.proxy.pid})")
            _say(banner)
            return self._watch()
        finally:
            self._stop_all()

    def _start(self, k: int) -> None:
        """Server ``k``, once it listens (its lines go on to this process's output)."""
        proc = subprocess.Popen(self.commands[k], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                start_new_session=True)  # Ctrl-C reaches the supervisor alone
        assert proc.stdout is not None
        ready = threading.Event()
        threading.Thread(target=_relay, args=(proc.stdout, k, ready), daemon=True).start()
        if not ready.wait(START_WAIT) or proc.poll() is not None:
            proc.kill()
            raise UsageError(_("server {k} did not start (its lines above say why)").format(k=k))
        self.servers[k] = proc
        _say(f"cardcore serve: server {k} (pid {proc.pid})")

    def _watch(self) -> int:
        """Until a signal: a server that ended is started again; the proxy ending ends all."""
        while not self.stopping.wait(0.2):
            assert self.proxy is not None
            if self.proxy.poll() is not None:
                _say(f"cardcore serve: HAProxy stopped ({self.proxy.returncode}); stopping")
                return 1
            for k, proc in enumerate(self.servers):
                if proc is not None and proc.poll() is not None:
                    _say(f"cardcore serve: server {k} ended ({proc.returncode}); starting it again")
                    time.sleep(RESTART_AFTER)
                    self._start(k)
        return 0

    def _stop_all(self) -> None:
        procs = [p for p in (*self.servers, self.proxy) if p is not None]
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()
        deadline = time.monotonic() + STOP_WAIT
        for proc in procs:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _listening(proc: subprocess.Popen[bytes], address: tuple[str, int]) -> bool:
    """Whether ``proc`` (the proxy) accepts connections on ``address`` within START_WAIT."""
    deadline = time.monotonic() + START_WAIT
    while proc.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(address, timeout=1):
            return True
        time.sleep(0.05)
    return False


_OUTPUT = threading.Lock()


def _say(line: str) -> None:
    """One whole line of this process's output (the servers' lines come from threads)."""
    with _OUTPUT:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def _relay(stream: Any, k: int, ready: threading.Event) -> None:
    """Server ``k``'s lines, prefixed; ``ready`` once it listens."""
    for raw in stream:
        line = raw.decode(errors="replace").rstrip()
        if "listening on" in line:
            ready.set()
        _say(f"[{k}] {line}")
    ready.set()  # ended: the caller looks at why


def _free_ports(count: int) -> list[int]:
    """Ports free on 127.0.0.1 now (held together while chosen, so they differ)."""
    socks = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()

