"""What a server and a bot ask of a state besides play: views and samples, before and after.

    python benches/views.py [--base /path/to/old/checkout] [--runs 5] [--games casino,canasta]

views_us: after a move, export() and view(seat) for every seat and view(None), on a state
fresh from the move (no cache warm), the mean per move; determinize_us: one sample for the
seat to play. Both in CPU time (a loaded machine counts less), the best of 15 passes over
the states of seeded random hands. With ``--base`` the old tree runs too (its own code on
PYTHONPATH), alternately, and the best of the runs is compared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGES = ("", "plugins/casino", "plugins/royal_casino", "plugins/canasta")


def measure(game_ids: list[str]) -> list[dict]:
    from cardcore.services.plugins import load_registry

    games = load_registry().games
    rows = []
    for game_id in game_ids:
        game = games[game_id]
        for players in game.player_counts:
            states = _states(game, players)
            rows.append({"game": game_id, "players": players, **_time(states, players)})
    return rows


def _states(game, players: int) -> list:
    """Mid-hand states of seeded random hands, one after each move."""
    options = game.Options()
    sides = 2 if game.partnerships and players == 4 else players
    out = []
    for seed in range(4):
        state = game.new_hand(game.seating(players, options, dealer=seed % players), options,
                              random.Random(seed), [0] * sides)
        rng = random.Random(seed)
        while not state.is_over:
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            if not state.is_over:
                out.append(state.clone())  # this moment (the hand goes on in state)
    return out


def _time(states: list, players: int, rounds: int = 15) -> dict:
    """The best of ``rounds`` passes over the states (a loaded machine only slows one)."""
    views = sample = float("inf")
    for _ in range(rounds):
        fresh = [s.clone() for s in states]  # a clone has no view made yet, as after a move
        t0 = time.process_time()
        for s in fresh:
            s.export()
            s.view(None)
            for seat in range(players):
                s.view(seat)
        views = min(views, (time.process_time() - t0) / len(fresh) * 1e6)
        rng = random.Random(1)
        t0 = time.process_time()
        for s in states:
            s.determinize(s.to_play, rng)
        sample = min(sample, (time.process_time() - t0) / len(states) * 1e6)
    return {"views_us": views, "determinize_us": sample}


def _run(tree: Path, games: str) -> dict[tuple, dict]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(tree / p) for p in PACKAGES)}
    cmd = [sys.executable, str(HERE / "views.py"), "--games", games, "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env, cwd=tree).stdout
    return {(r["game"], r["players"]): r for r in map(json.loads, out.splitlines())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, help="a checkout of the code before")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--games", default="casino,royal_casino,canasta")
    ap.add_argument("--json", action="store_true", help="one run, one JSON row per line")
    args = ap.parse_args()
    if args.json:
        for row in measure(args.games.split(",")):
            print(json.dumps(row), flush=True)
        return
    trees = {"before": args.base.resolve(), "after": HERE.parent} if args.base else {"now": HERE.parent}
    best: dict[str, dict[tuple, dict]] = {name: {} for name in trees}
    for _ in range(args.runs):
        for name, tree in trees.items():
            for key, row in _run(tree, args.games).items():
                old = best[name].setdefault(key, dict(row))
                for k in ("views_us", "determinize_us"):
                    old[k] = min(old[k], row[k])
    print(f"{'engine':<16}" + "".join(f"{name + ' views us':>18}{name + ' sample us':>18}"
                                      for name in trees))
    for key in sorted(best[next(iter(trees))]):
        cells = "".join(f"{best[n][key]['views_us']:>18.1f}{best[n][key]['determinize_us']:>18.1f}"
                        for n in trees if key in best[n])
        print(f"{key[0] + ' ' + str(key[1]) + 'p':<16}{cells}")


if __name__ == "__main__":
    main()
