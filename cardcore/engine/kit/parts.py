"""The parts a kit state is declared with: cards (who sees them), counters, choices, flags,
seat numbers; each loads one value and names its place (``StateError.path``) when it may not."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal

from cardcore.engine.cards import CardError, parse_card
from cardcore.engine.game import StateError

#: A place in an export: keys and indices (``("hands", 2)``).
Path = tuple[str | int, ...]


def where(path: Path) -> str:
    """A place as messages name it: ``hands[2]``."""
    head, *rest = path
    return str(head) + "".join(f"[{p}]" for p in rest)


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

    def load_one(self, path: Path, value: Any, strict: bool) -> Any:
        raise NotImplementedError


@dataclass(frozen=True)
class Cards(Part):
    """A list of cards in notation, first card first (a stock: the top)."""

    shown: Shown = PUBLIC
    #: The zone kind the default ``zones`` draws it as (``hand`` for OWNER parts).
    zone: str = ""
    #: Some of its cards may be known to all or to some seats (``CardGameState.make_known``).
    known: bool = field(default=False, kw_only=True)

    def __post_init__(self) -> None:
        if self.shown == OWNER and self.per != "seat":
            raise ValueError("an OWNER part is one list per seat: Cards(per='seat', shown=OWNER)")
        if self.known and self.shown == PUBLIC:
            raise ValueError("known cards are cards of a hidden place: Cards(shown=OWNER or "
                             "HIDDEN, known=True)")

    def empty(self) -> list[str]:
        return []

    def load_one(self, path: Path, value: Any, strict: bool) -> list[str]:
        if not isinstance(value, list):
            raise StateError(f"{where(path)}: a list of cards, not {type(value).__name__}", path)
        try:
            return [parse_card(c) for c in value]
        except CardError as exc:
            raise StateError(f"{where(path)}: {exc}", path) from None


@dataclass(frozen=True)
class Count(Part):
    """An integer counter, ``least`` to ``most`` (None: no bound)."""

    least: int = 0
    most: int | None = None
    default: int = 0

    def empty(self) -> int:
        return self.default

    def load_one(self, path: Path, value: Any, strict: bool) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise StateError(f"{where(path)}: an integer, not {value!r}", path)
        if value < self.least or (self.most is not None and value > self.most):
            top = "" if self.most is None else f" to {self.most}"
            raise StateError(f"{where(path)}: {value} is out of range ({self.least}{top})", path)
        return value


@dataclass(frozen=True)
class Choice(Part):
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
class Flag(Part):
    """A true/false."""

    default: bool = False

    def empty(self) -> bool:
        return self.default

    def load_one(self, path: Path, value: Any, strict: bool) -> bool:
        if not isinstance(value, bool):
            raise StateError(f"{where(path)}: true or false, not {value!r}", path)
        return value


@dataclass(frozen=True)
class SeatNo(Part):
    """A seat number, or null (no seat yet): the last to capture, the first to go out.
    Checked against the table's size by loading."""

    def empty(self) -> None:
        return None

    def load_one(self, path: Path, value: Any, strict: bool) -> int | None:
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise StateError(f"{where(path)}: a seat number or null, not {value!r}", path)
        return value

