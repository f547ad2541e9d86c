"""The SQL of the library's commits (an action's events and the snapshot after it), and
the writer process that runs them for a server: ``python -I commits.py LIBRARY WAIT_MS``.

This module needs nothing of cardcore (only the standard library and orjson), so the
writer process starts in a few hundredths of a second; ``SqliteStore`` runs the same
functions in process. A server's event loop makes each batch ready (``commit_of`` in
``cardcore.services.store``: the events' record lines, the snapshot's JSON) and hands it
to the process over a pipe (``cardcore.services.net.commit_worker``); the process writes it
in one transaction and answers one line: ``ok``, or ``error`` and why (and stops: the
batches handed over after a failed one are the server's to hand over again). It shares no
interpreter with the loop, so a commit (and a checkpoint of the write-ahead log) runs
beside the loop's work instead of taking turns with it.

The same SQL serves a PostgreSQL library (``postgres.py``): its statements are written with
``?`` placeholders and portable clauses (``RETURNING``, ``ON CONFLICT``), and a PostgreSQL
connection (``pg_connect``) takes them as they are. Its writer process is started with
``env:VARIABLE`` for LIBRARY (the URL in that variable, so no password shows in ``ps``).

On stdin each batch is its length (4 bytes, little-endian) and the pickle of
``(commits, tables, holder)``, the commits as plain tuples (``Commit`` fields), the tables as
``put_table``'s arguments, and the server's holder token that fences them (``write``).
The process ends at the end of its input, after the batch it was writing: a server killed
outright loses no batch it handed over.
"""

from __future__ import annotations

import json
import os
import pickle
import sqlite3
import sys
import time
import urllib.parse
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple

import orjson

if TYPE_CHECKING:
    import psycopg

#: ``PRAGMA application_id``: "cdcr". A SQLite file with another id is not a library.
APPLICATION_ID = 0x63646372
#: How long a write waits for another process's write to finish (ms).
BUSY_TIMEOUT_MS = 10_000
#: The length prefix of a batch handed to the writer process, in bytes.
HEADER = 4
#: The writer process's answer to a batch it wrote; to one it wrote but for the matches
#: another server claimed since (``LOST`` and their ids).
OK = b"ok\n"
LOST = "lost"
#: What a PostgreSQL library's URL starts with (anything else is an SQLite file's path).
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
#: PostgreSQL's advisory lock keys (two int4s): the first names what is locked. Every write
#: transaction takes (WRITER_KEY, 0) first, so writers queue as ``BEGIN IMMEDIATE`` makes
#: them queue in SQLite; a match held for play is (MATCH_KEY, its id); a holder of claims is
#: (HOLDER_KEY, its number). Lease rows (docs/hosting.md) will need no key of their own.
WRITER_KEY, MATCH_KEY, HOLDER_KEY = APPLICATION_ID, APPLICATION_ID + 1, APPLICATION_ID + 2
#: A claim let go names ``RELEASED`` + its holder's token (no token starts so: never alive),
#: so the fence still knows whose it was: that holder's last rows go in, and a server that
#: stalled before another took the match writes nothing of it even after it was let go.
RELEASED = "-"


class Commit(NamedTuple):
    """One match's part of a commit, made ready before the transaction: its events as
    record lines, the score rows of the hands they end, and the snapshot."""

    match_id: int
    lines: tuple[str, ...]
    #: (the index in ``lines`` of a ``hand_end``, the hand, its score row as JSON)
    scores: tuple[tuple[int, int, str], ...]
    #: The lines before this index end a hand (a ``hand_end`` or ``match_end`` is the last
    #: of them): they are packed into a chunk with the match's raw lines before them.
    pack_to: int
    #: The snapshot after the events, as compact JSON (keys in the order given).
    snapshot: bytes


class MissingMatch(LookupError):
    """A commit for a match the library does not hold."""


def is_postgres(location: Any) -> bool:
    """Whether ``location`` is a PostgreSQL library's URL (else an SQLite file's path)."""
    return isinstance(location, str) and location.startswith(POSTGRES_SCHEMES)


