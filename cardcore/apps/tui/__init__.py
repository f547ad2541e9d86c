"""The Textual front end (entry points used by the command line).

Textual and the screens are imported only when a function here runs, so
``cardcore`` commands that need no screen stay quick. Each entry point gives the
app a typed start (``cardcore.apps.tui.app.Start``) from which it builds its first screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardcore.engine.match_setup import Setup


def run_launcher() -> None:
    from cardcore.apps.tui.app import CardcoreApp, Launch

    CardcoreApp(start=Launch()).run()


def run_play(setup: Setup) -> None:
    from cardcore.apps.tui.app import CardcoreApp, Play

    CardcoreApp(start=Play(setup)).run()


def run_resume(path: str | None) -> None:
    """Continue a save file (it goes into the library as a new match), or the most recently
    played unfinished match (None); RecordError / StoreError if it cannot be."""
    _run_resume(Path(path) if path else None)


def run_resume_match(match_id: int) -> None:
    """Continue a library match; MatchLocked (a StoreError) if another cardcore plays it."""
    _run_resume(match_id)


def _run_resume(target: int | Path | None) -> None:
    from cardcore.apps.tui.app import CardcoreApp, Resume
    from cardcore.apps.tui.session import Session
    from cardcore.services.plugins import load_registry

    registry = load_registry()
    session = Session.resume(registry, target)
    try:
        CardcoreApp(registry, start=Resume(session)).run()
    finally:
        session.close()  # the lock goes with the table, however the app ended


def run_replay(path: str, match: int = 0) -> None:
    """Step through a record's match (``match``: which one of a record of several, from 0)."""
    from cardcore.apps.tui.app import CardcoreApp, ShowReplay
    from cardcore.apps.tui.screens.replay import RecordMatches
    from cardcore.services.plugins import load_registry

    registry = load_registry()
    matches = RecordMatches(registry, path)
    CardcoreApp(registry, start=ShowReplay(matches.replay(match), matches, match)).run()
