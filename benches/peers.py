#!/usr/bin/env python3
"""The peers' speed: OpenSpiel and RLCard card games, measured like benches/engines.py.

Runs in its own venv, apart from cardcore's (python -m venv peers-venv;
peers-venv/bin/pip install open-spiel rlcard numpy pydantic):

    peers-venv/bin/python benches/peers.py [--scale 1.0] [--only SUBSTR]

benches/compare.py runs it beside benches/engines.py. One JSON object a line:

- the first line: {"engine": "meta", "python", "machine", "cpus", "loadavg", "versions", "seed"}
- one per engine and game: {"engine", "game", "params", "games", "seconds",
  "games_per_s", "decisions_per_s", "chance_per_s", "mean_decisions",
  "mean_chance", "clone_us", ...}. Decisions are apply_action/step calls where a
  player acts; chance steps are apply_action calls at chance nodes (OpenSpiel
  only: RLCard deals inside reset(), so chance is null there). Rates are per
  wall-clock second of the whole playout loop, the Python driver included
  (legal_actions, a seeded random pick, apply).
- micro-benchmarks of copying a state in CPython and pydantic:
  {"engine": "cpython-micro", "op", "us"} (best of 3, per call).

A section that fails prints {"engine": key, "error": ...} and the run goes on.
The whole run takes about 45 s at --scale 1.0 on a 2-core machine.
"""

import argparse
import copy
import json
import os
import pickle
import platform
import random
import sys
import time
import timeit

SEED = 12345


def emit(obj):
    print(json.dumps(obj), flush=True)


def _clone_cost_us(samples, clone, budget_s):
    """Mean microseconds per clone over a fixed set of mid-game states."""
    if not samples:
        return None
    n = 0
    t0 = time.perf_counter()
    deadline = t0 + budget_s
    while True:
        for s in samples:
            clone(s)
        n += len(samples)
        t = time.perf_counter()
        if t >= deadline:
            break
    return (t - t0) / n * 1e6


# --------------------------------------------------------------------------
# OpenSpiel (C++ games and pure-Python games, both driven through pyspiel)
# --------------------------------------------------------------------------
def bench_openspiel(engine, name, seconds, clone_s):
    import pyspiel
    if name.startswith("python_"):
        from open_spiel.python import games  # noqa: F401  (registers python_*)
    game = pyspiel.load_game(name)
    rng = random.Random(SEED)
    rand = rng.random
    randrange = rng.randrange

    games = dec = chance = 0
    samples = []
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        s = game.new_initial_state()
        step = 0
        while not s.is_terminal():
            if s.is_chance_node():
                outs = s.chance_outcomes()
                r = rand()
                acc = 0.0
                a = outs[-1][0]
                for act, p in outs:
                    acc += p
                    if r < acc:
                        a = act
                        break
                s.apply_action(a)
                chance += 1
            else:
                la = s.legal_actions()
                s.apply_action(la[randrange(len(la))])
                dec += 1
            step += 1
            # keep up to 400 mid-game snapshots (every 7th step overall) for clone timing
            if (dec + chance) % 7 == 0 and len(samples) < 400 and not s.is_terminal():
                samples.append(s.clone())
        games += 1
        t = time.perf_counter()
        if t >= deadline:
            break
    el = t - t0
    clone_us = _clone_cost_us(samples, lambda st: st.clone(), clone_s)
    emit({
        "engine": engine, "game": name, "params": str(game),
        "games": games, "seconds": round(el, 3),
        "games_per_s": games / el,
        "decisions_per_s": dec / el,
        "chance_per_s": chance / el,
        "steps_per_s": (dec + chance) / el,
        "mean_decisions": dec / games,
        "mean_chance": chance / games,
        "clone_us": clone_us,
        "clone_samples": len(samples),
    })


# --------------------------------------------------------------------------
# RLCard gin-rummy (pure Python + numpy)
# --------------------------------------------------------------------------
def bench_rlcard_env_run(seconds, clone_s):
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent
    np.random.seed(SEED)  # RandomAgent uses the global numpy RNG
    env = rlcard.make("gin-rummy", config={"seed": SEED})
    agent = RandomAgent(num_actions=env.num_actions)
    env.set_agents([agent for _ in range(env.num_players)])

    games = dec = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        env.run(is_training=False)
        dec += len(env.game.actions)  # every game.step() appends one action
        games += 1
        t = time.perf_counter()
        if t >= deadline:
            break
    el = t - t0
    emit({
        "engine": "rlcard", "game": "gin-rummy", "params": "env.run + RandomAgent (numpy obs encoding)",
        "games": games, "seconds": round(el, 3),
        "games_per_s": games / el, "decisions_per_s": dec / el,
        "chance_per_s": None, "mean_decisions": dec / games, "mean_chance": None,
        "clone_us": None,
    })