def connect(path: Any, *, create: bool = True) -> Any:
    """A connection to the library (an SQLite file's, or ``pg_connect``'s for a URL) that
    waits for another writer (BUSY_TIMEOUT_MS); ``create=False``: an error if there is no
    such file."""
    if is_postgres(path):
        return pg_connect(path)
    target = path if create else f"file:{urllib.parse.quote(os.fspath(path))}?mode=rw"
    conn = sqlite3.connect(target, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                           check_same_thread=False, uri=not create)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return conn


@lru_cache(maxsize=256)
def qmark(sql: str) -> str:
    """An SQL text with ``?`` placeholders as psycopg takes it (``%s``; a literal ``%`` doubled)."""
    return sql.replace("%", "%%").replace("?", "%s")


@lru_cache(maxsize=1)
def _qmark_cursor() -> type[psycopg.Cursor[Any]]:
    import psycopg

    class QmarkCursor(psycopg.Cursor[Any]):
        """A cursor that takes the library's SQL as SQLite does (``?`` placeholders)."""

        def execute(self, query: Any, params: Any = None, **kw: Any) -> QmarkCursor:
            return super().execute(qmark(query) if isinstance(query, str) else query, params, **kw)

        def executemany(self, query: Any, params_seq: Any, **kw: Any) -> None:
            super().executemany(qmark(query) if isinstance(query, str) else query, params_seq, **kw)

    return QmarkCursor


def pg_connect(url: str) -> psycopg.Connection[Any]:
    """A connection to a PostgreSQL library: autocommit (each transaction is begun by
    ``transaction``), ``?`` placeholders, a bounded wait to connect, and the process's id
    in its name (``MatchLocked`` names the process that holds a match, as with SQLite)."""
    import psycopg

    return psycopg.connect(url, autocommit=True, cursor_factory=_qmark_cursor(), connect_timeout=10,
                           application_name=f"cardcore pid {os.getpid()}")  # who holds a match


@contextmanager
def transaction(conn: Any, wait_ms: int | None = None) -> Iterator[Any]:
    """One write transaction (rolled back if the body raises); ``wait_ms``: at most this
    long for another writer to finish, not BUSY_TIMEOUT_MS."""
    if not isinstance(conn, sqlite3.Connection):
        with pg_transaction(conn, wait_ms) as cur:
            yield cur
        return
    cur = conn.cursor()
    if wait_ms is not None:
        cur.execute(f"PRAGMA busy_timeout = {int(wait_ms)}")
    try:
        cur.execute("BEGIN IMMEDIATE")
    finally:
        if wait_ms is not None:
            cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    try:
        yield cur
        cur.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


@contextmanager
def pg_transaction(conn: psycopg.Connection[Any], wait_ms: int | None = None) -> Iterator[Any]:
    """``transaction`` on PostgreSQL: the writers' lock (WRITER_KEY) taken first, waiting at
    most ``wait_ms`` (``lock_timeout``) for another writer. Pipelined: a statement whose
    result is not read goes without waiting for the one before, and the transaction has
    returned only once COMMIT's answer is in (a commit costs the round trips of its reads)."""
    from psycopg import pq

    cur = conn.cursor()
    wait = int(BUSY_TIMEOUT_MS if wait_ms is None else wait_ms)
    try:
        with conn.pipeline():
            cur.execute("BEGIN")
            cur.execute(f"SET LOCAL lock_timeout = {wait}")
            cur.execute(f"SELECT pg_advisory_xact_lock({WRITER_KEY}, 0)")
            yield cur
            cur.execute("COMMIT")
    except BaseException:
        if not conn.closed and conn.info.transaction_status != pq.TransactionStatus.IDLE:
            conn.execute("ROLLBACK")
        raise


def is_db_error(exc: BaseException) -> bool:
    """An error of the library's database (SQLite's or psycopg's), not of cardcore."""
    return isinstance(exc, sqlite3.Error) or type(exc).__module__.startswith("psycopg")


