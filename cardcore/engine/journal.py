"""The match journal: every event of a match as one typed model, ``MatchEvent``.

A match's record is its journal written one event a line (``dumps``). The rules' events
are ``MatchStart``, ``Draw`` (the draw for partners), ``Deal``, ``Played`` (an action),
``HandEnd`` and ``MatchEnd``; the table adds ``Undo`` and ``Resume`` to the record, and a
``SeatChange`` that says a player sat under the name they chose (``what: "named"``: the
match's names follow it). The other seat changes (a player came or went, a stand-in bot
took a seat or gave it back) and ``Note`` (the table's own message line) are the table's
alone and are never written to a record.

The engine builds events without validation (``_Event.make``: the hot path stays plain
Python); everything read from outside (a record, a save, the network) goes through
``parse_event``, which checks it and raises ``EventError`` naming the field.

Records stay byte for byte what they were: ``dumps(event)`` writes the keys the event was
made or read with, in that order, and nothing else (a field added later, such as
``match_start``'s ``names``, is left out of an event read from a record without it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeVar

import pydantic
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from cardcore.engine import complaints
from cardcore.engine.game import ScoreRow
from cardcore.engine.jsontext import compact_json
from cardcore.engine.name_fields import Name, SideName
from cardcore.engine.names import plain_text
from cardcore.engine.people import PersonKey

E = TypeVar("E", bound="_Event")

_set = object.__setattr__


class EventError(ValueError):
    """Data that is not a match event: one line naming the field."""


class _Event(BaseModel):
    """What every event shares: its kind in ``event``, extra keys kept as they were read."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    #: The fields in the order they are written (set per kind below).
    _FIELDS: ClassVar[tuple[str, ...]] = ()
    _KIND: ClassVar[str] = ""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls._FIELDS = tuple(cls.model_fields)
        cls._KIND = cls.model_fields["event"].default

    @classmethod
    def make(cls: type[E], **values: Any) -> E:
        """The event with these values (every field but ``event``, given in field order;
        a field with a default may be left out, and is then not written), unchecked: the
        engine's way, ten times cheaper than ``model_construct``."""
        values = {"event": cls._KIND, **values}
        given = set(values)
        if len(values) != len(cls._FIELDS):
            values = cls._filled(values)
        event = cls.__new__(cls)
        _set(event, "__dict__", values)
        _set(event, "__pydantic_fields_set__", given)
        _set(event, "__pydantic_extra__", None)
        _set(event, "__pydantic_private__", None)
        return event

    @classmethod
    def _filled(cls, values: dict[str, Any]) -> dict[str, Any]:
        """``values`` with the defaults of the fields left out (TypeError: a required field
        left out, or one the kind does not have)."""
        fields = cls.model_fields
        missing = [k for k in cls._FIELDS if k not in values and fields[k].is_required()]
        if missing or any(k not in fields for k in values):
            raise TypeError(f"{cls.__name__}.make: {missing or 'unknown fields'}")
        return {k: values[k] if k in values else fields[k].default for k in cls._FIELDS}

    @pydantic.model_validator(mode="wrap")
    @classmethod
    def _keep_order(cls, data: Any, handler: pydantic.ValidatorFunctionWrapHandler) -> Any:
        """An event read in another key order than its fields' is written back in that
        order (records written by older versions stay byte for byte)."""
        event = handler(data)
        if isinstance(data, dict) and isinstance(event, _Event):
            keys = tuple(data)
            if keys != tuple(event._keys()):
                _set(event, "__pydantic_private__", {"order": keys})
        return event

    def _keys(self) -> list[str]:
        fields_set = self.__pydantic_fields_set__
        keys = [k for k in self._FIELDS if k in fields_set or k == "event"]
        return keys + list(self.__pydantic_extra__ or ())

    def to_json(self) -> dict[str, Any]:
        """The event as written: the keys it was made or read with, in that order."""
        values = self.__dict__
        if len(self.__pydantic_fields_set__) == len(values):
            out = dict(values)
        else:
            out = {k: v for k, v in values.items() if k in self.__pydantic_fields_set__ or k == "event"}
        if self.__pydantic_extra__:
            out.update(self.__pydantic_extra__)
        private = self.__pydantic_private__
        if private and "order" in private:
            out = {k: out[k] for k in private["order"]}
        return out


