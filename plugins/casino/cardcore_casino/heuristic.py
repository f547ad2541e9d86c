"""The fishing games' heuristic: the seat's side's expected hand points less the others'.

On the scale of the score row, so a search can mix it with real scores at the end of
a hand. Reads only what the seat may know: the table, the capture piles, counts,
and the seat's own hand (other hands and the stock are unknown cards, shared evenly).

- cards (3) and spades (1) to the strict most: the chance a side ends ahead, from
  its lead and the cards still to come (a normal approximation);
- big casino (2), little casino (1), aces (1 each): certain once captured; in a build,
  its owner's (it holds the card to take it); loose, more likely the side to play's;
  in the seat's own hand, more likely the seat's;
- sweeps as scored; the last capturer's claim on the table at the end of the hand;
  a table of one or two loose cards (no build), the chance the seat to play clears it:
  whether it holds a card that would (the seat's own hand), else the chance a hand of
  its size, dealt from the cards the seat has not seen, holds one. (A constant chance
  made greedy trail rather than capture: +0.30 points a deal for greedy in casino and
  +0.44 in royal casino with this, over 400 duplicate deals each, issue 26.)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any, Final

from cardcore_casino.rules import ACES_BITS, BIG_CASINO, LITTLE_CASINO, RANK, SPADES_BITS

#: Each card's points (aces 1, big casino 2, little casino 1) and whether it is a spade.
_POINTS: Final = [(ACES_BITS >> c & 1) + 2 * (c == BIG_CASINO) + (c == LITTLE_CASINO) for c in range(52)]
_SPADE: Final = [SPADES_BITS >> c & 1 for c in range(52)]

#: Who ends up with a card: in a build, its owner; loose, the side to play; in hand, the seat.
BUILD_SHARE: Final = 0.85
LOOSE_SHARE: Final = 0.55
HAND_SHARE: Final = 0.7


_ERF: Final = math.erf  # held here: not looked up in ``math`` at each call
_SQRT2: Final = math.sqrt(2.0)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + _ERF(x / _SQRT2))


def _most(counts: list[float], remaining: float) -> list[float]:
    """Each side's chance of ending with strictly the most, ``remaining`` still to share."""
    sigma = 0.5 * math.sqrt(remaining) + 0.6
    n = len(counts)
    out = []
    for i in range(n):
        p = 1.0
        for j in range(n):
            if j != i:
                p *= _phi((counts[i] - counts[j]) / sigma)
        out.append(p)
    return out


def expected_points(state: Any, seat: int) -> list[float]:
    """Each side's expected points of the hand, as ``seat`` may know them."""
    seats = state.seats
    side_of: tuple[int, ...] = seats.side
    sides: int = seats.sides
    cards = [0.0] * sides
    spades = [0.0] * sides
    points = [0.0] * sides
    known = 0
    for s, pile in enumerate(state.captured):
        side = side_of[s]
        spade, pts = _counts(pile)  # whole numbers: any order gives the same floats
        cards[side] += len(pile)
        spades[side] += spade
        points[side] += pts
        known += len(pile)
    for b in state.builds:
        for g in b[2]:
            _share(g, side_of[b[1]], BUILD_SHARE, cards, spades, points)
            known += len(g)
    mover = side_of[state.to_play] if state.to_play is not None else None
    last = side_of[state.last_capture] if state.last_capture is not None else None
    taker = mover if mover is not None else last
    loose, hand = state.loose, state.hands[seat]
    if taker is None:
        _share(loose, 0, 1.0 / sides, cards, spades, points)
    else:
        _share(loose, taker, LOOSE_SHARE, cards, spades, points)
    _share(hand, side_of[seat], HAND_SHARE, cards, spades, points)
    known += len(loose) + len(hand)
    unknown = 52 - known  # other hands and the stock: even shares, on average
    spade_known = _total(spades)
    for i in range(sides):
        cards[i] += unknown / sides
        spades[i] += (13 - spade_known) / sides
    remaining = unknown + len(loose) + len(hand)
    most_cards = _most(cards, remaining)
    spade_left = 13 - spade_known + 2
    most_spades = _most(spades, spade_left if spade_left > 0.0 else 0.0)
    for i in range(sides):
        points[i] = 3.0 * most_cards[i] + most_spades[i] + points[i]
    return _sweeps(state, seat, unknown, points)


def _counts(pile: list[int]) -> tuple[int, int]:
    """The spades of a capture pile and its points (aces and casinos)."""
    spades = pts = 0
    for c in pile:
        spades += _SPADE[c]
        pts += _POINTS[c]
    return spades, pts


