"""The server's writes to the match library, and the frames that wait for them.

Actions queue their events and snapshot with ``commit`` (never blocking). What is queued
goes to the library's writer process (``CommitWorker``) as one transaction (a group
commit, with only the last snapshot of each match in it) ``COMMIT_DELAY`` after the first
of them, or, in a burst of messages, every ``COMMIT_EVERY`` of the loop's work:
the process writes it on a core of its own while the loop goes on, and answers each
batch in order (up to ``IN_FLIGHT`` handed over at once). ``call`` runs anything else on a
thread of the server's own, in order, and awaits its result (creating a match, opening
one at start-up, releasing a match's lock once its last commit is written).

Nothing is shown before it is kept: every write is numbered, and a frame a table sends
after a change waits in its connection's ``Gate`` until the writes of that match queued
before it are committed (``needs``). When a batch is in, every frame it freed goes; each
connection gets its frames in the order they were sent. So a server killed outright
(``kill -9``) loses only moves nobody was shown. A batch that fails (the library cannot
be written, or the process died) goes back in front of what came since, with every batch
handed over after it (the process stops at a failure, so none of those was written), and
is tried again ``RETRY_AFTER`` later.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from cardcore.engine.journal import MatchEvent
from cardcore.services.net.commit_worker import CommitWorker
from cardcore.services.store import MatchStore, StoreError, commit_of
from cardcore.services.store.commits import BUSY_TIMEOUT_MS

T = TypeVar("T")
log = logging.getLogger("cardcore.serve")

#: After a failed write, wait this long before trying the batch again (seconds).
RETRY_AFTER = 1.0
#: How long writes gather before a batch is handed over (seconds; 0: once the loop has
#: dealt with what it read). Players wait for the commit before they see a move, so this
#: is added to every update; 3 ms gathers the moves of a busy server into fewer, larger
#: transactions: at 200 tables of people's pace, 10-15 % less CPU an action in the server
#: and its writer process, and no worse a tail (docs/hosting.md, "Capacity of one process").
COMMIT_DELAY = 0.003
#: In a burst of messages, a batch goes once the first write in it has waited this long
#: (seconds of the loop's work): the first moves of a burst are shown while the loop is
#: still busy with the last, not all together after it.
COMMIT_EVERY = 0.002
#: Batches handed to the writer process and not yet answered, at most.
IN_FLIGHT = 4
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
    """A transaction handed to the writer process: what it holds, the last write in it."""

    matches: list[tuple[int, list[MatchEvent], dict[str, Any]]]
    tables: list[tuple[str, int, str, dict[str, Any]]]
    locks: list[Any]
    upto: int


class Writer:
    def __init__(self, store: MatchStore, wait: float = BUSY_TIMEOUT_MS / 1000,
                 delay: float = COMMIT_DELAY, retry: float = RETRY_AFTER):
        """``wait``: how long a batch waits for another process's write lock."""
        self.store = store
        #: The process that writes the batches.
        self.worker = CommitWorker(store.url, self._answered, wait)
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
        #: The batches handed to the process, oldest first (answered in this order).
        self._flight: deque[_Batch] = deque()
        #: When the oldest write not handed over was queued (the loop's clock), or None.
        self._since: float | None = None
        #: Match locks to close once the batch that holds the match's last commit is written.
        self._locks: list[Any] = []
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardcore-store")
        self._events: dict[int, list[MatchEvent]] = {}
        self._snapshots: dict[int, dict[str, Any]] = {}
        self._tables: dict[str, tuple[str, int, str, dict[str, Any]]] = {}
        self._idle = asyncio.Event()
        self._idle.set()
        #: Transactions written, and the last write error (None while writes work).
        self.batches = 0
        self.problem: str | None = None
        #: The server's holder token that fences its writes (None: not fenced), and what to
        #: do with the matches a batch left out because another server claims them now
        #: (called before the frames waiting for that batch go).
        self.holder: str | None = None
        self.on_lost: Callable[[list[int]], None] | None = None

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
        if self._since is None:
            self._since = asyncio.get_running_loop().time()
        self._soon()

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the server's thread for the library, after what is already
        queued there."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def close_later(self, held: Any) -> None:
        """``held.close()`` on the library's thread once what is queued so far is written (a
        match's lock: released only after the match's last commit). It counts as a write of
        its match (``held.id``): a frame sent after it waits for it, so whoever is shown the
        match's end and then asks the library (a league's standings) finds the lock let go."""
        self._locks.append(held)
        match_id = _match_of(held)
        if match_id is not None:
            self._number(match_id)
        else:
            self._soon()

    async def drain(self) -> None:
        """Until everything queued so far is written (tried again while it fails)."""
        while self._flight or self._pending():
            if not self._flight and self.problem is None:
                self._kick()
            if self._flight:
                await self._idle.wait()
            else:  # failing: the retry hands it over (``RETRY_AFTER``)
                await asyncio.sleep(0.05)
        await self.call(lambda: None)  # and the locks released after the last batch

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self.worker.close()
        self._pool.shutdown(wait=True)

    def _pending(self) -> bool:
        return bool(self._snapshots or self._tables or self._locks)

    def _soon(self) -> None:
        """Hand over what is queued once the loop has read what came with it (or ``delay``
        from now), or at once in a long burst (``COMMIT_EVERY``); while ``IN_FLIGHT`` batches
        are being written, what comes gathers for the next."""
        self._poll()
        if self._flight_full() or self.problem is not None and self._timer is not None:
            return  # a batch's answer (or the retry) hands over the next
        loop = asyncio.get_running_loop()
        if self._since is not None and loop.time() - self._since >= COMMIT_EVERY:
            self._kick()
        elif self._timer is None:
            delay = self.delay
            self._timer = loop.call_later(delay, self._kick) if delay else loop.call_soon(self._kick)

    def _flight_full(self) -> bool:
        return len(self._flight) >= IN_FLIGHT

    def _poll(self) -> None:
        """The process's answers so far: a batch written in a burst of messages frees its
        frames now, not when the loop next looks at the pipe."""
        if self._flight:
            self.worker.poll()

    def _kick(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._flight_full() or not self._pending():
            return
        matches = [(m, self._events.pop(m, []), snap) for m, snap in self._snapshots.items()]
        tables = list(self._tables.values())
        locks, self._locks = self._locks, []
        self._snapshots, self._tables, self._since = {}, {}, None
        self._flight.append(_Batch(matches, tables, locks, self.queued))
        self._idle.clear()
        self.worker.submit([commit_of(*match) for match in matches], tables,  # the process only writes
                           self.holder)

    def _answered(self, exc: StoreError | None, lost: list[int]) -> None:
        """The oldest batch in flight is written (None; but for the matches ``lost``), or it
        failed, and every one after it."""
        if exc is None:
            batch = self._flight.popleft()
            if lost and self.on_lost is not None:
                self.on_lost(lost)  # their tables go before anything of the batch is shown
            self.batches += 1
            if self.problem is not None:
                log.warning("the match library is written again")
            self.problem = None
            self.working.set()
            if batch.locks:
                self._pool.submit(_release, batch.locks)
            self._written(batch.upto, [m for m, _, _ in batch.matches] + [row[1] for row in batch.tables]
                          + [m for m in map(_match_of, batch.locks) if m is not None])
            if self._pending():
                self._soon()
        else:
            failed = [*self._flight]  # none was written: all go back, in order
            self._flight.clear()
            for back in reversed(failed):
                self._locks[:0] = back.locks
                self._requeue(back.matches, back.tables)
            if self.problem is None:
                log.warning("cannot write the match library (%s); retrying", exc)
            self.problem = str(exc)
            self.working.clear()
            if self._timer is not None:
                self._timer.cancel()
            self._timer = asyncio.get_running_loop().call_later(self.retry, self._kick)
        if not self._flight:
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


def _release(locks: list[Any]) -> None:
    """Close matches' locks, on the writer thread, once their last commit is written."""
    for held in locks:
        try:
            held.close()
        except Exception as exc:  # the batch is written: never written twice for a lock
            log.warning("cannot release a match's lock: %s", exc)


def _match_of(held: Any) -> int | None:
    """The match a held lock is on (its ``id``), or None for a lock of no match."""
    match_id = getattr(held, "id", None)
    return match_id if isinstance(match_id, int) else None