#: What a record may say that the engine does not give again (a score row's ``counts`` and
#: ``note``, which ``replay`` lets differ; the options' JSON): bounded, plain text, since
#: screens and ``cardcore history`` draw them.
MAX_SHOWN_JSON_CHARS = 4096
MAX_LABEL_CHARS = 64


def shown_json(value: Any, limit: int = MAX_SHOWN_JSON_CHARS) -> Any:
    """``value`` (JSON as Python) if its text is at most ``limit`` characters and every
    string in it (keys too) is plain text; ValueError (one line) otherwise."""
    if len(compact_json(value)) > limit:
        raise ValueError(f"over {limit} characters")
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            plain_text(item)
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return value


def _score_row(value: Any) -> ScoreRow:
    """A score row is the game's (``GameState.score()``): checked for its ``sides`` and
    kept as the very dict it is (its keys in their order). What the engine does not give
    again (``replay.SHOWN_ONLY``) is drawn: bounded and plain (``shown_json``)."""
    if not isinstance(value, dict):
        raise ValueError("a score row is an object")
    sides = value.get("sides")
    if not isinstance(sides, list) or not all(isinstance(s, dict) for s in sides):
        raise ValueError("a score row needs sides: a list of objects")
    for i, side in enumerate(sides):  # what replay does not compare (replay.SHOWN_ONLY): drawn as given
        if not isinstance(side.get("counts", {}), dict):
            raise ValueError(f"sides.{i}.counts: an object (what was counted, by name)")
        if not isinstance(side.get("note", ""), str):
            raise ValueError(f"sides.{i}.note: text")
        for key in ("counts", "note"):
            try:
                shown_json(side.get(key))
            except ValueError as exc:
                raise ValueError(f"sides.{i}.{key}: {exc}") from None
    return value  # type: ignore[return-value]


if TYPE_CHECKING:
    ScoreRowField = ScoreRow
else:  # pydantic reads no TypedDict of typing's before Python 3.12; the row is kept as is
    ScoreRowField = Annotated[Any, pydantic.PlainValidator(_score_row)]
Count = Annotated[int, Field(ge=0)]
#: A game's or a bot's id, a seed, a version: short plain text (screens draw them).
Label = Annotated[str, Field(max_length=MAX_LABEL_CHARS), pydantic.AfterValidator(plain_text)]


class MatchStart(_Event):
    """The first event of every record: what the match is."""

    event: Literal["match_start"] = "match_start"
    match: Count = 0
    game: Label
    seed: int | Label
    seats: list[Label] = Field(min_length=1, max_length=16)
    #: Records before cardcore 0.2 have no names (the game's default names are meant).
    names: list[Name] | None = Field(None, max_length=16)
    side_names: list[SideName] | None = Field(None, max_length=16)
    options: Annotated[dict[str, Any], pydantic.AfterValidator(shown_json)]
    version: Label | None = None
    #: The first hand's dealer when the setup chose it (a rematch: the deal moves on).
    first_dealer: Count | None = None
    #: Each seat's person key (``cardcore.engine.people``; None: the person of the name),
    #: written only when some seat has one.
    people: list[PersonKey | None] | None = Field(None, max_length=16)


class Draw(_Event):
    """The draw for partners: each round's cards by seat, then the seat each player drew."""

    event: Literal["draw"] = "draw"
    cards: list[dict[str, Any]]
    seats: list[int]


class Deal(_Event):
    event: Literal["deal"] = "deal"
    hand: Count
    dealer: Count
    state: dict[str, Any]


class Played(_Event):
    """A seat's action, its log label and the position after it."""

    event: Literal["action"] = "action"
    hand: Count
    seat: Count
    action: Any
    label: str
    state: dict[str, Any]


class HandEnd(_Event):
    event: Literal["hand_end"] = "hand_end"
    hand: Count
    score: ScoreRowField
    totals: list[int]


class MatchEnd(_Event):
    event: Literal["match_end"] = "match_end"
    winner: int | None
    totals: list[int]


class Undo(_Event):
    """The table took moves back: to this position (it must be one the hand had)."""

    event: Literal["undo"] = "undo"
    hand: Count
    seat: Count
    decisions: Count
    state: dict[str, Any]


