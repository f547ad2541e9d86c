"""The entry point: registers the game with cardcore."""

from collections.abc import Callable

from cardcore import Game, hookimpl
from cardcore_crazy_eights.game import CrazyEights


@hookimpl
def cardcore_register_games(register: Callable[[Game], object]) -> None:
    register(CrazyEights())
