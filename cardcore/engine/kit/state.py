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
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Literal

import pydantic

from cardcore.engine.cards import CardError, check_cards, parse_card, standard_deck
from cardcore.engine.game import Game, GameOptions, GameState, StateError, Zone
from cardcore.engine.seating import Seating

#: Everyone sees it (a discard pile, captured cards, the table).
PUBLIC: Final = "public"
#: Only its seat sees it (hands): per seat only.
OWNER: Final = "owner"
#: Nobody sees it, and its order matters (a stock): a view shows a null per card.
HIDDEN: Final = "hidden"

Shown = Literal["public", "owner", "hidden"]
Per = Literal["seat", "side"] | None


@dataclass(frozen=True)
class Part:
    """One part of a state: ``per`` "seat" or "side" makes it one value per seat or side."""

    per: Per = field(default=None, kw_only=True)

    def empty(self) -> Any:
        raise NotImplementedError

    def load_one(self, name: str, value: Any, strict: bool) -> Any:
        raise NotImplementedError


@dataclass(frozen=True)
class Cards(Part):
    """A list of cards in notation, first card first (a stock: the top)."""

    shown: Shown = PUBLIC
    #: The zone kind the default ``zones`` draws it as (``hand`` for OWNER parts).
    zone: str = ""

    def __post_init__(self) -> None:
        if self.shown == OWNER and self.per != "seat":
            raise ValueError("an OWNER part is one list per seat: Cards(per='seat', shown=OWNER)")

    def empty(self) -> list[str]:
        return []

    def load_one(self, name: str, value: Any, strict: bool) -> list[str]:
        if not isinstance(value, list):
            raise StateError(f"{name}: a list of cards, not {type(value).__name__}")
        try:
            return [parse_card(c) for c in value]
        except CardError as exc:
            raise StateError(f"{name}: {exc}") from None


@dataclass(frozen=True)
class Count(Part):
    """An integer counter, ``least`` to ``most`` (None: no bound)."""

    least: int = 0
    most: int | None = None
    default: int = 0

    def empty(self) -> int:
        return self.default

    def load_one(self, name: str, value: Any, strict: bool) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise StateError(f"{name}: an integer, not {value!r}")
        if value < self.least or (self.most is not None and value > self.most):
            top = "" if self.most is None else f" to {self.most}"
            raise StateError(f"{name}: {value} is out of range ({self.least}{top})")
        return value


@dataclass(frozen=True)
class Choice(Part):
    """One of a few strings (a suit called, a phase); ``default`` is the first choice."""

    choices: tuple[str, ...] = ()
    optional: bool = False

    def empty(self) -> str | None:
        return None if self.optional else self.choices[0]

    def load_one(self, name: str, value: Any, strict: bool) -> str | None:
        if value is None and self.optional:
            return None
        if value not in self.choices or not isinstance(value, str):
            raise StateError(f"{name}: {value!r} is not one of {', '.join(self.choices)}")
        return value


@dataclass(frozen=True)
class Flag(Part):
    """A true/false."""

    default: bool = False

    def empty(self) -> bool:
        return self.default

    def load_one(self, name: str, value: Any, strict: bool) -> bool:
        if not isinstance(value, bool):
            raise StateError(f"{name}: true or false, not {value!r}")
        return value


