"""Score rows: items per side, "most X" with ties scoring nothing, labels for the sheet.

    row = Scores(state.seating)
    row.most("cards", cards_per_side, points=3)      # strictly most: 3; a tie: nobody
    row.each("aces", aces_per_side)                  # 1 point each
    row.add("sweeps", sweeps_per_side)               # points as given
    row.count("card_points", points_per_side)        # counted, not scored: the row's counts
    return row.row()

A hand won rather than points (``FirstToHands``): ``row.won(side)`` scores 1 to the side
that won it (None: nobody). Values given per seat (``per_seat=True``) are pooled by side:
partners share (counts that are lists of cards are put together).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardcore.engine.game import ExtraValue, ScoreExtra, ScoreRow, SideScore
from cardcore.engine.seating import Seating

#: What a count may be (``SideScore.counts``): a number, which (a list, cards in notation), a word.
Counted = int | str | list[str]


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
        #: Count key -> the count per side: each side's ``counts`` in the row.
        self.counts: dict[str, list[Counted]] = {}
        #: Side -> its note (``SideScore.note``).
        self.notes: dict[int, str] = {}

    def _by_side(self, values: Sequence[int], per_seat: bool) -> list[int]:
        return [sum(seats) for seats in self._pooled(values, per_seat)]

    def _pooled(self, values: Sequence[Any], per_seat: bool) -> list[list[Any]]:
        """Each side's values: its own (one) or its seats' (``per_seat``)."""
        n = self.seating.players if per_seat else self.seating.sides
        if len(values) != n:
            raise ValueError(f"{len(values)} values for {n} {'seats' if per_seat else 'sides'}")
        if not per_seat:
            return [[v] for v in values]
        return [[values[s] for s in self.seating.seats_of(side)] for side in range(self.seating.sides)]

    def add(self, item: str, points: Sequence[int], *, per_seat: bool = False,
            label: str | None = None) -> Scores:
        """``points`` as they are, per side (or per seat, pooled by side)."""
        self.items[item] = self._by_side(points, per_seat)
        self.labels[item] = label or item_label(item)
        return self

    def most(self, item: str, counts: Sequence[int], points: int = 1, *, per_seat: bool = False,
             label: str | None = None, counted: bool = False) -> Scores:
        """``points`` to the side with strictly the most; a tie for most scores nothing.
        ``counted``: the counts go in the row too (``count(item, ...)``): the sheet shows
        them beside the points, a tie too (cards 26-26)."""
        by_side = self._by_side(counts, per_seat)
        winner = most(by_side)
        if counted:
            self.count(item, by_side)
        return self.add(item, [points if side == winner else 0 for side in range(len(by_side))],
                        label=label or f"most {item_label(item)}")

    def each(self, item: str, counts: Sequence[int], points: int = 1, *, per_seat: bool = False,
             label: str | None = None, counted: bool = False) -> Scores:
        """``points`` for each one counted (``counted``: the counts go in the row too)."""
        by_side = self._by_side(counts, per_seat)
        if counted:
            self.count(item, by_side)
        return self.add(item, [c * points for c in by_side], label=label)

    def won(self, side: int | None, item: str = "won", *, label: str | None = None) -> Scores:
        """The hand won by ``side`` (None: by nobody, a drawn hand): 1 to it, 0 to the
        others (a match first to N hands won, ``FirstToHands``)."""
        if side is not None and not 0 <= side < self.seating.sides:
            raise ValueError(f"no side {side} of {self.seating.sides}")
        return self.add(item, [int(s == side) for s in range(self.seating.sides)],
                        label=label or "hand won")

    def count(self, key: str, values: Sequence[Counted], *, per_seat: bool = False) -> Scores:
        """What was counted, not scored (card points 72, aces ["AS", "AH"]): each side's
        value goes in its ``counts`` under ``key``; the sheet shows a count beside the item
        of the same key, and the statistics add up the int counts. Per seat, ints are
        added up and lists put together by side."""
        self.counts[key] = [_pool(seats) for seats in self._pooled(values, per_seat)]
        return self

    def note(self, side: int, text: str) -> Scores:
        """Why ``side``'s points are not what its counts suggest, shown under the sheet."""
        self.notes[side] = text
        return self

    def row(self, end: str | None = None) -> ScoreRow:
        """The ScoreRow: each side's seats, its items (in the order added) and their sum,
        its ``counts`` when some were given (in the order given) and its ``note`` if any.
        Every call gives new dicts: a row edited afterwards changes nothing here."""
        sides: list[SideScore] = []
        for side in range(self.seating.sides):
            items = {k: v[side] for k, v in self.items.items()}
            entry: SideScore = {"seats": self.seating.seats_of(side), "items": items,
                                "total": sum(items.values())}
            if self.counts:
                entry["counts"] = {k: _copy(v[side]) for k, v in self.counts.items()}
            if side in self.notes:
                entry["note"] = self.notes[side]
            sides.append(entry)
        out: ScoreRow = {"sides": sides}
        if end is not None:
            out["end"] = end
        return out


def _pool(values: list[Any]) -> Counted:
    """One side's count from its seats' (one value: itself)."""
    if len(values) == 1:
        return _copy(values[0])
    if all(isinstance(v, int) for v in values):
        return sum(values)
    if all(isinstance(v, list) for v in values):
        return [c for v in values for c in v]
    raise ValueError(f"cannot add up {values!r} by side: ints or lists, per seat")


def _copy(value: Counted) -> Counted:
    return list(value) if isinstance(value, list) else value


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
