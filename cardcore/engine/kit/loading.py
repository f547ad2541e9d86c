"""Loading a kit state's export: options, seating, seats, parts and the deck, each refusal a
``StateError`` naming its place."""

from __future__ import annotations

import functools
from collections import Counter
from typing import TYPE_CHECKING, Any

import pydantic

from cardcore.engine.game import Game, GameOptions, StateError
from cardcore.engine.kit import known
from cardcore.engine.kit.known import load_marks
from cardcore.engine.kit.parts import Cards, Part, StateCardError
from cardcore.engine.seating import Seating

if TYPE_CHECKING:
    from cardcore.engine.kit.declared import DeclaredState


def load_options(game: Game, raw: Any, strict: bool) -> GameOptions:
    """The export's options, or StateError naming the field."""
    if not isinstance(raw, dict):
        raise StateError(f"options: an object, not {type(raw).__name__}", ("options",))
    try:
        return game.Options.model_validate(raw, strict=strict)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"]))
        raise StateError(f"options.{where}: {first['msg']}", ("options", *first["loc"])) from None


def load_seating(game: Game, data: dict, options: GameOptions, parts: dict[str, Part],
                 strict: bool) -> Seating:
    """The export's seating (``players``, ``dealer``), or StateError naming the field."""
    if "players" in data:
        players = data["players"]
    elif strict:
        raise StateError("players: missing (strict loading wants every part)", ("players",))
    else:  # a partial position: as many players as a per-seat part has lists
        seated = [data[n] for n, p in parts.items() if p.per == "seat" and isinstance(data.get(n), list)]
        players = len(seated[0]) if seated else game.player_counts[0]
    if not isinstance(players, int) or isinstance(players, bool) or players not in game.player_counts:
        counts = ", ".join(map(str, game.player_counts))
        raise StateError(f"players: {players!r} is not a player count of {game.id} ({counts})",
                         ("players",))
    dealer = data.get("dealer")
    if dealer is None:  # left out: the seat whose neighbour is to play (or seat 0)
        return _led_by(game, players, options, data.get("to_play"))
    load_seat(dealer, players, "dealer", False)
    return game.seating(players, options, dealer)


def _led_by(game: Game, players: int, options: GameOptions, to_play: Any) -> Seating:
    """The seating whose leader is ``to_play`` (when a seat), else the dealer seat 0's."""
    for dealer in range(players):
        seating = game.seating(players, options, dealer)
        if seating.leader == to_play:
            return seating
    return game.seating(players, options, 0)


def load_seat(value: Any, players: int, name: str, optional: bool) -> int | None:
    """A seat number (or None when ``optional``), or StateError naming ``name``."""
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise StateError(f"{name}: {value!r} is not a seat (0 to {players - 1})", (name,))
    return value


def load_part(name: str, part: Part, value: Any, seating: Seating, strict: bool) -> Any:
    """One part's value from the export, or StateError naming its place."""
    if part.per is None:
        return part.load_one((name,), value, strict)
    count = seating.players if part.per == "seat" else seating.sides
    if not isinstance(value, list) or len(value) != count:
        raise StateError(f"{name}: a list of {count} (one per {part.per}), not {_describe(value)}",
                         (name,))
    return [part.load_one((name, i), v, strict) for i, v in enumerate(value)]


def _describe(value: Any) -> str:
    return f"a list of {len(value)}" if isinstance(value, list) else type(value).__name__


def check_deck(state: DeclaredState, strict: bool) -> None:
    """Every card of the state in its deck, none too often; ``strict``: the whole deck."""
    have = Counter(state.all_cards())
    deck = _counted(tuple(state.whole_deck()))
    for c, n in have.items():
        if n > deck[c]:
            message = (f"{c} appears {n} times, the deck has {deck[c]}" if c in deck
                       else f"{c!r} is not a card of this deck")
            raise StateCardError(f"cards: {message}", ("cards",))
    if strict:
        missing = deck - have
        if missing:
            raise StateError(f"cards: strict loading wants the whole deck; missing "
                         f"{' '.join(sorted(missing.elements()))}", ("cards",))


@functools.lru_cache(maxsize=16)
def _counted(deck: tuple[str, ...]) -> Counter:
    """A deck's cards counted (once: a bot's sample loads a position for every decision)."""
    return Counter(deck)


def load_known(state: DeclaredState, raw: Any, strict: bool) -> None:
    """The export's known cards into ``state`` (its parts loaded), or StateError naming the
    place; absent (a save made before known cards): nothing known. ``strict``: when
    present, it names every part with known cards."""
    if raw is None:
        return
    if not isinstance(raw, dict):
        raise StateError(f"known: an object, not {type(raw).__name__}", ("known",))
    players = state.players
    for name, value in raw.items():
        if name not in state.known_parts:
            raise StateError(f"known: {name!r} is no part with known cards", ("known", str(name)))
        part = state.parts[name]
        assert isinstance(part, Cards)
        cards = part.read(state, name)
        if part.per is None:
            marks = load_marks(("known", name), value, _named(part, cards), players, strict)
            state.set_marks(name, _ids(part, marks))
            continue
        if not isinstance(value, list) or len(value) != len(cards):
            raise StateError(f"known.{name}: a list of {len(cards)} (one per "
                             f"{part.per}), not {_describe(value)}", ("known", name))
        state.set_marks(name, [() if v == [] else _ids(part, load_marks(
            ("known", name, i), v, _named(part, c), players, strict))
            for i, (v, c) in enumerate(zip(value, cards, strict=True))])
    absent = [name for name in state.known_parts if name not in raw]
    if strict and absent:
        raise StateError(f"known.{absent[0]}: missing (strict loading wants every field)",
                         ("known", absent[0]))


def _named(part: Cards, cards: list[Any]) -> list[str]:
    return cards if part.names is None else [part.names[c] for c in cards]


def _ids(part: Cards, marks: tuple[known.Mark[str], ...]) -> tuple[known.Mark[Any], ...]:
    """Marks in notation as the part keeps its cards (ints with ``names``)."""
    if part.names is None:
        return marks
    ids = part.ids
    return tuple((ids[c], to) for c, to in marks)


def require_every_field(shape: pydantic.BaseModel, path: tuple[str | int, ...] = ()) -> None:
    """Strict loading wants every field: StateError naming the first field the data left out
    of ``shape`` (a pydantic model validated from it) or of the models inside it; but
    ``known``, which a save made before known cards lacks."""
    for name in type(shape).model_fields:
        here = (*path, name)
        if name not in shape.model_fields_set and here != (known.KEY,):  # older saves lack it
            raise StateError(f"{'.'.join(map(str, here))}: missing (strict loading wants every field)",
                             here)
        _every_field_inside(getattr(shape, name), here)


def _every_field_inside(value: Any, path: tuple[str | int, ...]) -> None:
    if isinstance(value, pydantic.BaseModel):
        require_every_field(value, path)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _every_field_inside(item, (*path, i))
