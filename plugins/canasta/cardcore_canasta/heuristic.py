"""Canasta's heuristic: the seat's side's expected hand points less the other side's.

On the scale of the score row (a search mixes it with real scores when a hand ends).
It reads what the seat may know: melds, red threes, the discard pile, counts, and
the seat's own hand (other hands are counted, never read).

- melds count their cards; a canasta its bonus; a meld short of seven its chance of
  becoming one (more cards and more stock left: likelier) times a mixed canasta's 300;
- red threes: 100 each (800 for four), negative until the side has melded, weighted by
  the chance it still melds;
- cards in hand: their value lost if the other side goes out (the seat's own hand by
  value, but for its wild cards, the others' by count at an average value), and kept
  for melding otherwise; the cards taken with the pile keep the pile's worth while held;
- going out (100) is within reach of a side with a canasta;
- the discard pile: a prize for the side to draw next (the next seat's while the mover is
  still to discard), smaller while frozen; the top card also joins the taker's meld of
  its rank (a canasta, when it is the seventh). Before and after the take (and the
  discard) the pile counts alike, so a search that looks past them reads one game.
"""

from __future__ import annotations

import math
from typing import Final

from .moves import DRAW_PHASE, OVER, take_actions
from .rules import CANASTA, CARD_VALUE, DEUCE, FIRST_WILD, JOKER, SLOT_VALUE, THREE, Meld
from .state import CanastaState

#: A meld of n cards becomes a canasta with about this chance, the stock full.
COMPLETE: Final[tuple[float, ...]] = (0.0, 0.0, 0.0, 0.3, 0.4, 0.55, 0.75, 1.0)
#: The value of an average card held (10 points, a third of them wild-ish).
AVERAGE_CARD: Final = 11.0
#: The share of the value in hand that counts against the side (it may be melded yet).
HAND_RISK: Final = 0.45
#: The worth of one discard-pile card to the side that takes it, and the odds of taking.
PILE_CARD: Final = 12.0
TAKE_OPEN: Final = 0.35
TAKE_FROZEN: Final = 0.12
FULL_STOCK: Final = 108 - 44 - 1
#: The rules' tables, held here: compiled, a module's Final is read without a lookup.
_CARD_VALUE: Final[tuple[int, ...]] = CARD_VALUE
_WILD_VALUES: Final = SLOT_VALUE[DEUCE], SLOT_VALUE[JOKER]
_CANASTA: Final = CANASTA
_FIRST_WILD: Final = FIRST_WILD


def side_value(melds: dict[int, Meld], reds: int, seats: tuple[int, ...], hands: list[list[int]],
               known: tuple[tuple[int, ...], ...], counts: list[int], seat: int,
               horizon: float) -> float:
    """One side's expected hand points: its ``melds``, its ``reds`` red threes, the hands of
    its ``seats`` (``counts``: the rank counts of ``seat``, whose eyes these are)."""
    value = 0.0
    has_canasta = False
    for ids, _nat, wild in melds.values():
        n = len(ids)
        value += _meld_points(ids) + _meld_bonus(n, wild, horizon)
        has_canasta = has_canasta or n >= _CANASTA
    red = 800.0 if reds == 4 else 100.0 * float(reds)
    if not melds:
        red *= 1.0 - 2.0 * (1.0 - horizon) ** 2  # the later, the likelier it stays unmelded
    value += red
    held = 0.0
    for s in seats:
        hand = hands[s]
        # the cards taken with the pile keep the pile's worth while held: the pile promised it
        # to its taker (``heuristic``), and a search that looks past the take must find it
        held_known = known[s]
        taken = [c for c in held_known if c < _FIRST_WILD] if held_known else []
        value += PILE_CARD * float(len(taken))
        if s == seat:
            # wild cards are not at risk: they join any of the side's melds (a deuce counted
            # at risk looked a liability late in the hand and was thrown before a black three)
            deuces, jokers = counts[DEUCE], counts[JOKER]
            held += _points(hand) - _WILD_VALUES[0] * deuces - _WILD_VALUES[1] * jokers \
                - _points(taken)
            value += 15.0 * float(deuces + jokers) * horizon  # wild cards build canastas
        else:
            held += AVERAGE_CARD * float(len(hand) - len(taken))
    value -= HAND_RISK * held
    if has_canasta:
        value += 100.0 * (1.0 - 0.5 * horizon)
    return value


