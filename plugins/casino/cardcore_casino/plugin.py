"""Registers Casino."""

from cardcore import hookimpl


@hookimpl
def cardcore_register_games(register):
    from cardcore_casino.game import CasinoGame

    register(CasinoGame())
