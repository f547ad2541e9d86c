"""What follows from a state's declared parts: ``export``, ``view`` (``None`` too),
``determinize`` and loading (``from_json``). ``CardGameState`` is one such state; a game that
keeps its own representation (cards as ints, ``__slots__``, its own ``clone``) subclasses
``DeclaredState`` and writes ``made`` (a state from loaded values), ``header`` and
``options_json`` when they are not attributes, and ``check`` for the rules loading must
enforce beyond the declaration."""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, NamedTuple, Self

from cardcore.engine.cards import standard_deck
from cardcore.engine.deal import shuffle
from cardcore.engine.game import Game, GameOptions, GameState, StateError
from cardcore.engine.kit import known as k
from cardcore.engine.kit.loading import (
    check_deck,
    load_known,
    load_options,
    load_part,
    load_seat,
    load_seating,
)
from cardcore.engine.kit.parts import HIDDEN, OWNER, Cards, Part, SeatNo, _Scalar
from cardcore.engine.kit.tricks import Tricks
from cardcore.engine.seating import Seating

#: A test a card of a hidden place must pass (``must_hold``).
CardTest = Callable[[Any], bool]
#: A part's value read from a state.
Reader = Callable[[Any], Any]
#: A part's JSON from its value.
Writer = Callable[[Any], Any]


