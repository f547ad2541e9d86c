"""The library under faults: kill -9 in a loop, damaged and foreign files, a newer library,
a data dir that cannot be written, two writers at once, a dead holder's lock (the tests
taking ``library`` on each back end)."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from cardcore.engine import records
from cardcore.engine.bots.play import play_bots
from cardcore.engine.match import Match
from cardcore.services.plugins import load_registry
from cardcore.services.store import MatchLocked, StoreError, StoreUnavailable, open_library
from cardcore.services.store.checks import rebuild
from cardcore.services.store.sqlite import SCHEMA_VERSION, library_path

SEATS = ["greedy", "random"]

DRIVER = r'''
import sys, time
from cardcore.engine.bots.base import InfoSet
from cardcore.engine.match import Match
from cardcore.services.plugins import load_registry
from cardcore.services.store import open_library
from cardcore.services.store.checks import resume

mode = sys.argv[1]
registry = load_registry()
game = registry.games["casino"]
seats = ["greedy", "random"]
store = open_library()


def play_out(play, match):
    bots = {s: registry.bots[b]() for s, b in enumerate(seats)}
    while not match.over:
        seat = match.to_play
        match.apply(bots[seat].choose(InfoSet.of(game, match.state, seat), match.bot_rng(seat)))
        play.save_snapshot(match.snapshot())
        print("committed", play.id, match.decisions, flush=True)
    play.close()


def new(seed):
    play = store.create("casino", game.Options().model_dump(mode="json"), seed, seats)
    match = Match(game, seed=seed, seats=seats, on_event=play.append_event)
    match.start()
    play.save_snapshot(match.snapshot())
    return play, match


if mode == "hold":  # hold match argv[2] for play and wait to be killed
    play = store.open(int(sys.argv[2]))
    print("holding", flush=True)
    time.sleep(60)
elif mode == "fresh":  # play argv[3] new matches from seed argv[2]
    for seed in range(int(sys.argv[2]), int(sys.argv[2]) + int(sys.argv[3])):
        play_out(*new(seed))
else:  # "loop": resume the unfinished match, or start the next; "finish": resume only
    while True:
        found = store.list_unfinished(limit=1)
        if found:
            play = store.open(found[0].id)
            match = resume(play, game, on_event=play.append_event)
            play.save_snapshot(match.snapshot())
        elif mode == "finish":
            break
        else:
            play, match = new(len(store.finished()))
        print("ready", play.id, match.decisions, flush=True)
        play_out(play, match)
'''


@pytest.fixture(scope="module")
def registry():
    return load_registry()


@pytest.fixture
def driver(tmp_path, cardcore_home):
    path = tmp_path / "driver.py"
    path.write_text(DRIVER, encoding="utf-8")
    def start(*args: str) -> subprocess.Popen:
        # the environment when it starts: the library a test chose ($CARDCORE_LIBRARY) with it
        env = {**os.environ, "CARDCORE_HOME": str(cardcore_home), "PYTHONHASHSEED": "random"}
        return subprocess.Popen([sys.executable, str(path), *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env)
    return start


def reference(registry, seed):
    out: list[str] = []
    match = Match(registry.games["casino"], seed=seed, seats=SEATS,
                  on_event=lambda e: out.append(records.dumps(e) + "\n"))
    match.start()
    play_bots(match, {s: registry.bots[b]() for s, b in enumerate(SEATS)})
    return "".join(out)


def without_resumes(text):
    return "".join(line + "\n" for line in text.splitlines() if '"event":"resume"' not in line)


def integrity(library) -> str:
    """SQLite's own check of the file ("ok"); a PostgreSQL library: "ok" (the server keeps
    its own pages; what the tests check is every match read back)."""
    if library.startswith("postgresql://"):
        return "ok"
    conn = sqlite3.connect(library)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


@pytest.mark.slow
def test_kill_9_in_a_loop_loses_nothing_committed(driver, registry, library):
    """Up to 25 kill -9 at random moments (a minute at most): each time the library opens,
    the match is where the last reported commit left it or one action further (the one
    committed but not yet reported), its record rebuilds through the engine to its snapshot,
    and at the end every match is byte for byte the match played without a stop."""
    rng = random.Random(2026)
    kills, one_ahead = 0, 0
    deadline = time.monotonic() + 60
    while kills < 25 and time.monotonic() < deadline:
        proc = driver("loop")
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith("ready"), first + proc.stderr.read()  # type: ignore[union-attr]
        time.sleep(rng.uniform(0.0, 0.3))
        proc.send_signal(signal.SIGKILL)
        out = proc.stdout.read()  # not communicate(): it would skip what readline buffered
        proc.wait()
        kills += 1
        # a kill can cut the last line short: only whole lines were reported
        lines = [first, *out.split("\n")[:-1]]
        last = [x.split() for x in lines if x.startswith(("ready", "committed"))][-1]
        match_id, reported = int(last[1]), int(last[2])
        store = open_library()
        let_go(store, match_id)
        summary = store.get(match_id)
        assert summary.decisions - reported in (0, 1), (summary, last)
        one_ahead += summary.decisions - reported
        if not summary.finished:
            text = store.export_record(match_id)
            numbered = records.parse_record_lines(text, "export")
            rebuilt = rebuild(registry.games["casino"], numbered)
            snap = store.load(match_id)
            assert rebuilt.decisions == snap["decisions"] and rebuilt.state.export() == snap["state"]
        store.close()
    finish = driver("finish")
    _, err = finish.communicate(timeout=300)
    assert finish.returncode == 0, err
    assert integrity(library) == "ok"
    store = open_library()
    assert store.list_unfinished() == []
    done = store.finished()
    assert kills >= 5 and len(done) >= 2  # fewer kills in a minute on a loaded machine
    for m in done:
        assert without_resumes(store.export_record(m.id)) == reference(registry, m.seed)
    print(f"\n{kills} kills, {len(done)} matches, {one_ahead} times the action in flight "
          "had been committed, nothing lost")


def let_go(store, match_id: int) -> None:
    """Until nobody holds the match for play, as a resuming cardcore waits. A PostgreSQL
    server ends a killed client's session only once it has done what it was asked: a
    commit sent just before the kill may land a moment after it (the record read before it,
    the snapshot after), and the session's hold on the match goes only then."""
    try:
        _opened_within(store, match_id, 10.0).close()
    except MatchLocked:
        raise  # the killed process's hold never went
    except StoreError:  # finished: held by nobody
        pass


