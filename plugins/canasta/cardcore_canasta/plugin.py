"""Registers the game."""

from collections.abc import Callable

from cardcore import hookimpl
from cardcore.engine.game import Game

from .game import CanastaGame


@hookimpl
def cardcore_register_games(register: Callable[[Game], None]) -> None:
    register(CanastaGame())
