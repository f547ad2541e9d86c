"""The match library's costs (not a timed test): prints one JSON object per measure.

    .venv/bin/python benches/store.py [--matches 1000] [--actions-match-seed 1]
    .venv/bin/python benches/store.py --library postgresql://...   # per_action, group_commit, room_look


- ``per_action``: storing one action of a 4-player greedy Canasta match, median and p99 ms:
  the library (the action's events and the match snapshot, one transaction) against the old
  autosave (``files.write_save`` of the snapshot, atomic, every action). Both include
  ``Match.snapshot()``.
- ``library``: the size of a library of N finished Canasta matches played by random bots
  and N/10 left unfinished part way (with their snapshots), against the records' size and
  against storing only the match_start and the actions (zlib; the rest rebuilt by the engine).
- ``group_commit`` (with ``--library``): a server's batches as its writer process writes them
  (``commits.write`` in one transaction under the writers' lock, fenced), K tables' actions of
  4-player casino each (random legal moves): ms per transaction and per action, the writer's
  CPU per action, and on PostgreSQL the server's CPU (its processes on this machine) and the
  write-ahead log's bytes per action.
- ``room_look`` (with ``--library``): what each server of a card room does every second
  (``Leases.look``) with ``--room-tables`` tables not over: ``held_tables()`` read, and the
  placement rule asked for each row (on the event loop, in one piece).
- ``listing``: opening the library and listing its unfinished matches (the launcher's first
  frame), the finished ones, and ``stats``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import string
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

from cardcore.engine import records
from cardcore.engine.bots.base import InfoSet
from cardcore.engine.bots.play import play_bots
from cardcore.engine.journal import MatchEvent, MatchStart, Played
from cardcore.engine.match import Match
from cardcore.engine.match_setup import HUMAN
from cardcore.services import files
from cardcore.services.net import placement
from cardcore.services.plugins import load_registry
from cardcore.services.store import commit_of, commits, open_library
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
            "old_autosave": ms(save), "on": _on(str(library))}


class _Casino:
    """A 4-player casino match in the library, played by random legal moves."""

    def __init__(self, registry, store, seed: int):
        self.game, self.store, self.seed = registry.games["casino"], store, seed
        self.rng = random.Random(seed)
        self.events: list[MatchEvent] = []
        self._new()

    def _new(self) -> None:
        self.events.clear()
        self.match = Match(self.game, seed=self.seed, seats=[HUMAN] * 4, on_event=self.events.append)
        self.id = self.store.create("casino", self.match.options.model_dump(mode="json"), self.seed,
                                    [HUMAN] * 4).id
        self.match.start()

    def step(self) -> commits.Commit:
        """The next action's commit (the deal's first, for a match just made)."""
        if self.match.over:
            self.seed += 1000
            self._new()
        else:
            self.events.clear()
            self.match.apply(self.rng.choice(self.match.legal_actions()))
        return commit_of(self.id, list(self.events), self.match.snapshot())


def _pg_cpu() -> float:
    """CPU seconds of this machine's PostgreSQL processes (0 where none runs here)."""
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if "(postgres)" in stat:
            fields = stat.rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def _wal(conn: Any) -> float:
    if isinstance(conn, commits.sqlite3.Connection):
        return 0.0
    return float(conn.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')").fetchone()[0])


def group_commit(registry, library: str, sizes: list[int], rounds: int) -> dict:
    store = open_library(library, import_autosave=False)
    conn = commits.connect(library, create=False)
    if isinstance(conn, commits.sqlite3.Connection):
        conn.execute("PRAGMA synchronous = NORMAL")  # as the writer process
    tables = [_Casino(registry, store, seed) for seed in range(max(sizes))]
    with commits.transaction(conn) as cur:  # each match's deal
        commits.write(cur, [t.step() for t in tables], (), "bench")
    out: dict[str, Any] = {"measure": "group_commit", "game": "casino 4p random", "on": _on(library)}
    shape = [0, 0, 0, 0]  # commits, lines, their bytes, snapshot bytes stored
    for k in sizes:
        walls, cpu, pg0, wal0 = [], 0.0, _pg_cpu(), _wal(conn)
        for r in range(rounds):
            batch = [tables[(r * k + i) % len(tables)].step() for i in range(k)]
            for c in batch:
                shape = [shape[0] + 1, shape[1] + len(c.lines), shape[2] + sum(map(len, c.lines)),
                         shape[3] + len(commits.packed(c.snapshot))]
            t, c0 = time.perf_counter(), time.process_time()
            with commits.transaction(conn) as cur:
                commits.write(cur, batch, (), "bench")
            walls.append(time.perf_counter() - t)
            cpu += time.process_time() - c0
        n = rounds * k
        out[f"k{k}"] = {"transaction": ms(walls),
                        "ms_per_action": round(statistics.median(walls) * 1000 / k, 3),
                        "writer_cpu_ms_per_action": round(cpu * 1000 / n, 3),
                        "db_cpu_ms_per_action": round((_pg_cpu() - pg0) * 1000 / n, 3),
                        "wal_bytes_per_action": round((_wal(conn) - wal0) / n)}
    out["per_action"] = {"lines": round(shape[1] / shape[0], 2), "line_bytes": round(shape[2] / shape[0]),
                         "snapshot_bytes_stored": round(shape[3] / shape[0])}
    conn.close()
    store.close()
    return out


def room_look(library: str, n: int, slots: int, runs: int = 15) -> dict:
    store = open_library(library, import_autosave=False)
    conn = commits.connect(library, create=False)
    rng = random.Random(1)
    codes: set[str] = set()
    while len(codes) < n:
        letters = "".join(rng.choice(string.ascii_uppercase) for _ in range(3))
        codes.add(f"{letters}-{rng.randrange(1000):03d}")
    first = 1 << 40  # match ids of no match: the rows stand for tables, removed after
    rows = [(code, first + i, json.dumps({"game": "casino", "seats": ["x" * 40] * 4}), time.time())
            for i, code in enumerate(sorted(codes))]
    with commits.transaction(conn) as cur:
        cur.executemany("INSERT INTO net_tables (code, match_id, status, data, created, updated) "
                        "VALUES (?, ?, 'playing', ?, ?, ?)", [(c, m, d, t, t) for c, m, d, t in rows])
        cur.executemany("INSERT INTO claims (match_id, holder) VALUES (?, ?)",
                        [(m, f"bench-{m % slots}") for _, m, _, _ in rows])
    read, walk = [], []
    live = set(range(slots))
    try:
        for _ in range(runs):
            t, c0 = time.perf_counter(), time.process_time()
            held = store.held_tables()
            read.append((time.perf_counter() - t, time.process_time() - c0))
            c0 = time.process_time()
            mine = sum(placement.holder(code, slots, live) == 0 for code, _, _ in held)
            walk.append(time.process_time() - c0)
    finally:
        with commits.transaction(conn) as cur:
            cur.execute("DELETE FROM claims WHERE match_id >= ?", (first,))
            cur.execute("DELETE FROM net_tables WHERE match_id >= ?", (first,))
        conn.close()
        store.close()
    return {"measure": "room_look", "on": _on(library), "tables": n, "slots": slots, "slot_0_holds": mine,
            "held_tables_wall": ms([w for w, _ in read]), "held_tables_cpu": ms([c for _, c in read]),
            "placement_walk_cpu": ms(walk)}


def _on(library: str) -> str:
    return "postgresql" if commits.is_postgres(library) else "sqlite"


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
    p.add_argument("--library", help="measure per_action, group_commit and room_look only, on this "
                                     "library (a file or a postgresql:// URL of an empty database)")
    p.add_argument("--batches", default="1,4,16,32", help="group_commit's batch sizes (actions)")
    p.add_argument("--rounds", type=int, default=100, help="group_commit's transactions per size")
    p.add_argument("--room-tables", type=int, default=10_000, help="room_look's tables")
    p.add_argument("--slots", type=int, default=12, help="room_look's servers")
    args = p.parse_args()
    registry = load_registry()
    home = Path(args.dir or tempfile.mkdtemp(prefix="cardcore-bench-"))
    home.mkdir(parents=True, exist_ok=True)
    os.environ["CARDCORE_HOME"] = str(home)
    print(json.dumps(per_action(registry, home, args.seed, args.library)), flush=True)
    if args.library:
        sizes = [int(k) for k in args.batches.split(",")]
        print(json.dumps(group_commit(registry, args.library, sizes, args.rounds)), flush=True)
        print(json.dumps(room_look(args.library, args.room_tables, args.slots)), flush=True)
        return
    path = home / f"library-{args.matches}.sqlite"
    if not path.exists():
        print(json.dumps(build_library(registry, path, args.matches)), flush=True)
    print(json.dumps(listing(path)), flush=True)


if __name__ == "__main__":
    main()
