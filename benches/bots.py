"""Bot benchmarks: decision times at the level budgets, and duels over duplicate deals.

    .venv/bin/python benches/bots.py times                 # medium and hard on crowded positions
    .venv/bin/python benches/bots.py duel --minutes 30     # medium v greedy, every game, until
                                                           # the 95% interval is above zero
    .venv/bin/python benches/bots.py duel --pair hard,medium --games canasta:4 --minutes 5
    .venv/bin/python benches/bots.py speedup --deals 8     # tournament: 1 worker v 2 workers
    .venv/bin/python benches/bots.py greedy                # greedy decisions/s (canonical sampling)
    .venv/bin/python benches/bots.py calibrate             # microseconds of each engine call
    .venv/bin/python benches/bots.py iterations            # search iterations/s, work cap off
    .venv/bin/python benches/bots.py lastdeal              # points lost on last deals, by the solver
    .venv/bin/python benches/bots.py matches --pair medium,greedy --games casino:2 --seeds 50
                                                           # match win rate, duplicate matches

Figures go to stdout as one JSON line per measurement and a short table.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from cardcore.engine.bots.base import InfoSet
from cardcore.engine.bots.variant import resolve, split_specs
from cardcore.engine.game import load_state
from cardcore.services.plugins import load_registry

HERE = Path(__file__).parent
GAMES = ["casino:2", "royal_casino:2", "royal_casino:4", "canasta:4"]


def positions(game_id: str) -> list[dict]:
    return json.loads((HERE / "positions" / f"{game_id}.json").read_text())


def played_positions(game, players: int, count: int, seed: int) -> list:
    """Positions met in play (greedy v greedy), every few decisions: the usual case."""
    from cardcore.engine.bots.greedy import GreedyBot

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
    for level in split_specs(args.levels):
        bot_cls = resolve(registry.bots, level)  # a level, or a variant of one
        crowded_done: set[str] = set()  # the crowded positions once per game
        for spec, game, _options, seating in args.games:
            states = [] if game.id in crowded_done else \
                [load_state(game, p, strict=False) for p in positions(game.id)]
            crowded_done.add(game.id)
            crowded = len(states)
            states += played_positions(game, seating.players, args.played, 1)
            secs, cpu = [], []
            load = os.getloadavg()[0]
            for i, state in enumerate(states):
                info = InfoSet.of(game, state, state.to_play)
                t, c = time.perf_counter(), time.process_time()
                bot_cls().choose(info, random.Random(i))
                secs.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
            # wall-clock time, and this process's CPU time: what the wall clock would read
            # on an idle machine (the machine may be shared; the load is beside it)
            row = {"level": level, "game": spec, "crowded": crowded, "played": len(states) - crowded,
                   "median_s": round(statistics.median(secs), 3), "max_s": round(max(secs), 3),
                   "max_crowded_s": round(max(secs[:crowded], default=0), 3),
                   "cpu_median_s": round(statistics.median(cpu), 3),
                   "cpu_max_s": round(max(cpu), 3), "load": round((load + os.getloadavg()[0]) / 2, 2)}
            print(json.dumps(row), flush=True)


def _timed(fn, *a):
    t = time.perf_counter()
    out = fn(*a)
    return out, (time.perf_counter() - t) * 1e6


def _fit(points: list[tuple[int, float]]) -> tuple[float, float]:
    """Least squares ``us = a + b * n`` over (n, us) points."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    b = sum((x - mx) * (y - my) for x, y in points) / var if var else 0.0
    return my - b * mx, b


def bot_pair(text: str) -> tuple[str, str]:
    """``--pair``: two bots, comma-separated (a variant's own commas, in brackets, kept)."""
    bots = split_specs(text)
    if len(bots) != 2 or not all(bots):
        raise argparse.ArgumentTypeError(f"{text!r}: write two bots, e.g. hard,medium")
    return bots[0], bots[1]


