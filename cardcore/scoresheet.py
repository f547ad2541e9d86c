"""The score sheet: one itemised row per hand per side, running totals, the target."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rich.table import Table

if TYPE_CHECKING:
    from cardcore.game import ScoreRow


@dataclass
class ScoreSheet:
    side_names: list[str]
    target: int
    #: One entry per hand: the game's score() row, ``{"sides": [{"items", "total", ...}]}``.
    hands: list[ScoreRow] = field(default_factory=list)

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
                "totals": self.totals}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScoreSheet:
        return cls(list(data["side_names"]), int(data["target"]), list(data["hands"]))

    def rich_table(self, winner: int | None = None) -> Table:
        """Hands down, sides across: each hand's items, its total and the running total."""
        table = Table(title=f"Score sheet — target {self.target}", expand=False)
        table.add_column("Hand", justify="right")
        table.add_column("")
        for i, name in enumerate(self.side_names):
            mark = " ★" if winner == i else ""
            table.add_column(name + mark, justify="right")
        keys = self.item_keys()
        for h, (row, run) in enumerate(zip(self.hands, self.running(), strict=True), start=1):
            for k in keys:
                values = [side["items"].get(k, 0) for side in row["sides"]]
                if any(values):
                    table.add_row("", k.replace("_", " "), *map(str, values))
            table.add_row(str(h), "[b]hand[/b]", *(f"[b]{s['total']}[/b]" for s in row["sides"]))
            table.add_row("", "[b]total[/b]", *(f"[b]{t}[/b]" for t in run), end_section=True)
        return table