def bench_rlcard_raw(seconds, clone_s):
    """Drive rlcard's GinRummyGame directly (no numpy observation encoding)."""
    import numpy as np
    from rlcard.games.gin_rummy import Game
    game = Game()
    game.np_random = np.random.RandomState(SEED)
    rng = random.Random(SEED)
    randrange = rng.randrange

    games = dec = 0
    samples = []
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        game.init_game()
        step = 0
        while not game.is_over():
            la = game.judge.get_legal_actions()
            game.step(la[randrange(len(la))])
            dec += 1
            step += 1
            if step % 15 == 0 and len(samples) < 40 and not game.is_over():
                samples.append(copy.deepcopy(game))
        games += 1
        t = time.perf_counter()
        if t >= deadline:
            break
    el = t - t0
    # rlcard has no clone(); allow_step_back / search code uses copy.deepcopy
    clone_us = _clone_cost_us(samples, copy.deepcopy, clone_s)
    emit({
        "engine": "rlcard-raw", "game": "gin-rummy",
        "params": "Game.step + judge.get_legal_actions; clone=deepcopy(game)",
        "games": games, "seconds": round(el, 3),
        "games_per_s": games / el, "decisions_per_s": dec / el,
        "chance_per_s": None, "mean_decisions": dec / games, "mean_chance": None,
        "clone_us": clone_us, "clone_samples": len(samples),
    })


# --------------------------------------------------------------------------
# Pure-Python state-copy micro-benchmarks
# --------------------------------------------------------------------------
def _timeit_us(stmt, g):
    t = timeit.Timer(stmt, globals=g)
    n, _ = t.autorange()          # >= 0.2 s
    best = min(t.repeat(repeat=3, number=n))
    return best / n * 1e6


