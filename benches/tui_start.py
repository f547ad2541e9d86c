"""TUI speed: seconds from process start to the launcher's first frame; greedy bot move times.

    python benches/tui_start.py [--runs 5] [--decisions 300]

Prints one JSON object: {"launcher_first_frame_s": {...}, "greedy_move_ms": {game/players: {...}},
"table_bot_step_ms": {...}} (the last: a bot's move with its record line and autosave).
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
    """Start the launcher headless; print the wall time of its first frame, then quit."""
    from cardcore.tui.app import CardcoreApp
    from cardcore.tui.screens.launcher import LauncherScreen

    class Timed(CardcoreApp):
        def on_mount(self) -> None:
            self.call_after_refresh(self._first_frame)

        def _first_frame(self) -> None:
            assert isinstance(self.screen, LauncherScreen)
            os.write(1, f"{time.time()}\n".encode())  # textual captures print()
            self.exit()

    Timed().run(headless=True, size=(100, 30))


def launcher_first_frame(runs: int) -> dict:
    times = []
    env = dict(os.environ, CARDCORE_HOME=tempfile.mkdtemp())
    for _ in range(runs):
        start = time.time()
        out = subprocess.run([sys.executable, __file__, "--child"], capture_output=True, text=True,
                             env=env, check=True).stdout
        times.append(float(out.strip().splitlines()[-1]) - start)
    return {"runs": runs, "median": round(statistics.median(times), 3), "max": round(max(times), 3)}


def greedy_moves(decisions: int) -> dict:
    from cardcore.bots.base import InfoSet
    from cardcore.match import Match
    from cardcore.plugins import load_registry

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
    """A bot's move as the table makes it: choose, apply, record line, autosave (fsync)."""
    os.environ["CARDCORE_HOME"] = tempfile.mkdtemp()
    from cardcore.plugins import load_registry
    from cardcore.tui.session import Session, SessionSetup

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
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--decisions", type=int, default=300)
    args = p.parse_args()
    if args.child:
        child()
        return
    print(json.dumps({"launcher_first_frame_s": launcher_first_frame(args.runs),
                      "greedy_move_ms": greedy_moves(args.decisions),
                      "table_bot_step_ms": session_steps(min(args.decisions, 100))}))


if __name__ == "__main__":
    main()
