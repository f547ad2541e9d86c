"""Records and saves on disk: the data dir (``CARDCORE_HOME`` overrides it), records
appended a line at a time, saves written atomically (temp file + ``os.replace``), files
read whole within a size limit. Their formats are ``cardcore.engine.records``.
"""

from __future__ import annotations

import os
import stat
import tempfile
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, TypeVar

from cardcore.services import home

if TYPE_CHECKING:  # the records' pydantic models load when a record or a save is read
    import pydantic

    from cardcore.engine.journal import MatchEvent
    from cardcore.engine.records import SaveFile

Model = TypeVar("Model", bound="pydantic.BaseModel")


class RecordWriter:
    """An ``on_event`` consumer that appends each event as one line.

    Every event is flushed as it is written (a killed process loses at most the event
    in flight) and the end of a match is on disk (fsync) before anyone hears of it.
    """

    def __init__(self, stream: IO[str]):
        from cardcore.engine.records import dumps

        self.stream = stream
        self.dumps = dumps

    def __call__(self, event: MatchEvent) -> None:
        self.stream.write(self.dumps(event) + "\n")
        self.stream.flush()
        if event.event == "match_end":
            os.fsync(self.stream.fileno())


#: The largest record or save cardcore reads (a long Canasta match records about 2 MB).
MAX_FILE_BYTES = 256 * 1024 * 1024


def read_text(path: str | Path, what: str, limit: int | None = None) -> str:
    """A regular file's text, read whole: RecordError for a device, FIFO, directory,
    a file over ``limit`` bytes, or bytes that are not UTF-8."""
    from cardcore.engine.records import RecordError

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
    from cardcore.engine.records import parse_record_lines

    return parse_record_lines(read_text(path, "record"), str(path))


def data_dir() -> Path:
    return Path(home.data_dir_name())


def autosave_path() -> Path:
    return data_dir() / "saves" / "autosave.json"


def read_model(path: Path, model: type[Model], what: str, limit: int) -> Model | None:
    """A small JSON file of the data dir read as ``model`` (its defaults when there is no
    file); None when the file is not one (not JSON, not the model, too large, unreadable)."""
    import pydantic

    from cardcore.engine.records import RecordError

    if not path.exists():
        return model()
    try:
        return model.model_validate_json(read_text(path, what, limit))
    except (pydantic.ValidationError, RecordError):
        return None


def set_aside(path: Path) -> None:
    """Keep a file that is not what it should be as ``NAME.damaged-<time>``: never overwritten."""
    os.replace(path, path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}"))


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
    from cardcore.engine.records import parse_save

    return parse_save(read_text(path, "save"), str(path))


def save_events(save: SaveFile) -> list[MatchEvent]:
    """The events of the record a save carries (its text, or the file it names if cardcore
    wrote it: ``owned_record``); a torn last line (a killed writer) is dropped; [] when there
    is none or it is not a record."""
    from cardcore.engine.records import RecordError, torn_record_events

    text = save.record
    if text is None:
        path = owned_record(save.record_path)
        if path is None:
            return []
        try:
            text = read_text(path, "record")
        except RecordError:
            return []
    return torn_record_events(text)


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