def game_list(text: str) -> list[tuple[str, Any, Any, Any]]:
    """``--games``: ``game:players`` pairs, comma-separated, of installed games, each as (the
    pair, the game, its options, a seating); one line and exit 2 otherwise (argparse's)."""
    registry = load_registry()
    tables = []
    for spec in text.split(","):
        gid, colon, players = spec.partition(":")
        if not colon or not players.isdigit():
            raise argparse.ArgumentTypeError(f"{spec!r}: write game:players, e.g. canasta:4")
        if gid not in registry.games:
            known = ", ".join(sorted(registry.games))
            raise argparse.ArgumentTypeError(f"unknown game {gid!r} (installed: {known})")
        game = registry.games[gid]
        if int(players) not in game.player_counts:
            raise argparse.ArgumentTypeError(f"{gid} is not played by {players}")
        options = game.Options()
        tables.append((spec, game, options, game.seating(int(players), options)))
    return tables


def calibrate(args: argparse.Namespace) -> None:
    """What the search's work units stand for: microseconds of each engine call, per game
    (random play from many deals; every listing fresh, as after an apply)."""
    for spec, game, options, seating in args.games:
        rng = random.Random(5)
        us: dict[str, list[float]] = {"sample": [], "clone": [], "apply": [], "heuristic": []}
        listings: list[tuple[int, float]] = []
        for h in range(args.hands):
            state = game.new_hand(seating, options, random.Random(f"cal:{h}"), [0] * seating.sides)
            step = 0
            while not state.is_over:
                actions, t = _timed(state.legal_actions)
                listings.append((len(actions), t))
                seat = state.to_play
                if step % 5 == 0:
                    canonical = InfoSet.of(game, state, seat).canonical()
                    canonical.legal_actions()
                    us["sample"].append(_timed(canonical.determinize, seat, rng)[1])
                    us["clone"].append(_timed(state.clone)[1])
                    us["heuristic"].append(_timed(game.heuristic, state, seat)[1])
                us["apply"].append(_timed(state.apply, actions[rng.randrange(len(actions))])[1])
                step += 1
        a, b = _fit(listings)
        row = {"game": spec, "calls": len(listings), "list_a_us": round(a, 2), "list_b_us": round(b, 3),
               "max_listed": max(n for n, _ in listings), "load": os.getloadavg()[0]}
        row.update({f"{k}_us": round(statistics.mean(v), 2) for k, v in us.items()})
        print(json.dumps(row), flush=True)


def greedy(args: argparse.Namespace) -> None:
    """Greedy decisions per second through InfoSet.of (the canonical state and a sample
    each), greedy in every seat: over the positions of ``--hands`` hands of greedy play,
    each decision timed ``--rounds`` times (the canonical cache emptied before each) and
    its least time kept (load from other processes only ever slows a run down)."""
    from cardcore.engine.bots import base
    from cardcore.engine.bots.greedy import GreedyBot

    for spec, game, options, seating in args.games:
        total = 0.0
        decisions = 0
        for h in range(args.hands):
            state = game.new_hand(seating, options, random.Random(f"greedy:{h}"), [0] * seating.sides)
            while not state.is_over:
                best = math.inf
                for _ in range(args.rounds):
                    getattr(base, "_CANONICAL", {}).clear()
                    start = time.perf_counter()
                    action = GreedyBot().choose(InfoSet.of(game, state, state.to_play),
                                                random.Random(decisions))
                    best = min(best, time.perf_counter() - start)
                total += best
                decisions += 1
                state.apply(action)
        print(json.dumps({"game": spec, "greedy_decisions_per_s": round(decisions / total, 1),
                          "decisions": decisions, "load": os.getloadavg()[0]}), flush=True)


