"""Canasta's heuristic: the seat's side's expected hand points less the other side's.

On the scale of the score row (a search mixes it with real scores when a hand ends).
It reads what the seat may know: melds, red threes, the discard pile, counts, and
the seat's own hand (other hands are counted, never read).

- melds count their cards; a canasta its bonus; a meld short of seven its chance of
  becoming one (more cards and more stock left: likelier) times a mixed canasta's 300;
- red threes: 100 each (800 for four), negative until the side has melded, weighted by
  the chance it still melds;
- cards in hand: their value lost if the other side goes out (the seat's own hand by
  value, the others' by count at an average value), and kept for melding otherwise;
- going out (100) is within reach of a side with a canasta;
- the discard pile: a prize for the side to play next, smaller while frozen.
"""

from __future__ import annotations

import functools

from .rules import CANASTA, CARD_VALUE, DEUCE, JOKER
from .state import CanastaState

#: A meld of n cards becomes a canasta with about this chance, the stock full.
COMPLETE = (0.0, 0.0, 0.0, 0.3, 0.4, 0.55, 0.75, 1.0)
#: The value of an average card held (10 points, a third of them wild-ish).
AVERAGE_CARD = 11.0
#: The share of the value in hand that counts against the side (it may be melded yet).
HAND_RISK = 0.45
#: The worth of one discard-pile card to the side that takes it, and the odds of taking.
PILE_CARD = 12.0
TAKE_OPEN, TAKE_FROZEN = 0.35, 0.12
FULL_STOCK = 108 - 44 - 1


def side_value(st: CanastaState, side: int, seat: int, horizon: float) -> float:
    card_value = CARD_VALUE.__getitem__
    melds = st.melds[side]
    value = 0.0
    has_canasta = False
    for ids, _nat, wild in melds.values():
        n = len(ids)
        value += sum(map(card_value, ids))
        if n >= CANASTA:
            has_canasta = True
            value += 300 if wild else 500
        else:
            value += COMPLETE[n] * horizon * (300 - 10 * wild)
    reds = len(st.red_threes[side])
    red = 800.0 if reds == 4 else 100.0 * reds
    if not melds:
        red *= 1.0 - 2.0 * (1.0 - horizon) ** 2  # the later, the likelier it stays unmelded
    value += red
    held = 0.0
    for s in _seats(st.side_of)[side]:
        hand = st.hands[s]
        if s == seat:
            held += sum(map(card_value, hand))
            counts = st.rank_counts[s]
            value += 15.0 * (counts[DEUCE] + counts[JOKER]) * horizon  # wild cards build canastas
        else:
            held += AVERAGE_CARD * len(hand)
    value -= HAND_RISK * held
    if has_canasta:
        value += 100 * (1.0 - 0.5 * horizon)
    return value


@functools.cache
def _seats(side_of: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The seats of each side, by the seats' sides (a hand's ``side_of``)."""
    return tuple(tuple(s for s, x in enumerate(side_of) if x == side) for side in range(max(side_of) + 1))


def heuristic(st: CanastaState, seat: int) -> float:
    """The seat's side minus the other side, in expected hand points."""
    mine = st.side_of[seat]
    if st.is_over:
        totals = [side["total"] for side in st.score()["sides"]]
        return float(totals[mine] - sum(t for s, t in enumerate(totals) if s != mine))
    horizon = min(1.0, len(st.stock) / FULL_STOCK)
    values = [side_value(st, side, seat, horizon) for side in range(st.setup.sides)]
    if st.to_play is not None and st.pile:
        take = TAKE_FROZEN if st.freezers else TAKE_OPEN
        values[st.side_of[st.to_play]] += take * PILE_CARD * len(st.pile)
    return values[mine] - sum(v for s, v in enumerate(values) if s != mine)
