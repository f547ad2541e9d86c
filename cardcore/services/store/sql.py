"""What the two SQL libraries share: the queries of ``MatchStore`` (``SqlStore``), written
once with ``?`` placeholders and clauses both SQLite and PostgreSQL take (``RETURNING``,
``ON CONFLICT``), and ``Database``, a connection of its own for the modules that keep
tables in the library (the leagues).

A back end (``sqlite.SqliteStore``, ``postgres.PostgresStore``) gives the connection, its
transactions and its errors, and how a match is held for play: ``_lock`` (a hold by this
process), ``is_locked``, ``_holder`` / ``_alive`` (a holder of claims, alive while its
process is).
"""

from __future__ import annotations

import json
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
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
    SqlConflict,
    SqlError,
    StoreError,
    StoreUnavailable,
    commit_of,
    record_digest,
)
from cardcore.services.store.commits import (
    RELEASED,
    MissingMatch,
    column_json,
    insert_lines,
    is_db_error,
    packed,
    put_table,
    snapshot_columns,
    transaction,
    write,
    write_commit,
)

if TYPE_CHECKING:
    from cardcore.engine.game import Game
    from cardcore.engine.journal import MatchEvent
    from cardcore.engine.records import SaveFile

T = TypeVar("T")
#: Lets a match go (a lock file's descriptor closed, an advisory lock released, a claim deleted).
Release = Callable[[], None]

SUMMARY_COLUMNS = ("id, game, options, seed, seats, names, side_names, totals, hand, decisions, "
                   "started, last_played, finished, winner, source")
#: The tables a library holds, in an order that copies them (``copy.copy_library``).
TABLES = ("meta", "matches", "events", "chunks", "scores", "net_tables", "leagues", "league_teams",
          "league_entries", "league_pending")

#: ``matches``'s columns after its id, as both back ends have them (``{real}``, ``{blob}``:
#: the database's names of the types; each adds ``people`` after them: SQLite by a migration).
MATCH_COLUMNS = """
    game        TEXT    NOT NULL,
    options     TEXT    NOT NULL,
    seed        TEXT    NOT NULL,
    seats       TEXT    NOT NULL,
    names       TEXT    NOT NULL,
    side_names  TEXT    NOT NULL,
    totals      TEXT    NOT NULL DEFAULT '[]',
    hand        INTEGER NOT NULL DEFAULT 0,
    decisions   INTEGER NOT NULL DEFAULT 0,
    started     {real}  NOT NULL,
    last_played {real}  NOT NULL,
    finished    INTEGER NOT NULL DEFAULT 0,
    winner      INTEGER,
    source      TEXT    NOT NULL,
    n_events    INTEGER NOT NULL DEFAULT 0,
    snapshot    {blob},
    record_hash TEXT"""
#: The tables whose ids count up, never given twice (``copy`` carries their counters).
IDENTITIES = ("matches", "leagues", "league_entries")


def _json(value: Any) -> str:
    """A column's JSON (read back with ``json.loads``)."""
    return column_json(value)


def blob(snapshot: dict[str, Any]) -> bytes:
    """A snapshot as stored: its JSON, keys in the order given (a score row's items are in
    the game's order, which its sheet shows), compressed (``commits.packed``)."""
    return packed(compact_json(snapshot))


def unblob(data: bytes) -> Any:
    return json.loads(zlib.decompress(data))


def record_text(c: Any, match_id: int) -> str:
    """The match's record (call it inside one read transaction); zlib.error if damaged."""
    chunks = c.execute("SELECT lines FROM chunks WHERE match_id = ? ORDER BY first_seq",
                       (match_id,)).fetchall()
    lines = c.execute("SELECT line FROM events WHERE match_id = ? ORDER BY seq",
                      (match_id,)).fetchall()
    text = "".join(zlib.decompress(r[0]).decode() for r in chunks)
    return text + "".join(r[0] + "\n" for r in lines)


