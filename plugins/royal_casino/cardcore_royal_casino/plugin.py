"""Registers Royal Casino."""

from collections.abc import Callable

from cardcore import hookimpl
from cardcore.engine.game import Game


@hookimpl
def cardcore_register_games(register: Callable[[Game], None]) -> None:
    from cardcore_royal_casino.game import RoyalCasinoGame

    register(RoyalCasinoGame())
