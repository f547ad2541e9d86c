"""Why a card of the hand has no meld, add or pile to take (``CanastaState.why_not``),
and what the log says of a draw that turns up red threes. For people: off the hot path.
The front end shows a reason on one line after the card: each is kept short.

Every reason reads the position and the legal steps only; it says what the rules
(D24-D36) forbid, the numbers included ("counts 70; a first meld needs 90 points"), in
words: the decision numbers stay in the docs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardcore.engine.cards import glyph, glyphs

from .actions import DISCARD, DRAW, ONTO, TAKE, CanastaAction, _plural
from .melds import best_first_meld
from .moves import DRAW_PHASE, PLAY_PHASE
from .rules import (
    BLACK_THREES,
    DEUCE,
    FREEZES,
    ID_TEXT,
    IS_RED_THREE,
    JOKER,
    NATURALS,
    RANK_OF,
    TEXT_ID,
    THREE,
    is_wild,
)

if TYPE_CHECKING:
    from .state import CanastaState

_ONE = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}


def _name(slot: int) -> str:
    """"7", "king": one card of a rank as the reasons name it."""
    name = ID_TEXT[slot * 4][:-1]
    return _ONE.get(name, name)


def _one(slot: int) -> str:
    """"a 7", "an ace"."""
    name = _name(slot)
    return ("an " if name in ("ace", "8") else "a ") + name


def why_not(st: CanastaState, card: str) -> str | None:
    """Why the seat to play has no meld, add or take of the pile with ``card`` (from its
    hand), or None when it has one (a discard alone does not count: every card has one)."""
    c = TEXT_ID.get(card)
    p = st.to_play
    if c is None or p is None or c not in st.hands[p]:
        return None
    if any(c in _cards_of(a) for a in _steps(st) if a.kind != DISCARD):
        return None
    if st.phase == DRAW_PHASE:
        return "draw first (d)" + _pile_reason(st, p, c)
    if st.phase != PLAY_PHASE:
        return None
    if c in BLACK_THREES:
        return "black threes meld only when going out, three or four of them"
    side = st.side_of[p]
    if not st.initial_meld_done[side]:
        return _first_meld_reason(st, p, c)
    return _melded_reason(st, p, c)


def _steps(st: CanastaState) -> list[CanastaAction]:
    return [a for a in st.legal_actions() if isinstance(a, CanastaAction)]


def _cards_of(action: CanastaAction) -> tuple[int, ...]:
    return tuple(TEXT_ID[t] for t in action.hand_cards)


# --- the draw: the pile ----------------------------------------------------------------


def _pile_reason(st: CanastaState, p: int, c: int) -> str:
    """Why ``c`` takes no pile (said after "draw first (d)"; short: one line at 80 columns)."""
    pile = st.pile
    if not pile:
        return ": the pile is empty"
    top = pile[-1]
    t = RANK_OF[top]
    shown = glyph(ID_TEXT[top])
    if t == THREE or is_wild(top):
        return f": {shown} on top, the pile cannot be taken"
    if len(st.hands[p]) == 1 and len(pile) == 1:
        return ": with one card you may not take a pile of one"
    if any(a.kind == ONTO for a in _steps(st)):
        return f": the {shown} goes onto your {_plural(t)} with no hand card: t"
    if any(a.kind == TAKE for a in _steps(st)):
        return f": the {shown} is taken with your {_plural(t)}, not this card: t"
    side = st.side_of[p]
    why = "the pile is frozen: it takes" if st.freezers else (
        "a first meld takes the pile with" if not st.initial_meld_done[side] else "")
    held = st.rank_counts[p][t]
    if why and held < 2:
        return f": {why} two natural {_plural(t)}"
    if not why and RANK_OF[c] != t and not (is_wild(c) and held):
        return f": the {shown} takes two {_plural(t)} or {_one(t)} and a wild card"
    if not why and held < 2 and not is_wild(c):
        return f": one {_name(t)} and no wild card cannot take the pile"
    if not st.initial_meld_done[side]:
        need = st.setup.minimums[side]
        best = best_first_meld(st.rank_counts[p], st.setup.classic, t)
        if best < need:
            return f": a first meld with {shown} counts {best}; it needs {need} points"
    return f": it would leave you one card; {_going_out(st)}"


def _going_out(st: CanastaState) -> str:
    return "going out needs " + ("a canasta" if st.setup.canastas_to_go_out == 1 else
                                 f"{st.setup.canastas_to_go_out} canastas")


# --- the play: melds and adds ------------------------------------------------------------


def _first_meld_reason(st: CanastaState, p: int, c: int) -> str:
    side = st.side_of[p]
    need = st.setup.minimums[side]
    counts = st.rank_counts[p]
    best = best_first_meld(counts, st.setup.classic)
    if best < need:
        return f"your best first meld counts {best}; a first meld needs {need} points"
    return _alone(counts, c) or f"lay the first meld ({need}) first; the {glyph(ID_TEXT[c])} can follow"


def _alone(counts: list[int], c: int) -> str | None:
    """``c`` has no meld to join or make with the hand: why, or None."""
    wilds = counts[DEUCE] + counts[JOKER]
    slot = RANK_OF[c]
    if is_wild(c):
        pairs = [s for s in range(1, DEUCE) if counts[s] >= 2]
        if not pairs:
            return "a wild card melds with two natural cards of a rank: you hold no pair"
        return None
    if counts[slot] < 2 or (counts[slot] == 2 and not wilds):
        return (f"a meld needs three {_plural(slot)}, two of them natural "
                f"(you hold {counts[slot]} and {wilds} wild)")
    return None


def _melded_reason(st: CanastaState, p: int, c: int) -> str:
    """After the side's first meld: why ``c`` joins no meld and makes none."""
    side = st.side_of[p]
    melds = st.melds[side]
    counts = st.rank_counts[p]
    h = len(st.hands[p])
    missing = st.setup.canastas_to_go_out - st.canastas[side]
    slot = RANK_OF[c]
    new_meld = f"a new meld would leave you {h - 3} card(s); {_going_out(st)}"
    adding = f"it would leave you one card; {_going_out(st)}"
    if is_wild(c):
        if missing > 0 and h < 5 and any(counts[s] >= 2 and s not in melds for s in NATURALS):
            return new_meld
        if missing > 0 and h <= 2 and melds:
            return adding
        rule = "" if st.setup.classic else ", 2 naturals each"
        return f"your melds take no more wild cards: 3 at most{rule}"
    if slot in melds:
        return adding
    return _alone(counts, c) or new_meld


