"""Canasta's steps as small immutable actions, interned so the hot path reuses them.

``key`` identifies the JSON (card ids are canonical, so equal JSON = equal key);
``side`` (for targets), ``out`` (the step ends the hand: label "Go out") and
``need`` (a side's first meld: the minimum it meets, shown in the label beside its
count) ride along without taking part in equality.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Any

from mypy_extensions import mypyc_attr

from cardcore.engine.cards import glyph, glyphs
from cardcore.engine.game import Action
from cardcore.language import N_

from .rules import CARD_IDS, CARD_VALUE, DEUCE, ID_TEXT, MOST_SEATS, SLOT_NAMES
from .words import _


class Kind(IntEnum):
    """What a step does (the engine dispatches on it; compared like ints, no cost)."""

    DRAW = 0  # from the stock
    TAKE = 1  # the discard pile, with cards from the hand
    ONTO = 2  # the discard pile, its top card onto the side's meld of its rank
    MELD = 3  # new melds
    ADD = 4  # cards onto a meld of the side
    DISCARD = 5
    DECLINE = 6  # leave the pile when the stock is empty: the hand ends (D33)


DRAW, TAKE, ONTO, MELD, ADD, DISCARD, DECLINE = Kind


def _glyphs(ids: Iterable[int]) -> str:
    return glyphs(ID_TEXT[c] for c in ids)


_PLURALS = {"A": N_("aces"), "K": N_("kings"), "Q": N_("queens"), "J": N_("jacks"),
            "3": N_("threes")}


def meld_name(slot: int) -> str:
    """How people name a meld by its rank: "aces", "7s" (a label says "the aces")."""
    name = SLOT_NAMES[slot]
    word = _PLURALS.get(name)
    # TRANSLATORS: the cards of one rank, a meld's name: "7s" ("the 7s").
    return _(word) if word is not None else _("{rank}s").format(rank=name)


_STEPS = ("draw", "take", "take", None, None, "discard", "decline")


# An interpreted class when mypyc compiles this module (docs/design.md, Engine speed): its
# base, the core's Action, is interpreted and has __slots__, which a native class may not.
@mypyc_attr(native_class=False)
class CanastaAction(Action):
    """One step. ``data`` by kind: TAKE (with, melds), ONTO slot, MELD melds,
    ADD (slot, cards), DISCARD card; melds are tuples of sorted card-id tuples.
    ``need``: 0, or the minimum this first meld of the side meets (D36)."""

    __slots__ = ("kind", "data", "side", "out", "need")

    def __init__(self, kind: Kind, data: Any, side: int = 0, out: bool = False,
                 need: int = 0) -> None:
        self.kind = kind
        self.data = data
        self.side = side
        self.out = out
        self.need = need
        self.key = (kind, data)

    # --- for people ----------------------------------------------------------

    @property
    def label(self) -> str:
        kind, data = self.kind, self.data
        if kind == DRAW:
            return _("Draw from the stock")
        if kind == DECLINE:
            return _("Leave the pile (the hand ends)")
        if kind == DISCARD:
            text = _("Discard {card}").format(card=glyph(ID_TEXT[data]))
        elif kind == ONTO:
            text = _("Take the pile onto the {meld}").format(meld=meld_name(data))
        elif kind == TAKE:
            text = _("Take the pile with {cards}").format(cards=_glyphs(data[0]))
            if data[1]:
                text += _(", meld {melds}").format(melds=" + ".join(_glyphs(m) for m in data[1]))
        elif kind == MELD:
            text = _("Meld {melds}").format(melds=" + ".join(_glyphs(m) for m in data))
        else:
            text = _("Add {cards} to the {meld}").format(cards=_glyphs(data[1]),
                                                         meld=meld_name(data[0]))
        if self.need:
            text += " · " + first_meld_count(self.melds, self.need)
        if self.out:
            return _("Go out: {step}").format(step=text[0].lower() + text[1:])
        return text

    @property
    def shown_key(self) -> tuple:
        """Its slots: all its JSON, label, cards, targets and step read."""
        return (self.kind, self.data, self.side, self.out, self.need)

    @property
    def melds(self) -> tuple[tuple[int, ...], ...]:
        """The melds it lays, as card ids (taking the pile: the top card's meld first,
        with the top card, which is of the rank of its natural pair, D29)."""
        kind, data = self.kind, self.data
        if kind == MELD:
            return data
        if kind == TAKE:
            with_cards, others = data
            return ((*with_cards, with_cards[0]), *others)
        return ()

    @property
    def hand_cards(self) -> tuple[str, ...]:
        kind, data = self.kind, self.data
        ids: tuple[int, ...]
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

    @property
    def table_cards(self) -> tuple[tuple[str | None, str], ...]:
        """The pile it takes and the meld it uses, as whole groups (no single card)."""
        kind, data = self.kind, self.data
        if kind == ONTO:
            return ((None, "discard"), (None, f"meld-{self.side}-{SLOT_NAMES[data]}"))
        if kind == TAKE:
            return ((None, "discard"),)
        if kind == ADD:
            return ((None, f"meld-{self.side}-{SLOT_NAMES[data[0]]}"),)
        return ()

    @property
    def step(self) -> str | None:
        """draw, take (the pile, any way), discard: the turn's recurring steps."""
        return _STEPS[self.kind]

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
DISCARDS = tuple(CanastaAction(DISCARD, c) for c in CARD_IDS)
DISCARDS_OUT = tuple(CanastaAction(DISCARD, c, out=True) for c in CARD_IDS)
ONTOS = tuple(tuple(CanastaAction(ONTO, s, side) for s in range(DEUCE)) for side in range(MOST_SEATS))

def first_meld_count(melds: tuple[tuple[int, ...], ...], need: int) -> str:
    """What a first meld counts beside the minimum it must meet: "15 + 30 = 45 of 50"
    (a concealed hand going out below it, where the options allow it: "45, under 50")."""
    values = [sum(CARD_VALUE[c] for c in meld) for meld in melds]
    total = sum(values)
    text = " + ".join(map(str, values)) + (f" = {total}" if len(values) > 1 else "")
    if total >= need:
        return _("{count} of {need}").format(count=text, need=need)
    return _("{count}, under {need}").format(count=text, need=need)


#: One dict operation at a time: safe from any thread (two threads may each make an
#: action, equal by key: apply falls back from identity to equality; docs/design.md).
_INTERNED: dict[tuple[Any, ...], CanastaAction] = {}


def interned(kind: Kind, data: Any, side: int, out: bool) -> CanastaAction:
    """The one action object for this step (the table stays small: steps repeat)."""
    k = (kind, data, side, out)
    action = _INTERNED.get(k)
    if action is None:
        if len(_INTERNED) > 200_000:
            _INTERNED.clear()
        action = _INTERNED[k] = CanastaAction(kind, data, side, out)
    return action


def interned_first(kind: Kind, data: Any, side: int, out: bool, need: int) -> CanastaAction:
    """``interned`` for a side's first meld (a meld, or taking the pile), which also
    carries the minimum it meets (D36)."""
    k = (kind, data, side, out, need)
    action = _INTERNED.get(k)
    if action is None:
        if len(_INTERNED) > 200_000:
            _INTERNED.clear()
        action = _INTERNED[k] = CanastaAction(kind, data, side, out, need)
    return action
