"""The score sheet: one itemised row per hand per side, running totals, the target."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardcore.engine.game import ScoreRow


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