# --- the table's badges ---------------------------------------------------------------------


def first_meld_badge(need: int) -> str:
    """The melds zone of a side that has not melded: what its first meld must count (D36)."""
    return f"first meld needs {need} points"


def frozen_badge(pile: list[str | None], black_three_freezes: bool) -> str:
    """Why the pile is frozen (D31), from what the seat sees of it (``pile``, bottom
    first; ``None`` for a card under a squared pile's top, D47): the first card seen
    that freezes it, else the cards that can."""
    freezes = FREEZES[black_three_freezes]
    card = next((c for c in pile if c is not None and freezes[TEXT_ID[c]]), None)
    if card is not None:
        return f"frozen: {glyph(card)} in it"
    return "frozen: a wild card or a three in it" if black_three_freezes else \
        "frozen: a wild card or a red three in it"


# --- the log: red threes a draw turns up ------------------------------------------------------


def draw_line(st: CanastaState, action: CanastaAction) -> str:
    """The log's line for a draw or taking the pile: the red threes it lays out, which
    everyone sees on the table (the cards drawn into the hand stay hidden)."""
    if action.kind == DRAW:
        reds, ends = _drawn_red_threes(st)
        if not reds:
            return action.label
        text = f"{action.label} — drew {'a red three' if len(reds) == 1 else 'red threes'} " \
               f"{glyphs(ID_TEXT[c] for c in reds)} (laid out"
        return text + (", the last card: the hand ends)" if ends else ", replaced)")
    if action.kind in (TAKE, ONTO):
        reds = [c for c in st.pile[:-1] if IS_RED_THREE[c]]
        if reds:
            return f"{action.label} — {glyphs(ID_TEXT[c] for c in reds)} from the pile laid out"
    return action.label


def _drawn_red_threes(st: CanastaState) -> tuple[list[int], bool]:
    """The red threes the draw will turn up (in order), and whether the last of them is
    the stock's last card (the hand ends, D33): the draw's own walk, read ahead."""
    stock = st.stock
    wanted = st.setup.draw_count
    reds: list[int] = []
    at = len(stock)
    while wanted and at:
        at -= 1
        card = stock[at]
        if IS_RED_THREE[card]:
            reds.append(card)
            if not at:
                return reds, True
            continue
        wanted -= 1
    return reds, False

