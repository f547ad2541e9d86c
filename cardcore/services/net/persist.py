"""The server's writes to the match library, on a thread of their own, and the frames that
wait for them.

One writer thread owns every call into the library. Actions queue their events and
snapshot with ``commit`` (never blocking). Once the event loop has dealt with what it
read (and the thread is free), what is queued goes in as one transaction (a group
commit), with only the last snapshot of each match in it; what comes while it is being
written joins the next. The loop waits for the batch up to ``COMMIT_WAIT`` (the thread
then has the interpreter to itself); a slower batch finishes on its own and wakes the
loop once. ``call`` runs anything else on the same thread, in order, and awaits its
result (creating a match, opening one at start-up).

Nothing is shown before it is kept: every write is numbered, and a frame a table sends
after a change waits in its connection's ``Gate`` until the writes of that match queued
before it are committed (``needs``). When a batch is in, every frame it freed goes; each
connection gets its frames in the order they were sent. So a server killed outright
(``kill -9``) loses only moves nobody was shown.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from cardcore.engine.journal import MatchEvent
from cardcore.services.store import MatchStore, StoreError

T = TypeVar("T")
log = logging.getLogger("cardcore.serve")

#: After a failed write, wait this long before trying the batch again (seconds).
RETRY_AFTER = 1.0
#: How long writes gather before a batch starts while the thread is free (seconds). 0: once
#: the loop has dealt with what it read (players wait for the commit before they see a
#: move; while a batch is being written, the next one gathers anyway).
COMMIT_DELAY = 0.0
#: How long the event loop waits for the batch it handed to the writer thread (seconds).
#: A commit takes a fraction of a millisecond when the thread holds the interpreter alone
#: (it shares it with the loop otherwise, and its frames wait for it), and what waits for
#: it goes at once. A slower one (a checkpoint, another process's write lock) finishes on
#: its own and wakes the loop; its frames go then, or at the next write if that is sooner.
COMMIT_WAIT = 0.02
#: Bytes of frames one connection may have waiting for the library (an outage) before it
#: is closed (``Gate.overflow``).
MAX_HELD_BYTES = 4 * 1024 * 1024


class Gate:
    """One connection's frames, each sent once the library holds the writes it shows, and
    in the order they were sent (a frame needing nothing still waits behind a held one)."""

    def __init__(self, writer: Writer, deliver: Callable[[bytes], None], overflow: Callable[[], None]):
        self.writer = writer
        self._deliver = deliver
        self._overflow = overflow
        self._held: deque[tuple[int, bytes]] = deque()
        self._bytes = 0

    def send(self, frame: bytes, after: int = 0) -> None:
        """``frame`` once every write numbered up to ``after`` is committed (0: nothing)."""
        if not self._held and after <= self.writer.written:
            self._deliver(frame)
            return
        self._held.append((after, frame))
        self._bytes += len(frame)
        self.writer.hold(self)
        if self._bytes > MAX_HELD_BYTES:
            self._held.clear()
            self._bytes = 0
            self._overflow()

    def release(self, written: int) -> bool:
        """Send the frames the library now holds (in order); True once none waits."""
        held = self._held
        while held and held[0][0] <= written:
            frame = held.popleft()[1]
            self._bytes -= len(frame)
            self._deliver(frame)
        return not held


@dataclass
class _Batch:
    """A transaction handed to the writer thread: what it holds, the last write in it."""

    future: Future[None]
    matches: list[tuple[int, list[MatchEvent], dict[str, Any]]]
    tables: list[tuple[str, int, str, dict[str, Any]]]
    locks: list[Any]
    upto: int


class Writer:
    def __init__(self, store: MatchStore, delay: float = COMMIT_DELAY, retry: float = RETRY_AFTER):
        self.store = store
        self.delay = delay
        self.retry = retry
        #: The number of the last write queued, and every write up to ``written`` is committed.
        self.queued = 0
        self.written = 0
        #: Each match's last write queued (its events or its table's row), until committed.
        self._last: dict[int, int] = {}
        #: The gates holding frames until a batch is written.
        self._gates: set[Gate] = set()
        #: Set while writes work; cleared while the library cannot be written (``problem``).
        self.working = asyncio.Event()
        self.working.set()
        self._timer: asyncio.Handle | None = None
        self._batch: _Batch | None = None
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
        self._number(match_id)

    def put_table(self, code: str, match_id: int, status: str, data: dict[str, Any]) -> None:
        """Queue a table's row (the last one queued for a code wins)."""
        self._tables[code] = (code, match_id, status, data)
        self._number(match_id)

    def needs(self, match_id: int) -> int:
        """The write a frame about this match waits for: its last one queued (0: none
        waits to be committed)."""
        return self._last.get(match_id, 0)

    def hold(self, gate: Gate) -> None:
        """``gate`` holds frames: it is released after each batch until it holds none."""
        self._gates.add(gate)

    def _number(self, match_id: int) -> None:
        self.queued += 1
        self._last[match_id] = self.queued
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
        """Until everything queued so far is written (tried again while it fails)."""
        while self._busy or self._pending():
            self._kick()  # a batch done at once, or handed over (busy)
            if self._busy:
                await self._idle.wait()
            elif self._pending():  # it failed
                await asyncio.sleep(0.05)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._pool.shutdown(wait=True)

    def _pending(self) -> bool:
        return bool(self._snapshots or self._tables or self._locks)

    def _soon(self) -> None:
        """Write what is queued once the loop has read what came with it (or ``delay`` from
        now), or once the batch being written is done (what comes meanwhile joins the next)."""
        self._poll()
        if self._timer is None and not self._busy:
            loop = asyncio.get_running_loop()
            delay = self.delay
            self._timer = loop.call_later(delay, self._kick) if delay else loop.call_soon(self._kick)

    def _poll(self) -> None:
        """If the batch being written is done, its frames go now: at the next write, not
        only when the thread's wake-up gets its turn on the loop (after a burst of messages)."""
        batch = self._batch
        if batch is not None and batch.future.done():
            self._done(batch)

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
        future = self._pool.submit(self._write, matches, tables, locks)
        self._batch = batch = _Batch(future, matches, tables, locks, self.queued)
        try:
            future.exception(timeout=COMMIT_WAIT)  # the thread has the interpreter to itself
        except TimeoutError:  # slow: the loop goes on, and the batch's end wakes it (once)
            loop = asyncio.get_running_loop()
            future.add_done_callback(lambda _: loop.call_soon_threadsafe(self._done, batch))
            return
        self._done(batch)

    def _write(self, matches: list[tuple[int, list[MatchEvent], dict[str, Any]]],
               tables: list[tuple[str, int, str, dict[str, Any]]], locks: list[Any]) -> None:
        self.store.commit_many(matches, tables)
        for held in locks:
            try:
                held.close()
            except Exception as exc:  # the batch is written: never written twice for a lock
                log.warning("cannot release a match's lock: %s", exc)

    def _done(self, batch: _Batch) -> None:
        if self._batch is not batch:
            return  # finished already (``_poll``)
        self._batch = None
        self._busy = False
        exc = batch.future.exception()
        if exc is None:
            self.batches += 1
            if self.problem is not None:
                log.warning("the match library is written again")
            self.problem = None
            self.working.set()
            self._written(batch.upto, [m for m, _, _ in batch.matches] + [row[1] for row in batch.tables])
            if self._pending():
                self._soon()
        else:
            self._locks[:0] = batch.locks
            self._requeue(batch.matches, batch.tables)
            if self.problem is None:
                log.warning("cannot write the match library (%s); retrying",
                            exc if isinstance(exc, StoreError) else type(exc).__name__)
            self.problem = str(exc)
            self.working.clear()
            self._timer = asyncio.get_running_loop().call_later(self.retry, self._kick)
        if not self._busy:
            self._idle.set()

    def _written(self, upto: int, match_ids: list[int]) -> None:
        """Every write up to ``upto`` is committed: the frames waiting for them go."""
        self.written = upto
        last = self._last
        for match_id in match_ids:
            if last.get(match_id, upto + 1) <= upto:
                del last[match_id]
        gates, self._gates = self._gates, set()
        for gate in gates:
            if not gate.release(upto):
                self._gates.add(gate)

    def _requeue(self, matches: list[tuple[int, list[MatchEvent], dict[str, Any]]],
                 tables: list[tuple[str, int, str, dict[str, Any]]]) -> None:
        """A failed batch goes back in front of what came meanwhile."""
        for match_id, events, snapshot in matches:
            self._events[match_id] = events + self._events.get(match_id, [])
            self._snapshots.setdefault(match_id, snapshot)
        for row in tables:
            self._tables.setdefault(row[0], row)