def _points(cards: list[int]) -> int:
    """The cards' points (a compiled loop over a list: ``sum(map(...))`` or an ``Iterable``
    calls out for each card)."""
    total = 0
    for c in cards:
        total += _CARD_VALUE[c]
    return total


def _meld_points(ids: tuple[int, ...]) -> int:
    """A meld's points: ``_points`` over a tuple."""
    total = 0
    for c in ids:
        total += _CARD_VALUE[c]
    return total


def _meld_bonus(n: int, wild: int, horizon: float) -> float:
    """A meld of ``n`` cards (``wild`` of them wild): a canasta's bonus, or its chance of one."""
    if n >= _CANASTA:
        return 300.0 if wild else 500.0
    return COMPLETE[n] * horizon * (300 - 10 * wild)


def heuristic(st: CanastaState, seat: int) -> float:
    """The seat's side minus the other side, in expected hand points."""
    mine = st.side_of[seat]
    if st.phase == OVER:  # is_over, read without calling the property's Python
        totals = [side["total"] for side in st.score()["sides"]]
        return float(totals[mine] - sum(t for s, t in enumerate(totals) if s != mine))
    horizon = min(1.0, len(st.stock) / FULL_STOCK)
    melds, reds, hands, known = st.melds, st.red_threes, st.hands, st.known
    counts = st.rank_counts[seat]
    values = [side_value(melds[side], len(reds[side]), seats, hands, known, counts, seat, horizon)
              for side, seats in enumerate(st.setup.side_seats)]
    p = st.to_play
    if p is not None and st.pile:
        prize = PILE_CARD * len(st.pile)
        if st.phase == DRAW_PHASE:  # the seat to play may take it now, as the top card says
            take = _take_chance(st, p, seat)
            prize += _top_onto_meld(st, st.side_of[p], horizon)
        else:  # it discards onto the pile, choosing what it gives away: the next seat's prize
            take = TAKE_FROZEN if st.freezers else TAKE_OPEN
            p = st.next_seat[p]
        values[st.side_of[p]] += take * prize
    return values[mine] - sum(v for s, v in enumerate(values) if s != mine)


def _top_onto_meld(st: CanastaState, side: int, horizon: float) -> float:
    """What the top card adds to ``side``'s meld of its rank, taken with the pile: its
    value and the meld's step toward a canasta (a 10 onto six 10s: the canasta's bonus).
    Nothing when the side has no meld of the rank (the pair makes a new one whatever the
    top card; its chance is the take's)."""
    top = st.pile[-1]
    meld = st.melds[side].get(top >> 2)
    if meld is None:
        return 0.0
    n, wild = len(meld[0]), meld[2]
    return CARD_VALUE[top] + _meld_bonus(n + 1, wild, horizon) - _meld_bonus(n, wild, horizon)


def _take_chance(st: CanastaState, p: int, seat: int) -> float:
    """The chance seat ``p``, about to draw, takes the pile, as ``seat`` may know it: for
    ``seat`` itself whether it may (its hand is known); else from the top card: never a
    three or a wild card (D31); onto its side's meld of the rank when the pile is not
    frozen; else with a natural pair, or (not frozen) a natural and a wild card (D30),
    the chance a hand of its size holds them, dealt from the cards ``seat`` has not seen
    beside the cards it is known to hold (taken with the pile, D47). A first meld's
    minimum is not counted."""
    top = st.pile[-1] >> 2  # the top card's rank slot (rules.RANK_OF)
    if top == THREE or top >= DEUCE:
        return 0.0
    if p == seat:
        return 1.0 if take_actions(st, p) else 0.0
    side = st.side_of[p]
    frozen = st.freezers > 0
    if not frozen and st.initial_meld_done[side] and top in st.melds[side]:
        return 1.0
    nat_seen, wild_seen, unseen = _seen(st, seat, top)
    known = st.known[p]
    have_n, have_w = _of_rank_and_wild(known, top)
    nat, wild = max(0, 8 - nat_seen), max(0, 12 - wild_seen)  # two decks and four jokers
    return 1.0 - _miss(unseen, len(st.hands[p]) - len(known), nat, wild, have_n, have_w,
                       not frozen)


