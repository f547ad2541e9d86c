"""Registers the game."""

from cardcore import hookimpl

from .game import CanastaGame


@hookimpl
def cardcore_register_games(register):
    register(CanastaGame())
