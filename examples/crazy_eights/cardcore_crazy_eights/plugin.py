"""The entry point: registers the game with cardcore."""

from cardcore import hookimpl
from cardcore_crazy_eights.game import CrazyEights


@hookimpl
def cardcore_register_games(register):
    register(CrazyEights())
