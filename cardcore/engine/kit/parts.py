"""The parts a kit state is declared with: cards (who sees them), counters, choices, flags,
seat numbers; each loads one value and names its place (``StateError.path``) when it may not,
and says how it is exported, viewed and which cards it holds. A game whose state keeps a
part its own way (a table of loose cards and builds) writes a Part subclass."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from cardcore.engine.cards import CardError, parse_card
from cardcore.engine.game import StateError

#: A place in an export: keys and indices (``("hands", 2)``).
Path = tuple[str | int, ...]
#: A list of cards ``determinize`` deals again: (part, seat or side or None, ordered (a
#: stock), the list itself, what it keeps (the cards known or seen there: in an ordered list
#: their indices, they stay where they lie; in a hand the cards, first), the cards dealt again).
Place = tuple[str, int | None, bool, list[Any], Sequence[Any], list[Any]]


class StateCardError(StateError, CardError):
    """A card that is not a card of the deck, or one too many, in a state."""


def where(path: Path) -> str:
    """A place as messages name it: ``hands[2]``, ``table.builds[0].value``."""
    head, *rest = path
    return str(head) + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in rest)


def key_of(path: Path, data: dict, key: str, default: Any, strict: bool) -> Any:
    """``data[key]`` for a part of the game's own (``data`` an object at ``path``); absent:
    ``default``, or StateError when ``strict`` (strict loading wants every key)."""
    if key in data:
        return data[key]
    if strict:
        raise StateError(f"{where((*path, key))}: missing (strict loading wants every part)",
                         (*path, key))
    return default


def require(path: Path, value: Any, kind: type, words: str) -> None:
    """StateError naming ``path`` unless ``value`` is a ``kind`` (``words``: "an object")."""
    if not isinstance(value, kind):
        raise StateError(f"{where(path)}: {words}, not {type(value).__name__}", path)


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
    """One part of a state: ``per`` "seat" or "side" makes it one value per seat or side.
    ``required``: even a partial position names it."""

    per: Per = field(default=None, kw_only=True)
    required: bool = field(default=False, kw_only=True)

    def empty(self) -> Any:
        raise NotImplementedError

    def load_one(self, path: Path, value: Any, strict: bool) -> Any:
        raise NotImplementedError

    def read(self, state: Any, name: str) -> Any:
        """The part's value in ``state`` (a list per seat or side for ``per`` parts)."""
        return getattr(state, name)

    @property
    def public(self) -> bool:
        """Every seat sees it alike (``view`` is ``export``)."""
        return True

    @property
    def by_seat(self) -> bool:
        """A seat may see more of it than a spectator (``view(value, seat)`` is not
        ``view(value, None)``)."""
        return not self.public

    def export_one(self, value: Any) -> Any:
        return list(value) if isinstance(value, list) else value

    def export(self, value: Any) -> Any:
        """The part as JSON (a fresh list: the caller may keep it)."""
        if self.per is None:
            return self.export_one(value)
        one = self.export_one
        return [one(v) for v in value]

    def view(self, value: Any, seat: int | None) -> Any:
        """The part as ``seat`` sees it (None: a spectator)."""
        return self.export(value)

    def spectator(self, value: Any) -> Any:
        return self.view(value, None)

    def cards_one(self, value: Any) -> list[str]:
        """The cards one value holds, in notation."""
        return []

    def hidden_places(self, state: Any, name: str, seat: int) -> list[Place]:
        """The lists of cards of this part in ``state`` that ``seat`` cannot all see, for
        ``determinize`` to deal again (a part of the game's own that hides some cards: a
        squared pile). ``Cards`` parts: the kit's (DeclaredState)."""
        return []

    def cards(self, value: Any) -> list[str]:
        if self.per is None:
            return self.cards_one(value)
        return [c for v in value for c in self.cards_one(v)]