def iterations(args: argparse.Namespace) -> None:
    """Search iterations per second with the work cap off: ``--iterations`` of the hard
    level's search (its width, widening and depth) from each of ``--positions`` positions
    met in greedy play, each timed ``--rounds`` times in this process's CPU time and its
    least kept (load only ever slows a run down). The canonical state is made before the
    clock starts: a search's own cost is its samples, walks and evaluations. Also the
    search's choice per position, as a digest: a change that keeps the levels' choices
    keeps it (same seeds, same choices)."""
    import hashlib

    from cardcore.engine.bots import base
    from cardcore.engine.bots.search import HardBot

    for spec, game, _options, seating in args.games:
        states = played_positions(game, seating.players, args.positions, 7)
        rates, choices = [], []
        for i, state in enumerate(states):
            info = InfoSet.of(game, state, state.to_play)
            info.canonical()
            best = math.inf
            for _ in range(args.rounds):
                bot = HardBot(iterations=args.iterations, work_budget=10**12)
                start = time.process_time()
                choice = bot.analyse(info, random.Random(i))[0].action
                best = min(best, time.process_time() - start)
            rates.append(bot.last_iterations / best)
            choices.append(json.dumps(choice.to_json(), sort_keys=True))
            getattr(base, "_CANONICAL", {}).clear()
        digest = hashlib.sha256("\n".join(choices).encode()).hexdigest()[:12]
        print(json.dumps({"game": spec, "iterations_per_s": round(statistics.median(rates)),
                          "min": round(min(rates)), "positions": len(states),
                          "iterations": args.iterations, "choices": digest,
                          "load": os.getloadavg()[0]}), flush=True)


def duel(args: argparse.Namespace) -> None:
    """``--batch`` more deals at a time until the 95% interval of the first bot's mean margin
    lies above zero (after ``--min-deals`` at least) or ``--minutes`` have passed; finished
    deals are kept in a checkpoint per game (``--dir``), so a round plays only its new deals
    and a rerun resumes."""
    from cardcore.services.tournament import Tournament, run_tournament

    registry = load_registry()
    a, b = args.pair
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    for spec, game, _options, seating in args.games:
        gid, players = game.id, seating.players
        checkpoint = folder / f"{gid}-{players}p-{a}-{b}-seed{args.seed}.jsonl"
        deadline = time.monotonic() + args.minutes * 60
        # a rerun starts where the checkpoint ends
        kept = len(checkpoint.read_text().splitlines()) - 1 if checkpoint.exists() else 0
        deals = max(args.batch, kept)
        while True:
            t = Tournament(game=gid, bots=[a, b], deals=deals, seed=args.seed, players=players)
            done = run_tournament(registry, t, workers=args.workers, checkpoint=checkpoint,
                                  progress=False)
            lo, hi = done.interval(a)
            print(json.dumps({"game": spec, "pair": ",".join(args.pair), "deals": deals,
                              "hands": done.hands(a), "mean": round(done.mean(a), 3),
                              "ci95": [round(lo, 3), round(hi, 3)],
                              "seconds": round(done.seconds, 1), "load": os.getloadavg()[0]}),
                  flush=True)
            if (lo > 0 and deals >= args.min_deals) or time.monotonic() >= deadline:
                break
            deals += args.batch


def _workers_cpu() -> float:
    """CPU seconds of the worker processes ended so far: the forkserver reaps them, so
    its children's times (``/proc``, Linux) count them."""
    from multiprocessing import forkserver

    pid = forkserver._forkserver._forkserver_pid  # type: ignore[attr-defined]
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")  # cutime + cstime


def _match_unit(unit: tuple) -> tuple[int, float, int]:
    """One match of a duplicate set (a worker's task): the first bot of ``pair`` holds the
    seats of side ``rotation``, the second every other seat. Returns (seed, the first bot's
    score: 1 won, 0 lost, 0.5 undecided, hands)."""
    from cardcore.services.tournament import play_match, worker_registry

    gid, players, target, seed, rotation, pair = unit
    registry = worker_registry()
    game = registry.game(gid)
    options = game.Options(**({"target": target} if target else {}))
    seating = game.seating(players, options)
    seats = [pair[0] if seating.side_of(s) == rotation else pair[1] for s in range(players)]
    match = play_match(registry, game, options, seats, f"matches:{seed}")
    score = 0.5 if match.winner is None else float(match.winner == rotation)
    return seed, score, len(match.sheet.hands)


