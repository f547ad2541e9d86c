"""The match library as one SQLite file in the user data dir (stdlib ``sqlite3``).

Layout (schema version 7, ``PRAGMA user_version``; ``application_id`` marks the file ours):

- ``matches``: one row a match: game, options, seed, seats, names, sides' names, the totals,
  started / last played, finished and winner, and the last snapshot (zlib JSON, keys in the
  order the match gave them) to resume from (dropped once the match is finished: the record
  holds everything). Ids count up (AUTOINCREMENT, version 3): a deleted match's id is never
  given again.
- ``events``: the record lines of the hand in play, one row an event, as written.
- ``chunks``: the record lines of every finished hand, packed (zlib) when the hand ends.
  The record is stored as the table writes it, so an export is byte for byte the
  interchange format whatever later versions of the engines do.
- ``scores``: each hand's score row (from its ``hand_end`` event), read by statistics.
- ``net_tables`` (schema version 2): the tables a ``cardcore serve`` holds, one row a table:
  its code, its match, its status and its seats (kinds, names, the secrets' hashes) as JSON.
  A version 1 library gains it when opened (``_migrate``).
- version 3: ``matches`` rebuilt with AUTOINCREMENT; the snapshots an earlier version stored
  with sorted keys put back in the record's order (``_reorder_v2``).
- ``claims`` (version 4): the matches a server holds, one row a match naming its holder.
- the leagues (version 5): ``store/league_tables.py``.
- ``matches.people`` (version 6): each seat's person key (``cardcore.engine.people``).
- ``leases`` (version 7): a server's lease, one row a server process: its holder token,
  its slot among the card room's servers, when it expires, the public tables it lists.

One transaction a committed action (``BEGIN IMMEDIATE``: writers queue behind a busy timeout
rather than fail); WAL, so readers (``cardcore stats`` in another terminal) never block play.
A match held for play is locked with ``flock`` on ``<library>.locks/<id>.lock``: the kernel
drops the lock when its holder dies, even by ``kill -9``, so a dead holder never blocks.
A server holds its matches by a row instead (``claims``: held with ``claim=True``), so a
thousand tables hold no thousand descriptors: the row names a holder, one per open store,
alive while ``<library>.locks/holder-<token>.lock`` is flocked (one descriptor a process;
the kernel drops it too, so a killed server's claims are dead at once). Either kind of
hold refuses the other: a claim is written while the match's own lock file is flocked, and
a local table that has flocked it reads the claims before it plays. A server also renews a
lease (``lease``: a row of ``leases``, a few seconds ahead) under the same token: its claims
are alive while its file is flocked *and* its lease has not expired, so a server that
stalls loses its tables too, and every commit it writes is fenced by its claims
(``commits.write``: a match claimed by another holder since is not written).
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from cardcore.engine.jsontext import compact_json
from cardcore.services import files
from cardcore.services.store import (
    Commit,
    LibraryBusy,
    MatchLocked,
    MatchSummary,
    NoSuchMatch,
    PlayerStats,
    StoreError,
    StoreUnavailable,
    commit_of,
    record_digest,
)
from cardcore.services.store.commits import (
    APPLICATION_ID,
    MissingMatch,
    column_json,
    connect,
    insert_lines,
    packed,
    put_table,
    snapshot_columns,
    transaction,
    write,
    write_commit,
)
from cardcore.services.store.league_tables import LEAGUE_MIGRATION, LEAGUE_TABLES

if TYPE_CHECKING:  # the events' pydantic models load when events are read or written
    from cardcore.engine.game import Game
    from cardcore.engine.journal import MatchEvent
    from cardcore.engine.records import SaveFile

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: matches are not locked between processes
    fcntl = None  # type: ignore[assignment]

SCHEMA_VERSION = 7
LIBRARY_NAME = "library.sqlite"
SQLITE_MAGIC = b"SQLite format 3\x00"

#: ``matches`` as version 3 has it; ``{name}``: the table's name (a migration builds it
#: beside the old one). AUTOINCREMENT: an id is never given again, even after a delete
#: (a plain rowid key gives the highest id again once its match is deleted).
MATCHES = """
CREATE TABLE {name} (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game        TEXT    NOT NULL,
    options     TEXT    NOT NULL,
    seed        TEXT    NOT NULL,
    seats       TEXT    NOT NULL,
    names       TEXT    NOT NULL,
    side_names  TEXT    NOT NULL,
    totals      TEXT    NOT NULL DEFAULT '[]',
    hand        INTEGER NOT NULL DEFAULT 0,
    decisions   INTEGER NOT NULL DEFAULT 0,
    started     REAL    NOT NULL,
    last_played REAL    NOT NULL,
    finished    INTEGER NOT NULL DEFAULT 0,
    winner      INTEGER,
    source      TEXT    NOT NULL,
    n_events    INTEGER NOT NULL DEFAULT 0,
    snapshot    BLOB,
    record_hash TEXT
)"""
#: The columns a version 2 library's ``matches`` has (all but ``record_hash``).
V2_COLUMNS = ("id, game, options, seed, seats, names, side_names, totals, hand, decisions, "
              "started, last_played, finished, winner, source, n_events, snapshot")
INDEXES = (
    "CREATE INDEX matches_by_state ON matches (finished, last_played)",
    "CREATE INDEX matches_by_record ON matches (record_hash) WHERE record_hash IS NOT NULL",
)
NET_TABLES = """
CREATE TABLE net_tables (
    code     TEXT    PRIMARY KEY,
    match_id INTEGER NOT NULL,
    status   TEXT    NOT NULL,
    data     TEXT    NOT NULL,
    created  REAL    NOT NULL,
    updated  REAL    NOT NULL)"""

#: Each seat's person key (``cardcore.engine.people``) as JSON, ``[]`` when none has one
#: (every match before version 5: its people are its names).
PEOPLE = "ALTER TABLE matches ADD COLUMN people TEXT NOT NULL DEFAULT '[]'"

CLAIMS = """
CREATE TABLE claims (
    match_id INTEGER PRIMARY KEY,
    holder   TEXT    NOT NULL)"""

LEASES = """
CREATE TABLE leases (
    holder   TEXT    PRIMARY KEY,
    slot     INTEGER NOT NULL,
    expires  REAL    NOT NULL,
    listing  TEXT    NOT NULL DEFAULT '[]')"""

Step = str | Callable[[sqlite3.Cursor], None]

#: What a library of version N needs to become version N + 1 (statements, or functions of
#: the transaction's cursor, in order).
MIGRATIONS: dict[int, tuple[Step, ...]] = {
    1: (NET_TABLES,),
    # matches rebuilt (SQLite cannot add AUTOINCREMENT to a table): the same rows, the
    # counter at the highest id; the stored snapshots' score rows back in the game's order.
    2: (MATCHES.format(name="matches_v3"),
        f"INSERT INTO matches_v3 ({V2_COLUMNS}) SELECT {V2_COLUMNS} FROM matches",
        "DROP TABLE matches",
        "ALTER TABLE matches_v3 RENAME TO matches",
        *INDEXES,
        lambda cur: _reorder_v2(cur)),  # (defined below)
    3: (CLAIMS.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS"),),  # idempotent: it is new
    4: LEAGUE_MIGRATION,  # the leagues (docs/leagues.md)
    5: (PEOPLE,),
    6: (LEASES.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS"),),  # idempotent, as 3's
}
SCHEMA: tuple[str, ...] = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    MATCHES.format(name="matches"),
    *INDEXES,
    """CREATE TABLE events (
    match_id INTEGER NOT NULL, seq INTEGER NOT NULL, line TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)) WITHOUT ROWID""",
    """CREATE TABLE chunks (
    match_id INTEGER NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL,
    lines BLOB NOT NULL,
    PRIMARY KEY (match_id, first_seq)) WITHOUT ROWID""",
    """CREATE TABLE scores (
    match_id INTEGER NOT NULL, seq INTEGER NOT NULL, hand INTEGER NOT NULL, row TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)) WITHOUT ROWID""",
    NET_TABLES,
    CLAIMS,
    *LEAGUE_TABLES,
    PEOPLE,
    LEASES,
)
#: The tables of a library of the first version (a later one adds what MIGRATIONS says).
TABLES = {"meta", "matches", "events", "chunks", "scores"}

SUMMARY_COLUMNS = ("id, game, options, seed, seats, names, side_names, totals, hand, decisions, "
                   "started, last_played, finished, winner, source")

T = TypeVar("T")


def library_path() -> Path:
    return files.data_dir() / LIBRARY_NAME


def _json(value: Any) -> str:
    """A column's JSON (read back with ``json.loads``)."""
    return column_json(value)


