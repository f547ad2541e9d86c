"""The expert's worker processes in a program that plays locally (the TUI, simulate).

One pool for the process, made at the first expert decision that wants it: a worker a
core, started by a forkserver (a clean process forks them: the caller's threads are
not copied), each leaving Ctrl+C to the program. Where the searches cannot or should not
spread, a decision runs them one after another instead (the same choice): on one core,
and in a daemonic process (a tournament's worker, which has its core already and may
start no process). A server runs the expert's searches on its own bot workers
(``cardcore.services.net.bot_work``), never here.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import threading
from collections.abc import Sequence
from concurrent.futures import Executor

from cardcore.engine.bots import expert
from cardcore.engine.bots.base import InfoSet
from cardcore.engine.bots.expert import Found, Part, run_part

log = logging.getLogger("cardcore.bots")

_EXECUTOR: Executor | None = None
_LOCK = threading.Lock()


def cores() -> int:
    """The cores this process may run on."""
    with contextlib.suppress(AttributeError, OSError):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class ProcessPool:
    """The process's pool of search workers (``expert.SearchPool``)."""

    def width(self, info: InfoSet) -> int:
        import multiprocessing

        if multiprocessing.current_process().daemon or not _pickles(info):
            return 1
        return cores()

    def run(self, parts: Sequence[Part]) -> list[Found]:
        from concurrent.futures.process import BrokenProcessPool

        executor = _executor(cores())
        try:
            return list(executor.map(run_part, parts))
        except BrokenProcessPool:  # a worker died: a new pool next time, this decision here
            _drop(executor)
            return [run_part(p) for p in parts]


def _pickles(info: InfoSet) -> bool:
    """Whether ``info`` (its game) reaches a worker process; if not, said once in the log."""
    import pickle

    try:
        pickle.dumps(info)
    except Exception as exc:  # noqa: BLE001 - whatever pickling raises: the searches stay here
        if info.game.id not in _UNPICKLED:
            _UNPICKLED.add(info.game.id)
            log.info("expert: %s does not pickle (%s): its searches run in this process",
                     info.game.id, exc)
        return False
    return True


#: The games whose info sets did not pickle (logged once each).
_UNPICKLED: set[str] = set()


def install() -> None:
    """The expert's searches run on this process's pool from now on."""
    expert.use_pool(ProcessPool())


def _executor(workers: int) -> Executor:
    global _EXECUTOR
    with _LOCK:
        if _EXECUTOR is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            method = "forkserver" if os.name == "posix" else "spawn"
            _EXECUTOR = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method),
                                            initializer=_worker_start)
            # stopped while the interpreter is whole: at its teardown the pool's manager
            # callback would run with the modules it needs already gone
            atexit.register(_drop, _EXECUTOR, wait=True)
        return _EXECUTOR


def _drop(executor: Executor, wait: bool = False) -> None:
    global _EXECUTOR
    with _LOCK:
        if _EXECUTOR is executor:
            _EXECUTOR = None
    executor.shutdown(wait=wait, cancel_futures=True)


def _worker_start() -> None:
    """A worker's start: Ctrl+C is the program's to handle."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
