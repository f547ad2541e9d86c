"""Keeping a table's match in the library (docs/library.md), never stopping the table.

``LibraryKeeper`` is the ``Keeper`` of a table on this machine: each move's events and
the snapshot after it go into the library in one transaction. A library that cannot be
opened or written (a read-only data dir, a full disk) leaves play going on without it:
``problem`` says so until a save works again; the events are kept meanwhile, and the
match goes into the library once it can.

A move's write never holds up the table while another process (another cardcore) is
writing the library: it waits at most ``WRITE_WAIT`` seconds, then ``problem`` is
``WAITING`` and a thread of the keeper's tries again every ``RETRY_SECONDS`` (each try
waiting ``WRITE_WAIT`` at most, so the table's own reads of the library are never held up
long) until it is written; ``on_change`` hears when it starts waiting and when it is
written. Leaving the table waits for the write once more, the library's whole busy time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardcore.engine.journal import MatchEvent
from cardcore.services.store import LibraryBusy, MatchStore, OpenMatch, StoreError, open_library

#: How long a move's write waits for another process writing the library (seconds).
WRITE_WAIT = 0.05
#: How often a write that waited is tried again (seconds).
RETRY_SECONDS = 0.25
#: The table's line while another process holds the library's write lock.
WAITING = "waiting for the match library: another cardcore is writing"


@dataclass
class LibraryKeeper:
    #: The library (None: not opened yet, or it could not be).
    store: MatchStore | None = None
    #: The match as held in the library (locked for this table), or None.
    play: OpenMatch | None = None
    #: The match's id in the library (None while it is not in it).
    match_id: int | None = None
    #: What the library calls where the match came from ("table", "save", "server").
    source: str = "table"
    #: Why the match is not being kept (None while saving works).
    problem: str | None = None
    own_store: bool = False
    closed: bool = False
    #: Every event of the match while it is not in the library (it goes in once it can).
    unsaved: list[MatchEvent] = field(default_factory=list)
    #: Told (from the keeper's thread) when a write starts waiting and when it is written.
    on_change: Callable[[], None] | None = None
    #: The snapshot not yet written (None: everything is).
    _latest: dict[str, Any] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _retrying: bool = False

    @classmethod
    def opening(cls, store: MatchStore | None, source: str = "table") -> LibraryKeeper:
        """A keeper for the library given, or the data dir's (opened here: if it cannot
        be, ``problem`` says so and the match waits for it)."""
        keeper = cls(store=store, source=source)
        if store is None:
            try:
                keeper.store, keeper.own_store = open_library(), True
            except StoreError as exc:
                keeper.problem = f"the match is not being saved ({exc}); play goes on"
        return keeper

    @property
    def waiting(self) -> bool:
        """A write is waiting for another process to finish writing the library."""
        return self.problem == WAITING

    def commit(self, events: list[MatchEvent], snapshot: dict[str, Any]) -> None:
        with self._lock:
            if self.closed:
                return
            if self.play is not None:
                for event in events:
                    self.play.append_event(event)
            else:
                self.unsaved.extend(events)
            self._latest = snapshot
            if self.waiting:
                return  # the keeper's thread writes it with the ones before
            self._write(WRITE_WAIT)
        if self.waiting:
            self._retry_later()

    def _write(self, wait: float | None) -> None:
        """The events kept so far and the latest snapshot, in one transaction (the lock held)."""
        snapshot = self._latest
        if snapshot is None:
            return
        try:
            if self.play is not None:
                self.play.save_snapshot(snapshot, wait)
            else:
                self._enter_library(snapshot, wait)
        except LibraryBusy:
            self.problem = WAITING
            return
        except StoreError as exc:
            self.problem = f"the match is not being saved ({exc}); play goes on"
            return
        self.problem, self._latest = None, None
        if snapshot.get("over") and self.play is not None:  # finished: the lock goes
            self.play.close()
            self.play = None

    def _retry_later(self) -> None:
        if self._retrying:
            return
        self._retrying = True
        self._told()
        threading.Thread(target=self._retry, name="library write", daemon=True).start()

    def _retry(self) -> None:
        """The keeper's thread: the waiting write, tried again until it is written."""
        done = threading.Event()
        while not done.wait(RETRY_SECONDS):
            with self._lock:
                if not self.closed and self.waiting:
                    self._write(WRITE_WAIT)
                if self.closed or not self.waiting:
                    self._retrying = False
                    done.set()
        self._told()

    def _told(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def _enter_library(self, snapshot: dict[str, Any], wait: float | None = None) -> None:
        """The match into the library: a new entry with all its events so far, then held
        for play (a match that was put in but could not be held is held now)."""
        if self.store is None:
            self.store, self.own_store = open_library(), True
        store = self.store
        if self.match_id is None:
            self.match_id = store.import_record(self.unsaved, snapshot, source=self.source, wait=wait)
            self.unsaved = []
            if not snapshot.get("over"):
                self.play = store.open(self.match_id)
            return
        play = store.open(self.match_id)
        for event in self.unsaved:
            play.append_event(event)
        self.unsaved = []
        self.play = play
        play.save_snapshot(snapshot, wait)

    def record(self) -> str:
        """The match's record as the library has it (StoreError when it is not in it)."""
        if self.match_id is None:
            raise StoreError("this match is not in the library")
        if self.store is not None:
            return self.store.export_record(self.match_id)
        store = open_library(import_autosave=False)  # the table was closed
        try:
            return store.export_record(self.match_id)
        finally:
            store.close()

    def close(self) -> None:
        """Leave the match: a write still waiting waits once more (the library's busy
        time), then its lock in the library is released (it stays as last kept)."""
        with self._lock:
            if self.waiting and not self.closed:
                self._write(None)
            self.closed = True
        if self.play is not None:
            self.play.close()
            self.play = None
        if self.own_store and self.store is not None:
            self.store.close()
        self.store = None
