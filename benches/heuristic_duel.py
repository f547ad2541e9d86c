"""Greedy with this tree's heuristic against greedy with another tree's, duplicate deals.

    .venv/bin/python benches/heuristic_duel.py --base /tmp/old --games casino:2 --deals 400

Each deal is played twice, the two heuristics swapping sides; the figure is this tree's
mean margin per deal (its side's hand score less the other's) with a 95% interval. The
other tree's heuristic module is loaded from its file, beside this tree's rules.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import statistics
from pathlib import Path
from typing import Any

from cardcore.engine.bots import GreedyBot, InfoSet
from cardcore.services.plugins import load_registry

MODULES = {"casino": "plugins/casino/cardcore_casino/heuristic.py",
           "royal_casino": "plugins/casino/cardcore_casino/heuristic.py",
           "canasta": "plugins/canasta/cardcore_canasta/heuristic.py"}


def other_game(game: Any, base: Path) -> Any:
    """``game`` playing with the heuristic of the tree at ``base``."""
    package = type(game).__module__.split(".")[0]
    spec = importlib.util.spec_from_file_location(f"{package}.base_heuristic", base / MODULES[game.id])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    class Base(type(game)):  # type: ignore[misc]
        def heuristic(self, state: Any, seat: int) -> float:
            return module.heuristic(state, seat)
    return Base()


def duel(game: Any, base: Any, players: int, deals: int, seed: int) -> list[float]:
    options = game.Options()
    seating = game.seating(players, options)
    margins = []
    for d in range(deals):
        margin = 0.0
        for ours in (0, 1):  # the side this tree's heuristic plays
            state = game.new_hand(seating, options, random.Random(f"{seed}:{d}"), [0] * seating.sides)
            rng = random.Random(f"{seed}:{d}:{ours}")
            while not state.is_over:
                seat = state.to_play
                g = game if seating.side_of(seat) == ours else base
                state.apply(GreedyBot().choose(InfoSet.of(g, state, seat), rng))
            totals = [side["total"] for side in state.score()["sides"]]
            margin += totals[ours] - (sum(totals) - totals[ours]) / (len(totals) - 1)
        margins.append(margin / 2)
    return margins


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, type=Path, help="the other tree")
    ap.add_argument("--games", default="casino:2,royal_casino:2")
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    registry = load_registry()
    for spec in args.games.split(","):
        gid, players = spec.split(":")
        game = registry.game(gid)
        m = duel(game, other_game(game, args.base), int(players), args.deals, args.seed)
        mean, half = statistics.mean(m), 1.96 * statistics.stdev(m) / math.sqrt(len(m))
        print(json.dumps({"game": spec, "deals": len(m), "mean_margin": round(mean, 3),
                          "ci95": [round(mean - half, 3), round(mean + half, 3)], "seed": args.seed}))


if __name__ == "__main__":
    main()