def _seen(st: CanastaState, seat: int, rank: int) -> tuple[int, int, int]:
    """The naturals of ``rank`` and the wild cards ``seat`` has seen, and how many cards it
    has not: its hand, the melds, the pile's cards it sees, the cards others are known to
    hold."""
    counts = st.rank_counts[seat]
    nat, wild = counts[rank], counts[DEUCE] + counts[JOKER]
    for melds in st.melds:
        meld = melds.get(rank)
        if meld is not None:
            nat += meld[1]
        for m in melds.values():
            wild += m[2]
    whole_pile = st.pile
    pile = whole_pile if st.setup.browse_pile else whole_pile[-1:]
    for c in pile:  # a card id's rank slot is ``c >> 2`` (rules.RANK_OF)
        if c >> 2 == rank:
            nat += 1
        elif c >= _FIRST_WILD:
            wild += 1
    unseen = len(st.stock) + len(whole_pile) - len(pile)
    every_known = st.known
    for s, hand in enumerate(st.hands):
        if s != seat:
            known = every_known[s]
            known_nat, known_wild = _of_rank_and_wild(known, rank)
            nat, wild = nat + known_nat, wild + known_wild
            unseen += len(hand) - len(known)
    return nat, wild, unseen


def _of_rank_and_wild(cards: tuple[int, ...], rank: int) -> tuple[int, int]:
    """How many of ``cards`` (a seat's known cards) are naturals of ``rank`` (a natural
    slot), and how many wild."""
    nat = wild = 0
    for c in cards:
        if c >> 2 == rank:  # a card id's rank slot (rules.RANK_OF)
            nat += 1
        elif c >= _FIRST_WILD:
            wild += 1
    return nat, wild


#: ``_miss``'s answers by their questions: a search asks the same ones again and again (the
#: sums took about 4 % of a canasta search's instructions); emptied once it holds this many.
_MISSES: Final[dict[tuple[int, int, int, int, int, int, bool], float]] = {}
_MISSES_KEPT: Final = 1 << 16


def _miss(unseen: int, drawn: int, nat: int, wild: int, have_n: int, have_w: int,
          natural_and_wild: bool) -> float:
    """The chance a hand of ``drawn`` cards from ``unseen`` (``nat`` naturals of the rank
    and ``wild`` wild cards among them), beside ``have_n`` naturals and ``have_w`` wild
    cards it holds already, has no natural pair, nor (``natural_and_wild``) a natural and
    a wild card (hypergeometric)."""
    question = (unseen, drawn, nat, wild, have_n, have_w, natural_and_wild)
    answer = _MISSES.get(question)
    if answer is None:
        if len(_MISSES) >= _MISSES_KEPT:
            _MISSES.clear()
        answer = _MISSES[question] = _count_miss(unseen, drawn, nat, wild, have_n, have_w,
                                                 natural_and_wild)
    return answer


def _count_miss(unseen: int, drawn: int, nat: int, wild: int, have_n: int, have_w: int,
                natural_and_wild: bool) -> float:
    drawn = max(0, min(drawn, unseen))
    whole = math.comb(unseen, drawn)
    if whole == 0:
        return 1.0
    miss = 0.0
    for x in range(min(drawn, 1 - have_n) + 1):  # naturals drawn short of a pair
        if natural_and_wild and have_n + x == 1:
            if have_w:
                continue  # a natural and a wild card: it takes
            rest = math.comb(max(0, unseen - nat - wild), drawn - x)  # and no wild card drawn
        else:
            rest = math.comb(max(0, unseen - nat), drawn - x)
        miss += math.comb(nat, x) * rest / whole
    return min(1.0, miss)
