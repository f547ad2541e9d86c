"""The library's writer process as the server's event loop sees it: handing a batch over
never waits for the process (cardcore/services/net/commit_worker.py)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Iterator

import pytest

from cardcore.engine.match import Match
from cardcore.services.net.commit_worker import PIPE_BYTES, CommitWorker
from cardcore.services.plugins import load_registry
from cardcore.services.store import StoreError, commit_of
from cardcore.services.store.sqlite import SqliteStore
from tests.net.helpers import until


class Stuck(Exception):
    """The call did not return in its time."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise Stuck in the block after ``seconds`` (a write the kernel holds is interrupted)."""
    def expired(signum: int, frame: object) -> None:
        raise Stuck(f"not done in {seconds} s")

    before = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


Answers = list[tuple[StoreError | None, list[int]]]


async def started(tmp_path) -> tuple[SqliteStore, Match, int, CommitWorker, Answers, int]:
    """A library with a casino match in it, and a writer process that wrote its first batch."""
    path = tmp_path / "library.sqlite"
    store = SqliteStore(path)
    match = Match(load_registry().games["casino"], seed=3, seats=["human", "human"])
    held = store.create("casino", match.options.model_dump(mode="json"), 3, match.seats)
    held.close()  # (the server's matches are held by a claim; here nothing holds it)
    answers: Answers = []
    worker = CommitWorker(path, lambda error, lost: answers.append((error, lost)))
    worker.submit([commit_of(held.id, [], match.snapshot())], [])  # the process starts
    await until(lambda: len(answers) == 1, "the first batch written")
    assert worker.pid is not None
    return store, match, held.id, worker, answers, worker.pid


@pytest.mark.asyncio
async def test_a_batch_bigger_than_the_pipe_waits_in_the_server_while_the_process_is_stopped(tmp_path):
    store, match, match_id, worker, answers, pid = await started(tmp_path)
    big = {**match.snapshot(), "padding": "x" * (3 * PIPE_BYTES)}  # three pipes' worth
    os.kill(pid, signal.SIGSTOP)
    try:
        with deadline(2.0):
            worker.submit([commit_of(match_id, [], big)], [])  # returns: the loop goes on
        ticks = 0
        for _ in range(5):
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 5 and answers == [(None, [])]  # nothing answered while it is stopped
    finally:
        os.kill(pid, signal.SIGCONT)
    await until(lambda: len(answers) == 2, "the big batch written")
    assert answers[1] == (None, [])
    worker.close()
    assert len(store.load(match_id)["padding"]) == 3 * PIPE_BYTES
    store.close()


@pytest.mark.asyncio
async def test_what_the_pipe_had_no_room_for_is_handed_over_before_the_process_stops(tmp_path):
    store, match, match_id, worker, answers, pid = await started(tmp_path)
    os.kill(pid, signal.SIGSTOP)
    worker.submit([commit_of(match_id, [], {**match.snapshot(), "padding": "y" * (2 * PIPE_BYTES)})], [])
    os.kill(pid, signal.SIGCONT)
    worker.close()  # a server stopping: the rest of the batch goes, and the process writes it
    assert len(store.load(match_id)["padding"]) == 2 * PIPE_BYTES
    store.close()
