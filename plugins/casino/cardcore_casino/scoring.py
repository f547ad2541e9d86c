"""The hand's score row (D17, D19, D20) and the greedy bot's heuristic.

Items, in points: ``cards`` 3 for strictly most cards, ``spades`` 1 for strictly
most spades, ``big_casino`` 2 (10D), ``little_casino`` 1 (2S), ``aces`` 1 each,
``sweeps`` 1 each. Partners pool their captures. A variant adjusts the sweeps
(``Rules.sweep_points``) and the row (``Rules.score_hook``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardcore.engine.game import ScoreRow, SideScore
from cardcore_casino.rules import ACES_BITS, BIG_CASINO, BIT, LITTLE_CASINO, SPADES_BITS

if TYPE_CHECKING:
    from cardcore_casino.state import FishingState

ITEMS = ("cards", "spades", "big_casino", "little_casino", "aces", "sweeps")


def strict_most(counts: list[int]) -> int | None:
    """The side with strictly more than every other, or None on a tie."""
    best = max(counts)
    return counts.index(best) if counts.count(best) == 1 else None


def tallies(state: FishingState) -> list[dict[str, int]]:
    """Raw counts per side: cards, spades, big and little casino, aces, sweeps."""
    out = []
    for seats in state.seats.side_seats:
        bits = 0
        cards = 0
        for s in seats:
            for c in state.captured[s]:
                bits |= BIT[c]
            cards += len(state.captured[s])
        out.append({
            "cards": cards,
            "spades": (bits & SPADES_BITS).bit_count(),
            "big_casino": bits >> BIG_CASINO & 1,
            "little_casino": bits >> LITTLE_CASINO & 1,
            "aces": (bits & ACES_BITS).bit_count(),
            "sweeps": sum(state.sweeps[s] for s in seats),
        })
    return out


def counts_of(state: FishingState, seats: tuple[int, ...] | list[int],
              t: dict[str, int]) -> dict[str, int | str | list[str]]:
    """What the side took, for the score sheet and the statistics: cards, spades, the
    casinos (0/1), which aces, the sweeps it made (before any cancelling)."""
    from cardcore_casino.rules import NAMES

    taken = {c for s in seats for c in state.captured[s]}
    aces = [NAMES[c] for c in sorted(taken) if ACES_BITS >> c & 1]
    return {"cards": t["cards"], "spades": t["spades"], "big_casino": t["big_casino"],
            "little_casino": t["little_casino"], "aces": aces, "sweeps": t["sweeps"]}


def score_row(state: FishingState) -> ScoreRow:
    rules = state.rules
    raw = tallies(state)
    sweeps = [t["sweeps"] for t in raw]
    if rules.sweep_points is not None:
        sweeps = rules.sweep_points(sweeps)
    if not rules.sweeps_score:
        sweeps = [0] * len(raw)
    most_cards = strict_most([t["cards"] for t in raw])
    most_spades = strict_most([t["spades"] for t in raw])
    row_sides: list[SideScore] = []
    for side, (seats, t) in enumerate(zip(state.seats.side_seats, raw, strict=True)):
        items = {
            "cards": 3 if side == most_cards else 0,
            "spades": 1 if side == most_spades else 0,
            "big_casino": 2 * t["big_casino"],
            "little_casino": t["little_casino"],
            "aces": t["aces"],
            "sweeps": sweeps[side],
        }
        row_sides.append({"seats": list(seats), "items": items, "total": sum(items.values()),
                          "counts": counts_of(state, seats, t)})
    row: ScoreRow = {"sides": row_sides}
    if rules.score_hook is not None:
        rules.score_hook(state, row)
    return row


#: What ``older_counts`` gives, in the order the statistics list it.
OLDER_COUNTS = ("sweeps", "big_casino")


def older_counts(items: dict[str, int]) -> dict[str, int]:
    """The counts of a row stored before the rows had ``counts``, from its points: a sweep
    scores 1 (net of the sweeps cancelled), big casino (10D) 2."""
    return {"sweeps": items.get("sweeps", 0), "big_casino": items.get("big_casino", 0) // 2}


_WORTH = [0.0] * 52
for _c in range(52):
    _WORTH[_c] = 0.12 + (0.06 if SPADES_BITS >> _c & 1 else 0.0) + (ACES_BITS >> _c & 1) \
        + 2.0 * (_c == BIG_CASINO) + 1.0 * (_c == LITTLE_CASINO)


def heuristic(state: FishingState, seat: int) -> float:
    """Material captured by the seat's side minus the others', sweeps counted, builds
    half-valued for their owner's side, loose cards a risk when an opponent is to play."""
    n = state.players
    side = state.seats.side
    mine = side[seat]
    share = 1.0 / (n - 1) if n == 3 else 1.0  # three players: two opponents
    total = 0.0
    for s in range(n):
        worth = sum(_WORTH[c] for c in state.captured[s]) + state.sweeps[s]
        total += worth if side[s] == mine else -share * worth
    for b in state.builds:
        worth = 0.5 * sum(_WORTH[c] for g in b.groups for c in g)
        total += worth if side[b.owner] == mine else -share * worth
    if state.to_play is not None and side[state.to_play] != mine:
        total -= 0.3 * sum(_WORTH[c] for c in state.loose)
    return total