class DeclaredState(GameState):
    """A GameState whose ``parts`` say what it exports, who sees what and how it loads.

    ``cache_public``: the state keeps ``_public`` (None after every change it makes) and
    the spectator's view is made once per change, every export and view starting from a
    copy of it: a server asks for every seat's view after every move.
    """

    __slots__ = ()

    #: The game's id, the export's "game" (or override ``header``).
    game_id: ClassVar[str]
    #: Every card of the game, each as often as the deck has it.
    deck: ClassVar[tuple[str, ...]] = tuple(standard_deck())
    #: The state's parts by name, in export order.
    parts: ClassVar[dict[str, Part]] = {}
    cache_public: ClassVar[bool] = False
    #: ``parts`` as read when the class is made (a class sets ``parts`` in its body).
    _plan: ClassVar[_Plan]
    #: The names of the parts declared ``known=True`` (set for each subclass).
    known_parts: ClassVar[tuple[str, ...]] = ()
    #: The marks of each known part, per place (a tuple; per seat or side, a list of them):
    #: ``(card, to)``, ``to`` None (everyone) or the seats that know the card (kit/known.py).
    known: dict[str, Any]
    _public: dict[str, Any] | None
    options: GameOptions

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "known" in cls.parts:
            raise TypeError(f"{cls.__name__}: 'known' is the export's key of known cards, "
                            "not a part name")
        cls.known_parts = tuple(n for n, p in cls.parts.items() if isinstance(p, Cards) and p.known)
        cls._plan = _plan(cls)

    @property
    def players(self) -> int:
        raise NotImplementedError

    @property
    def dealer(self) -> int:
        raise NotImplementedError

    def whole_deck(self) -> list[str]:
        """Every card in play (override when options change the deck)."""
        return list(self.deck)

    # --- JSON ---------------------------------------------------------------------

    def header(self) -> dict[str, Any]:
        """The export's first keys: the game, the seating, the seat to play."""
        return {"game": self.game_id, "players": self.players, "dealer": self.dealer,
                "to_play": self.to_play}

    def options_json(self) -> dict[str, Any]:
        return self.options.model_dump(mode="json")

    def export(self) -> dict:
        data = self._public if self.cache_public else None
        data = (data or self._cached()).copy()
        for name, read, write in self._plan.export:
            data[name] = write(read(self))
        if self.known_parts:
            data["known"] = {n: self._export_marks(n) for n in self.known_parts}
        return data

    def view(self, seat: int | None) -> dict:
        """The export with what ``seat`` may not see as nulls (None: the spectator)."""
        plan = self._plan
        if not plan.plain_export:  # an export of the class's own (it may add keys)
            return self._view_of_export(seat)
        data = self._public if self.cache_public else None
        data = (data or self._cached()).copy()
        if seat is not None:  # the spectator's is the cached one, known cards too
            for name, read, show in plan.by_seat:
                data[name] = show(read(self), seat)
            if self.known_parts:
                self._show_known(data, seat)
        return data

    def _view_of_export(self, seat: int | None) -> dict[str, Any]:
        """A view of a state whose class writes its own ``export`` (the keys it adds too):
        the export, with the parts ``seat`` sees otherwise in their view."""
        data = self.export()
        for name, read, _ in self._plan.export:
            value = read(self)
            part = self.parts[name]
            data[name] = part.view(value, seat) if seat is not None else part.spectator(value)
        if self.known_parts:
            self._show_known(data, seat)
        return data

    def _cached(self) -> dict[str, Any]:
        """The spectator's view, in export order, kept when ``cache_public``: what
        ``export`` and ``view`` start from (a copy of)."""
        data = self.header()
        for name, read, write in self._plan.spectator:
            value = read(self)
            data[name] = value if write is None else write(value)
        if self.known_parts:
            data["known"] = None
            self._show_known(data, None)
        data["options"] = self.options_json()
        if self.cache_public:
            self._public = data
        return data

    # --- known cards: a view shows the cards the viewer knows where they lie -------------

    def _show_known(self, data: dict[str, Any], seat: int | None) -> None:
        """Into a view's ``data``: each known part as ``seat`` sees it, and the marks it
        knows (``known``)."""
        marks: dict[str, Any] = {}
        for name in self.known_parts:
            part = self.parts[name]
            assert isinstance(part, Cards)
            value, held = getattr(self, name), self.known[name]
            if part.per is None:
                data[name] = k.mask(value, held, seat)
                marks[name] = _seen_marks(k.export_marks(value, held), seat)
                continue
            own = part.shown == OWNER
            data[name] = [list(v) if own and s == seat else k.mask(v, m, seat)
                          for s, (v, m) in enumerate(zip(value, held, strict=True))]
            marks[name] = [_seen_marks(k.export_marks(v, m), seat)
                           for v, m in zip(value, held, strict=True)]
        data["known"] = marks

    def _export_marks(self, name: str) -> list:
        value, marks = getattr(self, name), self.known[name]
        if self.parts[name].per is None:
            return k.export_marks(value, marks)
        return [k.export_marks(v, m) for v, m in zip(value, marks, strict=True)]

    def all_cards(self) -> list[str]:
        """Every card in the state's parts, in notation."""
        return [c for name, part in self.parts.items() for c in part.cards(part.read(self, name))]

    # --- samples ------------------------------------------------------------------

    def must_hold(self) -> dict[tuple[str, int | None], Sequence[CardTest]]:
        """What hidden places keep in every deal ``determinize`` makes, by place (part,
        seat or side; None for a part that is one list): one card passing each test (a
        build's owner holds a card of its value). Nothing by default."""
        return {}

    def determinize(self, seat: int, rng: random.Random) -> GameState:
        """The cards ``seat`` cannot see dealt again at random into the places it cannot
        see, each place keeping its size, the cards ``seat`` knows there (known cards) and
        what ``must_hold`` says."""
        twin = self.clone()
        assert isinstance(twin, DeclaredState)
        places = twin._hidden_places(seat)
        cards = [c for *_, held, keep in places for i, c in enumerate(held) if i not in keep]
        shuffle(cards, rng)
        needs = self.must_hold()
        if needs:  # first what each place must keep, then the rest in order
            kept = [_pull(cards, needs.get((name, i), ())[:len(held) - len(keep)])
                    for name, i, _, held, keep in places]
        at = 0
        for j, (_, _, ordered, held, keep) in enumerate(places):
            n = len(held) - len(keep)
            if needs:
                dealt = kept[j] + cards[at:at + n - len(kept[j])]
                at += n - len(kept[j])
                if not ordered:  # a hand: the kept cards anywhere in it
                    shuffle(dealt, rng)
            else:
                dealt = cards[at:at + n]
                at += n
            if keep:
                fresh = iter(dealt)
                dealt = [c if x in keep else next(fresh) for x, c in enumerate(held)]
            held[:] = dealt
        return twin

    def _hidden_places(self, seat: int) -> list[tuple[str, int | None, bool, list[Any], set[int]]]:
        """The lists of this state whose cards ``seat`` cannot all see: (part, seat or side
        or None, ordered (a stock), the list, the indices of the cards ``seat`` knows
        there). The marks ``seat`` does not see are dropped (this is a sample's state)."""
        out: list[tuple[str, int | None, bool, list[Any], set[int]]] = []
        for name, part in self._plan.hidden:
            value = part.read(self, name)
            ordered = part.shown == HIDDEN
            marks = self.known.get(name) if part.known else None
            if part.per is None:
                out.append((name, None, ordered, value, k.seen(value, marks, seat) if marks else set()))
                if marks:
                    self.known[name] = _seen_by(marks, seat)
                continue
            for s, v in enumerate(value):
                if s == seat and not ordered:
                    continue
                m = marks[s] if marks else ()
                out.append((name, s, ordered, v, k.seen(v, m, seat) if m else set()))
                if m:
                    marks[s] = _seen_by(m, seat)  # type: ignore[index]
        return out

    # --- loading ------------------------------------------------------------------

    def check(self, strict: bool) -> None:
        """Refuse, with StateError naming the part, what is no position of the game beyond
        the types (a pile that may not be empty, a counter bounded by the table's size).
        Called by ``from_json`` after the types and the cards are checked."""

    @classmethod
    def made(cls, game: Game, seating: Seating, options: GameOptions, to_play: int | None,
             values: dict[str, Any]) -> Self:
        """The state of loaded ``values`` (absent parts left out: their empty values)."""
        raise NotImplementedError

    @classmethod
    def load_options(cls, game: Game, data: dict, strict: bool) -> GameOptions:
        return load_options(game, data.get("options", {}), strict)

    @classmethod
    def first_to_play(cls, seating: Seating, values: dict[str, Any]) -> int | None:
        """The seat to play when the position leaves it out: the leader."""
        return seating.leader

    @classmethod
    def from_json(cls, game: Game, data: Any, strict: bool = False) -> Self:
        """The state ``data`` (an export) describes, or StateError naming the part.

        Partial by default: absent parts take their empty values (a ``required`` part
        excepted), an absent ``to_play`` is ``first_to_play``. ``strict``: every field
        present (the parts, ``game``, ``players``, ``dealer``, ``to_play``, ``options``;
        ``known`` excepted: saves made before known cards lack it), the whole deck.
        """
        if not isinstance(data, dict):
            raise StateError(f"position: an object, not {type(data).__name__}")
        for key in ("game", "dealer", "to_play", "options") if strict else ():
            if key not in data:
                raise StateError(f"{key}: missing (strict loading wants every part)", (key,))
        named, own = data.get("game"), getattr(cls, "game_id", game.id)
        if named is not None and named != own:
            raise StateError(f"game: a state of {named!r}, not of {own!r}", ("game",))
        options = cls.load_options(game, data, strict)
        seating = load_seating(game, data, options, cls.parts, strict)
        values = {}
        for name, part in cls.parts.items():
            if name not in data:
                if strict or part.required:
                    why = " (strict loading wants every part)" if strict else ""
                    raise StateError(f"{name}: missing{why}", (name,))
                continue
            values[name] = load_part(name, part, data[name], seating, strict)
            if isinstance(part, SeatNo):
                load_seat(values[name], seating.players, name, True)
            elif isinstance(part, Tricks):
                part.check_seats((name,), values[name], seating.players)
        if "to_play" in data:
            to_play = load_seat(data["to_play"], seating.players, "to_play", True)
        else:
            to_play = cls.first_to_play(seating, values)
        state = cls.made(game, seating, options, to_play, values)
        check_deck(state, strict)
        load_known(state, data.get("known"), strict)
        state.check(strict)
        return state


