"""Why a card of the hand has no meld, add or pile to take (``CanastaState.why_not``),
and what the log says of a draw that turns up red threes. For people: off the hot path.
The front end shows a reason on one line after the card: each is kept short.

Every reason reads the position and the legal steps only; it says what the rules
(D24-D36) forbid, the numbers included ("counts 70; a first meld needs 90 points"), in
words: the decision numbers stay in the docs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardcore.engine.cards import glyph, glyphs, rank_name

from .actions import DISCARD, DRAW, ONTO, TAKE, CanastaAction, meld_name
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
from .words import _

if TYPE_CHECKING:
    from .state import CanastaState

def _name(slot: int) -> str:
    """"7", "king": one card of a rank as the reasons name it."""
    return rank_name(ID_TEXT[slot * 4][:-1])


def _one(slot: int) -> str:
    """"a 7", "an ace"."""
    if ID_TEXT[slot * 4][:-1] in ("A", "8"):
        return _("an {card}").format(card=_name(slot))
    return _("a {card}").format(card=_name(slot))


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
        return _("draw first (d)") + _pile_reason(st, p, c)
    if st.phase != PLAY_PHASE:
        return None
    if c in BLACK_THREES:
        return _("black threes meld only when going out, three or four of them")
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
        return _(": the pile is empty")
    top = pile[-1]
    t = RANK_OF[top]
    shown = glyph(ID_TEXT[top])
    if t == THREE or is_wild(top):
        return _(": {card} on top, the pile cannot be taken").format(card=shown)
    if len(st.hands[p]) == 1 and len(pile) == 1:
        return _(": with one card you may not take a pile of one")
    if any(a.kind == ONTO for a in _steps(st)):
        return _(": the {card} goes onto your {meld} with no hand card: t").format(
            card=shown, meld=meld_name(t))
    if any(a.kind == TAKE for a in _steps(st)):
        return _(": the {card} is taken with your {meld}, not this card: t").format(
            card=shown, meld=meld_name(t))
    side = st.side_of[p]
    if st.freezers:
        why = _(": the pile is frozen: it takes two natural {meld}")
    elif not st.initial_meld_done[side]:
        why = _(": a first meld takes the pile with two natural {meld}")
    else:
        why = ""
    held = st.rank_counts[p][t]
    if why and held < 2:
        return why.format(meld=meld_name(t))
    if not why and RANK_OF[c] != t and not (is_wild(c) and held):
        return _(": the {card} takes two {meld} or {one} and a wild card").format(
            card=shown, meld=meld_name(t), one=_one(t))
    if not why and held < 2 and not is_wild(c):
        return _(": one {card} and no wild card cannot take the pile").format(card=_name(t))
    if not st.initial_meld_done[side]:
        need = st.setup.minimums[side]
        best = best_first_meld(st.rank_counts[p], st.setup.classic, t)
        if best < need:
            return _(": a first meld with {card} counts {best}; it needs {need} "
                     "points").format(card=shown, best=best, need=need)
    return _(": it would leave you one card; {going_out}").format(going_out=_going_out(st))


def _going_out(st: CanastaState) -> str:
    if st.setup.canastas_to_go_out == 1:
        return _("going out needs a canasta")
    return _("going out needs {n} canastas").format(n=st.setup.canastas_to_go_out)


# --- the play: melds and adds ------------------------------------------------------------


def _first_meld_reason(st: CanastaState, p: int, c: int) -> str:
    side = st.side_of[p]
    need = st.setup.minimums[side]
    counts = st.rank_counts[p]
    best = best_first_meld(counts, st.setup.classic)
    if best < need:
        return _("your best first meld counts {best}; a first meld needs {need} "
                 "points").format(best=best, need=need)
    return _alone(counts, c) or _("lay the first meld ({need}) first; the {card} can "
                                  "follow").format(need=need, card=glyph(ID_TEXT[c]))


def _alone(counts: list[int], c: int) -> str | None:
    """``c`` has no meld to join or make with the hand: why, or None."""
    wilds = counts[DEUCE] + counts[JOKER]
    slot = RANK_OF[c]
    if is_wild(c):
        pairs = [s for s in range(1, DEUCE) if counts[s] >= 2]
        if not pairs:
            return _("a wild card melds with two natural cards of a rank: you hold no pair")
        return None
    if counts[slot] < 2 or (counts[slot] == 2 and not wilds):
        return _("a meld needs three {meld}, two of them natural (you hold {held} and {wilds} "
                 "wild)").format(meld=meld_name(slot), held=counts[slot], wilds=wilds)
    return None


def _melded_reason(st: CanastaState, p: int, c: int) -> str:
    """After the side's first meld: why ``c`` joins no meld and makes none."""
    side = st.side_of[p]
    melds = st.melds[side]
    counts = st.rank_counts[p]
    h = len(st.hands[p])
    missing = st.setup.canastas_to_go_out - st.canastas[side]
    slot = RANK_OF[c]
    going_out = _going_out(st)
    new_meld = _("a new meld would leave you {n} card(s); {going_out}").format(
        n=h - 3, going_out=going_out)
    adding = _("it would leave you one card; {going_out}").format(going_out=going_out)
    if is_wild(c):
        if missing > 0 and h < 5 and any(counts[s] >= 2 and s not in melds for s in NATURALS):
            return new_meld
        if missing > 0 and h <= 2 and melds:
            return adding
        if st.setup.classic:
            return _("your melds take no more wild cards: 3 at most")
        return _("your melds take no more wild cards: 3 at most, 2 naturals each")
    if slot in melds:
        return adding
    return _alone(counts, c) or new_meld


# --- the table's badges ---------------------------------------------------------------------


def first_meld_badge(need: int) -> str:
    """The melds zone of a side that has not melded: what its first meld must count (D36)."""
    return _("first meld needs {need} points").format(need=need)


def frozen_badge(pile: list[str | None], black_three_freezes: bool) -> str:
    """Why the pile is frozen (D31), from what the seat sees of it (``pile``, bottom
    first; ``None`` for a card under a squared pile's top, D47): the first card seen
    that freezes it, else the cards that can."""
    freezes = FREEZES[black_three_freezes]
    card = next((c for c in pile if c is not None and freezes[TEXT_ID[c]]), None)
    if card is not None:
        return _("frozen: {card} in it").format(card=glyph(card))
    if black_three_freezes:
        return _("frozen: a wild card or a three in it")
    return _("frozen: a wild card or a red three in it")


# --- the log: red threes a draw turns up ------------------------------------------------------


def draw_line(st: CanastaState, action: CanastaAction) -> str:
    """The log's line for a draw or taking the pile: the red threes it lays out, which
    everyone sees on the table (the cards drawn into the hand stay hidden)."""
    if action.kind == DRAW:
        reds, ends = _drawn_red_threes(st)
        if not reds:
            return action.label
        cards = glyphs(ID_TEXT[c] for c in reds)
        if ends:
            drew = _("drew a red three {cards} (laid out, the last card: the hand ends)") \
                if len(reds) == 1 else \
                _("drew red threes {cards} (laid out, the last card: the hand ends)")
        else:
            drew = _("drew a red three {cards} (laid out, replaced)") if len(reds) == 1 else \
                _("drew red threes {cards} (laid out, replaced)")
        return f"{action.label} — {drew.format(cards=cards)}"
    if action.kind in (TAKE, ONTO):
        reds = [c for c in st.pile[:-1] if IS_RED_THREE[c]]
        if reds:
            laid = _("{cards} from the pile laid out").format(
                cards=glyphs(ID_TEXT[c] for c in reds))
            return f"{action.label} — {laid}"
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

