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
- ``claims`` (version 4): the matches a server holds, one row a match naming its holder
  (``-`` and its token once it let the match go: ``commits.RELEASED``).
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

import os
import secrets
import sqlite3
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardcore.engine.jsontext import compact_json
from cardcore.services import files
from cardcore.services.store import MatchLocked, StoreError, StoreUnavailable
from cardcore.services.store.commits import APPLICATION_ID, connect
from cardcore.services.store.league_tables import LEAGUE_MIGRATION, LEAGUE_TABLES
from cardcore.services.store.sql import (
    IDENTITIES,
    MATCH_COLUMNS,
    Database,
    Release,
    SqlStore,
    blob,
    busy_or_unavailable,
    hand_scores,
    record_text,
    unblob,
)

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
MATCHES = ("CREATE TABLE {name} (id INTEGER PRIMARY KEY AUTOINCREMENT, "
           + MATCH_COLUMNS.format(real="REAL", blob="BLOB") + ")")
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

def library_path() -> Path:
    return files.data_dir() / LIBRARY_NAME


def _reorder_v2(cur: sqlite3.Cursor) -> None:
    """Versions 1 and 2 stored snapshots with their keys sorted, so a resumed match's
    earlier score rows came back in another order than its later ones: each stored
    snapshot's rows are put back as its record has them (only where they are the same rows)."""
    held = cur.execute("SELECT id, snapshot FROM matches WHERE snapshot IS NOT NULL").fetchall()
    for match_id, data in held:
        try:
            snap = unblob(data)
            hands = snap["sheet"]["hands"]
            recorded = hand_scores(record_text(cur, match_id))
        except (zlib.error, ValueError, TypeError, KeyError):
            continue  # damaged: left as it is (load says so)
        if recorded != hands or compact_json(recorded) == compact_json(hands):
            continue  # not the same rows, or already in order
        snap["sheet"]["hands"] = recorded
        cur.execute("UPDATE matches SET snapshot = ? WHERE id = ?", (blob(snap), match_id))


class _Damaged(Exception):
    """The file is not a library we can read: it is set aside and a new one started."""


def _is_damage(exc: sqlite3.DatabaseError) -> bool:
    return getattr(exc, "sqlite_errorname", "") in ("SQLITE_CORRUPT", "SQLITE_NOTADB") or (
        type(exc) is sqlite3.DatabaseError)


class SqliteStore(SqlStore):
    """``MatchStore`` on an SQLite file. Safe to share between threads of one process."""

    NOW = "(julianday('now') - 2440587.5) * 86400.0"  # (unixepoch('subsec') needs SQLite 3.42)

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
        self._setup(str(path), str(path))
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

    def database(self) -> Database:
        try:
            return Database(connect(self.path, create=False), self.READ_BEGIN)
        except sqlite3.Error as exc:
            raise StoreError(f"the match library {self.path} cannot be used: {exc}") from None

    def _error(self, exc: Exception) -> StoreError:
        busy = isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)
        return busy_or_unavailable(exc, busy, self._unavailable)

    def id_counters(self, c: Any) -> dict[str, int]:
        last = dict(c.execute("SELECT name, seq FROM sqlite_sequence").fetchall())
        return {table: int(last.get(table) or 0) for table in IDENTITIES}

    def set_id_counters(self, cur: Any, counters: dict[str, int]) -> None:
        for table, last in counters.items():
            cur.execute("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?", (last, table))
            if cur.rowcount == 0 and last > 0:
                cur.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, last))

    # --- locks --------------------------------------------------------------------------

    def _lock_path(self, match_id: int) -> Path:
        return self.locks_dir / f"{int(match_id)}.lock"

    def _forget_lock(self, match_id: int) -> None:
        self._lock_path(match_id).unlink(missing_ok=True)

    def _lock(self, match_id: int) -> Release:
        """Hold match ``match_id`` for play (MatchLocked if another holder has it)."""
        try:
            self.locks_dir.mkdir(exist_ok=True)
            fd = os.open(self._lock_path(match_id), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreUnavailable(f"{self._unavailable}: {exc.strerror or exc}") from None
        if fcntl is None:  # pragma: no cover
            return lambda: _unlock(fd)
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
        return lambda: _unlock(fd)

    def is_locked(self, match_id: int) -> bool:
        """Held for play: its lock file flocked, or claimed by a live holder (this one too)."""
        if self._claimed_by(match_id) is not None:
            return True
        return _flocked(self._lock_path(match_id))

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

    def _live_token(self) -> str | None:
        return None if self._holder_lock is None else self._holder_lock[0]

    def _holder_path(self, token: str) -> Path:
        return self.locks_dir / f"holder-{token}.lock"

    def _process_alive(self, token: str) -> bool:
        """The holder's file is flocked by a live process (this store's own token: ``_alive``)."""
        if not all(c in "0123456789abcdef" for c in token):  # pragma: no cover
            return False
        return _flocked(self._holder_path(token), drop_if_free=True)  # a dead holder's token never returns


def _unlock(fd: int) -> None:
    os.close(fd)  # closing the descriptor drops the flock


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
