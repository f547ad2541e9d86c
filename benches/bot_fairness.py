"""Bot work shared fairly: another table's greedy bot while one client runs hard bots.

    python benches/bot_fairness.py [--hog-tables 20] [--seconds 30] [--warmup 5]
                                   [--server-tree DIR] [-- SERVE ARGS...]

A real ``cardcore serve`` in its own process on 127.0.0.1 (``--bot-delay 0``: the bots
answer as soon as they have chosen). One client (the hog) makes ``--hog-tables`` Canasta
tables of four hard bots and watches each (a table's bots play only while someone is
at it). Another client makes a two-seat Canasta table, itself against the greedy bot,
and plays a random legal action whenever it is to play. Measured, for every decision
of the greedy bot: from the arrival of the update that asks the bot to play to the
arrival of the update with its move (the bot's queueing, choosing and the update's
trip). Printed: one JSON object with the median, p90, p99 and max of that (ms; and how long
a decision still awaited at the end had waited), the updates the hog received a second
meanwhile (one per hard decision: its tables still play), the server's event loop lag
(how late it woke from a 50 ms sleep: p50, p99, max), and the machine's load
average before and after (the machine may be shared: figures move with it). The deal is
the server's own, so the worst reply may be greedy's own choice on a Canasta position
where listing the first melds takes it 0.25-0.45 s of CPU.
``--server-tree DIR`` runs another checkout's server (before/after under the same load);
arguments after ``--`` go to ``cardcore serve``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection

#: The packages of a tree, for ``--server-tree``.
PACKAGES = ("", "plugins/casino", "plugins/royal_casino", "plugins/canasta")
#: A match longer than any run.
TARGET = 100_000


async def start_server(library: Path, home: Path, tree: Path | None, extra: list[str]
                       ) -> tuple[asyncio.subprocess.Process, int]:
    env = {**os.environ, "CARDCORE_HOME": str(home)}
    if tree is not None:  # another checkout's server (before / after), this venv
        env["PYTHONPATH"] = os.pathsep.join(str(tree / p) for p in PACKAGES)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cardcore", "serve", "--port", "0", "--library", str(library),
        "--rate", "1000", "--bot-delay", "0", "--max-per-ip", "0", *extra,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, env=env, cwd=tree)
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
    return proc, int(line.split("127.0.0.1:", 1)[1].split("/", 1)[0])


class Reader:
    """A connection's frames, read as they come (a client that stops reading is closed)."""

    def __init__(self, ws: ClientConnection):
        self.ws = ws
        self.frames: asyncio.Queue[tuple[float, dict[str, Any]]] = asyncio.Queue()
        self.task = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                self.frames.put_nowait((time.perf_counter(), json.loads(raw)))
        except websockets.ConnectionClosed:
            pass

    async def reply(self, kind: str) -> dict[str, Any]:
        while True:
            _, msg = await asyncio.wait_for(self.frames.get(), 60)
            if msg["type"] in (kind, "error"):
                assert msg["type"] == kind, msg
                return msg


async def hog(port: int, tables: int, moves: list[int]) -> ClientConnection:
    """One connection: ``tables`` tables of four hard bots, each watched (so they play)."""
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/", max_size=2**22)
    reader = Reader(ws)
    for _ in range(tables):
        await ws.send(json.dumps({"v": 1, "type": "create_table", "game": "canasta",
                                  "options": {"target": TARGET}, "seats": ["hard"] * 4}))
        code = (await reader.reply("table_created"))["code"]
        await ws.send(json.dumps({"v": 1, "type": "watch", "code": code}))
        await reader.reply("watching")

    async def count() -> None:
        while True:
            _, msg = await reader.frames.get()
            if msg["type"] == "update":
                moves[0] += 1

    asyncio.ensure_future(count())
    return ws


