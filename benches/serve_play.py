"""What one action costs a ``cardcore serve`` table, in process (no sockets): prints JSON.

    python benches/serve_play.py [--game casino] [--players 4] [--actions 3000] [--tables 1]
                                 [--profile FILE]

A table with a peer in every seat (each peer keeps the frames it is sent, as a
connection's queue would) plays random legal actions; per action: ``Table.act`` (the
action's JSON found among the legal ones, applied, its events and snapshot queued for
the library, each seat's update built and encoded), and the library's write of the
batches by its writer process (group commits, as the server does). Reported: CPU per
action (this process's CPU time over the actions: the event loop's; and the writer
process's, counted once it has ended), the bytes each seat is sent,
and with ``--profile`` a cProfile of the loop (``python -m pstats FILE``).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import random
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from cardcore.services.net.offline import Peer, seated_table
from cardcore.services.net.persist import Writer
from cardcore.services.net.tables import Table
from cardcore.services.plugins import load_registry
from cardcore.services.store.sqlite import SqliteStore


async def run(game_id: str, players: int, actions: int, tables: int, profile: str | None,
              home: Path) -> dict[str, Any]:
    registry = load_registry()
    store = SqliteStore(home / "library.sqlite")
    writer = Writer(store)
    rng = random.Random(2)
    made = 0

    def fresh() -> tuple[Table, list[Peer]]:
        nonlocal made
        made += 1
        return seated_table(registry, store, writer, game_id, players, made)

    live = [fresh() for _ in range(tables)]
    every = list(live)
    prof = cProfile.Profile() if profile else None
    done, wall0, cpu0 = 0, time.perf_counter(), time.process_time()
    started = resource.getrusage(resource.RUSAGE_CHILDREN)
    children0 = started.ru_utime + started.ru_stime
    if prof:
        prof.enable()
    while done < actions:
        i = done % tables  # one action at each table in turn, as many tables' players would
        table, peers = live[i]
        if table.match.over:  # a new match: the load bench's tables are in their first hands
            live[i] = fresh()
            every.append(live[i])
            continue
        seat = table.match.to_play
        assert seat is not None
        action = rng.choice(table.match.legal_actions()).to_json()
        table.act(peers[seat], action, table.match.decisions)
        done += 1
        if done % 8 == 0:
            await asyncio.sleep(0)  # the writer's batches land meanwhile, as in the server
    await writer.drain()
    if prof:
        prof.disable()
        prof.dump_stats(profile)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    frames = [f for _, peers in every for p in peers for f in p.frames]
    writer.close()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    writer_cpu = children.ru_utime + children.ru_stime - children0
    for table, _ in every:
        if table.lock is not None:  # a match not over holds its lock
            table.lock.close()
    store.close()
    return {"game": game_id, "players": players, "tables": tables, "actions": done, "matches": made,
            "cpu_ms_per_action": round(1000 * cpu / done, 3),
            "writer_process_cpu_ms_per_action": round(1000 * writer_cpu / done, 3),
            "wall_ms_per_action": round(1000 * wall / done, 3),
            "frames_per_action": round(len(frames) / done, 2),
            "bytes_per_frame": round(sum(map(len, frames)) / len(frames)),
            "store_batches": writer.batches, "load": [round(x, 2) for x in os.getloadavg()]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="casino")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--actions", type=int, default=3000)
    p.add_argument("--tables", type=int, default=1, help="tables played in turn (one action each)")
    p.add_argument("--profile", metavar="FILE")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="serve-play-") as tmp:
        out = asyncio.run(run(args.game, args.players, args.actions, args.tables, args.profile, Path(tmp)))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