def _blob(snapshot: dict[str, Any]) -> bytes:
    """A snapshot as stored: its JSON, keys in the order given (a score row's items are in
    the game's order, which its sheet shows), compressed (``commits.packed``)."""
    return packed(compact_json(snapshot))


def _unblob(blob: bytes) -> Any:
    return json.loads(zlib.decompress(blob))


def _record_text(c: sqlite3.Connection | sqlite3.Cursor, match_id: int) -> str:
    """The match's record (call it inside one read transaction); zlib.error if damaged."""
    chunks = c.execute("SELECT lines FROM chunks WHERE match_id = ? ORDER BY first_seq",
                       (match_id,)).fetchall()
    lines = c.execute("SELECT line FROM events WHERE match_id = ? ORDER BY seq",
                      (match_id,)).fetchall()
    packed = "".join(zlib.decompress(r[0]).decode() for r in chunks)
    return packed + "".join(r[0] + "\n" for r in lines)


def _hand_scores(text: str) -> list[dict[str, Any]]:
    """The score rows of a record's ``hand_end`` lines, keys in the order written."""
    rows = []
    at = text.find('"hand_end"')
    while at != -1:  # only the lines that name it are parsed (a few in megabytes)
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end == -1 else end
        event = json.loads(text[start:end])
        if event.get("event") == "hand_end":
            rows.append(event.get("score"))
        at = text.find('"hand_end"', end)
    return rows


