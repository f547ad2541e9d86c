"""Engines are thread-safe and collector-neutral (docs/design.md).

Bots run on the server's thread pool and hints on a worker thread, all reading one
process-wide table of canonical states (``cardcore.engine.bots.base``). Run from many threads at
once over the same positions, with that table cut to two entries so that threads keep
evicting each other's states, every bot and hint must choose what it chooses alone. And no
engine may touch the garbage collector: that policy is ``cardcore serve``'s alone.
"""

from __future__ import annotations

import ast
import gc
import json
import random
import sys
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from cardcore.engine.bots import base
from cardcore.engine.bots.base import InfoSet
from cardcore.engine.bots.greedy import GreedyBot
from cardcore.engine.bots.search import MediumBot
from cardcore.services.net.wire import info_of_view
from cardcore.services.plugins import load_registry

REGISTRY = load_registry()
ROOT = Path(__file__).resolve().parents[2]
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


# --- the garbage collector ------------------------------------------------------------


def engine_sources() -> list[Path]:
    """The engine's modules and the plugins': all of cardcore/ but the server's command,
    whose ``settle_collector`` is the one place collector policy lives."""
    found = sorted((ROOT / "cardcore").rglob("*.py")) + sorted((ROOT / "plugins").rglob("*.py"))
    return [p for p in found if p != ROOT / "cardcore" / "apps" / "serve_cli.py"]


def collector_uses(path: Path) -> list[str]:
    """Where ``path`` imports ``gc`` or anything from it (path:line)."""
    text = path.read_text()
    if "gc" not in text:
        return []
    tree = ast.parse(text, str(path))
    return [f"{path.relative_to(ROOT)}:{n.lineno}" for n in ast.walk(tree) if imports_gc(n)]


def imports_gc(node: ast.AST) -> bool:
    if isinstance(node, ast.Import):
        return any(a.name == "gc" for a in node.names)
    if isinstance(node, ast.ImportFrom):
        return node.module == "gc"
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "__import__" and bool(node.args)
            and isinstance(node.args[0], ast.Constant) and node.args[0].value == "gc")


def test_no_engine_touches_the_garbage_collector():
    sources = engine_sources()
    assert any(p.name == "state.py" and "casino" in str(p) for p in sources)
    assert [hit for p in sources for hit in collector_uses(p)] == []


def test_crowded_listings_leave_the_collector_alone(monkeypatch):
    """Casino's crowded listings (thousands of actions) and the other games' crowded
    positions, listed and played with the collector on: it stays on, its thresholds as they
    were, and no call reaches it (each of its switches is watched, then passed on)."""
    calls: list[str] = []
    for name in ("disable", "enable", "collect", "freeze", "unfreeze", "set_threshold", "set_debug"):
        real = getattr(gc, name)
        monkeypatch.setattr(gc, name, lambda *a, _n=name, _f=real: (calls.append(_n), _f(*a))[1])
    threshold = gc.get_threshold()
    for game_id in ("casino", "royal_casino", "canasta"):
        game = REGISTRY.game(game_id)
        for data in json.loads((ROOT / "benches" / "positions" / f"{game_id}.json").read_text()):
            state = game.state_from_json(data)
            actions = state.legal_actions()
            state.apply(actions[len(actions) // 2])
            assert gc.isenabled() and gc.get_threshold() == threshold
    assert calls == []
