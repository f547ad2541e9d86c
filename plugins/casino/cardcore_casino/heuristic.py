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
from typing import Any

from cardcore_casino.rules import ACES_BITS, BIG_CASINO, LITTLE_CASINO, RANK, SPADES_BITS

_POINTS = [0.0] * 52
for _c in range(52):
    _POINTS[_c] = (ACES_BITS >> _c & 1) + 2.0 * (_c == BIG_CASINO) + 1.0 * (_c == LITTLE_CASINO)
_SPADE = [bool(SPADES_BITS >> c & 1) for c in range(52)]

#: Who ends up with a card: in a build, its owner; loose, the side to play; in hand, the seat.
BUILD_SHARE = 0.85
LOOSE_SHARE = 0.55
HAND_SHARE = 0.7


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


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
    n = state.players
    side_of = state.seats.side
    sides = state.seats.sides
    cards = [0.0] * sides
    spades = [0.0] * sides
    points = [0.0] * sides
    for s in range(n):
        side = side_of[s]
        pile = state.captured[s]
        cards[side] += len(pile)  # whole numbers: summed at once, the same floats
        spades[side] += sum(map(_SPADE.__getitem__, pile))
        points[side] += sum(map(_POINTS.__getitem__, pile))
    known = 0
    for b in state.builds:
        share = _weights(sides, side_of[b[1]], BUILD_SHARE)
        for g in b[2]:
            _share(g, share, cards, spades, points)
            known += len(g)
    mover = side_of[state.to_play] if state.to_play is not None else None
    last = side_of[state.last_capture] if state.last_capture is not None else None
    taker = mover if mover is not None else last
    share = _weights(sides, 0, 1.0 / sides) if taker is None else _weights(sides, taker, LOOSE_SHARE)
    _share(state.loose, share, cards, spades, points)
    _share(state.hands[seat], _weights(sides, side_of[seat], HAND_SHARE), cards, spades, points)
    known += sum(map(len, state.captured)) + len(state.loose) + len(state.hands[seat])
    unknown = 52 - known  # other hands and the stock: even shares, on average
    for i in range(sides):
        cards[i] += unknown / sides
    spade_known = sum(spades)
    for i in range(sides):
        spades[i] += (13 - spade_known) / sides
    remaining = unknown + len(state.loose) + len(state.hands[seat])
    total = [3.0 * p for p in _most(cards, remaining)]
    spade_left = max(0.0, 13 - spade_known + 2)
    total = [t + p for t, p in zip(total, _most(spades, spade_left), strict=True)]
    return _sweeps(state, seat, unknown, [t + p for t, p in zip(total, points, strict=True)])


@functools.cache
def _weights(sides: int, owner: int, weight: float) -> tuple[float, ...]:
    """Each side's share of a card ``owner``'s side takes with chance ``weight``."""
    rest = (1.0 - weight) / (sides - 1)
    return tuple(weight if i == owner else rest for i in range(sides))


def _share(ids: Any, share: tuple[float, ...], cards: list[float], spades: list[float],
           points: list[float]) -> None:
    """Each card of ``ids`` to each side by ``share``: its count, its spade, its points
    (the sums in the same order as one card at a time: the same floats)."""
    sides = range(len(share))
    for c in ids:
        spade, pts = _SPADE[c], _POINTS[c]
        for i in sides:
            w = share[i]
            cards[i] += w
            if spade:
                spades[i] += w
            if pts:
                points[i] += w * pts


def heuristic(state: Any, seat: int) -> float:
    """The seat's side's expected hand points less the mean of the other sides'."""
    pts = expected_points(state, seat)
    n = len(pts)
    mine = pts[0 if n == 1 else (seat % 2 if state.players == 4 else seat)]
    return mine - (sum(pts) - mine) / (n - 1)


def _sweeps(state: Any, seat: int, unknown: int, out: list[float]) -> list[float]:
    """Sweeps as scored, and the chance the side to play clears the table next."""
    rules = state.rules
    side_of, sides = state.seats.side, state.seats.sides
    mover = side_of[state.to_play] if state.to_play is not None else None
    if not rules.sweeps_score:
        return out
    sweeps = [0] * sides
    for s in range(state.players):
        sweeps[side_of[s]] += state.sweeps[s]
    if rules.sweep_points is not None:
        sweeps = rules.sweep_points(sweeps)
    out = [t + sw for t, sw in zip(out, sweeps, strict=True)]
    if mover is not None and not state.builds and 0 < len(state.loose) <= 2:
        out[mover] += _sweep_chance(state, seat, unknown)
    return out


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