def matches(args: argparse.Namespace) -> None:
    """Match win rate, the margin a player feels: the first bot of ``--pair`` against the
    second in whole matches to the game's target (or ``--target``), each seed's deals played
    once per side the first bot may hold (duplicate matches: with two sides, the seats
    swapped), on ``--workers`` processes. The first bot's score a seed is its share of
    those matches won; printed: the share over all seeds with its 95% interval (seeds
    independent; with N sides an even match scores 1/N), the seeds it won every match of,
    mean hands a match, seconds."""
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from cardcore.services.tournament import interval95

    pair = args.pair
    for spec, game, options, seating in args.games:
        sides = seating.sides
        units = [(game.id, seating.players, args.target, seed, side, pair)
                 for seed in range(args.seed, args.seed + args.seeds) for side in range(sides)]
        scores: dict[int, list[float]] = {}
        hands = 0
        start = time.perf_counter()
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            for done, future in enumerate(as_completed([pool.submit(_match_unit, u) for u in units]), 1):
                seed, score, n_hands = future.result()
                scores.setdefault(seed, []).append(score)
                hands += n_hands
                print(f"\r{spec} {'/'.join(pair)}: {done}/{len(units)} matches", end="", file=sys.stderr)
        print(file=sys.stderr)
        per_seed = [sum(v) / len(v) for v in scores.values()]
        low, high = interval95(per_seed)
        low, high = max(0.0, low), min(1.0, high)  # a share: the normal approximation clipped
        print(json.dumps({
            "game": spec, "pair": list(pair), "target": args.target or options.target,
            "seeds": len(per_seed), "matches": len(units), "sides": sides,
            "win_rate": round(sum(per_seed) / len(per_seed), 3),
            "ci95": [round(low, 3), round(high, 3)], "even": round(1 / sides, 3),
            "seeds_swept": sum(1 for x in per_seed if x == 1.0),
            "seeds_lost": sum(1 for x in per_seed if x == 0.0),
            "hands_per_match": round(hands / len(units), 2),
            "seconds": round(time.perf_counter() - start, 1), "workers": args.workers,
            "load": os.getloadavg()[0]}), flush=True)


def speedup(args: argparse.Namespace) -> None:
    """Tournament throughput, 2 workers over 1: rounds alternate the two, the best (least)
    time of each counts (load from other processes only ever slows a run down). Beside
    it the CPU seconds each run spent (one worker: this process; two: the workers), so
    the overhead of the processes shows apart from what the load leaves of the cores."""
    from cardcore.services.tournament import Tournament, run_tournament

    registry = load_registry()
    t = Tournament(game=args.game, bots=split_specs(args.bots), deals=args.deals, seed=3,
                   players=args.players)
    best: dict[int, float] = {}
    cpu: dict[int, float] = {}
    digests = set()
    for _ in range(args.rounds):
        for workers in (1, 2):
            load = os.getloadavg()[0]
            start, used = time.perf_counter(), time.process_time() + _workers_cpu()
            res = run_tournament(registry, t, workers=workers, progress=False)
            secs = time.perf_counter() - start
            time.sleep(1.0)  # the workers end and are reaped
            spent = time.process_time() + _workers_cpu() - used
            best[workers] = min(best.get(workers, secs), secs)
            cpu[workers] = min(cpu.get(workers, spent), spent)
            digests.add(res.digest())
            print(json.dumps({"workers": workers, "seconds": round(secs, 2), "cpu_s": round(spent, 2),
                              "deals": args.deals, "load_before": load,
                              "load_after": os.getloadavg()[0], "digest": res.digest()}), flush=True)
    print(json.dumps({"speedup_2_over_1": round(best[1] / best[2], 2),
                      "cpu_2_over_1": round(cpu[2] / cpu[1], 2),
                      "best_seconds": best, "same_results": len(digests) == 1}))


def lastdeal(args: argparse.Namespace) -> None:
    """Points each level gives away on last deals (two players, stock empty), by the exact
    solver's value of every action: what the solver can add over that level there."""
    from cardcore.engine.bots.solve import solve

    registry = load_registry()
    for gid in args.games.split(","):
        game = registry.game(gid)
        states = lastdeal_positions(game, args.positions, args.seed)
        for level in split_specs(args.levels):
            losses, solver_work = [], []
            for i, state in enumerate(states):
                info = InfoSet.of(game, state, state.to_play)
                exact = info.exact()
                assert exact is not None
                got = solve(game, exact, info.side_of, info.seat, 10**10, bound=False)
                assert got is not None
                values = {a.key: v for a, v in got.values}
                chosen = registry.bots[level]().choose(info, random.Random(i))
                losses.append(max(values.values()) - values[chosen.key])
                solver_work.append(got.work)
            print(json.dumps({"game": gid, "level": level, "positions": len(losses),
                              "mean_loss": round(statistics.mean(losses), 3),
                              "positions_lost": sum(1 for x in losses if x > 0),
                              "solver_work_median": statistics.median(solver_work)}), flush=True)


