"""Registers Royal Casino."""

from cardcore import hookimpl


@hookimpl
def cardcore_register_games(register):
    from cardcore_royal_casino.game import RoyalCasinoGame

    register(RoyalCasinoGame())
