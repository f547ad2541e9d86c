"""A game state declared by its parts: who may see each, from which everything else follows.

A game lists its state's parts once, as a class-level ``parts`` dict of specs::

    class MyState(CardGameState):
        game_id = "my_game"
        deck = tuple(standard_deck())
        parts = {"hands": Cards(per="seat", shown=OWNER), "stock": Cards(shown=HIDDEN),
                 "discard": Cards(), "passes": Count(most=4)}

and gets ``export``, ``view`` (``None`` too), ``determinize``, ``clone``, ``zones`` and
loading (``from_json``: types checked, ``StateError`` naming the part; ``strict``: every
part present and the whole deck) for free. The seating travels in the export as
``players`` and ``dealer``, with the ``options``; loading rebuilds the core's Seating
from them with ``game.seating``. The game writes its rules: ``legal_actions``, ``apply``,
``score``, and ``check`` for what loading must refuse beyond types.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Self

from cardcore.engine.game import Game, GameOptions, ScoreExtra, Zone
from cardcore.engine.kit import known as k
from cardcore.engine.kit.declared import DeclaredState
from cardcore.engine.kit.matches import POINTS_TARGET, MatchRule
from cardcore.engine.kit.parts import HIDDEN, OWNER, Cards, Part, where
from cardcore.engine.kit.tricks import Trick, Tricks
from cardcore.engine.scoresheet import ScoreSheet
from cardcore.engine.seating import Seating


class CardGameState(DeclaredState):
    """A GameState declared by ``parts``; subclasses write the rules.

    Attributes: ``seating`` (the core's Seating), ``options``, ``to_play``, and one
    attribute per part (a list per seat or side for ``per`` parts). ``clone`` copies the
    parts and shares everything else: keep every changing value in a part.
    """

    def __init__(self, seating: Seating, options: GameOptions, to_play: int | None, *,
                 known: dict[str, Any] | None = None, **values: Any) -> None:
        self.seating = seating
        self.options = options
        self.to_play = to_play
        unknown = set(values) - set(self.parts)
        if unknown:
            raise TypeError(f"{type(self).__name__}: no part {sorted(unknown)[0]!r}")
        for name, part in self.parts.items():
            value = values[name] if name in values else self._empty(part)
            setattr(self, name, value)
        #: The marks of each known part, per place (a tuple; per seat or side, a list of
        #: them): ``(card, to)``, ``to`` None (everyone) or the seats that know the card.
        self.known: dict[str, Any] = {n: self._no_marks(self.parts[n]) for n in self.known_parts}
        if known:
            self.known.update(known)

    def _no_marks(self, part: Part) -> Any:
        return () if part.per is None else [() for _ in range(self._count(part))]

    def _empty(self, part: Part) -> Any:
        if part.per is None:
            return part.empty()
        return [part.empty() for _ in range(self._count(part))]

    def _count(self, part: Part) -> int:
        return self.seating.players if part.per == "seat" else self.seating.sides

    @property
    def players(self) -> int:
        return self.seating.players

    @property
    def dealer(self) -> int:
        return self.seating.dealer

    @property
    def is_over(self) -> bool:
        return self.to_play is None

    # --- copies and JSON ----------------------------------------------------------

    def clone(self) -> CardGameState:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        for name, part in self.parts.items():
            value = getattr(self, name)
            if part.per is not None and isinstance(part, Cards):
                setattr(twin, name, [list(v) for v in value])
            elif isinstance(value, list):
                setattr(twin, name, list(value))
            elif isinstance(value, Trick):
                setattr(twin, name, value.copy())
        if self.known_parts:  # the marks are tuples: a copy of each part's list of them
            twin.known = {n: list(m) if isinstance(m, list) else m for n, m in self.known.items()}
        return twin

    # --- known cards ----------------------------------------------------------------

    def make_known(self, name: str, seat: int | None, card: str,
                   to: Iterable[int] | None = None) -> None:
        """Mark ``card`` of the place ``name`` (``seat``: its seat or side; None for a part
        of one list) as known to every seat (``to`` None) or to the seats ``to``. Views
        show it face up there, ``determinize`` keeps it there. In a hand (OWNER) it moves
        to the front, after the cards known before: where it lies tells nothing of the
        others. Remove it with ``remove_card``: its mark goes with it."""
        cards, old = self._place(name, seat)
        marks = k.live(cards, old)
        taken = {at for at, _ in k.claimed(cards, marks)}
        free = next((i for i, c in enumerate(cards) if c == card and i not in taken), None)
        if free is None:
            raise ValueError(f"make_known: no {card} in {where(self._path(name, seat))} "
                             "that is not known already")
        seats = None if to is None else tuple(sorted(set(to)))
        if seats is not None and (not seats or any(s not in range(self.players) for s in seats)):
            raise ValueError(f"make_known: to is None (everyone) or some seats, not {seats}")
        part = self.parts[name]
        if isinstance(part, Cards) and part.shown == OWNER:
            cards.insert(len(marks), cards.pop(free))
        self._set_marks(name, seat, (*marks, (card, seats)))

    def remove_card(self, name: str, seat: int | None, card: str) -> None:
        """Take ``card`` out of the place ``name`` (``seat`` as for ``make_known``); if it
        was known, its mark goes with it (with two copies in the place, the known one)."""
        cards, marks = self._place(name, seat)
        cards.remove(card)
        if marks:
            self._set_marks(name, seat, k.forget(marks, card))

    def known_cards(self, name: str, seat: int | None, viewer: int | None) -> list[str]:
        """The cards of the place ``name`` (``seat``) that ``viewer`` knows (None: the
        cards known to all)."""
        cards, marks = self._place(name, seat)
        return [card for card, to in k.live(cards, marks) if k.sees(to, viewer)]

    def _place(self, name: str, seat: int | None) -> tuple[list[str], tuple]:
        if name not in self.known_parts:
            raise ValueError(f"{name!r} is no part with known cards: declare it "
                             "Cards(..., known=True)")
        value, marks = getattr(self, name), self.known[name]
        if (seat is None) != (self.parts[name].per is None):
            raise ValueError(f"{name}: seat is None for a part of one list, else a seat or side")
        return (value, marks) if seat is None else (value[seat], marks[seat])

    def _set_marks(self, name: str, seat: int | None, marks: tuple) -> None:
        if seat is None:
            self.known[name] = marks
        else:
            self.known[name][seat] = marks

    @staticmethod
    def _path(name: str, seat: int | None) -> tuple[str | int, ...]:
        return (name,) if seat is None else (name, seat)

    # --- the table ----------------------------------------------------------------

    def zones(self, seat: int | None) -> list[Zone]:
        """One zone per card part (a hand per seat, a stock shown as its count, piles face
        up), built from the view. Override to draw the table your way."""
        data = self.export() if seat is None else self.view(seat)
        zones: list[Zone] = []
        for name, part in self.parts.items():
            if isinstance(part, Cards):
                zones += self._part_zones(name, part, data[name])
            elif isinstance(part, Tricks):  # public: the view shows it all
                zones += part.zones(name, getattr(self, name), self.seating)
        return zones

    def _part_zones(self, name: str, part: Cards, value: list) -> list[Zone]:
        title = name.replace("_", " ").capitalize()
        if part.per is None:
            if part.shown == HIDDEN:
                return [Zone(name, part.zone or "stock", title, cards=[None] * min(len(value), 1),
                             badges=[f"{name.replace('_', ' ')} {len(value)}"])]
            return [Zone(name, part.zone or "pile", title, cards=list(value),
                         badges=[f"{len(value)} cards"])]
        zones = []
        for i, cards in enumerate(value):
            kind = part.zone or ("hand" if part.shown == OWNER else "pile")
            if part.per == "seat":
                side = self.seating.side_of(i)
                zones.append(Zone(f"{name}-{i}", kind, title, seat=i,
                                  side=side, cards=list(cards), badges=[f"{len(cards)} cards"]))
            else:
                zones.append(Zone(f"{name}-{i}", kind, title, side=i, cards=list(cards),
                                  badges=[f"{len(cards)} cards"]))
        return zones

    # --- loading ------------------------------------------------------------------

    @classmethod
    def made(cls, game: Game, seating: Seating, options: GameOptions, to_play: int | None,
             values: dict[str, Any]) -> Self:
        return cls(seating, options, to_play, **values)


class CardGame(Game):
    """A Game whose state is a CardGameState: loading comes with it, and the match is won
    by its ``match_rule`` (kit/matches.py)."""

    State: ClassVar[type[CardGameState]]
    #: How a match is won: ``POINTS_TARGET`` (to a points target, the default) or
    #: ``FirstToHands(...)`` (first to win ``options.target`` hands).
    match_rule: ClassVar[MatchRule] = POINTS_TARGET

    def match_winner(self, sheet: ScoreSheet, options: GameOptions) -> int | None:
        return self.match_rule.winner(sheet, options.target)

    def goal(self, options: GameOptions) -> str:
        return self.match_rule.goal(options.target)

    def score_extras(self, options: GameOptions) -> list[ScoreExtra]:
        """The match rule's (the card points under a hand won); a game with its own adds
        them to ``super().score_extras(options)``."""
        return self.match_rule.extras()

    def state_from_json(self, data: dict, strict: bool = False) -> CardGameState:
        return self.State.from_json(self, data, strict)

