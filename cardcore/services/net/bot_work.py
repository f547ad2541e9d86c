"""The bots' work at a server: every table's bot moves, shared fairly (docs/hosting.md).

A table asks ``BotWork.choose`` for its bot's move and awaits it; the event loop never
runs a bot. A move goes into one of two lanes, by its bot's class (``Bot.heavy``):

- **light** bots (greedy, random: milliseconds a move) run on a few threads of the
  server's process;
- **heavy** bots (the searches: up to their table time cap, seconds a move) run in
  worker processes, at a lower priority than the server. A search there never holds
  the server's interpreter lock, so the event loop and the light bots go on meanwhile,
  and a light bot never waits behind a search.

In each lane the moves wait in one queue per owner, and a lane runs as many moves at
once as it has workers. An owner is a path (``choose``'s ``owner``: the table says whose
share its moves take; at a server, an address and a connection from it): the
addresses share the workers, and within an address its connections do. A free worker
takes the next move of the address with the fewest moves running, of those the one
served longest ago, and within it likewise of a connection. An address with twenty
busy tables gets one share, as one with a single table does (a newcomer's move starts
as soon as a worker is free, whatever is queued); behind a reverse proxy, where every
connection has the proxy's address, the connections still get one share each. An
owner's own tables take turns (a table has one move waiting at most).

An expert's move (``ExpertBot``: several independent searches, their roots summed) is
its searches, each one piece of heavy work in its owner's share: with ``processes``
workers, it runs that many searches at once while nobody else waits, and each search
after the first waits behind any other owner's move (that owner has fewer running), so
an expert costs its owner's share ``searches`` moves and starves no table. Its time cap
is split by how many run at once (``ExpertBot.split``); the sums are taken here, in the
searches' order, so the choice is the one the bot makes in place.

What a bot is given, in either lane, is what ``TableService.bot_turn`` gives: the
bot, the seat's info set (what the seat may know, nothing more) and the seat's random
stream. A worker process gets them pickled; a thread gets a copy of the stream. The
stream's state after the choice comes back and is set on the match's own stream on the
event loop, so the streams advance as if the bot had chosen in place (a seeded match
replays alike), and nothing but the loop touches the match.

A bot that raises (or a move that cannot reach a worker: a bot that does not pickle, a
worker that died) fails with ``BotFailed``, one line naming the plugin at fault; the
table then plays its first legal action. A dead worker's pool is replaced for the
moves after it. ``close`` cancels every waiting move and stops the workers without
waiting for a move in progress.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import multiprocessing
import os
import random
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from cardcore.engine.bots.base import Bot, InfoSet
from cardcore.engine.bots.expert import ExpertBot, run_part
from cardcore.engine.bots.why import WHY_TOP, Choice, decide
from cardcore.engine.faults import describe

#: How much lower the worker processes' scheduling priority is than the server's (nice):
#: when the cores are busy, people's moves and the light bots come before a search.
WORKER_NICENESS = 10

#: A random stream's state (``random.Random.getstate()``).
RngState = tuple[Any, ...]
#: Whose share a move takes: a path, the widest first (at a server: address, connection).
Owner = tuple[object, ...]


class BotFailed(Exception):
    """The bot did not choose: one line saying why (the plugin at fault, if any)."""


def choose(bot: Bot, info: InfoSet, rng: random.Random) -> tuple[Choice, RngState]:
    """The bot's choice and its stream's state after it (run by a worker thread or process)."""
    return decide(bot, info, rng), rng.getstate()


def _guarded(call: Callable[..., Any], args: tuple[Any, ...], plugin_of: dict[str, str]) -> Any:
    """``call(*args)``; what it raises said in one line (a plugin's bot: the traceback stays here)."""
    try:
        return call(*args)
    except Exception as exc:
        raise BotFailed(describe(exc, plugin_of)) from None


def _worker_start() -> None:
    """A worker process's start: below the server's priority."""
    with contextlib.suppress(AttributeError, OSError):  # no nice() here, or not allowed: as it is
        os.nice(WORKER_NICENESS)


@dataclass
class _Move:
    """One piece of bot work waiting or running (a move, or one search of an expert's
    move): whose share it takes, the call (it pickles, for a worker process), its awaiter."""

    owner: Owner
    call: Callable[..., Any]
    args: tuple[Any, ...]
    done: asyncio.Future[Any]


class _Lane:
    """Moves waiting per owner, ``workers`` of them running at once on an executor. A free
    worker takes the next move of the owner whose path is first when each of its levels
    (widest first) is counted by moves running, then by when it was last served: the
    fewest running, then round robin, at every level."""

    def __init__(self, workers: int, make: Callable[[], Executor], plugin_of: dict[str, str]):
        self.workers = workers
        self.make = make
        self.plugin_of = plugin_of
        self.executor: Executor | None = None  # made at the first move
        self.waiting: dict[Owner, deque[_Move]] = {}
        #: The moves running in all; per level of the owners' paths (a path's first part,
        #: first two...): the moves waiting and running under it, and when it was last
        #: served (a count of moves started; forgotten once it has no move).
        self.running = 0
        self.queued: Counter[Owner] = Counter()
        self.running_of: Counter[Owner] = Counter()
        self.served: dict[Owner, int] = {}
        self.started = 0
        self.closed = False

    def put(self, move: _Move) -> None:
        if self.closed:  # the server is stopping: no move now
            move.done.cancel()
            return
        self.waiting.setdefault(move.owner, deque()).append(move)
        for level in _levels(move.owner):
            self.queued[level] += 1
        self._start()

    def _start(self) -> None:
        while self.running < self.workers and self.waiting:
            owner = min(self.waiting, key=self._rank)
            moves = self.waiting[owner]
            move = moves.popleft()
            if not moves:
                del self.waiting[owner]
            for level in _levels(owner):
                self.queued[level] -= 1
            if move.done.cancelled():
                self._forget(owner)
            else:
                self._run(move)

    def _rank(self, owner: Owner) -> tuple[int, ...]:
        return tuple(n for level in _levels(owner)
                     for n in (self.running_of[level], self.served.get(level, -1)))

    def _run(self, move: _Move) -> None:
        if self.executor is None:
            self.executor = self.make()
        executor = self.executor
        try:
            future = executor.submit(_guarded, move.call, move.args, self.plugin_of)
        except RuntimeError as exc:  # a broken pool refuses at once
            self._replace(executor)
            move.done.set_exception(_worker_failed(exc))
            self._forget(move.owner)
            return
        self.running += 1
        self.started += 1
        for level in _levels(move.owner):
            self.running_of[level] += 1
            self.served[level] = self.started
        loop = asyncio.get_running_loop()

        def finished(f: Future[Any]) -> None:  # on the worker's thread
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody awaits it
                loop.call_soon_threadsafe(self._finished, move, f, executor)

        future.add_done_callback(finished)

    def _finished(self, move: _Move, future: Future[Any], executor: Executor) -> None:
        if self.closed:
            return
        self.running -= 1
        for level in _levels(move.owner):
            self.running_of[level] -= 1
        self._forget(move.owner)
        self._start()
        if move.done.cancelled():
            return
        try:
            result = future.result()
        except BotFailed as exc:
            move.done.set_exception(exc)
            return
        except Exception as exc:  # noqa: BLE001 - pickling, a dead worker: the move fails, said once
            if isinstance(exc, BrokenProcessPool):
                self._replace(executor)
            move.done.set_exception(_worker_failed(exc))
            return
        move.done.set_result(result)

    def _forget(self, owner: Owner) -> None:
        """The levels of ``owner``'s path with no move waiting or running are forgotten."""
        for level in _levels(owner):
            if self.running_of[level] <= 0 and self.queued[level] <= 0:
                for counts in (self.running_of, self.queued, self.served):
                    counts.pop(level, None)

    def _replace(self, broken: Executor) -> None:
        if self.executor is broken:
            _stop(broken)
            self.executor = None

    def close(self) -> None:
        self.closed = True
        for moves in self.waiting.values():
            for move in moves:
                move.done.cancel()
        self.waiting.clear()
        for counts in (self.running_of, self.queued, self.served):
            counts.clear()
        if self.executor is not None:
            _stop(self.executor)
            self.executor = None


class BotWork:
    """The server's bot work: a light lane on ``threads`` threads, a heavy lane on
    ``processes`` worker processes (0: on ``threads`` threads of its own instead)."""

    def __init__(self, *, threads: int = 2, processes: int = 2, plugin_of: dict[str, str] | None = None):
        plugin_of = plugin_of or {}
        self.light = _Lane(threads, lambda: ThreadPoolExecutor(threads, thread_name_prefix="cardcore-bot"),
                           plugin_of)
        if processes > 0:
            self.heavy = _Lane(processes, lambda: _process_pool(processes), plugin_of)
        else:
            self.heavy = _Lane(threads, lambda: ThreadPoolExecutor(threads, "cardcore-search"), plugin_of)

    async def choose(self, owner: Owner, bot: Bot, info: InfoSet, rng: random.Random) -> Choice:
        """``bot``'s move from ``info`` with the stream ``rng``, in ``owner``'s share of its
        lane (BotFailed: it did not choose)."""
        mine = random.Random()
        mine.setstate(rng.getstate())  # the match's stream is touched on the loop only
        if isinstance(bot, ExpertBot) and len(info.legal_actions()) > 1:
            choice = await self._expert(owner, bot, info, mine)
        else:
            lane = self.heavy if type(bot).heavy else self.light
            choice, state = (await self._put(lane, owner, [(choose, (bot, info, mine))]))[0]
            mine.setstate(state)
        rng.setstate(mine.getstate())
        # the info set's own action object (the same JSON: equal), not a worker's copy
        action = next((a for a in info.legal_actions() if a.key == choice.action.key), choice.action)
        return dataclasses.replace(choice, action=action)

    async def _expert(self, owner: Owner, bot: ExpertBot, info: InfoSet, rng: random.Random) -> Choice:
        """An expert's move: its searches, each one piece of heavy work in ``owner``'s share
        (so they take turns with other tables' moves), their roots summed here."""
        parts = bot.split(info, rng, self.heavy.workers)
        found = await self._put(self.heavy, owner, [(run_part, (part,)) for part in parts])
        best = bot.combine(found)
        return Choice(best[0].action, tuple((e.action, e.margin) for e in best[:WHY_TOP]))

    @staticmethod
    async def _put(lane: _Lane, owner: Owner, calls: list[tuple[Callable[..., Any], tuple[Any, ...]]]
                   ) -> list[Any]:
        """The results of ``calls`` run in ``owner``'s share of ``lane``, in order; if one
        fails (or the awaiter is cancelled), the others still waiting are dropped."""
        loop = asyncio.get_running_loop()
        moves = [_Move(owner, call, args, loop.create_future()) for call, args in calls]
        for move in moves:
            lane.put(move)
        try:
            return [await move.done for move in moves]
        finally:
            for move in moves:
                move.done.cancel()  # a finished one stays as it is

    def close(self) -> None:
        self.light.close()
        self.heavy.close()


def _process_pool(workers: int) -> ProcessPoolExecutor:
    # forkserver: a clean process forks the workers (the server's threads are not copied)
    method = "forkserver" if os.name == "posix" else "spawn"
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method),
                               initializer=_worker_start)


def _worker_failed(exc: Exception) -> BotFailed:
    """The move never reached a worker, or its worker died: one line."""
    return BotFailed(f"the bot's worker failed: {type(exc).__name__}: {' '.join(str(exc).split())}")


def _levels(owner: Owner) -> list[Owner]:
    """The levels of an owner's path, the widest first: (a,), (a, b)..."""
    return [owner[:i] for i in range(1, len(owner) + 1)]


def _stop(executor: Executor) -> None:
    """Stop ``executor`` now: its waiting calls dropped, a worker process's move in progress
    too (a search may take seconds; Python 3.14's ``terminate_workers`` does this)."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