@dataclass(frozen=True)
class SeatNo(Part):
    """A seat number, or null (no seat yet): the last to capture, the first to go out.
    Checked against the table's size by loading."""

    def empty(self) -> None:
        return None

    def load_one(self, name: str, value: Any, strict: bool) -> int | None:
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise StateError(f"{name}: a seat number or null, not {value!r}")
        return value


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

    def __init__(self, seating: Seating, options: GameOptions, to_play: int | None,
                 **values: Any) -> None:
        self.seating = seating
        self.options = options
        self.to_play = to_play
        unknown = set(values) - set(self.parts)
        if unknown:
            raise TypeError(f"{type(self).__name__}: no part {sorted(unknown)[0]!r}")
        for name, part in self.parts.items():
            value = values[name] if name in values else self._empty(part)
            setattr(self, name, value)

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
            data[name] = value
        data["options"] = self.options.model_dump(mode="json")
        return data

    def view(self, seat: int | None) -> dict:
        """The export with what ``seat`` may not see as nulls (None: the spectator)."""
        data = self.export()
        for name, part in self.parts.items():
            if not isinstance(part, Cards) or part.shown == PUBLIC:
                continue
            if part.shown == HIDDEN and part.per is None:
                data[name] = [None] * len(data[name])
            elif part.shown == HIDDEN:
                data[name] = [[None] * len(v) for v in data[name]]
            else:
                data[name] = [v if s == seat else [None] * len(v) for s, v in enumerate(data[name])]
        return data

    def _hidden_lists(self, seat: int) -> list[list[str]]:
        """The lists (of this state) whose cards ``seat`` cannot see."""
        out: list[list[str]] = []
        for name, part in self.parts.items():
            if not isinstance(part, Cards) or part.shown == PUBLIC:
                continue
            value = getattr(self, name)
            if part.per is None:
                out.append(value)
            else:
                out += [v for s, v in enumerate(value) if part.shown == HIDDEN or s != seat]
        return out

    def determinize(self, seat: int, rng: random.Random) -> CardGameState:
        twin = self.clone()
        hidden = twin._hidden_lists(seat)
        cards = [c for cards in hidden for c in cards]
        rng.shuffle(cards)
        at = 0
        for cards_list in hidden:
            cards_list[:] = cards[at:at + len(cards_list)]
            at += len(cards_list)
        return twin

    def all_cards(self) -> list[str]:
        """Every card in the state's parts."""
        out: list[str] = []
        for name, part in self.parts.items():
            if isinstance(part, Cards):
                value = getattr(self, name)
                out += [c for v in value for c in v] if part.per else value
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
        is the dealer's neighbour. ``strict``: every part present, the whole deck.
        """
        if not isinstance(data, dict):
            raise StateError(f"position: an object, not {type(data).__name__}")
        options = _options(game, data.get("options", {}), strict)
        seating = _seating(game, data, options, cls.parts, strict)
        to_play = _seat(data.get("to_play", seating.leader), seating.players, "to_play", True)
        values = {}
        for name, part in cls.parts.items():
            if name not in data:
                if strict:
                    raise StateError(f"{name}: missing (strict loading wants every part)")
                continue
            values[name] = _load_part(name, part, data[name], seating, strict)
            if isinstance(part, SeatNo):
                _seat(values[name], seating.players, name, True)
        state = cls(seating, options, to_play, **values)
        _check_deck(state, strict)
        state.check(strict)
        return state


def _options(game: Game, raw: Any, strict: bool) -> GameOptions:
    if not isinstance(raw, dict):
        raise StateError(f"options: an object, not {type(raw).__name__}")
    try:
        return game.Options.model_validate(raw, strict=strict)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"]))
        raise StateError(f"options.{where}: {first['msg']}") from None


def _seating(game: Game, data: dict, options: GameOptions, parts: dict[str, Part],
             strict: bool) -> Seating:
    if "players" in data:
        players = data["players"]
    elif strict:
        raise StateError("players: missing (strict loading wants every part)")
    else:  # a partial position: as many players as a per-seat part has lists
        seated = [data[n] for n, p in parts.items() if p.per == "seat" and isinstance(data.get(n), list)]
        players = len(seated[0]) if seated else game.player_counts[0]
    if not isinstance(players, int) or isinstance(players, bool) or players not in game.player_counts:
        counts = ", ".join(map(str, game.player_counts))
        raise StateError(f"players: {players!r} is not a player count of {game.id} ({counts})")
    dealer = _seat(data.get("dealer", 0), players, "dealer", False)
    assert dealer is not None
    return game.seating(players, options, dealer)


def _seat(value: Any, players: int, name: str, optional: bool) -> int | None:
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise StateError(f"{name}: {value!r} is not a seat (0 to {players - 1})")
    return value


def _load_part(name: str, part: Part, value: Any, seating: Seating, strict: bool) -> Any:
    if part.per is None:
        return part.load_one(name, value, strict)
    count = seating.players if part.per == "seat" else seating.sides
    if not isinstance(value, list) or len(value) != count:
        raise StateError(f"{name}: a list of {count} (one per {part.per}), not {_describe(value)}")
    return [part.load_one(f"{name}[{i}]", v, strict) for i, v in enumerate(value)]


def _describe(value: Any) -> str:
    return f"a list of {len(value)}" if isinstance(value, list) else type(value).__name__


def _check_deck(state: CardGameState, strict: bool) -> None:
    cards = state.all_cards()
    deck = state.whole_deck()
    try:
        check_cards(cards, deck, "cards")
    except CardError as exc:
        raise StateError(str(exc)) from None
    if strict:
        missing = Counter(deck) - Counter(cards)
        if missing:
            raise StateError(f"cards: strict loading wants the whole deck; missing "
                             f"{' '.join(sorted(missing.elements()))}")


class CardGame(Game):
    """A Game whose state is a CardGameState: loading comes with it."""

    State: ClassVar[type[CardGameState]]

    def state_from_json(self, data: dict, strict: bool = False) -> CardGameState:
        return self.State.from_json(self, data, strict)

