"""The hand's score per side (D40) and the greedy bot's heuristic."""

from __future__ import annotations

from .rules import CARD_VALUE

ITEMS = ("melded", "natural_canastas", "mixed_canastas", "red_threes", "going_out",
         "concealed", "in_hand")


def side_items(st, side: int) -> dict[str, int]:
    melds = st.melds[side]
    melded = natural = mixed = 0
    for ids, _nat, w in melds.values():
        melded += sum(CARD_VALUE[c] for c in ids)
        if len(ids) >= 7:
            if w:
                mixed += 1
            else:
                natural += 1
    reds = len(st.red3[side])
    red = 800 if reds == 4 else 100 * reds
    if not melds:
        red = -red
    out = st.went_out is not None and st.went_out & 1 == side
    in_hand = sum(CARD_VALUE[c] for s in (side, side + 2) for c in st.hands[s])
    return {
        "melded": melded,
        "natural_canastas": 500 * natural,
        "mixed_canastas": 300 * mixed,
        "red_threes": red,
        "going_out": 100 if out else 0,
        "concealed": 100 if out and st.concealed else 0,
        "in_hand": -in_hand,
    }


def score_row(st) -> dict:
    sides = []
    for side in range(2):
        items = side_items(st, side)
        sides.append({"seats": [side, side + 2], "items": items, "total": sum(items.values())})
    # how the hand ended, for summaries (simulate counts the endings)
    return {"sides": sides, "end": "going out" if st.went_out is not None else "stock"}


def heuristic(st, seat: int) -> float:
    """The seat's side minus the other: the score so far plus progress toward canastas."""
    if st.is_over:
        row = score_row(st)["sides"]
        return float(row[seat & 1]["total"] - row[1 - (seat & 1)]["total"])
    value = [0.0, 0.0]
    for side in range(2):
        items = side_items(st, side)
        v = sum(items.values()) - items["in_hand"] * 0.7  # cards in hand are potential too
        for ids, _nat, w in st.melds[side].values():
            n = len(ids)
            if n < 7:
                v += 12 * n * n / 7 - 4 * w
        value[side] = v
    return value[seat & 1] - value[1 - (seat & 1)]
