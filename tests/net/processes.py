"""Real ``cardcore serve`` processes for the network tests, and what the tests ask of
them: started on any free port (every wait bounded), the library reached, seats played."""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

from cardcore.services.store import open_library
from tests.net.helpers import Client


async def serve(library: str | Path, home: Path, *more: str) -> tuple[asyncio.subprocess.Process, int]:
    env = {**os.environ, "CARDCORE_HOME": str(home)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cardcore", "serve", "--port", "0", "--library", str(library),
        "--grace", "30", "--bot-delay", "0", "--rate", "1000", *more,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, env=env)
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
    assert line.startswith("cardcore serve: listening on ws://127.0.0.1:"), line
    return proc, int(line.split(":")[3].split("/")[0])


async def committed(library: str | Path, turns: dict[int, int]) -> None:
    """Until the library holds each match (by id) at its turn."""
    store = open_library(library, import_autosave=False)
    try:
        for _ in range(200):
            if all(store.get(m).decisions >= t for m, t in turns.items()):
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"the library did not reach {turns}")
    finally:
        store.close()


async def settled(client: Client) -> dict:
    """The client's last update once the bots have played on to a human's turn."""
    for _ in range(200):
        last = [u for u in client.received if u["type"] == "update"][-1]
        seat = last["to_play"]  # None between hands: nobody's turn yet, so wait on
        if seat is not None and last["seats"][seat]["kind"] == "human":
            return last
        await asyncio.sleep(0.05)
    raise AssertionError("the bots did not stop at a human's turn")


async def play_until(client: Client, code: str, turns: int, sent: list, rng: random.Random) -> None:
    """Play this seat's turns (a random action each time) until the table reaches ``turns``."""
    while True:
        update = await client.update(lambda m: bool(m["actions"]) or m["turn"] >= turns)
        if update["turn"] >= turns:
            return
        action = rng.choice(update["actions"])["action"]
        sent.append((update["turn"], update["seat"], action))
        await client.send({"type": "act", "code": code, "action": action, "turn": update["turn"]})
