"""Match records (JSON Lines) and save files.

Records: one event a line, compact JSON, deterministic byte for byte.
Saves: a pydantic model with a format version, written atomically
(temp file + ``os.replace``) in the user data dir (``CARDCORE_HOME`` overrides it).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import IO, Any, Literal

import platformdirs
import pydantic

SAVE_FORMAT = 1


class RecordError(ValueError):
    """A record or save file that cannot be read; the file is left as it was."""


def dumps(event: dict[str, Any]) -> str:
    return json.dumps(event, separators=(",", ":"), ensure_ascii=False)


class RecordWriter:
    """An ``on_event`` consumer that appends each event as one line."""

    def __init__(self, stream: IO[str]):
        self.stream = stream

    def __call__(self, event: dict[str, Any]) -> None:
        self.stream.write(dumps(event) + "\n")


def read_record(path: str | Path) -> list[dict[str, Any]]:
    """The events of a record file (RecordError if it is not one)."""
    events = []
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, start=1):
                if not line.strip():
                    continue
                try:
                    event = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise RecordError(f"{path}: line {n} is not JSON ({exc.msg})") from None
                if not isinstance(event, dict) or "event" not in event:
                    raise RecordError(f"{path}: line {n} is not a cardcore event")
                events.append(event)
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: cannot read ({exc})") from None
    if not events or events[0]["event"] != "match_start":
        raise RecordError(f"{path}: not a cardcore record (no match_start)")
    return events


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
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: cannot read the save ({exc.__class__.__name__})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise RecordError(f"{path}: not a cardcore save (corrupt or truncated JSON)") from None
    if not isinstance(data, dict) or data.get("format") != "cardcore-save":
        raise RecordError(f"{path}: not a cardcore save")
    if data.get("version") != SAVE_FORMAT:
        raise RecordError(f"{path}: save format {data.get('version')!r}, "
                          f"this cardcore reads {SAVE_FORMAT}")
    try:
        return SaveFile.model_validate(data)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"]))
        raise RecordError(f"{path}: bad save ({where}: {first['msg']})") from None
