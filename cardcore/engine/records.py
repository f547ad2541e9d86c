"""Match records (JSON Lines) and save files, as text: no file is opened here.

Records: one event a line, compact JSON, deterministic byte for byte.
Saves: a pydantic model with a format version. Reading and writing them on disk (atomic
writes, the data dir) is ``cardcore.services.files``.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import orjson
import pydantic

SAVE_FORMAT = 1


class RecordError(ValueError):
    """A record or save file that cannot be read; the file is left as it was."""


_AS_GIVEN = orjson.OPT_NON_STR_KEYS
_SORTED = orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS


def compact_json(value: Any, *, sort_keys: bool = False) -> bytes:
    """Compact JSON as UTF-8, text as it is (not escaped to ASCII), keys that are not
    strings written as strings. orjson writes the same bytes as ``json`` here, five times
    as fast (a server writes a record line and a snapshot for every action); ``json``
    takes what orjson refuses (integers past 64 bits)."""
    try:
        return orjson.dumps(value, option=_SORTED if sort_keys else _AS_GIVEN)
    except TypeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=sort_keys).encode()


def dumps(event: dict[str, Any]) -> str:
    """An event's line: ``compact_json``, keys in the event's order."""
    return compact_json(event).decode()


class MatchStart(pydantic.BaseModel):
    """The first event of every record: what the match was (only the keys cardcore reads)."""

    model_config = pydantic.ConfigDict(extra="allow", strict=True)

    event: Literal["match_start"]
    game: str = pydantic.Field(max_length=64)
    seed: int | str
    seats: list[str] = pydantic.Field(min_length=1, max_length=16)
    options: dict[str, Any]
    match: int = pydantic.Field(0, ge=0)


def parse_record_lines(text: str, where: str) -> list[tuple[int, dict[str, Any]]]:
    """The events of a record's text (a file's, or a library match's export) with their line
    numbers; RecordError naming ``where`` and the line if it is not a record."""
    path = where
    events = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}: line {n} is not JSON ({exc.msg})") from None
        except RecursionError:
            raise RecordError(f"{path}: line {n} is nested too deeply") from None
        if not isinstance(event, dict) or not isinstance(event.get("event"), str):
            raise RecordError(f"{path}: line {n} is not a cardcore event")
        events.append((n, event))
    if not events or events[0][1]["event"] != "match_start":
        raise RecordError(f"{path}: not a cardcore record (no match_start)")
    try:
        MatchStart.model_validate(events[0][1])
    except pydantic.ValidationError as exc:
        raise RecordError(f"{path}: line 1: {first_error(exc)}") from None
    return events


def first_error(exc: pydantic.ValidationError) -> str:
    """pydantic's first complaint on one line: ``field.path: message``."""
    err = exc.errors()[0]
    where = ".".join(map(str, err["loc"])) or "value"
    message = " ".join(str(err["msg"]).split()).removeprefix("Value error, ")
    return f"{where}: {message}"


# --- saves ---------------------------------------------------------------------------


class SaveFile(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")

    format: Literal["cardcore-save"] = "cardcore-save"
    version: int = SAVE_FORMAT
    match: dict[str, Any]
    #: The record so far, so a resumed match keeps its whole history.
    record: str | None = None
    #: The path of the record being written beside the save, if any.
    record_path: str | None = None
    #: The bot speed chosen at the table (instant, normal, slow), kept across a resume.
    speed: str | None = None


def parse_save(text: str, where: str) -> SaveFile:
    """The save whose text is ``text`` (RecordError naming ``where`` for a corrupt,
    truncated or foreign one)."""
    path = where
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        if text.startswith('{"event":"match_start"'):
            raise RecordError(f"{path}: a match record, not a save: "
                              f"`cardcore replay {path}` steps through it") from None
        raise RecordError(f"{path}: not a cardcore save (corrupt or truncated JSON)") from None
    except RecursionError:
        raise RecordError(f"{path}: not a cardcore save (nested too deeply)") from None
    if not isinstance(data, dict) or data.get("format") != "cardcore-save":
        raise RecordError(f"{path}: not a cardcore save")
    if data.get("version") != SAVE_FORMAT:
        raise RecordError(f"{path}: save format {data.get('version')!r}, "
                          f"this cardcore reads {SAVE_FORMAT}")
    try:
        return SaveFile.model_validate(data)
    except pydantic.ValidationError as exc:
        raise RecordError(f"{path}: bad save ({first_error(exc)})") from None


def torn_record_events(text: str) -> list[dict[str, Any]]:
    """The events of a record's text as a killed writer may have left it: a torn last line
    (and anything after it) dropped; [] when it is not a record."""
    events = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except (ValueError, RecursionError):
            break
        if not isinstance(event, dict):
            break
        events.append(event)
    if events and events[0].get("event") != "match_start":
        return []
    return events
