"""Bot benchmarks: decision times at the level budgets, and duels over duplicate deals.

    .venv/bin/python benches/bots.py times                 # medium and hard on crowded positions
    .venv/bin/python benches/bots.py duel --minutes 30     # medium v greedy, every game, until
                                                           # the 95% interval is above zero
    .venv/bin/python benches/bots.py duel --pair hard,medium --games canasta:4 --minutes 5
    .venv/bin/python benches/bots.py speedup --deals 8     # tournament: 1 worker v 2 workers

Figures go to stdout as one JSON line per measurement and a short table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

from cardcore.bots.base import InfoSet
from cardcore.match import load_state
from cardcore.plugins import load_registry

HERE = Path(__file__).parent
GAMES = ["casino:2", "royal_casino:2", "royal_casino:4", "canasta:4"]


def positions(game_id: str) -> list[dict]:
    return json.loads((HERE / "positions" / f"{game_id}.json").read_text())


def played_positions(game, players: int, count: int, seed: int) -> list:
    """Positions met in play (greedy v greedy), every few decisions: the usual case."""
    from cardcore.bots.greedy import GreedyBot

    out = []
    rng = random.Random(seed)
    options = game.Options()
    seating = game.seating(players, options)
    h = 0
    while len(out) < count:
        h += 1
        state = game.new_hand(seating, options, random.Random(f"{seed}:{h}"), [0] * seating.sides)
        step = 0
        while not state.is_over and len(out) < count:
            seat = state.to_play
            info = InfoSet.of(game, state, seat)
            if step % 7 == 3 and len(state.legal_actions()) > 1:
                out.append(state.clone())
            state.apply(GreedyBot().choose(info, rng))
            step += 1
    return out


def times(args: argparse.Namespace) -> None:
    registry = load_registry()
    for level in args.levels.split(","):
        bot_cls = registry.bots[level]
        for spec in args.games.split(","):
            gid, players = spec.split(":")
            game = registry.game(gid)
            states = [load_state(game, p, strict=False) for p in positions(gid)]
            if spec != args.games.split(",")[[g.split(":")[0] for g in args.games.split(",")].index(gid)]:
                states = []  # the crowded positions once per game
            crowded = len(states)
            states += played_positions(game, int(players), args.played, 1)
            secs = []
            for i, state in enumerate(states):
                info = InfoSet.of(game, state, state.to_play)
                t = time.perf_counter()
                bot_cls().choose(info, random.Random(i))
                secs.append(time.perf_counter() - t)
            row = {"level": level, "game": spec, "crowded": crowded, "played": len(states) - crowded,
                   "median_s": round(statistics.median(secs), 3), "max_s": round(max(secs), 3),
                   "max_crowded_s": round(max(secs[:crowded], default=0), 3),
                   "load": os.getloadavg()[0]}
            print(json.dumps(row), flush=True)


def duel(args: argparse.Namespace) -> None:
    from cardcore.tournament import Tournament, run_tournament

    registry = load_registry()
    a, b = args.pair.split(",")
    for spec in args.games.split(","):
        gid, players = spec.split(":")
        game = registry.game(gid)
        deadline = time.monotonic() + args.minutes * 60
        deals, done = args.batch, None
        while True:
            t = Tournament(game=gid, bots=[a, b], deals=deals, seed=args.seed, players=int(players))
            done = run_tournament(registry, t, workers=args.workers, checkpoint=args.checkpoint,
                                  progress=False)
            lo, hi = done.interval(a)
            print(json.dumps({"game": spec, "pair": args.pair, "deals": deals,
                              "hands": done.hands(a), "mean": round(done.mean(a), 3),
                              "ci95": [round(lo, 3), round(hi, 3)],
                              "seconds": round(done.seconds, 1), "load": os.getloadavg()[0]}),
                  flush=True)
            if lo > 0 or time.monotonic() >= deadline:
                break
            deals += args.batch
        del game


def speedup(args: argparse.Namespace) -> None:
    from cardcore.tournament import Tournament, run_tournament

    registry = load_registry()
    t = Tournament(game=args.game, bots=args.bots.split(","), deals=args.deals, seed=3,
                   players=args.players)
    rows = {}
    for workers in (1, 2):
        start = time.perf_counter()
        res = run_tournament(registry, t, workers=workers, progress=False)
        rows[workers] = time.perf_counter() - start
        print(json.dumps({"workers": workers, "seconds": round(rows[workers], 2),
                          "deals": args.deals, "load": os.getloadavg()[0],
                          "digest": res.digest()}), flush=True)
    print(json.dumps({"speedup_2_over_1": round(rows[1] / rows[2], 2)}))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    q = sub.add_parser("times")
    q.add_argument("--levels", default="medium,hard")
    q.add_argument("--games", default=",".join(GAMES))
    q.add_argument("--played", type=int, default=20)
    q = sub.add_parser("duel")
    q.add_argument("--pair", default="medium,greedy")
    q.add_argument("--games", default=",".join(GAMES))
    q.add_argument("--minutes", type=float, default=30.0, help="cap per game")
    q.add_argument("--batch", type=int, default=8, help="deals added per round")
    q.add_argument("--workers", type=int, default=2)
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("--checkpoint", default=None, help="resume file (deals already played are kept)")
    q = sub.add_parser("speedup")
    q.add_argument("--game", default="casino")
    q.add_argument("--players", type=int, default=2)
    q.add_argument("--bots", default="medium,greedy")
    q.add_argument("--deals", type=int, default=8)
    args = p.parse_args()
    {"times": times, "duel": duel, "speedup": speedup}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
