"""Match records (JSON Lines) and save files.

Records: one event a line, compact JSON, deterministic byte for byte.
Saves: a pydantic model with a format version, written atomically
(temp file + ``os.replace``) in the user data dir (``CARDCORE_HOME`` overrides it).
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal

import orjson
import platformdirs
import pydantic

if TYPE_CHECKING:
    from cardcore.journal import MatchEvent

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


def dumps(event: MatchEvent) -> str:
    """An event's record line (without the newline): ``compact_json`` of ``to_json()``, the
    keys the event was made or read with, in that order (``cardcore.journal``)."""
    return compact_json(event.to_json()).decode()


class RecordWriter:
    """An ``on_event`` consumer that appends each event as one line.

    Every event is flushed as it is written (a killed process loses at most the event
    in flight) and the end of a match is on disk (fsync) before anyone hears of it.
    """

    def __init__(self, stream: IO[str]):
        self.stream = stream

    def __call__(self, event: MatchEvent) -> None:
        self.stream.write(dumps(event) + "\n")
        self.stream.flush()
        if event.event == "match_end":
            os.fsync(self.stream.fileno())


#: The largest record or save cardcore reads (a long Canasta match records about 2 MB).
MAX_FILE_BYTES = 256 * 1024 * 1024


def read_text(path: str | Path, what: str, limit: int | None = None) -> str:
    """A regular file's text, read whole: RecordError for a device, FIFO, directory,
    a file over ``limit`` bytes, or bytes that are not UTF-8."""
    limit = MAX_FILE_BYTES if limit is None else limit
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise RecordError(f"{path}: not a {what} (not a regular file)")
        if info.st_size > limit:
            raise RecordError(f"{path}: too large for a {what} ({info.st_size:,} bytes; "
                              f"the limit is {limit:,})")
        with open(path, encoding="utf-8") as f:
            return f.read(limit + 1)
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
        raise RecordError(f"{path}: cannot read the {what} ({reason})") from None


def read_record(path: str | Path) -> list[MatchEvent]:
    """The events of a record file (RecordError if it is not one)."""
    return [event for _, event in read_record_lines(path)]


def read_record_lines(path: str | Path) -> list[tuple[int, MatchEvent]]:
    """The events of a record file with their line numbers (RecordError if it is not one)."""
    return parse_record_lines(read_text(path, "record"), str(path))


def parse_record_lines(text: str, where: str) -> list[tuple[int, MatchEvent]]:
    """The events of a record's text (a file's, or a library match's export) with their line
    numbers, each checked (``journal.parse_event``); RecordError naming ``where`` and the
    line if it is not a record."""
    from cardcore.journal import EventError, parse_event

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


def data_dir() -> Path:
    home = os.environ.get("CARDCORE_HOME")
    return Path(home) if home else Path(platformdirs.user_data_dir("cardcore", appauthor=False))


def autosave_path() -> Path:
    return data_dir() / "saves" / "autosave.json"


def write_atomic(path: str | Path, text: str) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_save(path: str | Path, save: SaveFile) -> None:
    write_atomic(path, save.model_dump_json())


def read_save(path: str | Path) -> SaveFile:
    """The save at ``path`` (RecordError for a missing, corrupt, truncated or foreign file)."""
    text = read_text(path, "save")
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


def save_events(save: SaveFile) -> list[MatchEvent]:
    """The events of the record a save carries (its text, or the file it names if cardcore
    wrote it: ``owned_record``); a torn last line (a killed writer) is dropped, and so is
    everything from a line that is no event on; [] when there is none or it is not a record."""
    from cardcore.journal import parse_event

    text = save.record
    if text is None:
        path = owned_record(save.record_path)
        if path is None:
            return []
        try:
            text = read_text(path, "record")
        except RecordError:
            return []
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


def records_dir() -> Path:
    """Where the table writes its records."""
    return data_dir() / "records"


def owned_record(text: str | None) -> Path | None:
    """The record a save names, if it is one cardcore wrote: a ``.jsonl`` file directly in
    ``records_dir()``. A save never decides where cardcore writes: any other path is None."""
    if not text:
        return None
    home = records_dir().resolve()
    try:
        path = Path(text).resolve()
    except (OSError, RuntimeError, ValueError):
        return None
    if path.parent != home or path.suffix != ".jsonl" or not path.is_file():
        return None
    return path
