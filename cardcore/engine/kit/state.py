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

import random
from collections.abc import Iterable
from typing import Any, ClassVar

from cardcore.engine.cards import standard_deck
from cardcore.engine.game import Game, GameOptions, GameState, ScoreExtra, StateError, Zone
from cardcore.engine.kit import known as k
from cardcore.engine.kit.loading import (
    check_deck,
    load_known,
    load_options,
    load_part,
    load_seat,
    load_seating,
)
from cardcore.engine.kit.matches import POINTS_TARGET, MatchRule
from cardcore.engine.kit.parts import HIDDEN, OWNER, PUBLIC, Cards, Part, SeatNo, where
from cardcore.engine.kit.tricks import Trick, Tricks
from cardcore.engine.scoresheet import ScoreSheet
from cardcore.engine.seating import Seating


class CardGameState(GameState):
    """A GameState declared by ``parts``; subclasses write the rules.

    Attributes: ``seating`` (the core's Seating), ``options``, ``to_play``, and one
    attribute per part (a list per seat or side for ``per`` parts). ``clone`` copies the
    parts and shares everything else: keep every changing value in a part.
    """

    #: The game's id, the export's "game".
    game_id: ClassVar[str]
    #: Every card of the game, each as often as the deck has it.
    deck: ClassVar[tuple[str, ...]] = tuple(standard_deck())
    #: The state's parts by name, in export order.
    parts: ClassVar[dict[str, Part]] = {}
    #: The names of the parts declared ``known=True`` (set for each subclass).
    known_parts: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "known" in cls.parts:
            raise TypeError(f"{cls.__name__}: 'known' is the export's key of known cards, "
                            "not a part name")
        cls.known_parts = tuple(n for n, p in cls.parts.items() if isinstance(p, Cards) and p.known)

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

    def whole_deck(self) -> list[str]:
        """Every card in play (override when options change the deck)."""
        return list(self.deck)

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

    def export(self) -> dict:
        data: dict[str, Any] = {"game": self.game_id, "players": self.players,
                                "dealer": self.dealer, "to_play": self.to_play}
        for name, part in self.parts.items():
            value = getattr(self, name)
            if part.per is not None and isinstance(part, Cards):
                value = [list(v) for v in value]
            elif isinstance(value, list):
                value = list(value)
            elif isinstance(part, Tricks):
                value = part.export_one(value)
            data[name] = value
        if self.known_parts:
            data["known"] = {n: self._export_marks(n) for n in self.known_parts}
        data["options"] = self.options.model_dump(mode="json")
        return data

    def _export_marks(self, name: str) -> list:
        value, marks = getattr(self, name), self.known[name]
        if self.parts[name].per is None:
            return k.export_marks(value, marks)
        return [k.export_marks(v, m) for v, m in zip(value, marks, strict=True)]

    def view(self, seat: int | None) -> dict:
        """The export with what ``seat`` may not see as nulls (None: the spectator)."""
        data = self.export()
        for name, part in self.parts.items():
            if not isinstance(part, Cards) or part.shown == PUBLIC:
                continue
            marks = self.known.get(name)
            if part.per is None:
                data[name] = k.mask(data[name], marks or (), seat)
            else:
                data[name] = [v if s == seat and part.shown == OWNER
                              else k.mask(v, marks[s] if marks else (), seat)
                              for s, v in enumerate(data[name])]
        if self.known_parts:  # the known cards the seat knows
            data["known"] = {n: _seen_marks(m, seat) if self.parts[n].per is None
                             else [_seen_marks(v, seat) for v in m]
                             for n, m in data["known"].items()}
        return data

    def _hidden_lists(self, seat: int) -> list[tuple[list[str], set[int]]]:
        """The lists (of this state) whose cards ``seat`` cannot all see, each with the
        indices of the cards it knows there. The marks it does not see are dropped."""
        out: list[tuple[list[str], set[int]]] = []
        for name, part in self.parts.items():
            if not isinstance(part, Cards) or part.shown == PUBLIC:
                continue
            value, marks = getattr(self, name), self.known.get(name)
            if part.per is None:
                out.append((value, k.seen(value, marks, seat) if marks else set()))
                if marks:
                    self.known[name] = _seen_by(marks, seat)
                continue
            for s, v in enumerate(value):
                if part.shown == OWNER and s == seat:
                    continue
                out.append((v, k.seen(v, marks[s], seat) if marks and marks[s] else set()))
                if marks and marks[s]:
                    marks[s] = _seen_by(marks[s], seat)
        return out

    def determinize(self, seat: int, rng: random.Random) -> CardGameState:
        """The cards ``seat`` cannot see dealt again at random; those it knows stay."""
        twin = self.clone()
        hidden = twin._hidden_lists(seat)
        cards = [c for cards, keep in hidden for i, c in enumerate(cards) if i not in keep]
        rng.shuffle(cards)
        at = 0
        for cards_list, keep in hidden:
            n = len(cards_list) - len(keep)
            dealt = cards[at:at + n]
            at += n
            if keep:
                fresh = iter(dealt)
                dealt = [c if i in keep else next(fresh) for i, c in enumerate(cards_list)]
            cards_list[:] = dealt
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

    def all_cards(self) -> list[str]:
        """Every card in the state's parts."""
        out: list[str] = []
        for name, part in self.parts.items():
            if isinstance(part, Cards):
                value = getattr(self, name)
                out += [c for v in value for c in v] if part.per else value
            elif isinstance(part, Tricks):
                out += part.cards_one(getattr(self, name))
        return out

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

    def check(self, strict: bool) -> None:
        """Refuse, with StateError naming the part, what is no position of the game beyond
        the types (a pile that may not be empty, a counter bounded by the table's size).
        Called by ``from_json`` after the types and the cards are checked."""

    @classmethod
    def from_json(cls, game: Game, data: Any, strict: bool = False) -> CardGameState:
        """The state ``data`` (an export) describes, or StateError naming the part.

        Partial by default: absent parts take their empty values, an absent ``to_play``
        is the dealer's neighbour. ``strict``: every field present (the parts, ``game``,
        ``players``, ``dealer``, ``to_play``, ``options``), the whole deck.
        """
        if not isinstance(data, dict):
            raise StateError(f"position: an object, not {type(data).__name__}")
        for key in ("game", "dealer", "to_play", "options") if strict else ():
            if key not in data:
                raise StateError(f"{key}: missing (strict loading wants every part)", (key,))
        if data.get("game", cls.game_id) != cls.game_id:
            raise StateError(f"game: {data['game']!r}, not {cls.game_id!r}", ("game",))
        options = load_options(game, data.get("options", {}), strict)
        seating = load_seating(game, data, options, cls.parts, strict)
        to_play = load_seat(data.get("to_play", seating.leader), seating.players, "to_play", True)
        values = {}
        for name, part in cls.parts.items():
            if name not in data:
                if strict:
                    raise StateError(f"{name}: missing (strict loading wants every part)", (name,))
                continue
            values[name] = load_part(name, part, data[name], seating, strict)
            if isinstance(part, SeatNo):
                load_seat(values[name], seating.players, name, True)
            elif isinstance(part, Tricks):
                part.check_seats((name,), values[name], seating.players)
        state = cls(seating, options, to_play, **values)
        check_deck(state, strict)
        load_known(state, data.get("known"), strict)
        state.check(strict)
        return state


def _seen_marks(marks: list[dict], seat: int | None) -> list[dict]:
    """A place's exported marks that ``seat`` knows."""
    return [m for m in marks if m["to"] is None or (seat is not None and seat in m["to"])]


def _seen_by(marks: tuple, seat: int) -> tuple:
    return tuple(m for m in marks if k.sees(m[1], seat))


class CardGame(Game):
    """A Game whose state is a CardGameState: loading comes with it, and the match is won
    by its ``match_rule`` (kit/matches.py)."""

    State: ClassVar[type[CardGameState]]
    #: How a match is won: ``POINTS_TARGET`` (to a points target, the default) or
    #: ``FirstToHands(...)`` (first to win ``options.target`` hands).
    match_rule: ClassVar[MatchRule] = POINTS_TARGET

    def match_winner(self, sheet: ScoreSheet, options: GameOptions) -> int | None:
        return self.match_rule.winner(sheet, options.target)

    def score_extras(self, options: GameOptions) -> list[ScoreExtra]:
        """The match rule's (the card points under a hand won); a game with its own adds
        them to ``super().score_extras(options)``."""
        return self.match_rule.extras()

    def state_from_json(self, data: dict, strict: bool = False) -> CardGameState:
        return self.State.from_json(self, data, strict)

