"""Engines are thread-safe and collector-neutral (docs/design.md).

Bots run on the server's thread pool and hints on a worker thread, all reading one
process-wide table of canonical states (``cardcore.bots.base``). Run from many threads at
once over the same positions, with that table cut to two entries so that threads keep
evicting each other's states, every bot and hint must choose what it chooses alone.
"""

from __future__ import annotations

import random
import sys
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

import pytest

from cardcore.bots import base
from cardcore.bots.base import InfoSet
from cardcore.bots.greedy import GreedyBot
from cardcore.bots.search import MediumBot
from cardcore.net.wire import info_of_view
from cardcore.plugins import load_registry

REGISTRY = load_registry()
TABLES = [("casino", 2), ("royal_casino", 4), ("canasta", 4)]
THREADS = 8


def positions(game_id: str, players: int, count: int = 4) -> list:
    """Positions of one hand of greedy play, every few decisions."""
    game = REGISTRY.game(game_id)
    options = game.Options()
    seating = game.seating(players, options)
    state = game.new_hand(seating, options, random.Random(f"threads:{game_id}"), [0] * seating.sides)
    rng = random.Random(7)
    out = []
    step = 0
    while not state.is_over and len(out) < count:
        if step % 5 == 2 and len(state.legal_actions()) > 1:
            out.append(state.clone())
        state.apply(GreedyBot().choose(InfoSet.of(game, state, state.to_play), rng))
        step += 1
    assert len(out) == count
    return out


def jobs() -> list[tuple]:
    """(what, game, state, seed) for greedy, medium and a hint at each position, each seed."""
    out = []
    for game_id, players in TABLES:
        game = REGISTRY.game(game_id)
        for state in positions(game_id, players):
            for what in ("greedy", "medium", "hint"):
                for seed in range(2):
                    out.append((what, game, state, seed))
    return out


def run(job: tuple) -> tuple:
    """What the job chooses: the action's key (a hint: its estimates in order)."""
    what, game, state, seed = job
    rng = random.Random(seed)
    seat = state.to_play
    if what == "greedy":
        return GreedyBot().choose(InfoSet.of(game, state, seat), rng).key
    if what == "medium":
        return MediumBot(iterations=8, work_budget=3_000).choose(InfoSet.of(game, state, seat), rng).key
    # a hint as a client at a server table searches it: from the seat's view alone
    info = info_of_view(game, seat, state.view(seat))
    found = MediumBot(iterations=6, work_budget=2_000).analyse(info, rng, top=3)
    return tuple((e.action.key, e.visits, e.value) for e in found)


class Yielding(OrderedDict):
    """The canonical table, letting other threads run right after each look-up: where a
    thread switch does the harm it can do (rarely, left to the interpreter's timer)."""

    def get(self, key, default=None):
        found = super().get(key, default)
        time.sleep(0)
        return found


@pytest.fixture
def contended(monkeypatch):
    """A canonical table of two entries, and threads that switch every microsecond."""
    monkeypatch.setattr(base, "_CANONICAL", Yielding())
    monkeypatch.setattr(base, "CANONICAL_CACHE", 2)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


def test_bots_and_hints_on_many_threads_choose_as_on_one(contended):
    todo = jobs()
    alone = [run(job) for job in todo]
    assert len(set(alone)) > len(todo) // 4  # the positions and seeds differ
    order = list(range(len(todo))) * 2
    random.Random(1).shuffle(order)
    with ThreadPoolExecutor(THREADS) as pool:
        together = list(pool.map(run, [todo[i] for i in order]))  # raises what a job raised
    for i, got in zip(order, together, strict=True):
        what, game, _, seed = todo[i]
        assert got == alone[i], (what, game.id, seed)
    assert len(base._CANONICAL) <= 2
