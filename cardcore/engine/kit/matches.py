"""How a match is won, said once on the game (``CardGame.match_rule``):

    match_rule = POINTS_TARGET                       # the default: to a points target
    match_rule = MatchRule(shown=("tricks_taken",))  # the same, a count shown on the sheet
    match_rule = FirstToHands(shown=("card_points",))  # first to N hands won

To a points target, each hand's points add up and the match goes to the highest total at
or above the target (``options.target``; equal highest totals play on). First to N hands
won, a hand scores 1 to the side that won it and 0 to the others (``Scores.won``), so the
totals are hands won and the first side to win ``options.target`` hands takes the match;
what decided each hand (the card points, from the row's ``counts``) shows on the score
sheet under the hand's result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cardcore.engine.game import ExtraValue, ScoreExtra, ScoreRow
from cardcore.engine.scoresheet import ScoreSheet, leader, to_target


@dataclass(frozen=True)
class MatchRule:
    """To a points target: the highest total at or above the target wins the match."""

    #: What the target counts, for the rules text and the target's description.
    unit: str = "points"
    #: The keys of the rows' ``counts`` the sheet shows under each hand's result
    #: (``("tricks_taken",)``); the statistics count them already, as every int count.
    shown: tuple[str, ...] = ()

    def winner(self, sheet: ScoreSheet, target: int) -> int | None:
        """The side that has won the match on ``sheet``, or None: play on."""
        return leader(sheet.totals, target)

    def extras(self) -> list[ScoreExtra]:
        """The score extras the rule shows on the sheet (``Game.score_extras``)."""
        return [ScoreExtra(key, _counted(key), stats=False) for key in self.shown]

    def says(self, target: int) -> str:
        """The rule in words, for the rules text: ``to 21 points``."""
        return f"to {target} {self.unit}"

    def goal(self, target: int) -> str:
        """The rule in a few words, at the head of the score sheet: ``target 21``."""
        return to_target(target)

    def row_fault(self, row: ScoreRow) -> str | None:
        """What is wrong with a hand's score row under this rule (check_game asks), or
        None: any points add up to a target."""
        return None


#: The default rule: each hand's points add up to the target.
POINTS_TARGET = MatchRule()


@dataclass(frozen=True)
class FirstToHands(MatchRule):
    """First to win ``target`` hands: each hand scores 1 to the side that won it (at most
    one), so a side's total is the hands it won; ``shown`` as for any rule (what decided
    each hand: ``("card_points",)``)."""

    unit: str = "hands won"

    def says(self, target: int) -> str:
        return f"first to {target} hand{'s' if target != 1 else ''} won"

    def goal(self, target: int) -> str:
        return self.says(target)

    def row_fault(self, row: ScoreRow) -> str | None:
        totals = [side["total"] for side in row["sides"]]
        if any(t not in (0, 1) for t in totals) or sum(totals) > 1:
            return (f"totals {totals}: first to N hands won scores 1 to the side that won "
                    "the hand, 0 to the others (Scores.won)")
        return None


def _counted(key: str) -> Callable[[ScoreRow, int], ExtraValue]:
    """Reads the count ``key`` of a side of a row (None where the row has none)."""

    def read(row: ScoreRow, side: int) -> ExtraValue:
        return row["sides"][side].get("counts", {}).get(key)
    return read
