"""The server's writes to the match library, off the event loop.

One writer thread owns every call into the library. Actions queue their events and
snapshot with ``commit`` (never blocking); they gather for ``delay`` seconds (and while
the previous transaction is being written), and each batch goes in as one transaction
(a group commit), with only the last snapshot of each match in it: one hand-over to the
thread and one transaction for many actions, not one each. A killed server loses at
most the actions of the last ``delay``. ``call`` runs anything else on the same thread,
in order, and awaits its result (creating a match, opening one at start-up).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from cardcore.engine.journal import MatchEvent
from cardcore.services.store import MatchStore, StoreError

T = TypeVar("T")
log = logging.getLogger("cardcore.serve")

#: After a failed write, wait this long before trying the batch again (seconds).
RETRY_AFTER = 1.0
#: How long commits gather before they are written (seconds).
COMMIT_DELAY = 0.02


class Writer:
    def __init__(self, store: MatchStore, delay: float = COMMIT_DELAY):
        self.store = store
        self.delay = delay
        self._timer: asyncio.TimerHandle | None = None
        #: Match locks to close once the batch that holds the match's last commit is written.
        self._locks: list[Any] = []
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardcore-store")
        self._events: dict[int, list[MatchEvent]] = {}
        self._snapshots: dict[int, dict[str, Any]] = {}
        self._tables: dict[str, tuple[str, int, str, dict[str, Any]]] = {}
        self._busy = False
        self._idle = asyncio.Event()
        self._idle.set()
        #: Transactions written, and the last write error (None while writes work).
        self.batches = 0
        self.problem: str | None = None

    def commit(self, match_id: int, events: list[MatchEvent], snapshot: dict[str, Any]) -> None:
        """Queue an action's events and the snapshot after it (written soon, in order)."""
        self._events.setdefault(match_id, []).extend(events)
        self._snapshots[match_id] = snapshot
        self._soon()

    def put_table(self, code: str, match_id: int, status: str, data: dict[str, Any]) -> None:
        """Queue a table's row (the last one queued for a code wins)."""
        self._tables[code] = (code, match_id, status, data)
        self._soon()

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the writer thread, after what is already queued there."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def close_later(self, held: Any) -> None:
        """``held.close()`` on the writer thread once what is queued so far is written (a
        match's lock: released only after the match's last commit)."""
        self._locks.append(held)
        self._soon()

    async def drain(self) -> None:
        """Until everything queued so far is written (or has failed)."""
        while self._busy or self._pending():
            self._kick()
            self._idle.clear()
            await self._idle.wait()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._pool.shutdown(wait=True)

    def _pending(self) -> bool:
        return bool(self._snapshots or self._tables or self._locks)

    def _soon(self) -> None:
        """Write what is queued ``delay`` from now (what comes meanwhile joins the batch)."""
        if self._timer is None and not self._busy:
            self._timer = asyncio.get_running_loop().call_later(self.delay, self._kick)

    def _kick(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._busy or not self._pending():
            return
        self._busy = True
        self._idle.clear()
        matches = [(m, self._events.pop(m, []), snap) for m, snap in self._snapshots.items()]
        tables = list(self._tables.values())
        locks, self._locks = self._locks, []
        self._snapshots, self._tables = {}, {}
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._pool, self._write, matches, tables, locks)
        future.add_done_callback(lambda f: self._done(f, matches, tables, locks))

    def _write(self, matches: list[tuple[int, list[MatchEvent], dict[str, Any]]],
               tables: list[tuple[str, int, str, dict[str, Any]]], locks: list[Any]) -> None:
        self.store.commit_many(matches, tables)
        for held in locks:
            try:
                held.close()
            except Exception as exc:  # the batch is written: never written twice for a lock
                log.warning("cannot release a match's lock: %s", exc)

    def _done(self, future: asyncio.Future[None], matches: list[tuple[int, list[MatchEvent], dict[str, Any]]],
              tables: list[tuple[str, int, str, dict[str, Any]]], locks: list[Any]) -> None:
        self._busy = False
        exc = future.exception()
        if exc is None:
            self.batches += 1
            if self.problem is not None:
                log.warning("the match library is written again")
            self.problem = None
            if self._pending():
                self._soon()
        else:
            self._locks[:0] = locks
            self._requeue(matches, tables)
            if self.problem is None:
                log.warning("cannot write the match library (%s); retrying",
                            exc if isinstance(exc, StoreError) else type(exc).__name__)
            self.problem = str(exc)
            asyncio.get_running_loop().call_later(RETRY_AFTER, self._kick)
        if not self._busy:
            self._idle.set()

    def _requeue(self, matches: list[tuple[int, list[MatchEvent], dict[str, Any]]],
                 tables: list[tuple[str, int, str, dict[str, Any]]]) -> None:
        """A failed batch goes back in front of what came meanwhile."""
        for match_id, events, snapshot in matches:
            self._events[match_id] = events + self._events.get(match_id, [])
            self._snapshots.setdefault(match_id, snapshot)
        for row in tables:
            self._tables.setdefault(row[0], row)
