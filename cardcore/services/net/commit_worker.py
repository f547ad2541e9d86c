"""The server's end of the library's writer process (``cardcore.services.store.commits``,
run as a script: it imports nothing of cardcore, so it starts at once).

Started at the first batch; each batch is handed over a pipe, and the process's answers
are read by the event loop when they come (or sooner: ``poll``). At a failure the process
stops, so the batches handed over after the failed one fail with it (the ``Writer`` tries
them all again, in order), and the next batch starts a new process.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import pickle
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from cardcore.services.store import StoreError, StoreUnavailable, commits
from cardcore.services.store.commits import BUSY_TIMEOUT_MS, HEADER, LOST, OK, Commit

#: The variable that hands a PostgreSQL library's URL to the writer process.
URL_VARIABLE = "CARDCORE_WRITER_LIBRARY"
#: How long a stopping server waits for the process to finish what it was handed (s).
STOP_WAIT = 10.0


class CommitWorker:
    """The writer process of the library at ``library``. Each batch handed over is answered
    once, in order, by ``answered(None, lost)`` (written, but for the matches ``lost``: another
    server claims them) or ``answered(error, [])``: a failure answers for that batch and
    every one handed over after it (the process is ended)."""

    def __init__(self, library: str | Path, answered: Callable[[StoreError | None, list[int]], None],
                 wait: float = BUSY_TIMEOUT_MS / 1000):
        self.library = library
        self._answered = answered
        #: How long a batch waits for another process's write lock before it fails (s).
        self.wait = wait
        self._proc: subprocess.Popen[bytes] | None = None
        #: Batches handed over and not answered yet.
        self._waiting = 0
        self._answers = b""
        #: In ``_read`` (whose answers may hand over more: it is not entered again meanwhile).
        self._reading = False
        #: Batches handed over that the pipe has not taken yet (written when it has room).
        self._out = bytearray()
        #: The loop watches the pipe for room (``_out`` waits).
        self._watching = False

    def submit(self, commits: Iterable[Commit], tables: Iterable[tuple[str, int, str, dict[str, Any]]],
               holder: str | None = None) -> None:
        """Hand a batch to the process (started if none runs), fenced by ``holder``."""
        batch = ([tuple(c) for c in commits], list(tables), holder)  # plain data: no class
        payload = pickle.dumps(batch, protocol=pickle.HIGHEST_PROTOCOL)
        self._waiting += 1
        try:
            self._running()
            self._out += len(payload).to_bytes(HEADER, "little") + payload
            self._flush()
        except OSError as exc:
            self._fail(StoreUnavailable(f"the library's writer process: {exc.strerror or exc}"))

    def _flush(self) -> None:
        """Write what the pipe takes now, the rest when it has room: the event loop never
        waits for the process (a batch bigger than the pipe's buffer, handed over while the
        process is writing the one before, would hold every table of the server until then)."""
        assert self._proc is not None and self._proc.stdin is not None
        fd = self._proc.stdin.fileno()
        try:
            while self._out:
                del self._out[:os.write(fd, self._out)]
        except BlockingIOError:
            pass
        if bool(self._out) is not self._watching:  # told only when it changes: a batch a time
            self._watching = bool(self._out)
            loop = asyncio.get_running_loop()
            if self._watching:
                loop.add_writer(fd, self._writable)
            else:
                loop.remove_writer(fd)

    def _writable(self) -> None:
        try:
            self._flush()
        except OSError as exc:
            self._fail(StoreUnavailable(f"the library's writer process: {exc.strerror or exc}"))

    @property
    def pid(self) -> int | None:
        """The process's id while one runs (``ps`` shows it as ``commits.py LIBRARY``)."""
        return self._proc.pid if self._proc is not None else None

    def poll(self) -> None:
        """Answer the batches written so far (the loop reads the pipe anyway, when it comes
        to it: in a burst of messages, this is sooner)."""
        if self._waiting and not self._reading:
            self._read()

    def close(self) -> None:
        """Let the process finish what it holds, then end it."""
        self._stop(wait=STOP_WAIT)

    def _running(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            library, env = str(self.library), None
            if commits.is_postgres(library):  # its URL in the environment: no password in ps
                library, env = f"env:{URL_VARIABLE}", {**os.environ, URL_VARIABLE: library}
            proc = subprocess.Popen(
                [sys.executable, "-I", commits.__file__, library,  # -I: nothing but it
                 str(round(self.wait * 1000))], env=env,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                start_new_session=True)  # Ctrl-C at the terminal stops the server, which ends it
            assert proc.stdout is not None and proc.stdin is not None
            os.set_blocking(proc.stdout.fileno(), False)
            os.set_blocking(proc.stdin.fileno(), False)
            _widen(proc.stdin.fileno())
            asyncio.get_running_loop().add_reader(proc.stdout.fileno(), self._read)
            self._proc = proc
        return self._proc

    def _read(self) -> None:
        self._reading = True
        try:
            self._read_answers()
        finally:
            self._reading = False

    def _read_answers(self) -> None:
        proc = self._proc
        if proc is None or proc.stdout is None:
            return
        try:
            data = os.read(proc.stdout.fileno(), 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the process ended
            if self._waiting:
                self._fail(StoreUnavailable("the library's writer process stopped"))
            else:
                self._stop()
            return
        *lines, self._answers = (self._answers + data).split(b"\n")
        for line in lines:
            word, _, rest = line.decode(errors="replace").partition(" ")
            if line != OK.strip() and word != LOST:
                self._fail(StoreUnavailable(line.removeprefix(b"error ").decode(errors="replace")))
                return
            self._waiting -= 1
            self._answered(None, [int(m) for m in rest.split()])

    def _fail(self, error: StoreError) -> None:
        """Every batch waiting failed: the process is ended, and one answer says so."""
        self._stop()
        self._answered(error, [])

    def _stop(self, wait: float = 0.0) -> None:
        """End the process (after ``wait`` seconds for what it holds); nothing waits after."""
        proc, self._proc = self._proc, None
        out, self._out = self._out, bytearray()
        self._waiting, self._answers = 0, b""
        if proc is None:
            return
        assert proc.stdin is not None and proc.stdout is not None
        loop = asyncio.get_running_loop()
        loop.remove_reader(proc.stdout.fileno())
        loop.remove_writer(proc.stdin.fileno())
        self._watching = False
        if wait and out:  # what it was handed and the pipe had no room for yet
            os.set_blocking(proc.stdin.fileno(), True)
            with contextlib.suppress(OSError):
                _write_all(proc.stdin.fileno(), bytes(out))
        proc.stdin.close()  # its end of input: it stops after the batch it is writing
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()


#: The pipe's buffer for batches (Linux lets a process set up to 1 MiB; 64 KiB unless set):
#: fewer wake-ups to hand a large batch over.
PIPE_BYTES = 1 << 20


def _widen(fd: int) -> None:
    with contextlib.suppress(OSError, AttributeError):  # not Linux, or a lower limit set there
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
