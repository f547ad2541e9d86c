"""What follows from a state's declared parts: ``export``, ``view`` (``None`` too),
``determinize`` and loading (``from_json``). ``CardGameState`` is one such state; a game that
keeps its own representation (cards as ints, ``__slots__``, its own ``clone``) subclasses
``DeclaredState`` and writes ``made`` (a state from loaded values), ``header`` and
``options_json`` when they are not attributes, and ``check`` for the rules loading must
enforce beyond the declaration."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Self

from cardcore.engine.cards import standard_deck
from cardcore.engine.game import Game, GameOptions, GameState, StateError
from cardcore.engine.kit.loading import check_deck, load_options, load_part, load_seat, load_seating
from cardcore.engine.kit.parts import HIDDEN, Cards, Part, SeatNo
from cardcore.engine.seating import Seating

#: A test a card of a hidden place must pass (``must_hold``).
CardTest = Callable[[Any], bool]


class DeclaredState(GameState):
    """A GameState whose ``parts`` say what it exports, who sees what and how it loads.

    ``cache_public``: the state keeps ``_public`` (None after every change it makes) and
    the JSON of what every seat sees alike is made once per change: a server asks for
    every seat's view after every move.
    """

    __slots__ = ()

    #: The game's id, the export's "game" (or override ``header``).
    game_id: ClassVar[str]
    #: Every card of the game, each as often as the deck has it.
    deck: ClassVar[tuple[str, ...]] = tuple(standard_deck())
    #: The state's parts by name, in export order.
    parts: ClassVar[dict[str, Part]] = {}
    cache_public: ClassVar[bool] = False
    _public: dict[str, Any] | None
    options: GameOptions

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
        data = self._shared()
        for name, part in _private(type(self)):
            data[name] = part.export(part.read(self, name))
        return data

    def view(self, seat: int | None) -> dict:
        """The export with what ``seat`` may not see as nulls (None: the spectator)."""
        data = self._shared()
        for name, part in _private(type(self)):
            data[name] = part.view(part.read(self, name), seat)
        return data

    def _shared(self) -> dict[str, Any]:
        """The export as every seat sees it alike, in export order; the other parts' keys
        hold None until ``export`` or ``view`` fills them."""
        cached = self._public if self.cache_public else None
        if cached is None:
            cached = self.header()
            for name, part in self.parts.items():
                cached[name] = part.export(part.read(self, name)) if part.public else None
            cached["options"] = self.options_json()
            if self.cache_public:
                self._public = cached
        return dict(cached)

    def all_cards(self) -> list[str]:
        """Every card in the state's parts, in notation."""
        return [c for name, part in self.parts.items() for c in part.cards(part.read(self, name))]

    # --- samples ------------------------------------------------------------------

    def must_hold(self, name: str, index: int | None) -> Sequence[CardTest]:
        """What a hidden place (part ``name``, seat or side ``index``) keeps in every deal
        ``determinize`` makes: one card passing each test (a build's owner holds a card of
        its value). None by default."""
        return ()

    def determinize(self, seat: int, rng: random.Random) -> GameState:
        """The cards ``seat`` cannot see dealt again at random into the places it cannot
        see, each place keeping its size and what ``must_hold`` says."""
        twin = self.clone()
        assert isinstance(twin, DeclaredState)
        places = twin._hidden_places(seat)
        cards = [c for _, _, _, held in places for c in held]
        rng.shuffle(cards)
        needs = [self.must_hold(name, i) for name, i, _, _ in places]
        if not any(needs):
            at = 0
            for *_, held in places:
                held[:] = cards[at:at + len(held)]
                at += len(held)
            return twin
        kept = [_pull(cards, tests) for tests in needs]
        for (_, _, ordered, held), got in zip(places, kept, strict=True):
            want = len(held) - len(got)
            got += cards[:want]
            del cards[:want]
            if not ordered:  # a hand: the kept cards anywhere in it
                rng.shuffle(got)
            held[:] = got
        return twin

    def _hidden_places(self, seat: int) -> list[tuple[str, int | None, bool, list[Any]]]:
        """The lists of this state whose cards ``seat`` cannot see: (part, seat or side,
        ordered, the list)."""
        out: list[tuple[str, int | None, bool, list[Any]]] = []
        for name, part in self.parts.items():
            if not isinstance(part, Cards) or part.public:
                continue
            value = part.read(self, name)
            ordered = part.shown == HIDDEN
            if part.per is None:
                out.append((name, None, ordered, value))
            else:
                out += [(name, s, ordered, v) for s, v in enumerate(value)
                        if ordered or s != seat]
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
        excepted), an absent ``to_play`` is ``first_to_play``. ``strict``: every part
        present, the whole deck.
        """
        if not isinstance(data, dict):
            raise StateError(f"position: an object, not {type(data).__name__}")
        named = data.get("game")
        if named is not None and named != game.id:
            raise StateError(f"game: a state of {named!r}, not of {game.id!r}", ("game",))
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
        if "to_play" in data:
            to_play = load_seat(data["to_play"], seating.players, "to_play", True)
        else:
            to_play = cls.first_to_play(seating, values)
        state = cls.made(game, seating, options, to_play, values)
        check_deck(state, strict)
        state.check(strict)
        return state


@functools.cache
def _private(cls: type[DeclaredState]) -> tuple[tuple[str, Part], ...]:
    """The parts of ``cls`` that seats see differently."""
    return tuple((name, part) for name, part in cls.parts.items() if not part.public)


def _pull(cards: list[Any], tests: Sequence[CardTest]) -> list[Any]:
    """Out of ``cards``, the first card passing each test in turn (none when none does)."""
    got = []
    for test in tests:
        for j, c in enumerate(cards):
            if test(c):
                got.append(cards.pop(j))
                break
    return got