def _share(ids: Sequence[int], owner: int, weight: float, cards: list[float], spades: list[float],
           points: list[float]) -> None:
    """Each card of ``ids`` to each side: ``owner``'s side takes it with chance ``weight``,
    the others share the rest evenly; its count, its spade, its points. Side by side, one
    card at a time, in the order of ``ids``: each side's sums the same floats whatever
    the number of sides."""
    sides = len(cards)
    rest = (1.0 - weight) / (sides - 1)
    for i in range(sides):
        w = weight if i == owner else rest
        count, spade, pts = cards[i], spades[i], points[i]
        for c in ids:
            count += w
            if _SPADE[c]:
                spade += w
            worth = _POINTS[c]
            if worth:
                pts += w * worth
        cards[i], spades[i], points[i] = count, spade, pts


def heuristic(state: Any, seat: int) -> float:
    """The seat's side's expected hand points less the mean of the other sides'."""
    pts = expected_points(state, seat)
    mine = pts[state.seats.side[seat]]
    return mine - (_total(pts) - mine) / (len(pts) - 1)


def _total(values: list[float]) -> float:
    """``sum(values)``, the same float, without a call out of compiled code."""
    total = 0.0
    for v in values:
        total += v
    return total


def _sweeps(state: Any, seat: int, unknown: int, out: list[float]) -> list[float]:
    """Sweeps as scored, and the chance the side to play clears the table next (``out``,
    each side's points so far, gets them)."""
    rules = state.rules
    if not rules.sweeps_score:
        return out
    seats = state.seats
    side_of: tuple[int, ...] = seats.side
    sweeps = [0] * seats.sides
    for s, count in enumerate(state.sweeps):
        sweeps[side_of[s]] += count
    if rules.sweep_points is not None:
        sweeps = _swept(rules.sweep_points, tuple(sweeps))
    for i, sw in enumerate(sweeps):
        out[i] += sw
    if state.to_play is not None and not state.builds and 0 < len(state.loose) <= 2:
        out[side_of[state.to_play]] += _sweep_chance(state, seat, unknown)
    return out


@functools.lru_cache(maxsize=4096)
def _swept(hook: Any, sweeps: tuple[int, ...]) -> list[int]:
    """A variant's ``sweep_points`` by its argument: a rule's hook is a pure function, and a
    search asks at every position it weighs (a Python call each time was 5 % of Royal's
    search). The list is shared: read, never changed."""
    return hook(list(sweeps))


def _sweep_chance(state: Any, seat: int, unknown: int) -> float:
    """The chance the seat to play clears a table of one or two loose cards with a card
    from its hand: for ``seat`` itself, whether it holds one; for another, the chance a
    hand of its size, dealt from the ``unknown`` cards ``seat`` cannot see, holds one."""
    takes = _takers(state.rules, tuple(state.loose))
    mover = state.to_play
    if mover == seat:
        return 1.0 if any(takes[c] for c in state.hands[seat]) else 0.0
    left = sum(takes)  # the takers ``seat`` has not seen
    for place in (state.hands[seat], state.loose, *state.captured):
        left -= sum(map(takes.__getitem__, place))
    for b in state.builds:
        for g in b[2]:
            left -= sum(map(takes.__getitem__, g))
    missed = 1.0  # the chance none of the mover's cards is a taker (hypergeometric)
    for i in range(len(state.hands[mover])):
        if unknown - i <= 0:
            break
        missed *= max(0, unknown - left - i) / (unknown - i)
    return 1.0 - missed


@functools.lru_cache(maxsize=4096)  # by the rules (one object per options) and the table
def _takers(rules: Any, loose: tuple[int, ...]) -> tuple[bool, ...]:
    """For each card, whether it takes every one of ``loose`` (one or two cards) from a
    hand: a card of a loose card's value (or rank, for court cards that have none), or
    one capturing the two as a sum; two court cards of a rank only where a court card
    pairs them all."""
    value, caps = rules.value, rules.capture_values
    if len(loose) == 1:
        (x,) = loose
        if not value[x]:
            return tuple(RANK[c] == RANK[x] for c in range(52))
        return tuple(value[x] in caps[c] for c in range(52))
    a, b = loose
    if not (value[a] and value[b]):
        pair = RANK[a] == RANK[b] and rules.court_take_all
        return tuple(pair and RANK[c] == RANK[a] for c in range(52))
    wanted = {value[a] + value[b]} | ({value[a]} if value[a] == value[b] else set())
    return tuple(any(v in wanted for v in caps[c]) for c in range(52))
