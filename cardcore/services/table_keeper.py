"""Keeping a table's match in the library (docs/library.md), never stopping the table.

``LibraryKeeper`` is the ``Keeper`` of a table on this machine: each move's events and
the snapshot after it go into the library in one transaction. A library that cannot be
opened or written (a read-only data dir, a full disk) leaves play going on without it:
``problem`` says so until a save works again; the events are kept meanwhile, and the
match goes into the library once it can.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardcore.engine.journal import MatchEvent
from cardcore.services.store import MatchStore, OpenMatch, StoreError, open_library


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

    def commit(self, events: list[MatchEvent], snapshot: dict[str, Any]) -> None:
        if self.closed:
            return
        if self.play is not None:
            for event in events:
                self.play.append_event(event)
        else:
            self.unsaved.extend(events)
        try:
            if self.play is not None:
                self.play.save_snapshot(snapshot)
            else:
                self._enter_library(snapshot)
        except StoreError as exc:
            self.problem = f"the match is not being saved ({exc}); play goes on"
            return
        self.problem = None
        if snapshot.get("over") and self.play is not None:  # finished: the lock goes
            self.play.close()
            self.play = None

    def _enter_library(self, snapshot: dict[str, Any]) -> None:
        """The match into the library: a new entry with all its events so far, then held
        for play (a match that was put in but could not be held is held now)."""
        if self.store is None:
            self.store, self.own_store = open_library(), True
        store = self.store
        if self.match_id is None:
            self.match_id = store.import_record(self.unsaved, snapshot, source=self.source)
            self.unsaved = []
            if not snapshot.get("over"):
                self.play = store.open(self.match_id)
            return
        play = store.open(self.match_id)
        for event in self.unsaved:
            play.append_event(event)
        self.unsaved = []
        self.play = play
        play.save_snapshot(snapshot)

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
        """Leave the match: its lock in the library is released (it stays as last kept)."""
        self.closed = True
        if self.play is not None:
            self.play.close()
            self.play = None
        if self.own_store and self.store is not None:
            self.store.close()
        self.store = None
