"""The hand's score per side (D40) and the greedy bot's heuristic."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardcore.engine.game import ScoreRow, SideScore

from .rules import CANASTA, CARD_VALUE

if TYPE_CHECKING:
    from .state import CanastaState

ITEMS = ("melded", "natural_canastas", "mixed_canastas", "red_threes", "going_out",
         "concealed", "in_hand")


def side_items(st: CanastaState, side: int) -> dict[str, int]:
    melds = st.melds[side]
    melded = natural = mixed = 0
    for ids, _nat, w in melds.values():
        melded += sum(CARD_VALUE[c] for c in ids)
        if len(ids) >= CANASTA:
            if w:
                mixed += 1
            else:
                natural += 1
    reds = len(st.red_threes[side])
    red = 800 if reds == 4 else 100 * reds
    if not melds:
        red = -red
    out = st.went_out is not None and st.side_of[st.went_out] == side
    in_hand = sum(CARD_VALUE[c] for s in st.seating.seats_of(side) for c in st.hands[s])
    return {
        "melded": melded,
        "natural_canastas": 500 * natural,
        "mixed_canastas": 300 * mixed,
        "red_threes": red,
        "going_out": 100 if out else 0,
        "concealed": 100 if out and st.concealed else 0,
        "in_hand": -in_hand,
    }


def side_counts(st: CanastaState, side: int) -> dict[str, int | str | list[str]]:
    """What the side did, for the score sheet and the statistics (the keys
    ``cardcore.services.store.stats`` reads): canastas by kind, red threes, going out, the cards
    left in hand."""
    melds = st.melds[side].values()
    natural = sum(1 for ids, _n, w in melds if len(ids) >= CANASTA and not w)
    mixed = sum(1 for ids, _n, w in melds if len(ids) >= CANASTA and w)
    out = st.went_out is not None and st.side_of[st.went_out] == side
    return {"canastas": natural + mixed, "natural_canastas": natural, "mixed_canastas": mixed,
            "red_threes": len(st.red_threes[side]), "going_out": int(out),
            "concealed": int(out and st.concealed), "melds": len(st.melds[side]),
            "in_hand": sum(len(st.hands[s]) for s in st.seating.seats_of(side))}


def score_row(st: CanastaState) -> ScoreRow:
    sides: list[SideScore] = []
    for side in range(st.setup.sides):
        items = side_items(st, side)
        sides.append({"seats": st.seating.seats_of(side), "items": items,
                      "total": sum(items.values()), "counts": side_counts(st, side)})
    # how the hand ended, for summaries (simulate counts the endings)
    return {"sides": sides, "end": "going out" if st.went_out is not None else "stock"}


#: What ``older_counts`` gives, in the order the statistics list it.
OLDER_COUNTS = ("canastas", "natural_canastas", "mixed_canastas", "red_threes", "going_out",
                "concealed")


def older_counts(items: dict[str, int]) -> dict[str, int]:
    """The counts of a row stored before the rows had ``counts``, from its points."""
    natural = items.get("natural_canastas", 0) // 500
    mixed = items.get("mixed_canastas", 0) // 300
    reds = abs(items.get("red_threes", 0))
    return {"canastas": natural + mixed, "natural_canastas": natural, "mixed_canastas": mixed,
            "red_threes": 4 if reds == 800 else reds // 100,
            "going_out": int(items.get("going_out", 0) > 0),
            "concealed": int(items.get("concealed", 0) > 0)}


def heuristic(st: CanastaState, seat: int) -> float:
    """The seat's side minus the others: the score so far plus progress toward canastas."""
    mine = st.side_of[seat]
    totals: list[float]
    if st.is_over:
        totals = [side["total"] for side in score_row(st)["sides"]]
    else:
        totals = [_progress(st, side) for side in range(st.setup.sides)]
    return float(totals[mine] - sum(t for side, t in enumerate(totals) if side != mine))


def _progress(st: CanastaState, side: int) -> float:
    items = side_items(st, side)
    value = sum(items.values()) - items["in_hand"] * 0.7  # cards in hand are potential too
    for ids, _nat, w in st.melds[side].values():
        n = len(ids)
        if n < CANASTA:
            value += 12 * n * n / CANASTA - 4 * w
    return value
