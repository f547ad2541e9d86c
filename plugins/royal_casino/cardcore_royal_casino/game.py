"""Royal Casino: the shared fishing engine with court values, aces 1 or 14,
counter-clockwise play, packets of four, no trailing onto a loose card of the same
value, raising only an opponent's build, cancelling sweeps and the near-21 rule."""

from __future__ import annotations

from cardcore.engine.deal import packets
from cardcore.engine.game import GameOptions, ScoreExtra
from cardcore.engine.scoresheet import ScoreSheet
from cardcore.language import N_
from cardcore_casino.game import FishingGame
from cardcore_casino.rules import ROYAL_VALUES, Rules, direction_sign
from cardcore_royal_casino.options import RoyalCasinoOptions
from cardcore_royal_casino.scoring import EXTRAS, cancel_sweeps, outright_of, royal_row
from cardcore_royal_casino.text import RoyalCasinoText
from cardcore_royal_casino.words import DOMAIN


def _first(order: list[int]) -> list[tuple[int, int]]:
    return packets(order, 4, table=4)


def _later(order: list[int]) -> list[tuple[int, int]]:
    return packets(order, 4)


class RoyalCasinoGame(FishingGame):
    id = "royal_casino"
    name = "Royal Casino"
    description = N_("Casino with valued court cards (J 11, Q 12, K 13), aces 1 or 14 — to 21.")
    domain = DOMAIN
    Options = RoyalCasinoOptions
    text = RoyalCasinoText

    def make_rules(self, options: GameOptions) -> Rules:
        assert isinstance(options, RoyalCasinoOptions)
        return Rules(
            self.id, options,
            value=ROYAL_VALUES,
            ace_fourteen=options.ace_fourteen,
            max_build=14 if options.ace_fourteen else 13,
            trail_rule="no_match",
            raise_own_build=False,
            direction=direction_sign(options.direction),
            first_plan=_first,
            later_plan=_later,
            sweeps_score=options.sweeps,
            sweep_points=cancel_sweeps,
            score_hook=royal_row,
        )

    def score_extras(self, options: GameOptions) -> list[ScoreExtra]:
        """Casino's, then the aces scored and the hands won outright (``scoring.EXTRAS``)."""
        return [*super().score_extras(options), *EXTRAS]

    def match_winner(self, sheet: ScoreSheet, options: GameOptions) -> int | None:
        """A side landing on the target by the near-target rule wins outright; two such
        sides play another hand; otherwise the highest total at or above the target."""
        if sheet.hands:
            outright = outright_of(sheet.hands[-1])
            if len(outright) == 1:
                return outright[0]
            if len(outright) > 1:
                return None
        return super().match_winner(sheet, options)
