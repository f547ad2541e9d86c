"""The match library's costs (not a timed test): prints one JSON object per measure.

    .venv/bin/python benches/store.py [--matches 1000] [--actions-match-seed 1]
    .venv/bin/python benches/store.py --library postgresql://...   # per_action only, there

- ``per_action``: storing one action of a 4-player greedy Canasta match, median and p99 ms:
  the library (the action's events and the match snapshot, one transaction) against the old
  autosave (``files.write_save`` of the snapshot, atomic, every action). Both include
  ``Match.snapshot()``.
- ``library``: the size of a library of N finished Canasta matches played by random bots
  and N/10 left unfinished part way (with their snapshots), against the records' size and
  against storing only the match_start and the actions (zlib; the rest rebuilt by the engine).
- ``listing``: opening the library and listing its unfinished matches (the launcher's first
  frame), the finished ones, and ``stats``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path

from cardcore.engine import records
from cardcore.engine.bots.base import InfoSet
from cardcore.engine.bots.play import play_bots
from cardcore.engine.journal import MatchEvent, MatchStart, Played
from cardcore.engine.match import Match
from cardcore.services import files
from cardcore.services.plugins import load_registry
from cardcore.services.store import open_library
from cardcore.services.store.sqlite import SqliteStore


def ms(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {"median_ms": round(statistics.median(values) * 1000, 3),
            "p99_ms": round(values[int(len(values) * 0.99)] * 1000, 3), "n": len(values)}


def per_action(registry, home: Path, seed: int, library: str | None = None) -> dict:
    game = registry.games["canasta"]
    seats = ["greedy"] * 4
    store = open_library(library or home / "per-action.sqlite", import_autosave=False)
    play = store.create("canasta", game.Options().model_dump(mode="json"), seed, seats)
    match = Match(game, seed=seed, seats=seats, on_event=play.append_event)
    match.start()
    play.save_snapshot(match.snapshot())
    bots = {s: registry.bots["greedy"]() for s in range(4)}
    lib, save = [], []
    save_path = home / "autosave.json"
    while not match.over:
        seat = match.to_play
        match.apply(bots[seat].choose(InfoSet.of(game, match.state, seat), match.bot_rng(seat)))
        t = time.perf_counter()
        play.save_snapshot(match.snapshot())
        lib.append(time.perf_counter() - t)
        t = time.perf_counter()
        files.write_save(save_path, records.SaveFile(match=match.snapshot()))
        save.append(time.perf_counter() - t)
    play.close()
    store.close()
    return {"measure": "per_action", "game": "canasta 4p greedy", "library": ms(lib),
            "old_autosave": ms(save), "on": "postgresql" if str(library).startswith("postgres") else "sqlite"}


def build_library(registry, path: Path, n: int) -> dict:
    game = registry.games["canasta"]
    seats = ["random"] * 4
    store = SqliteStore(path)
    raw = actions_only = 0
    start = time.perf_counter()
    for m in range(n + n // 10):  # n finished, and a tenth as many left unfinished
        events: list[MatchEvent] = []
        match = Match(game, seed=m, seats=seats, on_event=events.append)
        match.start()
        bots = {s: registry.bots["random"]() for s in range(4)}
        if m >= n:  # unfinished: stopped part way
            stop = random.Random(m).randrange(50, 1500)
            for _ in range(stop):
                if match.over:
                    break
                seat = match.to_play
                match.apply(bots[seat].choose(InfoSet.of(game, match.state, seat), match.bot_rng(seat)))
        else:
            play_bots(match, bots)
        lines = [records.dumps(e) for e in events]
        raw += sum(len(x.encode()) + 1 for x in lines)
        compact = [records.dumps(e) if isinstance(e, MatchStart) else json.dumps(e.action)
                   for e in events if isinstance(e, MatchStart | Played)]
        actions_only += len(zlib.compress("\n".join(compact).encode(), 6))
        store.import_record(events, match.snapshot(), source="table")
        if (m + 1) % 100 == 0:
            print(f"{m + 1}/{n} matches, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    parts = {name: store.conn.execute(sql).fetchone()[0] or 0 for name, sql in [
        ("chunks_mb", "SELECT sum(length(lines)) FROM chunks"),
        ("raw_lines_mb", "SELECT sum(length(line)) FROM events"),
        ("snapshots_mb", "SELECT sum(length(snapshot)) FROM matches")]}
    store.close()
    return {"measure": "library", "finished": n, "unfinished": n // 10,
            "library_mb": round(path.stat().st_size / 1e6, 1),
            **{k: round(v / 1e6, 1) for k, v in parts.items()},
            "records_mb": round(raw / 1e6, 1),
            "actions_only_zlib_mb": round(actions_only / 1e6, 1),
            "seconds_to_build": round(time.perf_counter() - start)}


def listing(path: Path, runs: int = 7) -> dict:
    opened, unfinished, finished, stats, checks = [], [], [], [], []
    for _ in range(runs):
        t = time.perf_counter()
        store = SqliteStore(path)
        opened.append(time.perf_counter() - t)
        t = time.perf_counter()
        found = store.list_unfinished()
        unfinished.append(time.perf_counter() - t)
        t = time.perf_counter()
        store.finished(limit=50)
        finished.append(time.perf_counter() - t)
        t = time.perf_counter()
        store.stats()
        stats.append(time.perf_counter() - t)
        t = time.perf_counter()
        store.conn.execute("PRAGMA quick_check").fetchone()
        checks.append(time.perf_counter() - t)
        store.close()
    return {"measure": "listing", "unfinished_listed": len(found), "open": ms(opened),
            "list_unfinished_all": ms(unfinished), "finished_50": ms(finished),
            "stats_all": ms(stats), "quick_check": ms(checks)}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--matches", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dir", help="keep the libraries here (default: a temporary directory)")
    p.add_argument("--library", help="measure per_action only, on this library (a file or a "
                                     "postgresql:// URL of an empty database)")
    args = p.parse_args()
    registry = load_registry()
    home = Path(args.dir or tempfile.mkdtemp(prefix="cardcore-bench-"))
    home.mkdir(parents=True, exist_ok=True)
    os.environ["CARDCORE_HOME"] = str(home)
    print(json.dumps(per_action(registry, home, args.seed, args.library)), flush=True)
    if args.library:
        return
    path = home / f"library-{args.matches}.sqlite"
    if not path.exists():
        print(json.dumps(build_library(registry, path, args.matches)), flush=True)
    print(json.dumps(listing(path)), flush=True)


if __name__ == "__main__":
    main()
