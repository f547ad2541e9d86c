"""Royal Casino's rule variants."""

from __future__ import annotations

import pydantic

from cardcore.engine.game import GameOptions
from cardcore.language import N_
from cardcore_casino.rules import Direction


class RoyalCasinoOptions(GameOptions):
    """Rule variants of Royal Casino (D3, D4, D9, D17)."""

    ace_fourteen: bool = pydantic.Field(
        True, description=N_("an ace played from the hand may capture as 14 (builds up to 14)"))
    direction: Direction = pydantic.Field(
        "counter_clockwise",
        description=N_("direction of play (the deal always passes to the left)"))
    sweeps: bool = pydantic.Field(True, description=N_("sweeps score 1 point each"))