def _reorder_v2(cur: sqlite3.Cursor) -> None:
    """Versions 1 and 2 stored snapshots with their keys sorted, so a resumed match's
    earlier score rows came back in another order than its later ones: each stored
    snapshot's rows are put back as its record has them (only where they are the same rows)."""
    held = cur.execute("SELECT id, snapshot FROM matches WHERE snapshot IS NOT NULL").fetchall()
    for match_id, blob in held:
        try:
            snap = _unblob(blob)
            hands = snap["sheet"]["hands"]
            recorded = _hand_scores(_record_text(cur, match_id))
        except (zlib.error, ValueError, TypeError, KeyError):
            continue  # damaged: left as it is (load says so)
        if recorded != hands or compact_json(recorded) == compact_json(hands):
            continue  # not the same rows, or already in order
        snap["sheet"]["hands"] = recorded
        cur.execute("UPDATE matches SET snapshot = ? WHERE id = ?", (_blob(snap), match_id))


class _Damaged(Exception):
    """The file is not a library we can read: it is set aside and a new one started."""


def _is_damage(exc: sqlite3.DatabaseError) -> bool:
    return getattr(exc, "sqlite_errorname", "") in ("SQLITE_CORRUPT", "SQLITE_NOTADB") or (
        type(exc) is sqlite3.DatabaseError)


