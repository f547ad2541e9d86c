"""cardcore: a card-table framework — a generic core, games as plugins, one front end."""

from cardcore.game import (
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
from cardcore.hookspecs import hookimpl
from cardcore.plugins import load_games

__version__ = "0.1.0"

__all__ = [
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
