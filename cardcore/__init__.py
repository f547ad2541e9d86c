"""cardcore: a card-table framework — a generic core, games as plugins, one front end."""

from cardcore.engine import __version__
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