def column_json(value: Any) -> str:
    """A column's JSON: compact, keys sorted (the same text for the same value), as
    ``cardcore.engine.jsontext.compact_json(value, sort_keys=True)`` writes it."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS).decode()
    except TypeError:  # integers past 64 bits
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def packed(snapshot: bytes) -> bytes:
    """A snapshot's JSON as stored: compressed (level 1: a snapshot is written for every
    action a server plays; level 6 took a third longer for 4% fewer bytes)."""
    return zlib.compress(snapshot, 1)


def snapshot_columns(snap: dict[str, Any]) -> tuple[str, str, str, str, int, int, str]:
    """seats, names, side_names, totals, hand, decisions, people: the columns a snapshot
    updates (``people``: each seat's person key, ``[]`` when none has one)."""
    side_names = snap.get("side_names") or []
    totals = [0] * len(side_names)
    for row in (snap.get("sheet") or {}).get("hands") or []:
        for i, side in enumerate(row.get("sides") or []):
            if i < len(totals) and isinstance(side, dict) and isinstance(side.get("total"), int):
                totals[i] += side["total"]
    return (column_json(snap.get("seats") or []), column_json(snap.get("names") or []),
            column_json(side_names), column_json(totals), int(snap.get("hand") or 0),
            int(snap.get("decisions") or 0), column_json(snap.get("people") or []))


def write(cur: Any, commits: Iterable[Commit],
          tables: Iterable[tuple[str, int, str, dict[str, Any]]] = (), holder: str | None = None
          ) -> list[int]:
    """Commits and table rows, inside the transaction of ``cur``. ``holder`` (a server's):
    fenced, a match another holder has claimed since (its table taken over) is not written;
    the ids of the matches left out."""
    lost: list[int] = []
    for commit in commits:
        if holder is None or _holds(cur, commit.match_id, holder):
            write_commit(cur, commit)
        else:
            lost.append(commit.match_id)
    for table in tables:
        if holder is None or _holds(cur, table[1], holder):
            put_table(cur, *table)
        else:
            lost.append(table[1])
    return lost


def _holds(cur: Any, match_id: int, holder: str) -> bool:
    """No other holder claims the match, nor let it go last (``RELEASED``): a match this
    holder let go may still get its last rows."""
    row = cur.execute("SELECT holder FROM claims WHERE match_id = ?", (match_id,)).fetchone()
    return row is None or row[0] in (holder, RELEASED + holder)


def write_commit(cur: Any, commit: Commit) -> None:
    """One match's events (after those it has) and its snapshot (MissingMatch: no match)."""
    snapshot = orjson.loads(commit.snapshot)
    over = bool(snapshot.get("over"))
    match_id = commit.match_id
    row = cur.execute("SELECT n_events FROM matches WHERE id = ?", (match_id,)).fetchone()
    if row is None:
        raise MissingMatch(f"no match {match_id} in the library")
    seq = insert_lines(cur, match_id, row[0], commit)
    cur.execute(
        "UPDATE matches SET n_events = ?, last_played = ?, seats = ?, names = ?, "
        "side_names = ?, totals = ?, hand = ?, decisions = ?, people = ?, finished = ?, winner = ?, "
        "snapshot = ?, record_hash = NULL WHERE id = ?",  # played on: not the record imported
        (seq, time.time(), *snapshot_columns(snapshot), int(over), snapshot.get("winner"),
         None if over else packed(commit.snapshot), match_id))


def insert_lines(cur: Any, match_id: int, seq: int, commit: Commit) -> int:
    """Append the commit's lines from ``seq`` (the next sequence number after them). Lines
    up to the last end of a hand among them are packed (with the raw lines before them)
    into one chunk, never stored raw."""
    for index, hand, row in commit.scores:
        cur.execute("INSERT INTO scores (match_id, seq, hand, row) VALUES (?, ?, ?, ?)",
                    (match_id, seq + index, hand, row))
    lines = [(seq + n, line) for n, line in enumerate(commit.lines)]
    if commit.pack_to > 0:
        raw = cur.execute("SELECT seq, line FROM events WHERE match_id = ? ORDER BY seq",
                          (match_id,)).fetchall()
        chunk = [*raw, *lines[:commit.pack_to]]
        text = "".join(line + "\n" for _, line in chunk)
        cur.execute("INSERT INTO chunks (match_id, first_seq, last_seq, lines) VALUES (?, ?, ?, ?)",
                    (match_id, chunk[0][0], chunk[-1][0], zlib.compress(text.encode(), 6)))
        if raw:
            cur.execute("DELETE FROM events WHERE match_id = ?", (match_id,))
        lines = lines[commit.pack_to:]
    cur.executemany("INSERT INTO events (match_id, seq, line) VALUES (?, ?, ?)",
                    [(match_id, n, line) for n, line in lines])
    return seq + len(commit.lines)


def put_table(cur: Any, code: str, match_id: int, status: str, data: dict[str, Any]) -> None:
    """Add or replace the row of a server's table ``code``."""
    now = time.time()
    cur.execute("INSERT INTO net_tables (code, match_id, status, data, created, updated) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (code) DO UPDATE SET "
                "match_id = excluded.match_id, status = excluded.status, data = excluded.data, "
                "updated = excluded.updated", (code, match_id, status, column_json(data), now, now))


# --- the writer process ------------------------------------------------------------------

def serve(path: str, wait_ms: int, source: BinaryIO, answers: BinaryIO) -> None:
    """Write the batches ``source`` carries into the library at ``path``, answering each,
    until one fails; each waits up to ``wait_ms`` for another process's write lock."""
    if path.startswith("env:"):
        path = os.environ[path.removeprefix("env:")]
    conn = connect(path, create=False)
    try:
        check_library(conn, path)
        if isinstance(conn, sqlite3.Connection):
            conn.execute(f"PRAGMA busy_timeout = {int(wait_ms)}")
            conn.execute("PRAGMA synchronous = NORMAL")  # as the server's own connection
        while True:
            head = source.read(HEADER)
            if len(head) < HEADER:
                return  # the server is gone (or stopped)
            size = int.from_bytes(head, "little")
            payload = source.read(size)
            if len(payload) < size:
                return  # the server died while handing it over: nobody was shown it
            answer = _answer(conn, payload, wait_ms)
            answers.write(answer)
            answers.flush()
            if answer.startswith(b"error"):  # (a batch with matches fenced out is written)
                return
    finally:
        conn.close()


def check_library(conn: Any, path: str) -> None:
    """A DatabaseError (sqlite3's) unless the connection is to a cardcore library."""
    if isinstance(conn, sqlite3.Connection):
        ours = conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    else:
        row = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
        ours = bool(row and row[0])
        path = "the PostgreSQL library"
    if not ours:
        raise sqlite3.DatabaseError(f"{path} is not a cardcore library")


def _answer(conn: sqlite3.Connection, payload: bytes, wait_ms: int) -> bytes:
    """Write one batch: ``ok``; ``lost`` and the ids of the matches fenced out (the rest is
    written); or ``error`` and why in one line (the server retries it)."""
    try:
        commits, tables, holder = pickle.loads(payload)
        with transaction(conn, wait_ms) as cur:
            lost = write(cur, [Commit(*c) for c in commits], tables, holder)
    except Exception as exc:  # a process boundary: the server must hear of every failure
        known = isinstance(exc, MissingMatch) or is_db_error(exc)
        why = str(exc) if known else f"{type(exc).__name__}: {exc}"
        return b"error " + " ".join(why.split()).encode()[:1000] + b"\n"
    return f"{LOST} {' '.join(map(str, sorted(set(lost))))}\n".encode() if lost else OK


def main() -> None:
    if len(sys.argv) != 3 or not sys.argv[2].isdigit():
        sys.exit("usage: python -I commits.py LIBRARY WAIT_MS")
    try:
        serve(sys.argv[1], int(sys.argv[2]), sys.stdin.buffer, sys.stdout.buffer)
    except Exception as exc:
        if not is_db_error(exc):
            raise
        sys.exit(f"cardcore: the library's writer cannot start: {exc}")
    except (BrokenPipeError, KeyboardInterrupt):
        pass


if __name__ == "__main__":
    main()
