"""Royal Casino's scoring hooks (D17, D20, D21): cancelling sweeps, the aces listed
in the score sheet's order, the near-target rule; what its score rows add to the
common keys, and the score extras that read them."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from cardcore.engine.game import ExtraValue, ScoreExtra, ScoreRow, SideScore
from cardcore.language import N_
from cardcore_casino.rules import ID

if TYPE_CHECKING:
    from cardcore_casino.state import FishingState

#: The order the score sheet lists the aces (D20).
ACE_ORDER = ("AS", "AC", "AH", "AD")

#: What a side starting the hand 3, 2 or 1 short of the target may score.
NEAR_ITEM = {3: "cards", 2: "big_casino", 1: "little_casino"}


class RoyalSideScore(SideScore, total=False):
    """A side of a Royal Casino score row."""

    #: The aces this side scored, spades, clubs, hearts, diamonds (D20; ``aces`` their count).
    ace_cards: list[str]


class RoyalScoreRow(ScoreRow, total=False):
    """A Royal Casino score row."""

    #: The sides that landed on the target by the near-target rule (D21).
    outright: list[int]


def outright_of(row: ScoreRow) -> list[int]:
    """The sides that landed on the target by the near-target rule in ``row``."""
    return cast(RoyalScoreRow, row).get("outright") or []


def _aces_scored(row: ScoreRow, side: int) -> ExtraValue:
    return cast(RoyalSideScore, row["sides"][side]).get("ace_cards")


def _won_outright(row: ScoreRow, side: int) -> ExtraValue:
    return int(side in outright_of(row))


#: What the statistics count of Royal Casino's own keys (the sheet shows the aces taken
#: already, in the counts, and the winner): the aces scored and the hands won outright.
EXTRAS = [ScoreExtra("aces", _aces_scored, sheet=False),
          ScoreExtra("outright", _won_outright, label=N_("won outright"), sheet=False)]


def cancel_sweeps(sweeps: list[int]) -> list[int]:
    """Opposing sweeps cancel one for one: each side keeps its sweeps less the most of
    any other side, never below 0."""
    out = []
    for i, s in enumerate(sweeps):
        most_other = max(x for j, x in enumerate(sweeps) if j != i)
        out.append(max(0, s - most_other))
    return out


def royal_row(state: FishingState, row: ScoreRow) -> None:
    """The score hook of Royal Casino: the near-target rule, then each side's scored aces
    listed as ``ace_cards`` in the order spades, clubs, hearts, diamonds (and the aces
    it took, in its ``counts``, in that order too)."""
    near_target(state, row)
    for seats, entry in zip(state.seats.side_seats, row["sides"], strict=True):
        taken = {c for s in seats for c in state.captured[s]}
        cast(RoyalSideScore, entry)["ace_cards"] = ([a for a in ACE_ORDER if ID[a] in taken]
                                                    if entry["items"]["aces"] else [])
        counts = entry.get("counts")
        aces = counts.get("aces") if isinstance(counts, dict) else None
        if isinstance(counts, dict) and isinstance(aces, list):
            # the sheet's "aces 2 (A♠ A♥)" in the same order
            counts["aces"] = [a for a in ACE_ORDER if a in aces]


def near_target(state: FishingState, row: ScoreRow) -> None:
    """Apply the near-target rule to ``row`` in place; ``row["outright"]`` lists the sides
    that landed on the target by it (one: it wins outright; two or more: another hand)."""
    target = state.rules.options.target
    outright = []
    for side, entry in enumerate(row["sides"]):
        before = state.totals_before[side]
        items = entry["items"]
        if before >= target - 3:
            items["sweeps"] = 0  # it scores no sweeps; they still cancelled the others'
        short = target - before
        if before >= target - 3:
            entry["note"] = (f"{before} of {target} before the hand: only "
                             f"{NEAR_ITEM.get(short, 'cards').replace('_', ' ')} scores "
                             "(near-target rule), no sweeps")
        if target > 3 and short in NEAR_ITEM:
            keep = NEAR_ITEM[short]
            for k in items:
                if k != keep:
                    items[k] = 0
            if items[keep]:
                outright.append(side)
        entry["total"] = sum(items.values())
    cast(RoyalScoreRow, row)["outright"] = outright
