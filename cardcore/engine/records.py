"""Match records (JSON Lines) and save files, as text: no file is opened here.

Records: one event a line, compact JSON, deterministic byte for byte.
Saves: a pydantic model with a format version. Reading and writing them on disk (atomic
writes, the data dir) is ``cardcore.services.files``.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import pydantic

from cardcore.engine.complaints import first_error
from cardcore.engine.journal import EventError, MatchEvent, dumps, parse_event
from cardcore.engine.jsontext import compact_json

__all__ = ["RecordError", "SaveFile", "compact_json", "dumps", "first_error", "parse_record_lines",
           "parse_save", "split_matches", "torn_record_events"]

SAVE_FORMAT = 1


class RecordError(ValueError):
    """A record or save file that cannot be read; the file is left as it was."""


def parse_record_lines(text: str, where: str) -> list[tuple[int, MatchEvent]]:
    """The events of a record's text (a file's, or a library match's export) with their line
    numbers, each checked (``journal.parse_event``); RecordError naming ``where`` and the
    line if it is not a record."""
    path = where
    raw = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}: line {n} is not JSON ({exc.msg})") from None
        except RecursionError:
            raise RecordError(f"{path}: line {n} is nested too deeply") from None
        if not isinstance(data, dict) or not isinstance(data.get("event"), str):
            raise RecordError(f"{path}: line {n} is not a cardcore event")
        raw.append((n, data))
    if not raw or raw[0][1]["event"] != "match_start":
        raise RecordError(f"{path}: not a cardcore record (no match_start)")
    events = []
    for n, data in raw:
        try:
            events.append((n, parse_event(data)))
        except EventError as exc:
            raise RecordError(f"{path}: line {n}: {exc}") from None
    return events


def split_matches(numbered: list[tuple[int, MatchEvent]]) -> list[list[tuple[int, MatchEvent]]]:
    """A record's matches (``parse_record_lines``' events, each checked), each from its
    ``match_start``: ``simulate --record`` writes several one after another."""
    starts = [i for i, (_, event) in enumerate(numbered) if event.event == "match_start"]
    return [numbered[a:b] for a, b in zip(starts, [*starts[1:], len(numbered)], strict=True)]


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


def torn_record_events(text: str) -> list[MatchEvent]:
    """The events of a record's text as a killed writer may have left it: a torn last line
    dropped, and so is everything from a line that is no event on; [] when it is not a
    record."""
    events = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            events.append(parse_event(json.loads(line)))
        except (ValueError, RecursionError):  # EventError is a ValueError
            break
    if events and events[0].event != "match_start":
        return []
    return events
