"""What a hand's end is worth: its margin, and near the target the match it decides.

The search and the solver score a finished hand by its score row: each side's total
less the mean of the others' (``margins``). When the state knows the match totals before
the hand (``GameState.match_totals``), ``Stakes`` adds the match: the game's own
``match_winner`` reads a sheet of the totals before and this hand's row, and the side it
names gains ``MATCH_WORTH`` times the target (the others lose it between them). Far from
the target no hand's end decides the match and the values are the margins alone; near
it, a hand that wins the match is worth more than any margin, and one that hands the
match to another side less than any.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardcore.engine.game import Game, GameOptions, GameState, ScoreRow
from cardcore.engine.scoresheet import ScoreSheet

#: A match won, in targets of points: more than a hand's margin can be in a built-in game
#: (Casino's 21: about 20 at most; Canasta's 5,000: a few thousand).
MATCH_WORTH = 2


def margins(totals: Sequence[float]) -> list[float]:
    """Each side's total less the mean of the other sides'."""
    n = len(totals)
    whole = sum(totals)
    return [t - (whole - t) / (n - 1) for t in totals] if n > 1 else [float(t) for t in totals]


@dataclass(frozen=True)
class Stakes:
    """The match a hand is played in: the game, its options and the totals before it."""

    game: Game
    options: GameOptions
    before: ScoreRow

    @classmethod
    def of(cls, game: Game, state: GameState) -> Stakes | None:
        """The stakes of ``state``'s hand, or None when the state knows no match totals."""
        totals = state.match_totals()
        if totals is None:
            return None
        options = game.Options(**state.export()["options"])
        before: ScoreRow = {"sides": [{"seats": [], "items": {}, "total": t} for t in totals]}
        return cls(game, options, before)

    @property
    def worth(self) -> float:
        """A match won, in points."""
        return float(MATCH_WORTH * self.options.target)

    def values(self, row: ScoreRow) -> list[float]:
        """Each side's value of a finished hand: its margin, and the match if it decides it."""
        return self.split(row)[0]

    def split(self, row: ScoreRow) -> tuple[list[float], list[float] | None]:
        """``values`` and the match's part of them (``match``), the winner found once."""
        out = margins([float(side["total"]) for side in row["sides"]])
        match = self.match(row)
        return (out if match is None else [v + m for v, m in zip(out, match, strict=True)]), match

    def match(self, row: ScoreRow) -> list[float] | None:
        """Each side's share of the match a finished hand decides (the winner ``worth``,
        the others ``-worth`` between them), or None when it decides none."""
        n = len(row["sides"])
        sheet = ScoreSheet([""] * n, self.options.target, [self.before, row])
        winner = self.game.match_winner(sheet, self.options)
        if winner is None or n < 2:
            return None
        worth = self.worth
        return [worth if s == winner else -worth / (n - 1) for s in range(n)]

    def part(self, value: float) -> float:
        """The match's part of a two-sided value (the solver's): a whole multiple of
        ``worth``, since a hand's margin is smaller than the target in the games that
        keep totals (Casino's 11 points and sweeps against 21)."""
        return round(value / self.worth) * self.worth


def hand_values(row: ScoreRow, stakes: Stakes | None) -> list[float]:
    """Each side's value of a finished hand: with ``stakes``, the match counts too."""
    if stakes is not None:
        return stakes.values(row)
    return margins([float(side["total"]) for side in row["sides"]])
