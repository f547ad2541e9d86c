"""Who sits where: seats, names, sides, the dealer, direction, the partnership draw.

Seats run 0..n-1 clockwise: seat i+1 sits at the left of seat i.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from cardcore.engine.cards import JOKER, RANKS, SUITS, canasta_deck
from cardcore.language import N_, _

CLOCKWISE = 1
COUNTER_CLOCKWISE = -1
COMPASS = (N_("South"), N_("West"), N_("North"), N_("East"))


@dataclass(frozen=True)
class Seating:
    players: int
    dealer: int = 0
    direction: int = CLOCKWISE
    partnerships: bool = False
    names: tuple[str, ...] = ()
    side_names: tuple[str, ...] = ()
    #: The partnership draw's ranking of seats, high card first, when one was made.
    draw: tuple[int, ...] | None = field(default=None)

    def __post_init__(self) -> None:
        if self.players < 2:
            raise ValueError("a table needs at least 2 seats")
        if self.partnerships and self.players % 2:
            raise ValueError("partnerships need an even number of seats")
        if self.direction not in (CLOCKWISE, COUNTER_CLOCKWISE):
            raise ValueError("direction is 1 (clockwise) or -1 (counter-clockwise)")
        if not 0 <= self.dealer < self.players:
            raise ValueError(f"no seat {self.dealer}")
        if not self.names:
            object.__setattr__(self, "names", default_names(self.players))
        if not self.side_names:
            object.__setattr__(self, "side_names", default_side_names(self))

    @property
    def sides(self) -> int:
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def seats_of(self, side: int) -> list[int]:
        return [s for s in range(self.players) if self.side_of(s) == side]

    def next(self, seat: int) -> int:
        """The seat that plays after ``seat``."""
        return (seat + self.direction) % self.players

    @property
    def leader(self) -> int:
        """The dealer's neighbour in the direction of play."""
        return self.next(self.dealer)

    def order_from(self, seat: int) -> list[int]:
        """Every seat in play order, starting at ``seat``."""
        return [(seat + i * self.direction) % self.players for i in range(self.players)]

    def deal_order(self) -> list[int]:
        """Play order from the dealer's neighbour, the dealer last."""
        return self.order_from(self.leader)

    def partner(self, seat: int) -> int | None:
        return (seat + self.players // 2) % self.players if self.partnerships else None

    def rotated(self) -> Seating:
        """The next hand's seating: the deal passes to the left (seat + 1)."""
        return replace(self, dealer=(self.dealer + 1) % self.players)

    def with_dealer(self, dealer: int) -> Seating:
        return replace(self, dealer=dealer)


def default_names(players: int) -> tuple[str, ...]:
    """The seats' names when none are given: data, English whatever the language in use
    (a server's tables name their seats alike for every client)."""
    if players == 4:
        return COMPASS
    return tuple(f"Player {i + 1}" for i in range(players))


def said_default_names(players: int) -> tuple[str, ...]:
    """The default names as a person setting up a match here reads them, in the language in
    use (docs/languages.md): what a local setup names its seats when nobody typed a name."""
    if players == 4:
        return tuple(_(name) for name in COMPASS)
    return tuple(_("Player {number}").format(number=i + 1) for i in range(players))


def said_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """``names`` with each default name as the language in use says it (``said_default_names``)."""
    english, said = default_names(len(names)), said_default_names(len(names))
    return tuple(s if n == e else n for n, e, s in zip(names, english, said, strict=True))


def default_side_names(seating: Seating) -> tuple[str, ...]:
    if seating.partnerships:
        return tuple(
            " & ".join(seating.names[s] for s in seating.seats_of(side)) for side in range(2)
        )
    return seating.names


# --- the partnership draw -------------------------------------------------------

_SUIT_ORDER = {s: i for i, s in enumerate(reversed(SUITS))}  # C < D < H < S
_RANK_ORDER = {r: i for i, r in enumerate(RANKS[1:] + RANKS[:1])}  # 2 low .. A high


def draw_strength(card: str) -> tuple[int, int]:
    """Rank first (A high, 2 low), then suit (S > H > D > C)."""
    return _RANK_ORDER[card[:-1]], _SUIT_ORDER[card[-1]]


@dataclass(frozen=True)
class Draw:
    """The draw for partners: each round's cards by player, and the final ranking."""

    rounds: tuple[dict[int, str], ...]
    ranking: tuple[int, ...]


def partnership_draw(players: int, rng: random.Random, deck: list[str] | None = None) -> Draw:
    """Each player draws a card; only players on a joker or an identical card draw again."""
    stock = list(deck if deck is not None else canasta_deck())
    rng.shuffle(stock)
    final: dict[int, str] = {}
    rounds: list[dict[int, str]] = []
    drawing = list(range(players))
    while drawing:
        if len(stock) < len(drawing):
            raise ValueError("the draw ran out of cards")
        cards = {p: stock.pop() for p in drawing}
        rounds.append(cards)
        drawn = list(cards.values())
        drawing = []
        for p, c in cards.items():
            if c == JOKER or drawn.count(c) > 1 or c in final.values():
                drawing.append(p)
            else:
                final[p] = c
    ranking = tuple(sorted(final, key=lambda p: draw_strength(final[p]), reverse=True))
    return Draw(tuple(rounds), ranking)


def seats_from_draw(draw: Draw) -> list[int]:
    """Where each player sits after the draw: the two highest partners at seats 0 and 2."""
    a, b, c, d = draw.ranking
    seat_of = {a: 0, b: 2, c: 1, d: 3}
    return [seat_of[p] for p in range(4)]
