"""The match library: every match played at the table, kept, resumable, with its history.

The table and the session speak to a ``MatchStore`` (below) and never to SQL. Two back
ends share its queries (``sql.SqlStore``): ``SqliteStore`` (``sqlite.py``), an SQLite file
in the user data dir (the default), and ``PostgresStore`` (``postgres.py``), a PostgreSQL
database named by a ``postgresql://`` URL; ``open_library`` picks one by what it is given.

How the session uses it (see docs/library.md):

    store = open_library()                      # StoreUnavailable: play on without saving
    play = store.create(game.id, options, seed, seats, names, side_names)
    match.on_event = lambda e: play.append_event(e)   # buffered
    match.start(); play.save_snapshot(match.snapshot())  # one transaction per action
    ...
    play.close()                                # releases the match's lock
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from cardcore.engine.jsontext import compact_json
from cardcore.services.store.commits import Commit

if TYPE_CHECKING:
    from cardcore.engine.game import Game
    from cardcore.engine.journal import MatchEvent
    from cardcore.services.store.sql import Database, SqlStore


def record_digest(events: Sequence[MatchEvent]) -> str:
    """What makes two records the same match (``cardcore import`` keeps one copy): the
    SHA-256 of its events, each as compact JSON with sorted keys, one a line. So a record
    read back with other spacing, key order or line ends, or exported from the library,
    is the same; any other event, value or order of events is not."""
    digest = hashlib.sha256()
    for event in events:
        digest.update(compact_json(event.to_json(), sort_keys=True) + b"\n")
    return digest.hexdigest()


def commit_of(match_id: int, events: Sequence[MatchEvent], snapshot: dict[str, Any]) -> Commit:
    """An action's events and the snapshot after it, ready for ``write_commits``."""
    from cardcore.engine.journal import HandEnd, MatchEnd
    from cardcore.engine.records import dumps

    lines: list[str] = []
    scores: list[tuple[int, int, str]] = []
    pack_to = 0
    for event in events:
        if isinstance(event, HandEnd):  # the row's keys in the game's order, as in the record
            scores.append((len(lines), event.hand, compact_json(event.score).decode()))
        lines.append(dumps(event))
        if isinstance(event, HandEnd | MatchEnd):
            pack_to = len(lines)
    return Commit(match_id, tuple(lines), tuple(scores), pack_to, compact_json(snapshot))


class StoreError(Exception):
    """Something the caller shows in one line: the library or a match in it cannot do that."""


class StoreUnavailable(StoreError):
    """The library cannot be opened or written (a read-only or missing data dir, a library
    from a newer cardcore, a full disk). The table shows it and plays on without saving."""


class SqlError(StoreError):
    """The library's database refused a statement (``sql.Database``: the modules that keep
    tables of their own in it say what they were doing)."""


class SqlConflict(SqlError):
    """A write the library's constraints refuse (a name that must be unique, taken)."""


class LibraryBusy(StoreError):
    """Another process is writing the library and did not finish within the wait asked."""


class MatchLocked(StoreError):
    """The match is open for play in another cardcore (another terminal)."""


class NoSuchMatch(StoreError):
    """No match with that id in the library."""


@dataclass(frozen=True)
class MatchSummary:
    """One line of a list of matches (what the launcher and ``cardcore history`` show)."""

    id: int
    game: str
    options: dict[str, Any]
    seed: int | str
    seats: list[str]          # "human" or a bot id, per seat
    names: list[str]          # the players' names, per seat
    side_names: list[str]
    totals: list[int]         # per side
    hand: int                 # the hand in play (or the last one)
    decisions: int
    started: float            # time.time()
    last_played: float
    finished: bool
    winner: int | None
    source: str               # "table", "import" or "autosave"
    locked: bool = False      # open for play in another process right now

    def players(self) -> str:
        """Who plays: "South (human), West (greedy), ..."."""
        return ", ".join(f"{n} ({s})" for n, s in zip(self.names, self.seats, strict=False))


