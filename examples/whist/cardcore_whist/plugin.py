"""The entry point: registers the game with cardcore."""

from collections.abc import Callable

from cardcore import hookimpl
from cardcore.engine.game import Game
from cardcore_whist.game import Whist


@hookimpl
def cardcore_register_games(register: Callable[[Game], None]) -> None:
    register(Whist())