async def victim(port: int, latencies: list[float], stop: asyncio.Event) -> float | None:
    """One connection at a table of its own against the greedy bot: plays at once when
    asked; each greedy decision timed from the update asking for it to the one with it.
    Returned: how long the bot's last decision had been awaited when the run stopped."""
    rng = random.Random(7)
    # another player: another address (one address makes at most 20 tables, all the hog's)
    async with websockets.connect(f"ws://127.0.0.1:{port}/", max_size=2**22,
                                  local_addr=("127.0.0.2", 0)) as ws:
        reader = Reader(ws)
        await ws.send(json.dumps({"v": 1, "type": "create_table", "game": "canasta",
                                  "options": {"target": TARGET}, "seats": ["human", "greedy"]}))
        made = await reader.reply("table_created")
        code, seat = made["code"], made["seats"][0]
        key = "invite" if "invite" in seat else "secret"  # a server from before invites too
        await ws.send(json.dumps({"v": 1, "type": "join", "code": code, key: seat[key]}))
        asked: tuple[int, float] | None = None  # the turn the bot was asked at, and when
        while not stop.is_set():
            try:
                now, msg = await asyncio.wait_for(reader.frames.get(), 1.0)
            except TimeoutError:
                continue
            if msg["type"] == "error":
                raise RuntimeError(f"the server refused: {msg}")
            if msg["type"] != "update" or msg["over"]:
                continue
            if asked is not None and msg["turn"] > asked[0]:
                latencies.append(now - asked[1])
                asked = None
            if not msg["hand_over"] and msg["to_play"] == 1:
                asked = (msg["turn"], now)
            if msg["actions"]:
                action = rng.choice(msg["actions"])["action"]
                await ws.send(json.dumps({"v": 1, "type": "act", "code": code, "action": action,
                                          "turn": msg["turn"]}))
        return None if asked is None else time.perf_counter() - asked[1]


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _ms(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


async def run(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    proc, port = await start_server(workdir / "library.sqlite", workdir / "home", args.server_tree,
                                    args.serve_args)
    moves = [0]
    latencies: list[float] = []
    stop = asyncio.Event()
    try:
        hogged = await hog(port, args.hog_tables, moves) if args.hog_tables else None
        await asyncio.sleep(args.warmup)  # the hog's tables are busy
        moves0, t0 = moves[0], time.perf_counter()
        playing = asyncio.ensure_future(victim(port, latencies, stop))
        await asyncio.sleep(args.seconds)
        stop.set()
        waiting = await asyncio.wait_for(playing, 30)
        elapsed = time.perf_counter() - t0
        hard = moves[0] - moves0
        if hogged is not None:
            await hogged.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.stdout is not None
        tail = (await asyncio.wait_for(proc.stdout.read(), 60)).decode()
        await asyncio.wait_for(proc.wait(), 60)
    lag = json.loads(tail.rsplit("lag ms ", 1)[1].rsplit(")", 1)[0]) if "lag ms " in tail else None
    replies = {"n": len(latencies), "median": _ms(latencies, 0.5), "p90": _ms(latencies, 0.9),
               "p99": _ms(latencies, 0.99), "max": _ms(latencies, 1.0),
               "unanswered": None if waiting is None else round(1000 * waiting, 1)}
    return {"greedy_reply_ms": replies,
            "hog_tables": args.hog_tables, "hog_updates_per_s": round(hard / elapsed, 2),
            "seconds": round(elapsed, 1), "server_loop_lag_ms": lag}


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hog-tables", type=int, default=20)
    p.add_argument("--seconds", type=float, default=30)
    p.add_argument("--warmup", type=float, default=5)
    p.add_argument("--server-tree", type=Path, help="run the server of another checkout (before/after)")
    p.add_argument("serve_args", nargs="*", help="more arguments of cardcore serve (after --)")
    args = p.parse_args()
    out: dict[str, Any] = {"server_tree": str(args.server_tree or "this one"), "load_before": load()}
    with tempfile.TemporaryDirectory(prefix="bot-fairness-") as tmp:
        out.update(await run(args, Path(tmp)))
    out["load_after"] = load()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    asyncio.run(main())
