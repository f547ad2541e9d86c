"""Seeded shuffles, cuts and deal patterns.

A stock is a list whose first card is the top: the next card dealt or drawn.
A deal plan is a list of steps ``(to, count)``; ``to`` is a seat or ``TABLE``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

TABLE = -1
C = TypeVar("C")  # a card in any representation: notation, or a game's own ints


def shuffled(deck: Sequence[str], rng: random.Random) -> list[str]:
    """A shuffled copy of ``deck``; the same seed gives the same order everywhere."""
    cards = list(deck)
    shuffle(cards, rng)
    return cards


#: ``n.bit_length()`` for the lengths a shuffle meets.
_BITS = tuple(n.bit_length() for n in range(256))


def shuffle(cards: list[C], rng: random.Random) -> None:
    """``rng.shuffle(cards)``, the same order from the same stream, in half the time: the
    standard library's loop written out (a bot's sample shuffles on every iteration)."""
    n = len(cards)
    if type(rng) is not random.Random or n >= len(_BITS):
        rng.shuffle(cards)  # a subclass may draw its numbers otherwise
        return
    getrandbits, bits = rng.getrandbits, _BITS
    for i in range(n - 1, 0, -1):
        m = i + 1
        k = bits[m]
        j = getrandbits(k)
        while j >= m:  # rejection sampling, as random._randbelow_with_getrandbits
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def cut(stock: Sequence[str], rng: random.Random, margin: int = 4) -> list[str]:
    """Lift a packet from the top (at least ``margin`` cards each side) and put it below."""
    if len(stock) <= 2 * margin:
        return list(stock)
    at = rng.randint(margin, len(stock) - margin)
    return list(stock[at:]) + list(stock[:at])


def packets(order: Sequence[int], size: int, table: int = 0, rounds: int = 1) -> list[tuple[int, int]]:
    """Packets of ``size`` to each seat of ``order`` (dealer last), ``rounds`` times.

    With ``table``, a packet of that many cards goes to the table just before the
    last seat of ``order`` (the dealer): casino's "2 by 2".
    """
    plan: list[tuple[int, int]] = []
    for _ in range(rounds):
        for i, seat in enumerate(order):
            if table and i == len(order) - 1:
                plan.append((TABLE, table))
            plan.append((seat, size))
    return plan


def one_at_a_time(order: Sequence[int], each: int) -> list[tuple[int, int]]:
    """``each`` cards to every seat of ``order``, one card at a time."""
    return [(seat, 1) for _ in range(each) for seat in order]


def deal(
    stock: list[C], plan: Sequence[tuple[int, int]], players: int
) -> tuple[list[list[C]], list[C]]:
    """Deal ``plan`` from the top of ``stock`` (which loses those cards): (hands, table)."""
    need = sum(count for _, count in plan)
    if need > len(stock):
        raise ValueError(f"the plan needs {need} cards, the stock has {len(stock)}")
    hands: list[list[C]] = [[] for _ in range(players)]
    table: list[C] = []
    pos = 0
    for to, count in plan:
        packet = stock[pos:pos + count]
        pos += count
        (table if to == TABLE else hands[to]).extend(packet)
    del stock[:pos]
    return hands, table


def deal_again(stock: list[C], hands: list[list[C]], order: Sequence[int], each: int,
               packet: int = 1) -> None:
    """A later deal (the second and following rounds of a fishing game): ``each`` cards to
    every seat of ``order`` (say ``seating.deal_order()``, the dealer last) from the top of
    ``stock``, ``packet`` at a time, added to ``hands`` in place.

    Deals what the stock holds when it runs short, so the last round can be a short one.
    """
    if packet < 1 or each % packet:
        raise ValueError(f"packets of {packet} do not make {each} cards each")
    plan = packets(order, packet, rounds=each // packet) if packet > 1 else one_at_a_time(order, each)
    pos = 0
    for to, count in plan:
        chunk = stock[pos:pos + count]
        pos += len(chunk)
        hands[to].extend(chunk)
    del stock[:pos]
