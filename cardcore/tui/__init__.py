"""The Textual front end (entry points used by the command line)."""

from __future__ import annotations

from typing import Any


def run_launcher() -> None:
    raise SystemExit("cardcore: the TUI is not built yet")


def run_play(setup: Any) -> None:
    raise SystemExit("cardcore: the TUI is not built yet")


def run_resume(path: str | None) -> None:
    raise SystemExit("cardcore: the TUI is not built yet")


def run_replay(path: str) -> None:
    raise SystemExit("cardcore: the TUI is not built yet")