def test_a_dead_holders_lock_does_not_block(driver, registry, library):
    store = open_library()
    game = registry.games["casino"]
    play = store.create("casino", game.Options().model_dump(mode="json"), 1, SEATS)
    match = Match(game, seed=1, seats=SEATS, on_event=play.append_event)
    match.start()
    play.save_snapshot(match.snapshot())
    play.close()
    holder = driver("hold", str(play.id))
    assert holder.stdout is not None and holder.stdout.readline() == "holding\n"
    with pytest.raises(MatchLocked, match=f"pid {holder.pid}"):
        store.open(play.id)
    assert store.list_unfinished()[0].locked
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    again = _opened_within(store, play.id, 10.0)
    assert again.snapshot() == match.snapshot()
    again.close()


def _opened_within(store, match_id: int, seconds: float):
    """The match opened once its dead holder's lock is gone: at once in SQLite (the kernel
    drops a killed process's flock); PostgreSQL's server drops a killed client's advisory
    lock when its backend sees the connection closed, a moment later on a busy machine."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return store.open(match_id)
        except MatchLocked:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@pytest.mark.slow
def test_two_writers_and_a_reader_corrupt_nothing(driver, registry, library):
    open_library().close()  # the library exists before both start
    writers = [driver("fresh", "100", "4"), driver("fresh", "200", "4")]
    reads = 0
    while any(w.poll() is None for w in writers):
        store = open_library()  # a reader in a second terminal: never blocked, never blocks
        store.stats()
        store.list_unfinished()
        store.close()
        reads += 1
    for w in writers:
        _, err = w.communicate()
        assert w.returncode == 0, err
    assert integrity(library) == "ok"
    store = open_library()
    done = store.finished()
    assert sorted(m.seed for m in done) == [100, 101, 102, 103, 200, 201, 202, 203]
    for m in done:
        assert store.export_record(m.id) == reference(registry, m.seed)
    assert reads > 1


def aside_files(path):
    return sorted(p for p in path.parent.iterdir() if p.name.startswith(path.name + ".damaged-"))


@pytest.mark.parametrize("content", [
    b"this is not a database at all\n" * 10,
    b"SQLite format 3\x00" + b"\xff" * 4000,  # a header then garbage
], ids=["text", "garbage-after-header"])
def test_a_damaged_file_is_set_aside_untouched_and_a_new_library_started(content):
    path = library_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    store = open_library()
    assert store.notice is not None and "new match library was started" in store.notice
    (aside,) = aside_files(path)
    assert aside.read_bytes() == content
    assert store.list_unfinished() == []
    store.close()
    assert open_library().notice is None  # the new one opens cleanly


def test_a_truncated_library_is_set_aside(registry):
    store = open_library()
    game = registry.games["casino"]
    for seed in range(6):
        play = store.create("casino", game.Options().model_dump(mode="json"), seed, SEATS)
        match = Match(game, seed=seed, seats=SEATS, on_event=play.append_event)
        match.start()
        play.save_snapshot(match.snapshot())
        play_bots(match, {s: registry.bots[b]() for s, b in enumerate(SEATS)})
        play.save_snapshot(match.snapshot())
        play.close()
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    path = library_path()
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 3])
    opened = open_library()
    assert opened.notice is not None and "damaged" in opened.notice
    (aside,) = aside_files(path)
    assert aside.read_bytes() == data[:len(data) // 3]


def test_a_foreign_sqlite_database_is_set_aside(tmp_path):
    path = library_path()
    path.parent.mkdir(parents=True)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    store = open_library()
    assert store.notice is not None and "not a cardcore library" in store.notice
    assert aside_files(path)[0].read_bytes() == before


def test_a_library_from_a_newer_cardcore_is_left_untouched():
    open_library().close()
    path = library_path()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreUnavailable, match=f"newer cardcore .*version {SCHEMA_VERSION + 1}.* "
                                               f"reads {SCHEMA_VERSION}"):
        open_library()
    assert path.read_bytes() == before and aside_files(path) == []


def test_a_data_dir_that_cannot_be_made_is_a_clear_error(cardcore_home, monkeypatch, capsys):
    blocker = cardcore_home.parent / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("CARDCORE_HOME", str(blocker / "home"))
    with pytest.raises(StoreUnavailable, match="play goes on without saving"):
        open_library()
    from cardcore.apps.cli import main

    assert main(["stats"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "play goes on without saving" in err
