"""A server's move leaves no reference cycles: everything it made is freed as it ends, so
``cardcore serve`` can run its garbage collector rarely (``serve_cli.settle_collector``).
Cycles left by each move (a batch's callback holding the batch, the engine's recursive
closures) once made young collections take 5 ms several times a second at 200 tables,
and older ones 30-100 ms."""

from __future__ import annotations

import gc
import random
from collections import Counter

import pytest

from cardcore.services.net.offline import Peer, seated_table
from cardcore.services.net.persist import Writer
from cardcore.services.net.tables import Table
from cardcore.services.plugins import load_registry
from cardcore.services.store.sqlite import SqliteStore


async def play(tables: list[tuple[Table, list[Peer]]], moves: int, rng: random.Random) -> None:
    for n in range(moves):
        table, peers = tables[n % len(tables)]
        seat = table.match.to_play
        if seat is None:
            continue
        table.act(peers[seat], rng.choice(table.match.legal_actions()).to_json(), table.match.decisions)
    await tables[0][0].writer.drain()


@pytest.mark.asyncio
@pytest.mark.parametrize("game_id", ["casino", pytest.param("canasta", marks=pytest.mark.slow)])
async def test_moves_at_server_tables_leave_no_reference_cycles(tmp_path, game_id):
    registry = load_registry()
    store = SqliteStore(tmp_path / "library.sqlite")
    writer = Writer(store)
    rng = random.Random(5)
    tables = [seated_table(registry, store, writer, game_id, 4, seed) for seed in range(3)]
    try:
        await play(tables, 30, rng)  # first moves: caches filled, the writer process started
        gc.collect()
        gc.disable()
        try:
            await play(tables, 150, rng)
            gc.set_debug(gc.DEBUG_SAVEALL)
            found = gc.collect()
            left = Counter(getattr(o, "__qualname__", type(o).__name__) for o in gc.garbage).most_common(6)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
        assert sum(t.match.decisions for t, _ in tables) >= 150
        assert found < 50, f"150 moves left {found} objects in cycles: {left}"
    finally:
        writer.close()
        for table, _ in tables:
            if table.lock is not None:
                table.lock.close()
        store.close()


class _Node:
    def __init__(self) -> None:
        self.me = self


@pytest.mark.asyncio
async def test_the_servers_collector_walks_older_objects_only_on_its_timer():
    """``settle_collector``: young collections on their own, the older generations never on
    their own (their walk is the pause), a full collection on a timer frees what outlived a
    young collection in a cycle."""
    import asyncio
    import weakref

    from cardcore.apps import serve_cli

    before = gc.get_threshold()
    collecting = serve_cli.settle_collector()
    try:
        assert gc.get_threshold() == serve_cli.GC_THRESHOLDS
        node = _Node()
        gone = weakref.ref(node)
        gc.collect(1)  # the node is old now: young collections no longer reach it
        del node  # a cycle nobody holds
        for _ in range(5):
            kept = [[] for _ in range(2 * serve_cli.GC_THRESHOLDS[0])]  # young collections run
            del kept
        gc.collect(0)
        assert gone() is not None
        timed = asyncio.ensure_future(serve_cli._collect_every(0.05))
        await asyncio.sleep(0.2)
        timed.cancel()
        assert gone() is None
    finally:
        collecting.cancel()
        gc.unfreeze()
        gc.set_threshold(*before)
