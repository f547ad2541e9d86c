"""cardcore: a card-table framework — a generic core, games as plugins, one front end.

Every module of cardcore imports this package first, so it imports nothing itself: each name
below comes from its module on first use (PEP 562), and ``cardcore --help`` starts without
the engine and pydantic (docs/design.md, Start-up)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from cardcore.engine import __version__

if TYPE_CHECKING:
    from cardcore.engine.game import (
        Action,
        Game,
        GameOptions,
        GameState,
        Group,
        IllegalAction,
        Options,
        ScoreExtra,
        ScoreRow,
        SideScore,
        SimpleAction,
        StateError,
        Zone,
    )
    from cardcore.engine.hookspecs import hookimpl
    from cardcore.services.plugins import load_games

__all__ = [
    "__version__",
    "Action",
    "Game",
    "GameOptions",
    "GameState",
    "Group",
    "IllegalAction",
    "Options",
    "ScoreExtra",
    "ScoreRow",
    "SideScore",
    "SimpleAction",
    "StateError",
    "Zone",
    "hookimpl",
    "load_games",
]

#: The module of each name of ``__all__`` not from ``cardcore.engine.game``.
_ELSEWHERE = {"hookimpl": "cardcore.engine.hookspecs", "load_games": "cardcore.services.plugins"}


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'cardcore' has no attribute {name!r}")
    value = getattr(importlib.import_module(_ELSEWHERE.get(name, "cardcore.engine.game")), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