def hand_scores(text: str) -> list[dict[str, Any]]:
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


class Database:
    """A connection of its own to a library's tables: ``read`` and ``write`` take the
    library's SQL (``?`` placeholders) on either back end; a driver's error comes out as
    SqlError (SqlConflict: a constraint refused the write), the transaction rolled back."""

    def __init__(self, conn: Any, read_begin: str):
        self.conn = conn
        self._read_begin = read_begin

    def read(self, fn: Callable[[Any], T]) -> T:
        """``fn(connection)``, its statements in one read transaction."""
        try:
            self.conn.execute(self._read_begin)
            try:
                return fn(self.conn)
            finally:
                self.conn.execute("COMMIT")
        except Exception as exc:
            raise _sql_error(exc) from None

    @contextmanager
    def write(self, wait_ms: int | None = None) -> Iterator[Any]:
        try:
            with transaction(self.conn, wait_ms) as cur:
                yield cur
        except Exception as exc:
            raise _sql_error(exc) from None

    def close(self) -> None:
        self.conn.close()


def _sql_error(exc: Exception) -> Exception:
    if not is_db_error(exc):
        return exc
    if type(exc).__name__ in ("IntegrityError", "UniqueViolation", "ForeignKeyViolation",
                              "NotNullViolation", "CheckViolation"):
        return SqlConflict(" ".join(str(exc).split()))
    return SqlError(" ".join(str(exc).split()))