class Resume(_Event):
    """The match went on from a saved position (the hand and decisions it was at)."""

    event: Literal["resume"] = "resume"
    hand: Count
    decisions: Count


#: What happened at a seat: its player came, left or came back; a stand-in bot took the
#: seat for an absent player or gave it back.
SeatWhat = Literal["named", "joined", "left", "back", "stand_in", "stand_in_gone"]


class SeatChange(_Event):
    """Who sits where changed. ``named`` (a player sat under the name they chose) is in
    the record; the others are the table's alone."""

    event: Literal["seat"] = "seat"
    seat: Count
    what: SeatWhat
    name: Name
    #: ``named``: the person key of who sat (a server seat's, ``people.seat_key``), if any.
    person: PersonKey | None = None


class Note(_Event):
    """The table's, never in a record: a message line for the player (an error, chat)."""

    event: Literal["note"] = "note"
    text: str
    error: bool = False


MatchEvent = Annotated[
    MatchStart | Draw | Deal | Played | HandEnd | MatchEnd | Undo | Resume | SeatChange | Note,
    Field(discriminator="event"),
]

#: The kinds a record holds (of ``SeatChange`` only ``named``; ``Note`` is the table's alone).
RECORDED = frozenset({"match_start", "draw", "deal", "action", "hand_end", "match_end", "undo", "resume",
                      "seat"})
_KINDS = RECORDED | {"note"}

_ONE: TypeAdapter[MatchEvent] = TypeAdapter(MatchEvent)


def parse_event(data: Any) -> MatchEvent:
    """``data`` (JSON as Python: a record line's object, a message's) as a checked event;
    EventError naming the field otherwise."""
    if not isinstance(data, dict):
        raise EventError(f"not an event (a JSON {_json_kind(data)}, not an object)")
    kind = data.get("event")
    if not isinstance(kind, str):
        raise EventError("event: missing (every event names its kind)")
    if kind not in _KINDS:
        raise EventError(f"event: {kind[:40]!r} is no kind of event")
    try:
        event = _ONE.validate_python(data)
    except pydantic.ValidationError as exc:
        err = exc.errors()[0]
        loc = err["loc"][1:] if err["loc"][:1] == (kind,) else err["loc"]
        raise EventError(f"{'.'.join(map(str, loc)) or kind}: {complaints.message(err)}") from None
    except RecursionError:
        raise EventError(f"{kind}: nested too deeply") from None
    extra = event.__pydantic_extra__
    if extra and len(compact_json(extra)) > MAX_SHOWN_JSON_CHARS:  # kept, never drawn: bounded
        raise EventError(f"{kind}: fields this version does not know, over {MAX_SHOWN_JSON_CHARS} characters")
    return event


def parse_events(items: Iterable[Any]) -> list[MatchEvent]:
    """Many events (``parse_event`` each); EventError naming the index and field."""
    out = []
    for i, data in enumerate(items):
        try:
            out.append(parse_event(data))
        except EventError as exc:
            raise EventError(f"{i}: {exc}") from None
    return out


def dumps(event: MatchEvent) -> str:
    """An event's record line (without the newline): compact JSON of ``to_json()``, the
    keys the event was made or read with, in that order."""
    return compact_json(event.to_json()).decode()


def start_of(event: MatchEvent) -> MatchStart:
    """``event`` as the ``match_start`` a record begins with (EventError if it is another
    kind; ``records.parse_record_lines`` gives records whose first event is one)."""
    if not isinstance(event, MatchStart):
        raise EventError(f"event: a {event.event!r} event where a record begins with match_start")
    return event


def _json_kind(data: Any) -> str:
    if isinstance(data, list):
        return "list"
    if isinstance(data, str):
        return "string"
    if data is None:
        return "null"
    return "bool" if isinstance(data, bool) else "number" if isinstance(data, int | float) else "value"


__all__ = [
    "RECORDED", "Deal", "Draw", "EventError", "HandEnd", "MatchEnd", "MatchEvent", "MatchStart",
    "Note", "Played", "Resume", "ScoreRowField", "SeatChange", "SeatWhat", "Undo",
    "dumps", "parse_event", "parse_events", "start_of",
]
