"""cardcore: a card-table framework — a generic core, games as plugins, one front end."""

import pluggy

__version__ = "0.1.0"

hookimpl = pluggy.HookimplMarker("cardcore")

from cardcore.game import (  # noqa: E402
    Action,
    Game,
    GameState,
    Group,
    IllegalAction,
    Options,
    SimpleAction,
    StateError,
    Zone,
    load_games,
)

__all__ = [
    "Action",
    "Game",
    "GameState",
    "Group",
    "IllegalAction",
    "Options",
    "SimpleAction",
    "StateError",
    "Zone",
    "hookimpl",
    "load_games",
]
