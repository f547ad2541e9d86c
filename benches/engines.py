"""Engine speed: random playouts, clone cost, worst legal_actions() on crowded tables.

    python benches/engines.py [--seconds S] [--games casino,canasta]

One JSON object per game and player count:
{"game", "players", "decisions_per_s", "hands_per_s", "clone_us", "worst_legal_ms", ...}

decisions = actions applied by players (legal_actions + a seeded random pick +
apply); clone_us = mean clone() over mid-hand states of the playouts;
worst_legal_ms = the slowest legal_actions() over the fixed crowded positions in
benches/positions/<game>.json: for each position one call to warm up, then the
median of LOADS calls, each the first on a freshly loaded state; measured before
any playout has warmed a cache. The first line says which modules ran compiled
(cardcore/compiled.py: `make native` builds them, CARDCORE_PURE=1 turns them off).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from cardcore import compiled
from cardcore.services.plugins import load_registry

HERE = Path(__file__).resolve().parent
SEED = 12345
LOADS = 5  # fresh loads of each crowded position (the median is its figure)


def positions(game_id: str) -> list[dict]:
    path = HERE / "positions" / f"{game_id}.json"
    return json.loads(path.read_text()) if path.exists() else []


def worst_legal_ms(game, players: int) -> tuple[float | None, int]:
    worst, count = None, 0
    for data in positions(game.id):
        if data.get("players", 2) != players:
            continue
        assert game.state_from_json(data).legal_actions(), \
            f"{game.id}: a bench position has no legal action"
        times = []
        for _ in range(LOADS):
            state = game.state_from_json(data)
            t0 = time.perf_counter()
            state.legal_actions()
            times.append((time.perf_counter() - t0) * 1e3)
        ms = statistics.median(times)
        count += 1
        worst = ms if worst is None else max(worst, ms)
    return worst, count


def playouts(game, players: int, seconds: float) -> dict:
    options = game.Options()
    rng = random.Random(SEED)
    randrange = rng.randrange
    sides = 2 if game.partnerships and players == 4 else players
    hands = decisions = 0
    samples = []
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        state = game.new_hand(game.seating(players, options, dealer=hands % players), options,
                              random.Random(f"{SEED}:{hands}"), [0] * sides)
        while not state.is_over:
            actions = state.legal_actions()
            state.apply(actions[randrange(len(actions))])
            decisions += 1
            if decisions % 7 == 0 and len(samples) < 400 and not state.is_over:
                samples.append(state.clone())
        hands += 1
        t = time.perf_counter()
        if t >= deadline:
            break
    elapsed = t - t0
    return {"decisions_per_s": decisions / elapsed, "hands_per_s": hands / elapsed,
            "hands": hands, "mean_decisions": decisions / hands, "seconds": round(elapsed, 3),
            "clone_us": clone_us(samples)}


def clone_us(samples: list, budget: float = 0.4) -> float | None:
    if not samples:
        return None
    n = 0
    t0 = time.perf_counter()
    while True:
        for s in samples:
            s.clone()
        n += len(samples)
        t = time.perf_counter()
        if t - t0 >= budget:
            return (t - t0) / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="playout time per game and count")
    ap.add_argument("--games", default="casino,royal_casino,canasta")
    args = ap.parse_args()
    games = load_registry().games
    print(json.dumps({"engine": "meta", "python": sys.version.split()[0],
                      "machine": platform.machine(), "cpus": os.cpu_count(),
                      "loadavg": os.getloadavg(), "compiled": compiled.USED}), flush=True)
    for game_id in args.games.split(","):
        game = games.get(game_id)
        if game is None:
            print(json.dumps({"game": game_id, "error": "not installed"}), flush=True)
            continue
        for players in game.player_counts:
            worst, count = worst_legal_ms(game, players)
            row = {"game": game_id, "players": players, **playouts(game, players, args.seconds),
                   "worst_legal_ms": worst, "crowded_positions": count}
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
