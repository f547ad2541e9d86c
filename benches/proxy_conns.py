"""What idle connections cost a card room (not a timed test): prints JSON.

    python benches/proxy_conns.py [--connections 3000] [--workers 1]

Starts ``cardcore serve --workers N`` (the servers and HAProxy in front, on a library of its
own), opens N idle WebSocket connections to the lobby through the proxy (50 handshakes at a
time), and reports each process's memory (RSS) and file descriptors before and after: per
connection, for the servers and for HAProxy. Connections that HAProxy does not take (past
its ``maxconn``, which it sets from its descriptor limit when none is given) time out in
their handshake and are counted as ``refused``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import websockets

#: Handshakes under way at once.
AT_ONCE = 50


def usage(pid: int) -> tuple[int, int]:
    """RSS (KB) and open descriptors of process ``pid``."""
    rss = int(Path(f"/proc/{pid}/status").read_text().split("VmRSS:")[1].split()[0])
    return rss, len(os.listdir(f"/proc/{pid}/fd"))


def start(home: Path, port: int, workers: int) -> tuple[subprocess.Popen[str], dict[str, int]]:
    """The card room, and its processes' ids by name (``server 0``, ``HAProxy``)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardcore", "serve", "--workers", str(workers), "--port", str(port),
         "--library", str(home / "library.sqlite"),
         "--max-per-ip", "0", "--max-handshakes-per-ip", "0", "--max-handshakes", "0"],
        env={**os.environ, "CARDCORE_HOME": str(home)}, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    pids: dict[str, int] = {}
    deadline = time.monotonic() + 60
    for line in proc.stdout:
        found = re.search(r"cardcore serve: (server \d+|HAProxy) \(pid (\d+)\)", line)
        if found:
            pids[found[1]] = int(found[2])
        if "listening on ws://127.0.0.1:" in line and "behind HAProxy" in line:
            return proc, pids
        if time.monotonic() > deadline:
            break
    proc.kill()
    raise SystemExit("cardcore serve --workers did not start (is HAProxy installed?)")


async def hold(port: int, n: int, pids: dict[str, int]) -> dict:
    before = {name: usage(pid) for name, pid in pids.items()}
    gate = asyncio.Semaphore(AT_ONCE)
    held: list[websockets.ClientConnection] = []

    async def one() -> None:
        async with gate:
            held.append(await websockets.connect(f"ws://127.0.0.1:{port}/", compression=None,
                                                 open_timeout=10))

    t = time.perf_counter()
    results = await asyncio.gather(*(one() for _ in range(n)), return_exceptions=True)
    took = time.perf_counter() - t
    await asyncio.sleep(3)  # settled
    after = {name: usage(pid) for name, pid in pids.items()}
    await asyncio.gather(*(ws.close() for ws in held), return_exceptions=True)
    per = max(1, len(held))
    return {"measure": "idle_connections", "asked": n, "held": len(held),
            "refused": sum(isinstance(r, Exception) for r in results), "seconds": round(took, 1),
            "kb_per_connection": {k: round((after[k][0] - before[k][0]) / per, 2) for k in pids},
            "fds_per_connection": {k: round((after[k][1] - before[k][1]) / per, 2) for k in pids},
            "rss_kb": {k: [before[k][0], after[k][0]] for k in pids},
            "fd_limit": resource.getrlimit(resource.RLIMIT_NOFILE)[0]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--connections", type=int, default=3000)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--port", type=int, default=18765)
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="proxy-conns-") as tmp:
        proc, pids = start(Path(tmp), args.port, args.workers)
        try:
            print(json.dumps(asyncio.run(hold(args.port, args.connections, pids))), flush=True)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=30)


if __name__ == "__main__":
    main()