class SqliteStore:
    """``MatchStore`` on an SQLite file. Safe to share between threads of one process."""

    def __init__(self, path: str | Path | None = None):
        self._attributes(Path(path) if path else library_path())
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(f"{self._unavailable}: {exc.strerror or exc}") from None
        try:
            self._foreign_header()
            self.conn = self._connect()
            self._prepare()
        except _Damaged as exc:
            self._set_aside(str(exc))
            self.conn = self._connect()
            self._prepare()

    def _attributes(self, path: Path) -> None:
        self.path = path
        self.notice: str | None = None
        self._mutex = threading.RLock()
        self._unavailable = (f"the match library {self.path} cannot be used "
                             "(play goes on without saving)")
        self.locks_dir = self.path.with_name(self.path.name + ".locks")
        #: This store's holder of claims (``_holder``): its token and its flocked file.
        self._holder_lock: tuple[str, int] | None = None

    # --- opening ---------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        try:
            return connect(self.path)
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"{self._unavailable}: {exc}") from None

    def _foreign_header(self) -> None:
        try:
            with open(self.path, "rb") as f:
                head = f.read(len(SQLITE_MAGIC))
        except FileNotFoundError:
            return
        except OSError as exc:
            raise StoreUnavailable(f"{self._unavailable}: {exc.strerror or exc}") from None
        if head and head != SQLITE_MAGIC:
            raise _Damaged("not an SQLite database")

    def _prepare(self) -> None:
        """Check what the file is, then create the schema if it is new."""
        conn = self.conn
        try:
            app_id, version = self._header()
            if app_id == APPLICATION_ID and version > SCHEMA_VERSION:
                conn.close()
                raise StoreUnavailable(
                    f"{self.path} was written by a newer cardcore (library version {version}; "
                    f"this one reads {SCHEMA_VERSION}); it is left as it is and play goes on "
                    "without saving: update cardcore to use it")
            new = app_id == 0 and version == 0 and not self._tables()
            if not new and app_id != APPLICATION_ID:  # checked before WAL changes the header
                raise _Damaged("an SQLite database that is not a cardcore library")
            if not new and not self._tables() >= TABLES:
                raise _Damaged("a cardcore library with tables missing")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            if new:
                self._create()
            elif version < SCHEMA_VERSION:
                self._migrate()
            conn.execute("SELECT count(*) FROM matches").fetchone()
        except sqlite3.DatabaseError as exc:
            conn.close()
            if _is_damage(exc):
                raise _Damaged(f"damaged ({exc})") from None
            raise StoreUnavailable(f"{self._unavailable}: {exc}") from None

    def _header(self) -> tuple[int, int]:
        app_id = self.conn.execute("PRAGMA application_id").fetchone()[0]
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        return int(app_id), int(version)

    def _tables(self) -> set[str]:
        rows = self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        return {r[0] for r in rows}

    def _create(self) -> None:
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            if not self._tables():  # another process may have made it meanwhile
                # statement by statement: executescript would commit the transaction early
                for statement in SCHEMA:
                    conn.execute(statement)
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _migrate(self) -> None:
        """An older library brought to SCHEMA_VERSION, one version at a time, in one
        transaction (another process may have done it meanwhile: read again inside)."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            cur = conn.cursor()
            while version < SCHEMA_VERSION:
                for step in MIGRATIONS[version]:
                    if isinstance(step, str):
                        cur.execute(step)
                    else:
                        step(cur)
                version += 1
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _set_aside(self, problem: str) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        n = 1
        while aside.exists():
            n += 1
            aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{n}")
        try:
            os.replace(self.path, aside)
            for extra in ("-wal", "-shm"):
                side = Path(str(self.path) + extra)
                if side.exists():
                    os.replace(side, Path(str(aside) + extra))
        except OSError as exc:
            raise StoreUnavailable(f"{self.path}: {problem}, and it cannot be set aside "
                                   f"({exc.strerror or exc}); play goes on without saving") from None
        self.notice = (f"{self.path}: {problem}; it was kept as {aside.name} and "
                       "a new match library was started")

    def close(self) -> None:
        with self._mutex:
            self.conn.close()
            if self._holder_lock is not None:  # every claim of this store is dead from now
                token, fd = self._holder_lock
                self._holder_lock = None
                self._holder_path(token).unlink(missing_ok=True)
                _unlock(fd)

    # --- transactions ------------------------------------------------------------------

    @contextmanager
    def _transaction(self, wait: float | None = None) -> Iterator[sqlite3.Cursor]:
        """One write; ``wait``: at most this long (s) for another writer, not BUSY_TIMEOUT_MS."""
        with self._mutex:
            try:
                with transaction(self.conn, None if wait is None else int(wait * 1000)) as cur:
                    yield cur
            except sqlite3.Error as exc:
                raise self._error(exc) from None
            except MissingMatch as exc:
                raise NoSuchMatch(str(exc)) from None

    def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        with self._mutex:
            try:
                return fn(self.conn)
            except sqlite3.Error as exc:
                raise self._error(exc) from None

    def _error(self, exc: sqlite3.Error) -> StoreError:
        if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
            return LibraryBusy(f"the match library is busy ({exc}); try again")
        return StoreUnavailable(f"{self._unavailable}: {exc}")

    # --- playing ------------------------------------------------------------------------

    def create(self, game: str, options: dict[str, Any], seed: int | str, seats: list[str],
               names: list[str] | None = None, side_names: list[str] | None = None,
               source: str = "table", *, claim: bool = False) -> SqliteMatch:
        now = time.time()
        with self._transaction() as cur:
            cur.execute(
                "INSERT INTO matches (game, options, seed, seats, names, side_names, started, "
                "last_played, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game, _json(options), _json(seed), _json(seats), _json(names or []),
                 _json(side_names or []), now, now, source))
            match_id = cur.lastrowid
            if claim:  # nobody else can know the id yet: the row goes in with the match
                cur.execute("INSERT INTO claims (match_id, holder) VALUES (?, ?)",
                            (match_id, self._holder()))
        assert match_id is not None
        if claim:
            return SqliteMatch(self, match_id, lambda: self._unclaim(match_id), None)
        fd = self._lock(match_id)
        return SqliteMatch(self, match_id, lambda: _unlock(fd), None)

    def open(self, match_id: int, *, claim: bool = False) -> SqliteMatch:
        """``claim``: held by a row of ``claims`` (no descriptor kept), else by its lock file."""
        if claim:
            self._claim(match_id)
            release: Callable[[], None] = lambda: self._unclaim(match_id)  # noqa: E731
        else:
            fd = self._hold(match_id)
            release = lambda: _unlock(fd)  # noqa: E731
        try:
            snapshot = self.load(match_id)
        except BaseException:
            release()
            raise
        return SqliteMatch(self, match_id, release, snapshot)

    def commit(self, match_id: int, events: list[MatchEvent], snapshot: dict[str, Any],
               wait: float | None = None) -> None:
        """The events an action produced and the snapshot after it: one transaction."""
        commit = commit_of(match_id, events, snapshot)
        with self._transaction(wait) as cur:
            write_commit(cur, commit)

    def commit_many(self, matches: Iterable[tuple[int, list[MatchEvent], dict[str, Any]]],
                    tables: Iterable[tuple[str, int, str, dict[str, Any]]] = ()) -> None:
        """Several matches' events and snapshots, and table rows (``put_table``'s
        arguments), in one transaction: a server's group commit."""
        self.write_commits([commit_of(*match) for match in matches], tables)

    def write_commits(self, commits: Iterable[Commit],
                      tables: Iterable[tuple[str, int, str, dict[str, Any]]] = (),
                      holder: str | None = None) -> list[int]:
        """``commit_many`` of commits made ready beforehand (``commit_of``); ``holder``: fenced
        (``commits.write``), the matches not written returned."""
        with self._transaction() as cur:
            return write(cur, commits, tables, holder)

    # --- a server's tables (net_tables) -----------------------------------------------

    def put_table(self, code: str, match_id: int, status: str, data: dict[str, Any]) -> None:
        """Add or replace the row of table ``code`` (``data``: its seats, as JSON)."""
        with self._transaction() as cur:
            put_table(cur, code, match_id, status, data)

    def add_table(self, code: str, match_id: int, status: str, data: dict[str, Any]) -> bool:
        """The row of a new table ``code``, only if no table of the library has that code
        (whichever server made it): False, and nothing written, if one has."""
        now = time.time()
        with self._transaction() as cur:
            cur.execute("INSERT INTO net_tables (code, match_id, status, data, created, updated) "
                        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (code) DO NOTHING",
                        (code, match_id, status, _json(data), now, now))
            return cur.rowcount == 1

    def net_tables(self, statuses: tuple[str, ...] = ("waiting", "playing")
                   ) -> list[tuple[str, int, str, dict[str, Any]]]:
        """The tables with one of ``statuses``: (code, match id, status, data), oldest first."""
        marks = ", ".join("?" * len(statuses))
        rows = self._read(lambda c: c.execute(
            f"SELECT code, match_id, status, data FROM net_tables WHERE status IN ({marks}) "
            "ORDER BY created, code", statuses).fetchall())
        return [(r[0], int(r[1]), r[2], json.loads(r[3])) for r in rows]

    def _insert_events(self, cur: sqlite3.Cursor, match_id: int, seq: int,
                       events: Iterable[MatchEvent]) -> int:
        """Append the events' lines from ``seq`` (``commits.insert_lines``)."""
        return insert_lines(cur, match_id, seq, commit_of(match_id, list(events), {}))

    # --- locks --------------------------------------------------------------------------

    def _lock_path(self, match_id: int) -> Path:
        return self.locks_dir / f"{int(match_id)}.lock"

    def _lock(self, match_id: int) -> int:
        """Hold match ``match_id`` for play (MatchLocked if another holder has it)."""
        try:
            self.locks_dir.mkdir(exist_ok=True)
            fd = os.open(self._lock_path(match_id), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreUnavailable(f"{self._unavailable}: {exc.strerror or exc}") from None
        if fcntl is None:  # pragma: no cover
            return fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
            os.close(fd)
            pid = f" (pid {holder})" if holder.isdigit() else ""
            raise MatchLocked(f"match {match_id} is being played in another cardcore{pid}; "
                              "finish or close it there first") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return fd

    def is_locked(self, match_id: int) -> bool:
        """Held for play: its lock file flocked, or claimed by a live holder (this one too)."""
        if self._claimed_by(match_id) is not None:
            return True
        return _flocked(self._lock_path(match_id))

    def _hold(self, match_id: int) -> int:
        """The match's lock file flocked, for a local table: refused (MatchLocked) if a
        live holder claims it (read after the flock, so a claim cannot come in between)."""
        fd = self._lock(match_id)
        holder = self._claimed_by(match_id)
        if holder is not None:
            _unlock(fd)
            raise MatchLocked(f"match {match_id} is being played at a cardcore server; "
                              "finish or close it there first")
        return fd

    # --- claims: a server's hold on its matches ------------------------------------------

    def _holder(self) -> str:
        """This store's holder token, its file flocked from the first claim to ``close``."""
        with self._mutex:
            if self._holder_lock is None:
                token = secrets.token_hex(8)
                try:
                    self.locks_dir.mkdir(exist_ok=True)
                    fd = os.open(self._holder_path(token), os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
                except OSError as exc:
                    raise StoreUnavailable(f"{self._unavailable}: {exc.strerror or exc}") from None
                if fcntl is not None:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a new file: nobody holds it
                os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
                self._holder_lock = (token, fd)
            return self._holder_lock[0]

    def _holder_path(self, token: str) -> Path:
        return self.locks_dir / f"holder-{token}.lock"

    def _alive(self, token: str) -> bool:
        """The holder's file is flocked (by this store, or a live process) and its lease, if
        it took one, has not expired (a server that stalls loses its claims too)."""
        if self._holder_lock is not None and self._holder_lock[0] == token:
            return True
        if not all(c in "0123456789abcdef" for c in token):  # pragma: no cover
            return False
        if not _flocked(self._holder_path(token), drop_if_free=True):  # a dead holder's token never returns
            return False
        row = self._read(lambda c: c.execute("SELECT expires FROM leases WHERE holder = ?",
                                             (token,)).fetchone())
        return row is None or float(row[0]) > time.time()

    def _claimed_by(self, match_id: int) -> str | None:
        """The live holder that claims the match, if any."""
        row = self._read(lambda c: c.execute("SELECT holder FROM claims WHERE match_id = ?",
                                             (match_id,)).fetchone())
        return str(row[0]) if row is not None and self._alive(str(row[0])) else None

    def _claim(self, match_id: int) -> None:
        """Claim the match for this store (MatchLocked if a local table or another live
        holder has it). Written while its lock file is flocked: see ``_hold``."""
        mine = self._holder()
        fd = self._lock(match_id)
        try:
            with self._transaction() as cur:
                row = cur.execute("SELECT holder FROM claims WHERE match_id = ?", (match_id,)).fetchone()
                if row is not None and row[0] != mine and self._alive(str(row[0])):
                    raise MatchLocked(f"match {match_id} is being played at another cardcore server")
                cur.execute("INSERT OR REPLACE INTO claims (match_id, holder) VALUES (?, ?)",
                            (match_id, mine))
        finally:
            _unlock(fd)

    def _unclaim(self, match_id: int) -> None:
        if self._holder_lock is None:
            return  # closed: its claims died with it
        with self._transaction() as cur:
            cur.execute("DELETE FROM claims WHERE match_id = ? AND holder = ?",
                        (match_id, self._holder_lock[0]))

    # --- leases: a server's claims, renewed (docs/hosting.md, "Several server processes") --

    def lease(self, slot: int, ttl: float, listing: list[dict[str, Any]] | None = None) -> str:
        """This store's lease as the server of ``slot``, renewed for ``ttl`` seconds, with the
        public tables it lists; its token (the holder its claims name). Leases dead for a
        minute are cleared away."""
        token = self._holder()
        now = time.time()
        with self._transaction() as cur:
            cur.execute("INSERT INTO leases (holder, slot, expires, listing) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (holder) DO UPDATE SET slot = excluded.slot, "
                        "expires = excluded.expires, listing = excluded.listing",
                        (token, slot, now + ttl, _json(listing or [])))
            old = cur.execute("SELECT holder FROM leases WHERE expires < ?", (now - 60,)).fetchall()
            for (holder,) in old:
                if not _flocked(self._holder_path(holder), drop_if_free=True):
                    cur.execute("DELETE FROM leases WHERE holder = ?", (holder,))
        return token

    def live_leases(self) -> dict[str, int]:
        """The leases alive (this store's too, once it took one): holder token -> slot."""
        rows = self._read(lambda c: c.execute("SELECT holder, slot FROM leases WHERE expires > ?",
                                              (time.time(),)).fetchall())
        return {str(h): int(slot) for h, slot in rows if self._alive(str(h))}

    def listings(self) -> dict[str, list[dict[str, Any]]]:
        """The public tables each live lease lists (by holder), as it last renewed."""
        rows = self._read(lambda c: c.execute("SELECT holder, listing FROM leases WHERE expires > ?",
                                              (time.time(),)).fetchall())
        return {str(holder): json.loads(listing) for holder, listing in rows if self._alive(str(holder))}

    def held_tables(self, statuses: tuple[str, ...] = ("waiting", "playing")
                    ) -> list[tuple[str, int, str | None]]:
        """``net_tables``'s codes and matches with the holder that claims each table's match
        (None: none; alive or not: ``live_leases`` says), oldest first."""
        marks = ", ".join("?" * len(statuses))
        rows = self._read(lambda c: c.execute(
            "SELECT t.code, t.match_id, c.holder FROM net_tables t LEFT JOIN claims c "
            f"ON c.match_id = t.match_id WHERE t.status IN ({marks}) ORDER BY t.created, t.code",
            statuses).fetchall())
        return [(r[0], int(r[1]), r[2]) for r in rows]

    def net_table(self, code: str) -> tuple[int, str, dict[str, Any], str | None] | None:
        """Table ``code``'s row and its match's holder: (match id, status, data, holder or
        None), or None."""
        row = self._read(lambda c: c.execute(
            "SELECT t.match_id, t.status, t.data, c.holder FROM net_tables t LEFT JOIN claims c "
            "ON c.match_id = t.match_id WHERE t.code = ?", (code,)).fetchone())
        return None if row is None else (int(row[0]), row[1], json.loads(row[2]), row[3])

    # --- reading ------------------------------------------------------------------------

    def _summaries(self, where: str, args: tuple[Any, ...], order: str,
                   limit: int | None) -> list[MatchSummary]:
        sql = f"SELECT {SUMMARY_COLUMNS} FROM matches WHERE {where} ORDER BY {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        rows = self._read(lambda c: c.execute(sql, args).fetchall())
        return [self._summary(r) for r in rows]

    def _summary(self, r: tuple[Any, ...]) -> MatchSummary:
        return MatchSummary(
            id=r[0], game=r[1], options=json.loads(r[2]), seed=json.loads(r[3]),
            seats=json.loads(r[4]), names=json.loads(r[5]), side_names=json.loads(r[6]),
            totals=json.loads(r[7]), hand=r[8], decisions=r[9], started=r[10], last_played=r[11],
            finished=bool(r[12]), winner=r[13], source=r[14],
            locked=not r[12] and self.is_locked(r[0]))

    def get(self, match_id: int) -> MatchSummary:
        found = self._summaries("id = ?", (match_id,), "id", None)
        if not found:
            raise NoSuchMatch(f"no match {match_id} in the library")
        return found[0]

    def list_unfinished(self, limit: int | None = None, *, here_only: bool = True) -> list[MatchSummary]:
        # a server's tables are resumed by the server (cardcore serve), not at a local table
        where = "finished = 0 AND snapshot IS NOT NULL" + (" AND source != 'server'" if here_only else "")
        return self._summaries(where, (), "last_played DESC, id DESC", limit)

    def finished(self, game: str | None = None, limit: int | None = None) -> list[MatchSummary]:
        if game is None:
            return self._summaries("finished = 1", (), "last_played DESC, id DESC", limit)
        return self._summaries("finished = 1 AND game = ?", (game,), "last_played DESC, id DESC",
                               limit)

    def score_sheet(self, match_id: int) -> list[dict[str, Any]]:
        """Read from the record: the ``scores`` rows of versions 1 and 2 have their keys
        sorted (the statistics, which read them, need no order; a sheet does)."""
        try:
            return _hand_scores(self.export_record(match_id))
        except ValueError:
            raise StoreError(f"match {match_id}: its record is damaged") from None

    def load(self, match_id: int) -> dict[str, Any]:
        row = self._read(lambda c: c.execute(
            "SELECT finished, snapshot FROM matches WHERE id = ?", (match_id,)).fetchone())
        if row is None:
            raise NoSuchMatch(f"no match {match_id} in the library")
        if row[0]:
            raise StoreError(f"match {match_id} is finished: `cardcore replay {match_id}` shows it")
        if row[1] is None:
            raise StoreError(f"match {match_id} was never saved past its start")
        try:
            data = _unblob(row[1])
        except (zlib.error, ValueError):
            raise StoreError(f"match {match_id}: its saved position is damaged") from None
        if not isinstance(data, dict):
            raise StoreError(f"match {match_id}: its saved position is damaged")
        return data

    def export_record(self, match_id: int) -> str:
        self.get(match_id)

        def read(c: sqlite3.Connection) -> str:
            # One read transaction, so a writer between the two selects changes nothing.
            c.execute("BEGIN")
            try:
                return _record_text(c, match_id)
            finally:
                c.execute("COMMIT")

        try:
            return self._read(read)
        except zlib.error:
            raise StoreError(f"match {match_id}: its record is damaged") from None

    def delete(self, match_id: int) -> None:
        self.get(match_id)
        fd = self._hold(match_id)
        try:
            with self._transaction() as cur:
                for table in ("events", "chunks", "scores"):
                    cur.execute(f"DELETE FROM {table} WHERE match_id = ?", (match_id,))
                cur.execute("DELETE FROM matches WHERE id = ?", (match_id,))
                cur.execute("DELETE FROM claims WHERE match_id = ?", (match_id,))
                cur.execute("DELETE FROM net_tables WHERE match_id = ?", (match_id,))
            self._lock_path(match_id).unlink(missing_ok=True)
        finally:
            _unlock(fd)

    # --- importing ------------------------------------------------------------------------

    def import_record(self, events: list[MatchEvent], snapshot: dict[str, Any] | None = None,
                      source: str = "import", wait: float | None = None) -> int:
        """Add a match from its events (the caller checked them: ``import_checked``);
        ``snapshot``: the match after them (names, totals, and where to resume)."""
        with self._transaction(wait) as cur:
            return self._insert_match(cur, events, snapshot, source)

    def _insert_match(self, cur: sqlite3.Cursor, events: list[MatchEvent],
                      snapshot: dict[str, Any] | None, source: str) -> int:
        from cardcore.engine.journal import MatchEnd, MatchStart

        start = events[0] if events else None
        if not isinstance(start, MatchStart):
            raise StoreError("not a cardcore record (no match_start)")
        snap = snapshot or {}
        over = bool(snap.get("over")) or any(isinstance(e, MatchEnd) for e in events)
        now = time.time()
        cur.execute(
            "INSERT INTO matches (game, options, seed, seats, names, side_names, started, "
            "last_played, source, finished, record_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (start.game, _json(start.options), _json(start.seed), _json(start.seats),
             _json(start.names or []), _json(start.side_names or []), now, now, source, int(over),
             record_digest(events)))
        match_id = cur.lastrowid
        assert match_id is not None
        seq = self._insert_events(cur, match_id, 0, events)
        winner = next((e.winner for e in events if isinstance(e, MatchEnd)), snap.get("winner"))
        cur.execute("UPDATE matches SET n_events = ?, winner = ? WHERE id = ?", (seq, winner, match_id))
        if snapshot is not None:
            blob = None if over else _blob(snapshot)
            cur.execute("UPDATE matches SET seats = ?, names = ?, side_names = ?, totals = ?, "
                        "hand = ?, decisions = ?, people = ?, snapshot = ? WHERE id = ?",
                        (*snapshot_columns(snapshot), blob, match_id))
        return match_id

    def find_record(self, events: list[MatchEvent]) -> int | None:
        """The first match whose record is ``events`` (``record_digest``): one imported as
        they are, or one played here of the same game and seed whose record is the same."""
        from cardcore.engine.journal import parse_events, start_of

        if not events:
            return None
        digest = record_digest(events)
        start = start_of(events[0])
        rows = self._read(lambda c: c.execute(
            "SELECT id, record_hash FROM matches WHERE record_hash = ? OR (record_hash IS NULL "
            "AND game = ? AND seed = ?) ORDER BY id",
            (digest, start.game, _json(start.seed))).fetchall())
        for match_id, stored in rows:
            if stored == digest:
                return int(match_id)
        for match_id, _ in rows:
            try:
                text = self.export_record(match_id)
                if record_digest(parse_events(json.loads(line) for line in text.splitlines())) == digest:
                    return int(match_id)
            except (StoreError, ValueError):
                continue  # deleted meanwhile, or damaged: not the same
        return None

    def import_legacy_autosave(self) -> int | None:
        """The old autosave (and the record it names), imported once; the file is left as it
        was. Returns the new match's id, or None."""
        path = files.autosave_path()
        if not path.exists() or self._meta("autosave_imported"):
            return None
        from cardcore.engine.journal import MatchStart
        from cardcore.engine.records import RecordError

        try:
            save = files.read_save(path)
        except RecordError as exc:
            self._set_meta("autosave_imported", "unreadable")
            self.notice = f"the old autosave could not be imported ({exc}); it was left as it was"
            return None
        events = _legacy_events(save)
        if not events:
            old = save.match  # the old save's keys, no others
            events = [MatchStart.model_construct(**{
                "match": old.get("match_no", 0), "game": old.get("game"), "seed": old.get("seed"),
                "seats": old.get("seats"), "options": old.get("options")})]
        with self._transaction() as cur:
            if cur.execute("SELECT 1 FROM meta WHERE key = 'autosave_imported'").fetchone():
                return None  # another process did it meanwhile
            match_id = self._insert_match(cur, events, save.match, "autosave")
            cur.execute("INSERT INTO meta (key, value) VALUES ('autosave_imported', ?)", (str(match_id),))
        return match_id

    def _meta(self, key: str) -> str | None:
        row = self._read(lambda c: c.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone())
        return None if row is None else str(row[0])

    def _set_meta(self, key: str, value: str) -> None:
        with self._transaction() as cur:
            cur.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # --- statistics -----------------------------------------------------------------------

    def stats(self, game: str | None = None, games: Mapping[str, Game] | None = None, *,
              partnerships: bool = False) -> list[PlayerStats]:
        where, args = ("finished = 1", ()) if game is None else ("finished = 1 AND game = ?", (game,))

        def read(c: sqlite3.Connection) -> tuple[list[Any], list[Any]]:
            c.execute("BEGIN")
            try:
                matches = c.execute(f"SELECT id, game, options, seats, names, winner, people "
                                    f"FROM matches WHERE {where} ORDER BY id", args).fetchall()
                scores = c.execute(f"SELECT match_id, row FROM scores WHERE match_id IN "
                                   f"(SELECT id FROM matches WHERE {where}) ORDER BY match_id, seq",
                                   args).fetchall()
            finally:
                c.execute("COMMIT")
            return matches, scores

        from cardcore.services.store.stats import aggregate

        matches, scores = self._read(read)
        return aggregate(matches, scores, games, partnerships=partnerships)


class SqliteMatch:
    """A match held for play: events are buffered until ``save_snapshot`` commits them."""

    def __init__(self, store: SqliteStore, match_id: int, release: Callable[[], None],
                 snapshot: dict[str, Any] | None):
        self.store = store
        self.id = match_id
        #: Lets the match go (its lock file's descriptor closed, or its claim deleted).
        self._release: Callable[[], None] | None = release
        self._snapshot = snapshot
        self._pending: list[MatchEvent] = []

    def append_event(self, event: MatchEvent) -> None:
        self._pending.append(event)

    def save_snapshot(self, snapshot: dict[str, Any], wait: float | None = None) -> None:
        if self._release is None:
            raise StoreError(f"match {self.id} is closed")
        self.store.commit(self.id, self._pending, snapshot, wait)
        self._pending = []
        self._snapshot = snapshot

    def snapshot(self) -> dict[str, Any] | None:
        return self._snapshot

    def record(self) -> str:
        return self.store.export_record(self.id)

    def close(self) -> None:
        self._pending = []
        if self._release is not None:
            release, self._release = self._release, None
            release()

    def __enter__(self) -> SqliteMatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _unlock(fd: int) -> None:
    os.close(fd)  # closing the descriptor drops the flock


def _legacy_events(save: SaveFile) -> list[MatchEvent]:
    """The events of the old autosave's record (``files.save_events``)."""
    return files.save_events(save)


def _flocked(path: Path, *, drop_if_free: bool = False) -> bool:
    """Whether a live process holds ``path``'s flock (no file: nobody does). ``drop_if_free``:
    a file nobody holds is removed, while this probe holds it."""
    if fcntl is None:  # pragma: no cover
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        if drop_if_free:
            path.unlink(missing_ok=True)
        return False
    finally:
        os.close(fd)  # closing drops the probe's lock
