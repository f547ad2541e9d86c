"""Tricks: the trick in play with who played each card, the tricks taken, the trump suit.

A trick-taking game declares one ``Tricks()`` part; its value is a ``Trick``::

    parts = {"hands": Cards(per="seat", shown=OWNER), "trick": Tricks()}

    follow(hand, state.trick.led)            # the cards the hand may play
    state.trick.play(seat, card)
    if len(state.trick.plays) == state.players:
        state.trick.close(winner(state.trick.plays, state.trick.trump))

Every card played stays in the part (the tricks taken, face up: everybody saw them), so
the kit's deck check counts them; the last trick taken stays on the table until the
next lead. The table draws it with no code of the game's (``Tricks.zones``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardcore.engine.cards import SUITS, CardError, Suit, parse_card
from cardcore.engine.game import Group, StateError, Zone
from cardcore.engine.kit.parts import Part, Path, where
from cardcore.engine.seating import Seating

#: The ranks from low to high, ace high (``winner``'s default order).
ACE_HIGH = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

#: The fields of a trick part's export.
FIELDS = ("plays", "done", "trump")

#: One card played: ``(seat, card)``.
Played = tuple[int, str]


def follow(hand: Sequence[str], led: str | None) -> list[str]:
    """The cards of ``hand`` that may be played to a trick whose led suit is ``led``:
    those of the suit led when the hand has one, else any (``led`` None: any)."""
    if led is not None:
        same = [c for c in hand if c[-1] == led]
        if same:
            return same
    return list(hand)


def winner(plays: Sequence[Played], trump: str | None, ranks: Sequence[str] = ACE_HIGH) -> int:
    """The seat whose card takes the trick: the highest trump, else the highest card of the
    suit led, by ``ranks`` (low to high); of equal cards, the first played."""
    led = plays[0][1][-1]

    def strength(play: Played) -> tuple[int, int]:
        card = play[1]
        suit = card[-1]
        return (2 if suit == trump else 1 if suit == led else 0, ranks.index(card[:-1]))

    return max(plays, key=strength)[0]


class Trick:
    """A ``Tricks`` part's value: ``plays`` the trick in play, ``done`` each trick taken as
    ``(winner, plays)``, ``trump`` the trump suit (None: no trumps)."""

    __slots__ = ("done", "plays", "trump")

    def __init__(self, plays: list[Played] | None = None,
                 done: list[tuple[int, tuple[Played, ...]]] | None = None,
                 trump: str | None = None) -> None:
        self.plays = plays if plays is not None else []
        self.done = done if done is not None else []
        self.trump = trump

    @property
    def led(self) -> str | None:
        """The suit led to the trick in play; None before its lead."""
        return self.plays[0][1][-1] if self.plays else None

    @property
    def last(self) -> tuple[int, tuple[Played, ...]] | None:
        """The trick taken last, ``(winner, plays)``, until the next lead; then None."""
        return self.done[-1] if self.done and not self.plays else None

    def play(self, seat: int, card: str) -> None:
        self.plays.append((seat, card))

    def close(self, taker: int) -> None:
        """The trick in play is taken by ``taker`` (``winner(...)``)."""
        self.done.append((taker, tuple(self.plays)))
        self.plays = []

    def taken(self, players: int) -> list[int]:
        """Tricks taken per seat."""
        out = [0] * players
        for taker, _ in self.done:
            out[taker] += 1
        return out

    def taken_by_side(self, seating: Seating) -> list[int]:
        """Tricks taken per side (partners pooled)."""
        per_seat = self.taken(seating.players)
        return [sum(per_seat[s] for s in seating.seats_of(side)) for side in range(seating.sides)]

    def cards(self) -> list[str]:
        """Every card played this hand."""
        return [c for _, plays in self.done for _, c in plays] + [c for _, c in self.plays]

    def copy(self) -> Trick:
        return Trick(list(self.plays), list(self.done), self.trump)  # tuples are shared

    def export(self) -> dict[str, Any]:
        return {"plays": [[s, c] for s, c in self.plays],
                "done": [{"winner": w, "plays": [[s, c] for s, c in p]} for w, p in self.done],
                "trump": self.trump}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Trick) and self.export() == other.export()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Trick({self.export()})"


def suit_glyph(suit: str) -> str:
    """``♥`` for ``H`` (anything else as it is: a joker's)."""
    return Suit(suit).glyph if suit in SUITS else suit


@dataclass(frozen=True)
class Tricks(Part):
    """The trick part (one for the table): exported as ``{"plays": [[seat, card], ...],
    "done": [{"winner": seat, "plays": [...]}, ...], "trump": "S" or null}``; public."""

    def __post_init__(self) -> None:
        if self.per is not None:
            raise ValueError("a Tricks part is one for the table: Tricks()")

    def empty(self) -> Trick:
        return Trick()

    def export_one(self, value: Trick) -> dict[str, Any]:
        return value.export()

    def cards_one(self, value: Trick) -> list[str]:
        """Every card played this hand: the kit's deck check counts them."""
        return value.cards()

    def load_one(self, path: Path, value: Any, strict: bool) -> Trick:
        if not isinstance(value, dict):
            raise StateError(f"{where(path)}: an object, not {type(value).__name__}", path)
        unknown = sorted(set(value) - set(FIELDS), key=str)
        if unknown:
            raise StateError(f"{where(path)}: no field {unknown[0]!r} (plays, done, trump)", path)
        missing = [k for k in FIELDS if k not in value]
        if strict and missing:
            raise StateError(f"{where(path)}: {missing[0]} missing (strict loading wants every "
                             "field)", (*path, missing[0]))
        trump = value.get("trump")
        if trump is not None and (not isinstance(trump, str) or trump not in SUITS):
            raise StateError(f"{where(path)}.trump: {trump!r} is not a suit ({', '.join(SUITS)}) "
                             "or null", (*path, "trump"))
        done_raw = value.get("done", [])
        if not isinstance(done_raw, list):
            raise StateError(f"{where(path)}.done: a list, not {type(done_raw).__name__}",
                             (*path, "done"))
        done = [self._taken((*path, "done", i), t) for i, t in enumerate(done_raw)]
        return Trick(_plays((*path, "plays"), value.get("plays", [])), done, trump)

    def _taken(self, path: Path, value: Any) -> tuple[int, tuple[Played, ...]]:
        if not isinstance(value, dict) or set(value) != {"winner", "plays"}:
            raise StateError(f"{where(path)}: an object with winner and plays", path)
        return _seat((*path, "winner"), value["winner"]), tuple(_plays((*path, "plays"),
                                                                       value["plays"]))

    def check_seats(self, path: Path, trick: Trick, players: int) -> None:
        """Seats at the table, one card each to a trick: a trick taken has every seat's
        and its winner among them, the trick in play fewer."""
        for i, (taker, plays) in enumerate(trick.done):
            at = (*path, "done", i)
            _check_trick(at, plays, players, complete=True)
            if taker not in {s for s, _ in plays}:
                raise StateError(f"{where(at)}.winner: seat {taker} played no card to it",
                                 (*at, "winner"))
        _check_trick((*path, "plays"), trick.plays, players, complete=False)

    def zones(self, name: str, trick: Trick, seating: Seating) -> list[Zone]:
        """The trick in play (or, until the next lead, the last one taken: its ``seat`` is
        the taker), one group per card with its player; the tricks each side has taken."""
        badges = [f"trump {suit_glyph(trick.trump)}"] if trick.trump else ["no trumps"]
        last = trick.last
        taker, plays = last if last is not None else (None, tuple(trick.plays))
        number = len(trick.done) + (last is None)
        if plays:
            badges.insert(0, f"led {suit_glyph(plays[0][1][-1])}")
        groups = [Group(f"{name}-{s}", [c], seat=s) for s, c in plays]
        zones = [Zone(name, "trick", f"Trick {number}", seat=taker, groups=groups, badges=badges)]
        for side, count in enumerate(trick.taken_by_side(seating)):
            zones.append(Zone(f"{name}-taken-{side}", "tricks", "Tricks", side=side,
                              badges=[f"{count} tricks"]))
        return zones


def _seat(path: Path, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise StateError(f"{where(path)}: a seat number, not {value!r}", path)
    return value


def _plays(path: Path, value: Any) -> list[Played]:
    if not isinstance(value, list):
        raise StateError(f"{where(path)}: a list of [seat, card], not {type(value).__name__}", path)
    out: list[Played] = []
    for i, pair in enumerate(value):
        at = (*path, i)
        if not isinstance(pair, list) or len(pair) != 2:
            raise StateError(f"{where(at)}: a [seat, card] pair, not {pair!r}", at)
        try:
            card = parse_card(pair[1])
        except CardError as exc:
            raise StateError(f"{where(at)}: {exc}", at) from None
        out.append((_seat(at, pair[0]), card))
    return out


def _check_trick(path: Path, plays: Sequence[Played], players: int, complete: bool) -> None:
    seats = [s for s, _ in plays]
    bad = [s for s in seats if s >= players]
    if bad:
        raise StateError(f"{where(path)}: no seat {bad[0]} at a table of {players}", path)
    if len(set(seats)) != len(seats):
        raise StateError(f"{where(path)}: a seat plays twice to one trick", path)
    if complete and len(seats) != players:
        raise StateError(f"{where(path)}: a trick taken holds {len(seats)} cards, not "
                         f"{players}", path)
    if not complete and len(seats) >= players:
        raise StateError(f"{where(path)}: a full trick is taken (done), not in play", path)