@dataclass(frozen=True)
class Cards(Part):
    """A list of cards, first card first (a stock: the top): in notation, or with ``names``
    ints inside (``names[i]`` the notation of card ``i``), notation in the export. ``sort``:
    a multiset kept in any order inside, each list written sorted (by the ints with
    ``names``), its known cards first."""

    shown: Shown = PUBLIC
    #: The zone kind the default ``zones`` draws it as (``hand`` for OWNER parts).
    zone: str = ""
    names: tuple[str, ...] | None = field(default=None, kw_only=True)
    #: Some of its cards may be known to all or to some seats (``CardGameState.make_known``;
    #: with ``names``, the marks hold the ints too).
    known: bool = field(default=False, kw_only=True)
    sort: bool = field(default=False, kw_only=True)

    def __post_init__(self) -> None:
        if self.shown == OWNER and self.per != "seat":
            raise ValueError("an OWNER part is one list per seat: Cards(per='seat', shown=OWNER)")
        if self.known and self.shown == PUBLIC:
            raise ValueError("known cards are cards of a hidden place: Cards(shown=OWNER or "
                             "HIDDEN, known=True)")

    @functools.cached_property
    def ids(self) -> dict[str, int]:
        """The int of each card in notation (with ``names``)."""
        return {name: i for i, name in enumerate(self.names or ())}

    @property
    def public(self) -> bool:
        return self.shown == PUBLIC

    @property
    def by_seat(self) -> bool:
        return self.shown == OWNER

    def empty(self) -> list[Any]:
        return []

    def load_one(self, path: Path, value: Any, strict: bool) -> list[Any]:
        if not isinstance(value, list):
            raise StateError(f"{where(path)}: a list of cards, not {type(value).__name__}", path)
        if self.names is not None:  # cards as the export writes them: no parsing (a bot's
            ids = self.ids           # sample loads a position for every decision)
            try:
                return [ids[c] for c in value]
            except (KeyError, TypeError):
                pass  # below: what is wrong, or notation to normalize ("10h")
        for i, c in enumerate(value):
            if not isinstance(c, str):
                raise StateCardError(f"{where((*path, i))}: a card in notation, not {c!r}", (*path, i))
        try:
            cards = [parse_card(c) for c in value]
        except CardError as exc:
            raise StateCardError(f"{where(path)}: {exc}", path) from None
        if self.names is None:
            return cards
        ids = self.ids
        for c in cards:
            if c not in ids:
                raise StateCardError(f"{where(path)}: {c!r} is not a card of this deck", path)
        return [ids[c] for c in cards]

    def export_one(self, value: Any) -> list[Any]:
        names = self.names
        if self.sort:
            value = sorted(value)
        return list(value) if names is None else [names[c] for c in value]

    # export and view write the lists out in place: a server asks for every seat's view
    # after every move

    def export(self, value: Any) -> Any:
        names = self.names
        if self.sort:
            return super().export(value)
        if self.per is None:
            return list(value) if names is None else [names[c] for c in value]
        if names is None:
            return [list(v) for v in value]
        return [[names[c] for c in v] for v in value]

    def view(self, value: Any, seat: int | None) -> Any:
        if self.shown != OWNER:
            return self.spectator(value)  # public, or hidden from every seat
        names = self.names
        if self.sort:
            one = self.export_one
            return [one(v) if s == seat else [None] * len(v) for s, v in enumerate(value)]
        if names is None:
            return [list(v) if s == seat else [None] * len(v) for s, v in enumerate(value)]
        return [[names[c] for c in v] if s == seat else [None] * len(v)
                for s, v in enumerate(value)]

    def spectator(self, value: Any) -> Any:
        if self.shown == PUBLIC:
            return self.export(value)
        if self.per is None:
            return [None] * len(value)
        return [[None] * len(v) for v in value]

    def cards_one(self, value: Any) -> list[str]:
        names = self.names
        return list(value) if names is None else [names[c] for c in value]


@dataclass(frozen=True)
class _Scalar(Part):
    """A part whose value is one JSON scalar (per seat or side: a list of them)."""

    def export(self, value: Any) -> Any:
        return value if self.per is None else list(value)


@dataclass(frozen=True)
class Count(_Scalar):
    """An integer counter, ``least`` to ``most`` (None: no bound)."""

    least: int | None = 0
    most: int | None = None
    default: int = 0

    def empty(self) -> int:
        return self.default

    def load_one(self, path: Path, value: Any, strict: bool) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise StateError(f"{where(path)}: an integer, not {value!r}", path)
        if (self.least is not None and value < self.least) or (self.most is not None
                                                                and value > self.most):
            top = "" if self.most is None else f" to {self.most}"
            bounds = f"up{top}" if self.least is None else f"{self.least}{top}"
            raise StateError(f"{where(path)}: {value} is out of range ({bounds})", path)
        return value


@dataclass(frozen=True)
class Choice(_Scalar):
    """One of a few strings (a suit called, a phase); ``default`` is the first choice."""

    choices: tuple[str, ...] = ()
    optional: bool = False

    def empty(self) -> str | None:
        return None if self.optional else self.choices[0]

    def load_one(self, path: Path, value: Any, strict: bool) -> str | None:
        if value is None and self.optional:
            return None
        if value not in self.choices or not isinstance(value, str):
            raise StateError(f"{where(path)}: {value!r} is not one of {', '.join(self.choices)}", path)
        return value


@dataclass(frozen=True)
class Flag(_Scalar):
    """A true/false."""

    default: bool = False

    def empty(self) -> bool:
        return self.default

    def load_one(self, path: Path, value: Any, strict: bool) -> bool:
        if not isinstance(value, bool):
            raise StateError(f"{where(path)}: true or false, not {value!r}", path)
        return value


@dataclass(frozen=True)
class SeatNo(_Scalar):
    """A seat number, or null (no seat yet): the last to capture, the first to go out.
    Checked against the table's size by loading."""

    def empty(self) -> None:
        return None

    def load_one(self, path: Path, value: Any, strict: bool) -> int | None:
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise StateError(f"{where(path)}: a seat number or null, not {value!r}", path)
        return value

