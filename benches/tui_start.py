"""TUI speed: seconds from process start to the launcher's first frame; greedy bot move times.

    python benches/tui_start.py [--runs 5] [--decisions 300] [--library 1000]

``--library N``: the launcher's first frame again with N matches in the match library (short
casino matches played by bots, one in ten left unfinished), as "launcher_first_frame_library_s".

Prints one JSON object: {"launcher_first_frame_s": {...}, "greedy_move_ms": {game/players: {...}},
"table_bot_step_ms": {...}} (the last: a bot's move committed to the match library).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def child() -> None:
    """``cardcore`` (no command) as the entry point runs it, headless: print the wall time of
    the launcher's first frame, then quit."""
    from cardcore.apps import cli
    from cardcore.apps.tui.app import CardcoreApp

    run, mount = CardcoreApp.run, CardcoreApp.on_mount

    def first_frame(app: CardcoreApp) -> None:
        assert type(app.screen).__name__ == "LauncherScreen"
        os.write(1, f"{time.time()}\n".encode())  # textual captures print()
        app.exit()

    def on_mount(app: CardcoreApp) -> None:
        mount(app)
        app.call_after_refresh(first_frame, app)

    CardcoreApp.on_mount = on_mount  # type: ignore[method-assign]
    CardcoreApp.run = lambda app, **_: run(app, headless=True, size=(100, 30))  # type: ignore[method-assign]
    cli.main([])


def floor_child() -> None:
    """Textual alone, the floor under the launcher: an app of one line, headless; print the
    wall time of its first frame, then quit."""
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Floor(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("cardcore")

        def on_mount(self) -> None:
            self.call_after_refresh(self.first_frame)

        def first_frame(self) -> None:
            os.write(1, f"{time.time()}\n".encode())
            self.exit()

    Floor().run(headless=True, size=(100, 30))


def fill_library(home: str, matches: int) -> dict:
    """``matches`` casino matches (greedy against random, target 1: one or two hands each)
    put in the library at ``home`` as the table leaves them; one in ten unfinished."""
    os.environ["CARDCORE_HOME"] = home
    from cardcore.engine.match import Match
    from cardcore.services.plugins import load_registry
    from cardcore.services.store import open_library

    registry = load_registry()
    game = registry.games["casino"]
    bots = {"greedy": registry.bots["greedy"](), "random": registry.bots["random"]()}
    from cardcore.engine.bots.base import InfoSet

    store = open_library()
    t = time.perf_counter()
    for i in range(matches):
        events: list = []
        match = Match(game, game.Options(target=1), seed=i, seats=["greedy", "random"],
                      on_event=events.append)
        match.start()
        stop = 20 if i % 10 == 0 else None
        while match.to_play is not None and (stop is None or match.decisions < stop):
            seat = match.to_play
            action = bots[match.seats[seat]].choose(InfoSet.of(game, match.state, seat), match.bot_rng(seat))
            match.apply(action)
        store.import_record(events, match.snapshot(), source="table")
    made = time.perf_counter() - t
    store.close()
    t = time.perf_counter()  # what the launcher adds: open the library, list what to resume
    store = open_library()
    unfinished = len(store.list_unfinished(limit=50))
    listed = time.perf_counter() - t
    store.close()
    return {"matches": matches, "unfinished": unfinished, "made_in_s": round(made, 1),
            "open_and_list_ms": round(listed * 1000, 2)}


def launcher_first_frame(runs: int, home: str | None = None) -> dict:
    times = []
    env = dict(os.environ, CARDCORE_HOME=home or tempfile.mkdtemp())
    for _ in range(runs):
        start = time.time()
        out = subprocess.run([sys.executable, __file__, "--child"], capture_output=True, text=True,
                             env=env, check=True).stdout
        times.append(float(out.strip().splitlines()[-1]) - start)
    return {"runs": runs, "median": round(statistics.median(times), 3), "max": round(max(times), 3)}


def greedy_moves(decisions: int) -> dict:
    from cardcore.engine.bots.base import InfoSet
    from cardcore.engine.match import Match
    from cardcore.services.plugins import load_registry

    registry = load_registry()
    greedy = registry.bots["greedy"]()
    out = {}
    for gid, game in sorted(registry.games.items()):
        for players in sorted(set(game.player_counts) & {2, 4}) or game.player_counts[:1]:
            times = []
            seed = 0
            while len(times) < decisions:
                match = Match(game, seed=seed, players=players, seats=["greedy"] * players)
                match.start()
                while match.to_play is not None and len(times) < decisions:
                    seat = match.to_play
                    info = InfoSet.of(game, match.state, seat)
                    t = time.perf_counter()
                    action = greedy.choose(info, match.bot_rng(seat))
                    times.append((time.perf_counter() - t) * 1000)
                    match.apply(action)
                seed += 1
            times.sort()
            out[f"{gid}/{players}"] = {"mean": round(statistics.fmean(times), 2),
                                       "p99": round(times[int(len(times) * 0.99) - 1], 2),
                                       "max": round(times[-1], 2)}
    return out


def session_steps(decisions: int) -> dict:
    """A bot's move as the table makes it: choose, apply, commit to the library."""
    os.environ["CARDCORE_HOME"] = tempfile.mkdtemp()
    from cardcore.apps.tui.session import Session, SessionSetup
    from cardcore.services.plugins import load_registry

    registry = load_registry()
    out = {}
    for gid, game in sorted(registry.games.items()):
        players = game.player_counts[0]
        times = []
        seed = 0
        while len(times) < decisions:
            session = Session.new(registry, SessionSetup(game, game.Options(), ["greedy"] * players, seed))
            hand = session.match.hand_no
            while session.match.hand_no == hand and not session.over and len(times) < decisions:
                t = time.perf_counter()
                session.bot_step()
                times.append((time.perf_counter() - t) * 1000)
            session.close()
            seed += 1
        times.sort()
        out[f"{gid}/{players}"] = {"mean": round(statistics.fmean(times), 2),
                                   "max": round(times[-1], 2)}
    return out


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--floor-child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--decisions", type=int, default=300)
    p.add_argument("--library", type=int, default=0, help="also time the launcher over N matches")
    args = p.parse_args()
    if args.child or args.floor_child:
        (child if args.child else floor_child)()
        return
    if args.library:
        home = tempfile.mkdtemp()
        made = fill_library(home, args.library)
        print(json.dumps({"library": made,
                          "launcher_first_frame_library_s": launcher_first_frame(args.runs, home),
                          "launcher_first_frame_empty_s": launcher_first_frame(args.runs)}))
        return
    print(json.dumps({"launcher_first_frame_s": launcher_first_frame(args.runs),
                      "greedy_move_ms": greedy_moves(args.decisions),
                      "table_bot_step_ms": session_steps(min(args.decisions, 100))}))


if __name__ == "__main__":
    main()
