"""The Textual front end (entry points used by the command line).

Textual and the screens are imported only when a function here runs, so
``cardcore`` commands that need no screen stay quick. Each entry point gives the
app a typed start (``cardcore.tui.app.Start``) from which it builds its first screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardcore.cli import MatchSetup


def run_launcher() -> None:
    from cardcore.tui.app import CardcoreApp, Launch

    CardcoreApp(start=Launch()).run()


def run_play(setup: MatchSetup) -> None:
    from cardcore.tui.app import CardcoreApp, Play
    from cardcore.tui.session import SessionSetup

    CardcoreApp(start=Play(SessionSetup.from_match_setup(setup))).run()


def run_resume(path: str | None) -> None:
    """Continue the saved match (the autosave by default); RecordError if it cannot be read."""
    from cardcore.plugins import load_registry
    from cardcore.tui.app import CardcoreApp, Resume
    from cardcore.tui.session import Session

    registry = load_registry()
    session = Session.resume(registry, Path(path) if path else None)
    CardcoreApp(registry, start=Resume(session)).run()


def run_replay(path: str) -> None:
    from cardcore.plugins import load_registry
    from cardcore.tui.app import CardcoreApp, ShowReplay
    from cardcore.tui.session import Replay

    registry = load_registry()
    CardcoreApp(registry, start=ShowReplay(Replay(registry, path))).run()
