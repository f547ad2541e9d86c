"""Canasta's steps as small immutable actions, interned so the hot path reuses them.

``key`` identifies the JSON (card ids are canonical, so equal JSON = equal key);
``side`` (for targets) and ``out`` (the step ends the hand: label "Go out") ride
along without taking part in equality.
"""

from __future__ import annotations

from cardcore.cards import glyph, glyphs
from cardcore.game import Action

from .rules import ID_TEXT, SLOT_NAMES

DRAW, TAKE, ONTO, MELD, ADD, DISCARD, DECLINE = range(7)


def _glyphs(ids) -> str:
    return glyphs(ID_TEXT[c] for c in ids)


_PLURALS = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "3": "threes"}


def _plural(slot: int) -> str:
    """How people name a meld: "the aces", "the 7s"."""
    name = SLOT_NAMES[slot]
    return _PLURALS.get(name, name + "s")


class CanastaAction(Action):
    """One step. ``data`` by kind: TAKE (with, melds), ONTO slot, MELD melds,
    ADD (slot, cards), DISCARD card; melds are tuples of sorted card-id tuples."""

    __slots__ = ("kind", "data", "side", "out")

    def __init__(self, kind: int, data, side: int = 0, out: bool = False):
        self.kind = kind
        self.data = data
        self.side = side
        self.out = out
        self.key = (kind, data)

    # --- for people ----------------------------------------------------------

    @property
    def label(self) -> str:
        kind, data = self.kind, self.data
        if kind == DRAW:
            return "Draw from the stock"
        if kind == DECLINE:
            return "Leave the pile (the hand ends)"
        if kind == DISCARD:
            text = "Discard " + glyph(ID_TEXT[data])
        elif kind == ONTO:
            text = f"Take the pile onto the {_plural(data)}"
        elif kind == TAKE:
            text = "Take the pile with " + _glyphs(data[0])
            if data[1]:
                text += ", meld " + " + ".join(_glyphs(m) for m in data[1])
        elif kind == MELD:
            text = "Meld " + " + ".join(_glyphs(m) for m in data)
        else:
            text = f"Add {_glyphs(data[1])} to the {_plural(data[0])}"
        return f"Go out: {text[0].lower()}{text[1:]}" if self.out else text

    @property
    def hand_cards(self) -> tuple[str, ...]:
        kind, data = self.kind, self.data
        if kind == DISCARD:
            ids = (data,)
        elif kind == TAKE:
            ids = data[0] + tuple(c for m in data[1] for c in m)
        elif kind == MELD:
            ids = tuple(c for m in data for c in m)
        elif kind == ADD:
            ids = data[1]
        else:
            ids = ()
        return tuple(ID_TEXT[c] for c in ids)

    @property
    def targets(self) -> tuple[str, ...]:
        kind, data = self.kind, self.data
        if kind == DRAW:
            return ("stock",)
        if kind in (DISCARD, DECLINE):
            return ("discard",)
        if kind == ONTO:
            return ("discard", f"meld-{self.side}-{SLOT_NAMES[data]}")
        if kind == TAKE:
            return ("discard", f"melds-{self.side}")
        if kind == MELD:
            return (f"melds-{self.side}",)
        return (f"meld-{self.side}-{SLOT_NAMES[data[0]]}",)

    def to_json(self) -> dict:
        kind, data = self.kind, self.data
        if kind == DRAW:
            return {"type": "draw"}
        if kind == DECLINE:
            return {"type": "decline"}
        if kind == DISCARD:
            return {"type": "discard", "card": ID_TEXT[data]}
        if kind == ONTO:
            return {"type": "take_pile", "onto": SLOT_NAMES[data]}
        if kind == TAKE:
            return {"type": "take_pile", "with": [ID_TEXT[c] for c in data[0]],
                    "melds": [[ID_TEXT[c] for c in m] for m in data[1]]}
        if kind == MELD:
            return {"type": "meld", "melds": [[ID_TEXT[c] for c in m] for m in data]}
        return {"type": "add", "rank": SLOT_NAMES[data[0]], "cards": [ID_TEXT[c] for c in data[1]]}


DRAW_ACTION = CanastaAction(DRAW, None)
DECLINE_ACTION = CanastaAction(DECLINE, None)
DISCARDS = tuple(CanastaAction(DISCARD, c) for c in range(53))
DISCARDS_OUT = tuple(CanastaAction(DISCARD, c, out=True) for c in range(53))
ONTOS = tuple(tuple(CanastaAction(ONTO, s, side) for s in range(12)) for side in range(2))

_INTERNED: dict[tuple, CanastaAction] = {}


def interned(kind: int, data, side: int, out: bool) -> CanastaAction:
    """The one action object for this step (the table stays small: steps repeat)."""
    k = (kind, data, side, out)
    action = _INTERNED.get(k)
    if action is None:
        if len(_INTERNED) > 200_000:
            _INTERNED.clear()
        action = _INTERNED[k] = CanastaAction(kind, data, side, out)
    return action