def bench_micro():
    ranks = list(range(1, 14))
    suits = "CDHS"
    deck52 = [r + 13 * i for i in range(4) for r in range(13)]
    lst = list(deck52)

    def card_dict(k):
        return {"rank": ranks[k % 13], "suit": suits[(k // 13) % 4]}

    def card_str(k):
        return "A23456789TJQK"[k % 13] + suits[(k // 13) % 4]

    # ~60 cards: deck 36, table 4, two hands of 4, two capture piles of 6
    def mk_state(card):
        ks = iter(range(60))

        def take(n):
            return [card(next(ks)) for _ in range(n)]

        return {
            "deck": take(36),
            "table": take(4),
            "players": [
                {"name": f"p{i}", "hand": take(4), "captured": take(6), "score": 0, "sweeps": 0}
                for i in range(2)
            ],
            "turn": 0, "phase": "play", "last_capturer": None,
        }

    st_dict = mk_state(card_dict)
    st_str = mk_state(card_str)

    def manual_copy_dictcards(s):
        return {
            "deck": [dict(c) for c in s["deck"]],
            "table": [dict(c) for c in s["table"]],
            "players": [
                {**p, "hand": [dict(c) for c in p["hand"]], "captured": [dict(c) for c in p["captured"]]}
                for p in s["players"]
            ],
            "turn": s["turn"], "phase": s["phase"], "last_capturer": s["last_capturer"],
        }

    def manual_copy_immutable_cards(s):  # cards are immutable (str/int/tuple): copy only the lists
        return {
            "deck": s["deck"][:],
            "table": s["table"][:],
            "players": [{**p, "hand": p["hand"][:], "captured": p["captured"][:]} for p in s["players"]],
            "turn": s["turn"], "phase": s["phase"], "last_capturer": s["last_capturer"],
        }

    from pydantic import VERSION as PYD_VER
    from pydantic import BaseModel

    class PState(BaseModel):  # ~60 str fields held in lists
        deck: list[str]
        table: list[str]
        hands: list[list[str]]
        captured: list[list[str]]
        scores: list[int]
        turn: int
        phase: str

    class PCard(BaseModel):
        rank: int
        suit: str

    class PPlayer(BaseModel):
        hand: list[PCard]
        captured: list[PCard]
        score: int

    class PStateNested(BaseModel):  # 60 Card sub-models
        deck: list[PCard]
        table: list[PCard]
        players: list[PPlayer]
        turn: int
        phase: str

    pst = PState(
        deck=st_str["deck"], table=st_str["table"],
        hands=[p["hand"] for p in st_str["players"]],
        captured=[p["captured"] for p in st_str["players"]],
        scores=[0, 0], turn=0, phase="play",
    )
    pnest = PStateNested(
        deck=[PCard(**c) for c in st_dict["deck"]],
        table=[PCard(**c) for c in st_dict["table"]],
        players=[PPlayer(hand=[PCard(**c) for c in p["hand"]],
                         captured=[PCard(**c) for c in p["captured"]], score=0)
                 for p in st_dict["players"]],
        turn=0, phase="play",
    )
    pst_dump = pst.model_dump()

    g = dict(lst=lst, tup=tuple(lst), copy=copy, pickle=pickle, st_dict=st_dict, st_str=st_str,
             manual_copy_dictcards=manual_copy_dictcards,
             manual_copy_immutable_cards=manual_copy_immutable_cards,
             pst=pst, pnest=pnest, PState=PState, pst_dump=pst_dump)
    ops = [
        ("list52[:]", "lst[:]"),
        ("list52.copy()", "lst.copy()"),
        ("list(list52)", "list(lst)"),
        ("copy.deepcopy(list52)", "copy.deepcopy(lst)"),
        ("deepcopy(dict state, 60 dict cards)", "copy.deepcopy(st_dict)"),
        ("deepcopy(dict state, 60 str cards)", "copy.deepcopy(st_str)"),
        ("pickle round-trip(dict state, 60 dict cards)", "pickle.loads(pickle.dumps(st_dict, -1))"),
        ("manual copy(dict state, 60 dict cards)", "manual_copy_dictcards(st_dict)"),
        ("manual list-slice copy(dict state, 60 immutable cards)", "manual_copy_immutable_cards(st_str)"),
        ("pydantic model_copy(deep=True) (60 str in lists)", "pst.model_copy(deep=True)"),
        ("pydantic model_copy() shallow (60 str in lists)", "pst.model_copy()"),
        ("pydantic model_validate(dump) (60 str in lists)", "PState.model_validate(pst_dump)"),
        ("pydantic model_copy(deep=True) (60 nested Card models)", "pnest.model_copy(deep=True)"),
    ]
    for label, stmt in ops:
        emit({"engine": "cpython-micro", "op": label, "us": _timeit_us(stmt, g),
              "pydantic": PYD_VER})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=1.0, help="multiply all time budgets")
    ap.add_argument("--only", default="", help="run only sections whose key contains this")
    args = ap.parse_args()
    S = args.scale
    clone_s = 0.4 * S

    import pyspiel  # noqa: F401  (fail early when the venv lacks OpenSpiel)
    try:
        from importlib.metadata import version
        vers = {p: version(p) for p in ("open_spiel", "rlcard", "numpy", "pydantic")}
    except Exception:  # pragma: no cover
        vers = {}
    emit({"engine": "meta", "python": sys.version.split()[0],
          "impl": platform.python_implementation(), "machine": platform.machine(),
          "cpus": os.cpu_count(), "loadavg": os.getloadavg(),
          "versions": vers, "seed": SEED})

    sections = [
        ("openspiel:gin_rummy", lambda: bench_openspiel("openspiel-cpp", "gin_rummy", 5 * S, clone_s)),
        ("openspiel:go_fish", lambda: bench_openspiel("openspiel-cpp", "go_fish", 2.5 * S, clone_s)),
        ("openspiel:cribbage", lambda: bench_openspiel("openspiel-cpp", "cribbage", 3 * S, clone_s)),
        ("openspiel:hearts", lambda: bench_openspiel("openspiel-cpp", "hearts", 2.5 * S, clone_s)),
        ("openspiel:crazy_eights",
         lambda: bench_openspiel("openspiel-cpp", "crazy_eights", 2.5 * S, clone_s)),
        ("openspiel-py:python_block_dominoes",
         lambda: bench_openspiel("openspiel-python", "python_block_dominoes", 3 * S, clone_s)),
        ("openspiel-py:python_liars_poker",
         lambda: bench_openspiel("openspiel-python", "python_liars_poker", 2 * S, clone_s)),
        ("openspiel-py:python_kuhn_poker",
         lambda: bench_openspiel("openspiel-python", "python_kuhn_poker", 2 * S, clone_s)),
        ("rlcard:env_run", lambda: bench_rlcard_env_run(5 * S, clone_s)),
        ("rlcard:raw", lambda: bench_rlcard_raw(4 * S, clone_s)),
        ("micro", bench_micro),
    ]
    for key, fn in sections:
        if args.only and args.only not in key:
            continue
        try:
            fn()
        except Exception as e:  # keep going; report the failure as a line
            emit({"engine": key, "error": f"{type(e).__name__}: {e}"})


if __name__ == "__main__":
    main()