def lastdeal_positions(game, count: int, seed: int) -> list:
    """Last-deal positions of two-player greedy play (about three in ten decisions there)."""
    from cardcore.engine.bots.greedy import GreedyBot

    out: list = []
    rng = random.Random(seed)
    options = game.Options()
    seating = game.seating(2, options)
    h = 0
    while len(out) < count:
        h += 1
        state = game.new_hand(seating, options, random.Random(f"{seed}:{h}"), [0, 0])
        while not state.is_over and len(out) < count:
            info = InfoSet.of(game, state, state.to_play)
            if info.exact() is not None and len(state.legal_actions()) > 1 and rng.random() < 0.3:
                out.append(state.clone())
            state.apply(GreedyBot().choose(info, rng))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    q = sub.add_parser("times")
    q.add_argument("--levels", default="medium,hard")
    q.add_argument("--games", type=game_list, default=",".join(GAMES))
    q.add_argument("--played", type=int, default=20)
    q = sub.add_parser("calibrate")
    q.add_argument("--games", type=game_list, default=",".join(GAMES) + ",crazy_eights:2")
    q.add_argument("--hands", type=int, default=60)
    q = sub.add_parser("greedy")
    q.add_argument("--games", type=game_list, default=",".join(GAMES) + ",crazy_eights:2")
    q.add_argument("--hands", type=int, default=6)
    q.add_argument("--rounds", type=int, default=5)
    q = sub.add_parser("iterations")
    q.add_argument("--games", type=game_list, default=",".join(GAMES) + ",casino:4,canasta:2")
    q.add_argument("--positions", type=int, default=12)
    q.add_argument("--iterations", type=int, default=300)
    q.add_argument("--rounds", type=int, default=2)
    q = sub.add_parser("duel")
    q.add_argument("--pair", type=bot_pair, default="medium,greedy")
    q.add_argument("--games", type=game_list, default=",".join(GAMES))
    q.add_argument("--minutes", type=float, default=30.0, help="cap per game")
    q.add_argument("--batch", type=int, default=8, help="deals added per round")
    q.add_argument("--min-deals", type=int, default=32, help="no verdict on fewer deals")
    q.add_argument("--workers", type=int, default=2)
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "cardcore-duels"),
                   help="checkpoints, one per game (kept: a rerun resumes)")
    q = sub.add_parser("speedup")
    q.add_argument("--game", default="casino")
    q.add_argument("--players", type=int, default=2)
    q.add_argument("--bots", default="medium,greedy")
    q.add_argument("--deals", type=int, default=8)
    q.add_argument("--rounds", type=int, default=2)
    q = sub.add_parser("lastdeal")
    q.add_argument("--games", default="casino,royal_casino")
    q.add_argument("--levels", default="greedy,medium")
    q.add_argument("--positions", type=int, default=40)
    q.add_argument("--seed", type=int, default=5)
    q = sub.add_parser("matches")
    q.add_argument("--pair", type=bot_pair, default="medium,greedy")
    q.add_argument("--games", type=game_list, default="casino:2,royal_casino:2,canasta:4")
    q.add_argument("--seeds", type=int, default=40, help="duplicate sets (matches: seeds x sides)")
    q.add_argument("--seed", type=int, default=1, help="the first seed")
    q.add_argument("--target", type=int, default=0, help="the match's target (0: the game's)")
    q.add_argument("--workers", type=int, default=2)
    args = p.parse_args()
    {"times": times, "calibrate": calibrate, "greedy": greedy, "iterations": iterations, "duel": duel,
     "speedup": speedup, "lastdeal": lastdeal, "matches": matches}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