class SqlStore:
    """``MatchStore``'s queries on a connection ``conn`` of the library's SQL. Safe to share
    between threads of one process (one mutex)."""

    #: How a read of several statements begins (they see one state of the library).
    READ_BEGIN = "BEGIN"
    #: The library's clock in SQL (seconds since the epoch, a float): leases are written and
    #: read by it, so servers on machines whose clocks differ agree on when one runs out.
    NOW: str
    notice: str | None
    url: str
    conn: Any
    _unavailable: str

    def _setup(self, url: str, what: str) -> None:
        self.url = url
        self.notice = None
        self._mutex = threading.RLock()
        self._unavailable = f"the match library {what} cannot be used (play goes on without saving)"

    # --- what a back end gives --------------------------------------------------------

    def _error(self, exc: Exception) -> StoreError:
        """A driver's error as the caller sees it (LibraryBusy, StoreUnavailable)."""
        raise NotImplementedError

    def _lock(self, match_id: int) -> Release:
        """Hold match ``match_id`` for play here (MatchLocked if another holder has it)."""
        raise NotImplementedError

    def is_locked(self, match_id: int) -> bool:
        """Held for play: by a table (here or in another process) or by a live holder's claim."""
        raise NotImplementedError

    def _holder(self) -> str:
        """This store's holder token for claims, alive from the first claim to ``close``."""
        raise NotImplementedError

    def _process_alive(self, token: str) -> bool:
        """The holder's process holds its token (a file's flock, an advisory lock)."""
        raise NotImplementedError

    def _alive(self, token: str) -> bool:
        """The holder's process holds its token and its lease, if it took one, has not expired
        (a server that stalls loses its claims too)."""
        if token == self._live_token():
            return True
        if token.startswith(RELEASED) or not self._process_alive(token):
            return False
        row = self._read(lambda c: c.execute(f"SELECT expires > {self.NOW} FROM leases WHERE holder = ?",
                                             (token,)).fetchone())
        return row is None or bool(row[0])

    def _forget_lock(self, match_id: int) -> None:
        """A deleted match's lock leaves nothing behind."""

    def database(self) -> Database:
        """A connection of its own to the library's tables (the leagues keep theirs there)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def id_counters(self, c: Any) -> dict[str, int]:
        """Each IDENTITIES table's last id given (0: none yet), read on connection ``c``."""
        raise NotImplementedError

    def set_id_counters(self, cur: Any, counters: dict[str, int]) -> None:
        """Each table's next id after its counter in ``counters`` (none goes back)."""
        raise NotImplementedError

    # --- transactions ------------------------------------------------------------------

    @contextmanager
    def _transaction(self, wait: float | None = None) -> Iterator[Any]:
        """One write; ``wait``: at most this long (s) for another writer, not BUSY_TIMEOUT_MS."""
        with self._mutex:
            try:
                with transaction(self.conn, None if wait is None else int(wait * 1000)) as cur:
                    yield cur
            except MissingMatch as exc:
                raise NoSuchMatch(str(exc)) from None
            except Exception as exc:
                if not is_db_error(exc):
                    raise
                raise self._error(exc) from None

    def _read(self, fn: Callable[[Any], T]) -> T:
        with self._mutex:
            try:
                return fn(self.conn)
            except Exception as exc:
                if not is_db_error(exc):
                    raise
                raise self._error(exc) from None

    def _read_together(self, fn: Callable[[Any], T]) -> T:
        """``_read`` of several statements in one read transaction (a writer between them
        changes nothing they see)."""
        def together(c: Any) -> T:
            c.execute(self.READ_BEGIN)
            try:
                return fn(c)
            finally:
                c.execute("COMMIT")

        return self._read(together)

    # --- playing ------------------------------------------------------------------------

    def create(self, game: str, options: dict[str, Any], seed: int | str, seats: list[str],
               names: list[str] | None = None, side_names: list[str] | None = None,
               source: str = "table", *, claim: bool = False) -> SqlMatch:
        now = time.time()
        with self._transaction() as cur:
            match_id = int(cur.execute(
                "INSERT INTO matches (game, options, seed, seats, names, side_names, started, "
                "last_played, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (game, _json(options), _json(seed), _json(seats), _json(names or []),
                 _json(side_names or []), now, now, source)).fetchone()[0])
            if claim:  # nobody else can know the id yet: the row goes in with the match
                cur.execute("INSERT INTO claims (match_id, holder) VALUES (?, ?)",
                            (match_id, self._holder()))
        if claim:
            return SqlMatch(self, match_id, lambda: self._unclaim(match_id), None)
        return SqlMatch(self, match_id, self._lock(match_id), None)

    def open(self, match_id: int, *, claim: bool = False) -> SqlMatch:
        """``claim``: held by a row of ``claims``, else by the back end's lock (``_hold``)."""
        _known(match_id)  # before any hold is asked for
        if claim:
            self._claim(match_id)
            release: Release = lambda: self._unclaim(match_id)  # noqa: E731
        else:
            release = self._hold(match_id)
        try:
            snapshot = self.load(match_id)
        except BaseException:
            release()
            raise
        return SqlMatch(self, match_id, release, snapshot)

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
            added = cur.execute("INSERT INTO net_tables (code, match_id, status, data, created, updated) "
                                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (code) DO NOTHING RETURNING code",
                                (code, match_id, status, _json(data), now, now)).fetchone()
            return added is not None

    def net_tables(self, statuses: tuple[str, ...] = ("waiting", "playing")
                   ) -> list[tuple[str, int, str, dict[str, Any]]]:
        """The tables with one of ``statuses``: (code, match id, status, data), oldest first."""
        marks = ", ".join("?" * len(statuses))
        rows = self._read(lambda c: c.execute(
            f"SELECT code, match_id, status, data FROM net_tables WHERE status IN ({marks}) "
            "ORDER BY created, code", statuses).fetchall())
        return [(r[0], int(r[1]), r[2], json.loads(r[3])) for r in rows]

    def _insert_events(self, cur: Any, match_id: int, seq: int, events: Iterable[MatchEvent]) -> int:
        """Append the events' lines from ``seq`` (``commits.insert_lines``)."""
        return insert_lines(cur, match_id, seq, commit_of(match_id, list(events), {}))

    # --- holds -------------------------------------------------------------------------

    def _hold(self, match_id: int) -> Release:
        """The match held for a local table: refused (MatchLocked) if a live holder claims
        it (read after the hold is taken, so a claim cannot come in between)."""
        release = self._lock(match_id)
        if self._claimed_by(match_id) is not None:
            release()
            raise MatchLocked(f"match {match_id} is being played at a cardcore server; "
                              "finish or close it there first")
        return release

    def _claimed_by(self, match_id: int) -> str | None:
        """The live holder that claims the match, if any."""
        row = self._read(lambda c: c.execute("SELECT holder FROM claims WHERE match_id = ?",
                                             (match_id,)).fetchone())
        return str(row[0]) if row is not None and self._alive(str(row[0])) else None

    def _claim(self, match_id: int) -> None:
        """Claim the match for this store (MatchLocked if a local table or another live
        holder has it). Written while the match is held by ``_lock``: see ``_hold``."""
        mine = self._holder()
        release = self._lock(match_id)
        try:
            with self._transaction() as cur:
                row = cur.execute("SELECT holder FROM claims WHERE match_id = ?", (match_id,)).fetchone()
                if row is not None and row[0] != mine and self._alive(str(row[0])):
                    raise MatchLocked(f"match {match_id} is being played at another cardcore server")
                cur.execute("INSERT INTO claims (match_id, holder) VALUES (?, ?) "
                            "ON CONFLICT (match_id) DO UPDATE SET holder = excluded.holder",
                            (match_id, mine))
        finally:
            release()

    def _unclaim(self, match_id: int) -> None:
        token = self._live_token()
        if token is None:
            return  # closed: its claims died with it
        with self._transaction() as cur:
            cur.execute("UPDATE claims SET holder = ? WHERE match_id = ? AND holder = ?",
                        (RELEASED + token, match_id, token))  # whose it was: the fence reads it

    def _live_token(self) -> str | None:
        """This store's holder token while it has one (None: no claim made, or closed)."""
        raise NotImplementedError

    # --- leases: a server's claims, renewed (docs/hosting.md, "Several server processes") --

    def lease(self, slot: int, ttl: float, listing: list[dict[str, Any]] | None = None) -> str:
        """This store's lease as the server of ``slot``, renewed for ``ttl`` seconds of the
        library's clock (``NOW``), with the public tables it lists; its token (the holder its
        claims name). Leases of processes gone for a minute are cleared away."""
        token = self._holder()
        with self._transaction() as cur:
            cur.execute("INSERT INTO leases (holder, slot, expires, listing) "
                        f"VALUES (?, ?, {self.NOW} + ?, ?) ON CONFLICT (holder) DO UPDATE SET "
                        "slot = excluded.slot, expires = excluded.expires, listing = excluded.listing",
                        (token, slot, ttl, _json(listing or [])))
            old = cur.execute(f"SELECT holder FROM leases WHERE expires < {self.NOW} - 60").fetchall()
            for (holder,) in old:
                if not self._process_alive(str(holder)):
                    cur.execute("DELETE FROM leases WHERE holder = ?", (holder,))
        return token

    def live_leases(self) -> dict[str, int]:
        """The leases alive (this store's too, once it took one): holder token -> slot."""
        rows = self._read(lambda c: c.execute(f"SELECT holder, slot FROM leases WHERE expires > {self.NOW}"
                                              ).fetchall())
        return {str(h): int(slot) for h, slot in rows if self._alive(str(h))}

    def listings(self) -> dict[str, list[dict[str, Any]]]:
        """The public tables each live lease lists (by holder), as it last renewed."""
        rows = self._read(lambda c: c.execute(f"SELECT holder, listing FROM leases WHERE expires > {self.NOW}"
                                              ).fetchall())
        return {str(holder): json.loads(listing) for holder, listing in rows if self._alive(str(holder))}

    def held_tables(self, statuses: tuple[str, ...] = ("waiting", "playing")
                    ) -> list[tuple[str, int, str | None]]:
        """``net_tables``'s codes and matches with the holder that claims each table's match
        (None: none, or let go; alive or not: ``live_leases`` says), oldest first."""
        marks = ", ".join("?" * len(statuses))
        rows = self._read(lambda c: c.execute(
            "SELECT t.code, t.match_id, c.holder FROM net_tables t LEFT JOIN claims c "
            f"ON c.match_id = t.match_id WHERE t.status IN ({marks}) ORDER BY t.created, t.code",
            statuses).fetchall())
        return [(r[0], int(r[1]), _claimer(r[2])) for r in rows]

    def net_table(self, code: str) -> tuple[int, str, dict[str, Any], str | None] | None:
        """Table ``code``'s row and its match's holder: (match id, status, data, holder or
        None), or None."""
        row = self._read(lambda c: c.execute(
            "SELECT t.match_id, t.status, t.data, c.holder FROM net_tables t LEFT JOIN claims c "
            "ON c.match_id = t.match_id WHERE t.code = ?", (code,)).fetchone())
        return None if row is None else (int(row[0]), row[1], json.loads(row[2]), _claimer(row[3]))

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
            id=int(r[0]), game=r[1], options=json.loads(r[2]), seed=json.loads(r[3]),
            seats=json.loads(r[4]), names=json.loads(r[5]), side_names=json.loads(r[6]),
            totals=json.loads(r[7]), hand=r[8], decisions=r[9], started=r[10], last_played=r[11],
            finished=bool(r[12]), winner=r[13], source=r[14],
            locked=not r[12] and self.is_locked(int(r[0])))

    def get(self, match_id: int) -> MatchSummary:
        found = self._summaries("id = ?", (_known(match_id),), "id", None)
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
            return hand_scores(self.export_record(match_id))
        except ValueError:
            raise StoreError(f"match {match_id}: its record is damaged") from None

    def load(self, match_id: int) -> dict[str, Any]:
        row = self._read(lambda c: c.execute(
            "SELECT finished, snapshot FROM matches WHERE id = ?", (_known(match_id),)).fetchone())
        if row is None:
            raise NoSuchMatch(f"no match {match_id} in the library")
        if row[0]:
            raise StoreError(f"match {match_id} is finished: `cardcore replay {match_id}` shows it")
        if row[1] is None:
            raise StoreError(f"match {match_id} was never saved past its start")
        try:
            data = unblob(row[1])
        except (zlib.error, ValueError):
            raise StoreError(f"match {match_id}: its saved position is damaged") from None
        if not isinstance(data, dict):
            raise StoreError(f"match {match_id}: its saved position is damaged")
        return data

    def export_record(self, match_id: int) -> str:
        self.get(match_id)
        try:
            return self._read_together(lambda c: record_text(c, match_id))
        except zlib.error:
            raise StoreError(f"match {match_id}: its record is damaged") from None

    def delete(self, match_id: int) -> None:
        self.get(match_id)
        release = self._hold(match_id)
        try:
            with self._transaction() as cur:
                for table in ("events", "chunks", "scores"):
                    cur.execute(f"DELETE FROM {table} WHERE match_id = ?", (match_id,))
                cur.execute("DELETE FROM matches WHERE id = ?", (match_id,))
                cur.execute("DELETE FROM claims WHERE match_id = ?", (match_id,))
                cur.execute("DELETE FROM net_tables WHERE match_id = ?", (match_id,))
            self._forget_lock(match_id)
        finally:
            release()

    # --- importing ------------------------------------------------------------------------

    def import_record(self, events: list[MatchEvent], snapshot: dict[str, Any] | None = None,
                      source: str = "import", wait: float | None = None) -> int:
        """Add a match from its events (the caller checked them: ``import_checked``);
        ``snapshot``: the match after them (names, totals, and where to resume)."""
        with self._transaction(wait) as cur:
            return self._insert_match(cur, events, snapshot, source)

    def _insert_match(self, cur: Any, events: list[MatchEvent], snapshot: dict[str, Any] | None,
                      source: str) -> int:
        from cardcore.engine.journal import MatchEnd, MatchStart

        start = events[0] if events else None
        if not isinstance(start, MatchStart):
            raise StoreError("not a cardcore record (no match_start)")
        snap = snapshot or {}
        over = bool(snap.get("over")) or any(isinstance(e, MatchEnd) for e in events)
        now = time.time()
        match_id = int(cur.execute(
            "INSERT INTO matches (game, options, seed, seats, names, side_names, started, "
            "last_played, source, finished, record_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "RETURNING id",
            (start.game, _json(start.options), _json(start.seed), _json(start.seats),
             _json(start.names or []), _json(start.side_names or []), now, now, source, int(over),
             record_digest(events))).fetchone()[0])
        seq = self._insert_events(cur, match_id, 0, events)
        winner = next((e.winner for e in events if isinstance(e, MatchEnd)), snap.get("winner"))
        cur.execute("UPDATE matches SET n_events = ?, winner = ? WHERE id = ?", (seq, winner, match_id))
        if snapshot is not None:
            cur.execute("UPDATE matches SET seats = ?, names = ?, side_names = ?, totals = ?, "
                        "hand = ?, decisions = ?, people = ?, snapshot = ? WHERE id = ?",
                        (*snapshot_columns(snapshot), None if over else blob(snapshot), match_id))
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
            cur.execute("INSERT INTO meta (key, value) VALUES (?, ?) "
                        "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    # --- statistics -----------------------------------------------------------------------

    def stats(self, game: str | None = None, games: Mapping[str, Game] | None = None, *,
              partnerships: bool = False) -> list[PlayerStats]:
        where, args = ("finished = 1", ()) if game is None else ("finished = 1 AND game = ?", (game,))

        def read(c: Any) -> tuple[list[Any], list[Any]]:
            matches = c.execute(f"SELECT id, game, options, seats, names, winner, people "
                                f"FROM matches WHERE {where} ORDER BY id", args).fetchall()
            scores = c.execute(f"SELECT match_id, row FROM scores WHERE match_id IN "
                               f"(SELECT id FROM matches WHERE {where}) ORDER BY match_id, seq",
                               args).fetchall()
            return matches, scores

        from cardcore.services.store.stats import aggregate

        matches, scores = self._read_together(read)
        return aggregate(matches, scores, games, partnerships=partnerships)


class SqlMatch:
    """A match held for play: events are buffered until ``save_snapshot`` commits them."""

    def __init__(self, store: SqlStore, match_id: int, release: Release, snapshot: dict[str, Any] | None):
        self.store = store
        self.id = match_id
        #: Lets the match go (``Release``); None once closed.
        self._release: Release | None = release
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

    def __enter__(self) -> SqlMatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _known(match_id: int) -> int:
    """The id, if a library can hold it (a 64-bit integer from 1): else NoSuchMatch, as
    for any id it does not hold (not a database's complaint about the number)."""
    if not 1 <= match_id < 2**63:
        raise NoSuchMatch(f"no match {match_id} in the library")
    return match_id


def _claimer(holder: str | None) -> str | None:
    """A claim's holder, None for a claim let go (``RELEASED``)."""
    return None if holder is None or holder.startswith(RELEASED) else holder


def _legacy_events(save: SaveFile) -> list[MatchEvent]:
    """The events of the old autosave's record (``files.save_events``)."""
    return files.save_events(save)


def busy_or_unavailable(exc: Exception, busy: bool, unavailable: str) -> StoreError:
    """LibraryBusy (another writer held on past the wait) or StoreUnavailable."""
    if busy:
        return LibraryBusy(f"the match library is busy ({' '.join(str(exc).split())}); try again")
    return StoreUnavailable(f"{unavailable}: {' '.join(str(exc).split())}")
