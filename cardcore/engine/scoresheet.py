"""The score sheet: one itemised row per hand per side, running totals, the target; the
game's own extras (``Game.score_extras``) read from its rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pydantic

from cardcore.language import _

if TYPE_CHECKING:
    from cardcore.engine.game import ExtraValue, Game, GameOptions, ScoreExtra, ScoreRow


@dataclass
class ScoreSheet:
    side_names: list[str]
    target: int
    #: One entry per hand: the game's score() row, ``{"sides": [{"items", "total", ...}]}``.
    hands: list[ScoreRow] = field(default_factory=list)
    #: One line naming the rules played, when the game has variants (``Game.variant``).
    variant: str = ""

    @property
    def sides(self) -> int:
        return len(self.side_names)

    def add(self, row: ScoreRow) -> None:
        if len(row["sides"]) != self.sides:
            raise ValueError(f"a row for {len(row['sides'])} sides on a sheet of {self.sides}")
        self.hands.append(row)

    @property
    def totals(self) -> list[int]:
        totals = [0] * self.sides
        for row in self.hands:
            for i, side in enumerate(row["sides"]):
                totals[i] += side["total"]
        return totals

    def running(self) -> list[list[int]]:
        """The totals after each hand."""
        out, totals = [], [0] * self.sides
        for row in self.hands:
            totals = [t + s["total"] for t, s in zip(totals, row["sides"], strict=True)]
            out.append(totals)
        return out

    def item_keys(self) -> list[str]:
        keys: list[str] = []
        for row in self.hands:
            for side in row["sides"]:
                keys += [k for k in side["items"] if k not in keys]
        return keys

    def to_json(self) -> dict[str, Any]:
        return {"side_names": self.side_names, "target": self.target, "hands": self.hands,
                "totals": self.totals, "variant": self.variant}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScoreSheet:
        return cls(list(data["side_names"]), int(data["target"]), list(data["hands"]),
                   str(data.get("variant", "")))


def leader(totals: Sequence[int], target: int) -> int | None:
    """The side with the highest total when it is at or above ``target``; None below it or
    when equal highest totals share it (they play on): the match rule of
    ``Game.match_winner`` and of the kit's ``POINTS_TARGET`` and ``FirstToHands``."""
    best = max(totals)
    if best < target or list(totals).count(best) > 1:
        return None
    return list(totals).index(best)


def shown_extras(row: ScoreRow, extras: Sequence[ScoreExtra]) -> list[tuple[ScoreExtra, list[ExtraValue]]]:
    """The extras the sheet shows for ``row``: those on the sheet that some side has
    something for, each with its value per side."""
    out = []
    for extra in extras:
        if extra.sheet:
            values = [read_extra(extra, row, side) for side in range(len(row["sides"]))]
            if any(values):
                out.append((extra, values))
    return out


def read_extra(extra: ScoreExtra, row: ScoreRow, side: int) -> ExtraValue:
    """What ``extra`` says of ``side`` in ``row``: None when the row does not say it (a
    stored row from before the game had it, or a damaged one)."""
    try:
        return extra.read(row, side)
    except (LookupError, TypeError, ValueError, AttributeError):
        return None


def extra_count(value: ExtraValue) -> int | None:
    """What ``value`` adds to a statistic: an int as it is (True: 1), a list its length;
    None for a str or nothing."""
    if isinstance(value, int):
        return int(value)
    if isinstance(value, list):
        return len(value)
    return None


def extra_label(extra: ScoreExtra) -> str:
    return extra.label or extra.key.replace("_", " ")


def extras_of(game: Game | None, options: object) -> list[ScoreExtra]:
    """``game``'s score extras for a stored match's ``options`` (its JSON); none for a game
    not installed."""
    return [] if game is None else list(game.score_extras(_stored(game, options)))


def to_target(target: int) -> str:
    """A match to a points target in a few words (``Game.goal``'s default): ``target 21``."""
    return _("target {target}").format(target=target)


def goal_of(game: Game | None, options: object, target: int) -> str:
    """How a stored match is won (``Game.goal``): ``target 21`` for a game not installed."""
    return to_target(target) if game is None else game.goal(_stored(game, options))


def _stored(game: Game, options: object) -> GameOptions:
    """A stored match's options: the game's defaults where they no longer validate."""
    try:
        return game.Options.model_validate(options)
    except pydantic.ValidationError:
        return game.Options()