class _Plan(NamedTuple):
    """How a class's parts are written out, made once when the class is made."""

    #: every part, in export order: (name, read, how a spectator sees it; None: as it is)
    spectator: tuple[tuple[str, Reader, Writer | None], ...]
    #: the parts some seat sees otherwise than the export: (name, read, export)
    export: tuple[tuple[str, Reader, Writer], ...]
    #: the parts a seat may see more of than a spectator (hands): (name, read, view)
    by_seat: tuple[tuple[str, Reader, Callable[[Any, int | None], Any]], ...]
    #: the card parts some seat cannot see
    hidden: tuple[tuple[str, Cards], ...]
    #: ``export`` is the kit's: else views are made from the class's own (it may add keys)
    plain_export: bool


def _plan(cls: type[DeclaredState]) -> _Plan:
    def read(name: str, part: Part) -> Reader:  # a plain attribute: read without a call
        return operator.attrgetter(name) if type(part).read is Part.read else functools.partial(
            part.read, name=name)

    def spectator(part: Part) -> Writer | None:  # None: the value is its JSON
        if not part.public:
            return part.spectator
        if type(part).export is _Scalar.export:
            return None if part.per is None else list
        return part.export

    every = [(name, read(name, part), part) for name, part in cls.parts.items()]
    return _Plan(
        tuple((n, r, spectator(p)) for n, r, p in every),
        tuple((n, r, p.export) for n, r, p in every if not p.public),
        tuple((n, r, p.view) for n, r, p in every  # known cards: DeclaredState._show_known
              if p.by_seat and not (isinstance(p, Cards) and p.known)),
        tuple((n, p) for n, _, p in every if isinstance(p, Cards) and not p.public),
        cls.export is DeclaredState.export)


DeclaredState._plan = _plan(DeclaredState)  # type: ignore[type-abstract]


def _seen_marks(marks: list[dict], seat: int | None) -> list[dict]:
    """A place's exported marks that ``seat`` knows."""
    return [m for m in marks if k.sees(m["to"], seat)]


def _seen_by(marks: tuple, seat: int) -> tuple:
    return tuple(m for m in marks if k.sees(m[1], seat))


def _pull(cards: list[Any], tests: Sequence[CardTest]) -> list[Any]:
    """Out of ``cards``, the first card passing each test in turn (none when none does)."""
    got = []
    for test in tests:
        for j, c in enumerate(cards):
            if test(c):
                got.append(cards.pop(j))
                break
    return got
