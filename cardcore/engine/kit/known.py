"""Known cards: cards of a hidden place (a hand, a stock) that some seats know.

A place's known cards are marks, ``(card, to)``: ``to`` is None (known to every seat and
the spectator) or the seats that know the card. A mark counts while its card is in its
place: each mark claims one card of the place, the card at the mark's own index when it
is the card (a hand keeps its known cards first), else its first unclaimed copy. A view
shows the claimed cards the viewer knows face up where they lie; ``determinize`` keeps
them there and deals only the rest again.

The export carries them as ``"known": {part: marks}``, one list of
``{"card": "KH", "to": null}`` per place (per seat for a per-seat part); a save without
``"known"`` (made before known cards) loads as nothing known. The kit's state and the
games that keep their own state (canasta) both go through these functions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

from cardcore.engine.cards import CardError, parse_card
from cardcore.engine.game import StateError
from cardcore.engine.kit.parts import Path, where

#: The export's key for the marks: a save made before known cards lacks it, and loads (also
#: strictly) as nothing known; check_game does not ask strict loading to refuse its absence.
KEY = "known"
#: An export's keys that hold no places of cards: the options, and these marks (their cards
#: lie in their places already; a view lists only the marks its seat knows).
NOT_CARDS = ("options", KEY)

C = TypeVar("C", bound=Hashable)
#: Who knows a card: None (everyone) or the seats that do.
To = tuple[int, ...] | None
Mark = tuple[C, To]


def sees(to: To, seat: int | None) -> bool:
    """Whether ``seat`` (None: the spectator) knows a card known ``to``."""
    return to is None or (seat is not None and seat in to)


def claimed(cards: Sequence[C], marks: Iterable[Mark[C]]) -> list[tuple[int, To]]:
    """Each mark's card in ``cards`` as ``(index, to)``; a mark whose card has left is
    skipped (it no longer counts)."""
    taken: set[int] = set()
    out: list[tuple[int, To]] = []
    for i, (card, to) in enumerate(marks):
        if i < len(cards) and cards[i] == card and i not in taken:
            at = i
        else:
            at = next((j for j, c in enumerate(cards) if c == card and j not in taken), -1)
            if at < 0:
                continue
        taken.add(at)
        out.append((at, to))
    return out


def live(cards: Sequence[C], marks: Sequence[Mark[C]]) -> list[Mark[C]]:
    """The marks that still count (their card in ``cards``), in their order."""
    return [(cards[at], to) for at, to in claimed(cards, marks)]


def seen(cards: Sequence[C], marks: Iterable[Mark[C]], seat: int | None) -> set[int]:
    """The indices of the cards ``seat`` knows."""
    return {at for at, to in claimed(cards, marks) if sees(to, seat)}


def mask(cards: Sequence[Any], marks: Iterable[Mark[Any]], seat: int | None) -> list[Any]:
    """A hidden place as ``seat`` sees it: the cards it knows where they lie, else null."""
    shown = seen(cards, marks, seat)
    return [c if i in shown else None for i, c in enumerate(cards)] if shown else [None] * len(cards)


def forget(marks: Sequence[Mark[C]], card: C) -> tuple[Mark[C], ...]:
    """The marks without (the first) one of ``card``: the mark follows its card out."""
    for i, (c, _) in enumerate(marks):
        if c == card:
            return (*marks[:i], *marks[i + 1:])
    return tuple(marks)


def without(cards: Sequence[C], known: Iterable[C]) -> list[C]:
    """``cards`` less (the first) one copy of each of ``known``, in order."""
    out = list(cards)
    for c in known:
        if c in out:
            out.remove(c)
    return out


def known_in(view: Any, seat: int) -> Counter:
    """The cards of ``seat``'s places that a view's ``known`` shows on purpose (a view of
    any game: malformed marks are skipped)."""
    found: Counter = Counter()
    parts = view.get("known") if isinstance(view, dict) else None
    for places in parts.values() if isinstance(parts, dict) else ():
        if isinstance(places, list) and seat < len(places) and isinstance(places[seat], list):
            found.update(m.get("card") for m in places[seat] if isinstance(m, dict))
    return found


# --- export and loading ------------------------------------------------------------------

def export_marks(cards: Sequence[C], marks: Sequence[Mark[C]],
                 text: Callable[[C], str] = str) -> list[dict[str, Any]]:
    """The marks that count, as the export writes them."""
    return write_marks(live(cards, marks), text)


def write_marks(marks: Iterable[Mark[C]], text: Callable[[C], str] = str) -> list[dict[str, Any]]:
    """Marks (that count) as the export writes them."""
    return [{"card": text(card), "to": None if to is None else list(to)} for card, to in marks]


def load_marks(path: Path, value: Any, cards: Sequence[str], players: int,
               strict: bool = False) -> tuple[Mark[str], ...]:
    """A place's marks from the export (``cards``: the place's cards, in notation), or
    StateError naming the place: each a card of the place and who knows it (``to``
    absent: everyone; ``strict`` wants it written)."""
    if not isinstance(value, list):
        raise StateError(f"{_at(path)}: a list of known cards, not {type(value).__name__}", path)
    marks = tuple(_load_mark(path + (i,), m, players, strict) for i, m in enumerate(value))
    extra = Counter(c for c, _ in marks) - Counter(cards)
    if extra:
        raise StateError(f"{_at(path)}: {' '.join(sorted(extra))} known but not in "
                         f"{where(path[1:])}", path)
    return marks


def _at(path: Path) -> str:
    """A mark's place as messages name it: ``known.hands[1][0]``."""
    return f"{path[0]}.{where(path[1:])}"


def _load_mark(path: Path, value: Any, players: int, strict: bool) -> Mark[str]:
    keys = {"card", "to"}
    if not isinstance(value, dict) or not {"card"} <= set(value) <= keys or \
            (strict and set(value) != keys):
        raise StateError(f"{_at(path)}: a known card is {{\"card\": ..., \"to\": ...}}, "
                         f"not {value!r:.60}", path)
    try:
        card = parse_card(value["card"]) if isinstance(value["card"], str) else None
    except CardError:
        card = None
    if card is None:
        raise StateError(f"{_at(path)}.card: not a card: {value['card']!r:.30}", path)
    to = value.get("to")
    if to is None:
        return card, None
    seats = range(players)
    if (not isinstance(to, list) or not to
            or any(not isinstance(s, int) or isinstance(s, bool) or s not in seats for s in to)
            or len(set(to)) != len(to)):
        raise StateError(f"{_at(path)}.to: null (everyone) or some seats (0 to "
                         f"{players - 1}), not {to!r:.40}", path)
    return card, tuple(sorted(to))
