"""Score rows: items per side, "most X" with ties scoring nothing, labels for the sheet.

    row = Scores(state.seating)
    row.most("cards", cards_per_side, points=3)      # strictly most: 3; a tie: nobody
    row.each("aces", aces_per_side)                  # 1 point each
    row.add("sweeps", sweeps_per_side)               # points as given
    return row.row()

Values given per seat (``per_seat=True``) are pooled by side: partners share.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardcore.engine.game import ExtraValue, ScoreExtra, ScoreRow, SideScore
from cardcore.engine.seating import Seating


def most(counts: Sequence[int]) -> int | None:
    """The index holding strictly more than every other, or None on a tie for most."""
    best = max(counts)
    return counts.index(best) if list(counts).count(best) == 1 else None


def least(counts: Sequence[int]) -> int | None:
    """The index holding strictly less than every other, or None on a tie for least."""
    low = min(counts)
    return counts.index(low) if list(counts).count(low) == 1 else None


def item_label(item: str) -> str:
    """What the score sheet shows for an item key: ``big_casino`` -> ``big casino``."""
    return item.replace("_", " ")


class Scores:
    """Builds one ScoreRow, item by item, for ``seating``'s sides in side order."""

    def __init__(self, seating: Seating) -> None:
        self.seating = seating
        self.items: dict[str, list[int]] = {}
        #: Item key -> the words for it ("most cards"), for rules text and labels.
        self.labels: dict[str, str] = {}

    def _by_side(self, values: Sequence[int], per_seat: bool) -> list[int]:
        n = self.seating.players if per_seat else self.seating.sides
        if len(values) != n:
            raise ValueError(f"{len(values)} values for {n} {'seats' if per_seat else 'sides'}")
        if not per_seat:
            return list(values)
        return [sum(values[s] for s in self.seating.seats_of(side)) for side in range(self.seating.sides)]

    def add(self, item: str, points: Sequence[int], *, per_seat: bool = False,
            label: str | None = None) -> Scores:
        """``points`` as they are, per side (or per seat, pooled by side)."""
        self.items[item] = self._by_side(points, per_seat)
        self.labels[item] = label or item_label(item)
        return self

    def most(self, item: str, counts: Sequence[int], points: int = 1, *, per_seat: bool = False,
             label: str | None = None) -> Scores:
        """``points`` to the side with strictly the most; a tie for most scores nothing."""
        by_side = self._by_side(counts, per_seat)
        winner = most(by_side)
        return self.add(item, [points if side == winner else 0 for side in range(len(by_side))],
                        label=label or f"most {item_label(item)}")

    def each(self, item: str, counts: Sequence[int], points: int = 1, *, per_seat: bool = False,
             label: str | None = None) -> Scores:
        """``points`` for each one counted."""
        return self.add(item, [c * points for c in self._by_side(counts, per_seat)], label=label)

    def row(self, end: str | None = None) -> ScoreRow:
        """The ScoreRow: each side's seats, its items (in the order added) and their sum."""
        sides: list[SideScore] = []
        for side in range(self.seating.sides):
            items = {k: v[side] for k, v in self.items.items()}
            sides.append({"seats": self.seating.seats_of(side), "items": items,
                          "total": sum(items.values())})
        out: ScoreRow = {"sides": sides}
        if end is not None:
            out["end"] = end
        return out


def counts_from_items(keys: Sequence[str],
                      derive: Callable[[dict[str, int]], dict[str, int]]) -> list[ScoreExtra]:
    """Score extras for the statistics of rows stored before a game filled ``counts``:
    ``derive(items)`` gives such a row's counts (under ``keys``, in that order); a row
    with ``counts`` gives none here (its counts are read as they are)."""

    def extra(key: str) -> ScoreExtra:
        def read(row: ScoreRow, side: int) -> ExtraValue:
            entry = row["sides"][side]
            if "counts" in entry:
                return None
            return derive({k: v for k, v in entry["items"].items() if isinstance(v, int)}).get(key)
        return ScoreExtra(key, read, sheet=False)

    return [extra(key) for key in keys]