@dataclass
class PlayerStats:
    """One person's (or one partnership's) figures in one game and variant (``options``:
    the match options)."""

    game: str
    options: dict[str, Any]
    player: str               # as shown: a person's name ("Ann · 3f9c" when two share it), a
                              # bot's id; a partnership's people joined by " & "
    bot: bool
    matches: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0           # the sum of the player's side's hand totals
    counts: dict[str, int] = field(default_factory=dict)
    #: Who: the person id (``cardcore.engine.people.person_id``; "bot:" + a bot's id), a
    #: partnership's ids joined by " & ".
    person: str = ""
    #: Each member's label (one for a person, two or more for a partnership).
    members: tuple[str, ...] = ()

    @property
    def win_share(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    @property
    def mean_hand_score(self) -> float:
        return self.points / self.hands if self.hands else 0.0


class OpenMatch(Protocol):
    """A match held for play by this process (locked until ``close``)."""

    id: int

    def append_event(self, event: MatchEvent) -> None:
        """Buffer one event (a ``Match.on_event`` event, or the table's undo / resume)."""

    def save_snapshot(self, snapshot: dict[str, Any], wait: float | None = None) -> None:
        """Commit the buffered events and ``Match.snapshot()`` in one transaction (``wait``:
        at most this long for another process writing, LibraryBusy after; the events stay
        buffered)."""

    def snapshot(self) -> dict[str, Any] | None:
        """The last committed snapshot (None before the first)."""

    def record(self) -> str:
        """The record so far (JSON Lines), as committed."""

    def close(self) -> None:
        """Release the lock (uncommitted events are dropped)."""


class MatchStore(Protocol):
    """Everything the table, the launcher and the command line need of the library."""

    #: What the caller should show once after opening (a damaged file set aside, ...).
    notice: str | None
    #: Where the library is: its file's path or its ``postgresql://`` URL (a server's writer
    #: process opens it too: ``commits``).
    url: str

    def create(self, game: str, options: dict[str, Any], seed: int | str, seats: list[str],
               names: list[str] | None = None, side_names: list[str] | None = None,
               source: str = "table", *, claim: bool = False) -> OpenMatch:
        """A new match, held for play. Nothing else in the library changes. ``source``:
        where it is played ("table": here, "server": at a server's table). ``claim``: held
        as ``open`` says."""

    def open(self, match_id: int, *, claim: bool = False) -> OpenMatch:
        """An unfinished match, held for play (MatchLocked if another process holds it).
        ``claim``: held by a row of the library (a server holding many matches) rather than
        by an open file each; either kind of hold refuses the other."""

    def get(self, match_id: int) -> MatchSummary:
        """NoSuchMatch if there is none."""

    def list_unfinished(self, limit: int | None = None, *, here_only: bool = True) -> list[MatchSummary]:
        """Unfinished matches, the most recently played first: those that can be resumed at
        a table here, or (``here_only=False``) with a server's tables too."""

    def finished(self, game: str | None = None, limit: int | None = None) -> list[MatchSummary]:
        """Finished matches, the most recently played first."""

    def score_sheet(self, match_id: int) -> list[dict[str, Any]]:
        """The match's score rows (the ``hand_end`` scores), in hand order."""

    def load(self, match_id: int) -> dict[str, Any]:
        """The snapshot to continue from (check it with ``Match.from_snapshot``)."""

    def delete(self, match_id: int) -> None:
        """Remove a match, its events and any server table row naming it (MatchLocked if it
        is being played)."""

    def export_record(self, match_id: int) -> str:
        """The match's record, byte for byte what the table writes."""

    def import_record(self, events: list[MatchEvent], snapshot: dict[str, Any] | None = None,
                      source: str = "import", wait: float | None = None) -> int:
        """Add a match from its events (checked by the caller: ``import_checked``); ``wait``
        as ``OpenMatch.save_snapshot``'s."""

    def find_record(self, events: list[MatchEvent]) -> int | None:
        """The id of a match whose record is these events (``record_digest``), or None."""

    def stats(self, game: str | None = None, games: Mapping[str, Game] | None = None, *,
              partnerships: bool = False) -> list[PlayerStats]:
        """Per game, variant and person (``partnerships``: per partnership, the people of
        a side): finished matches only; ``games`` (the installed games by id): their score
        extras are counted too (``Game.score_extras``)."""

    # --- what a server keeps (cardcore serve) --------------------------------------------

    def commit_many(self, matches: Iterable[tuple[int, list[MatchEvent], dict[str, Any]]],
                    tables: Iterable[tuple[str, int, str, dict[str, Any]]] = ()) -> None:
        """Several matches' events and snapshots, and table rows (``put_table``'s
        arguments), in one transaction: a server's group commit."""

    def write_commits(self, commits: Iterable[Commit],
                      tables: Iterable[tuple[str, int, str, dict[str, Any]]] = (),
                      holder: str | None = None) -> list[int]:
        """``commit_many`` of commits made ready beforehand (``commit_of``). ``holder`` (a
        server's lease token) fences them: a match another holder claims (its table taken
        over) is not written, nor its table's row; the ids of those left out."""

    def put_table(self, code: str, match_id: int, status: str, data: dict[str, Any]) -> None:
        """Add or replace the row of a server's table ``code`` (``data``: its seats, as JSON)."""

    def add_table(self, code: str, match_id: int, status: str, data: dict[str, Any]) -> bool:
        """The row of a new table, only if no table in the library has ``code`` (checked and
        written in one transaction): False, nothing written, if one has."""

    def net_tables(self, statuses: tuple[str, ...] = ("waiting", "playing")
                   ) -> list[tuple[str, int, str, dict[str, Any]]]:
        """A server's tables with one of ``statuses``: (code, match id, status, data), oldest
        first."""

    def database(self) -> Database:
        """A connection of its own to the library's tables, for a module that keeps tables
        there (the leagues); closed by the caller."""

    # --- servers sharing the library (docs/hosting.md, "Several server processes") ------

    def lease(self, slot: int, ttl: float, listing: list[dict[str, Any]] | None = None) -> str:
        """Take or renew this store's lease as the server of ``slot`` for ``ttl`` seconds,
        with the public tables it lists (``listings``); its token, the holder that this
        store's claims name. A holder whose lease expired (or whose process died) claims
        nothing: another server may take its matches (``open(claim=True)``), and from then
        on the fence (``write_commits``) keeps the old holder's writes out."""

    def live_leases(self) -> dict[str, int]:
        """The live leases: holder token -> slot."""

    def listings(self) -> dict[str, list[dict[str, Any]]]:
        """The public tables each live lease lists (holder token -> tables), as each server
        last renewed."""

    def held_tables(self, statuses: tuple[str, ...] = ("waiting", "playing")
                    ) -> list[tuple[str, int, str | None]]:
        """``net_tables`` with the holder claiming each table's match: (code, match id,
        holder or None), oldest first."""

    def net_table(self, code: str) -> tuple[int, str, dict[str, Any], str | None] | None:
        """Table ``code``'s row and the holder claiming its match: (match id, status, data,
        holder or None), or None."""

    def close(self) -> None: ...


#: The library used when none is named (a path or a ``postgresql://`` URL); else the
#: SQLite file in the data dir.
LIBRARY_VARIABLE = "CARDCORE_LIBRARY"


def library_location(path: str | Path | None = None) -> str | None:
    """The library asked for: ``path``, else $CARDCORE_LIBRARY, else None (the data dir's)."""
    return os.fspath(path) if path is not None else os.environ.get(LIBRARY_VARIABLE) or None


def open_library(path: str | Path | None = None, *, import_autosave: bool = True) -> MatchStore:
    """The library at ``path`` (a file, or a ``postgresql://`` URL: ``library_location``).
    StoreUnavailable when it cannot be opened; a damaged or foreign file is set aside and
    ``store.notice`` says so."""
    from cardcore.services.store.commits import is_postgres

    location = library_location(path)
    if location is not None and "://" in location and not is_postgres(location):
        raise StoreUnavailable(f"{location}: a library is a file's path or a postgresql:// URL")
    store: SqlStore
    if is_postgres(location):
        from cardcore.services.store.postgres import PostgresStore

        store = PostgresStore(str(location))
    else:
        from cardcore.services.store.sqlite import SqliteStore

        store = SqliteStore(location)
    if import_autosave:
        store.import_legacy_autosave()
    return store


__all__ = [
    "LIBRARY_VARIABLE", "LibraryBusy", "MatchLocked", "MatchStore", "MatchSummary", "NoSuchMatch",
    "OpenMatch",
    "PlayerStats", "SqlConflict", "SqlError", "StoreError", "StoreUnavailable", "library_location",
    "open_library", "record_digest",
]
