"""A server's tables in the match library: schema 2 (net_tables), a first-version library
migrated, group commits, a server's matches left to the server, and held by claims (on
each back end where a test takes ``library``)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cardcore.engine.journal import Resume
from cardcore.engine.match import Match
from cardcore.services.plugins import load_registry
from cardcore.services.store import MatchLocked, StoreError, open_library
from cardcore.services.store.sqlite import SCHEMA_VERSION, SqliteStore

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "library-v1.sqlite"


def started(store, source: str = "server"):
    game = load_registry().games["casino"]
    match = Match(game, seats=["human", "greedy"], seed=1)
    events: list = []
    match.on_event = events.append
    match.start()
    play = store.create("casino", match.options.model_dump(mode="json"), 1, match.seats,
                        list(match.seating.names), list(match.seating.side_names), source)
    return play, match, events


def test_a_first_version_library_gains_net_tables_and_keeps_its_matches(tmp_path):
    path = tmp_path / "library.sqlite"
    path.write_bytes(FIXTURE.read_bytes())
    before = sqlite3.connect(path).execute("SELECT count(*) FROM matches").fetchone()[0]
    store = SqliteStore(path)
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert store.conn.execute("SELECT count(*) FROM matches").fetchone()[0] == before > 0
    store.put_table("ABC-123", 1, "playing", {"seats": []})
    assert store.net_tables() == [("ABC-123", 1, "playing", {"seats": []})]
    store.close()
    assert SqliteStore(path).net_tables() == [("ABC-123", 1, "playing", {"seats": []})]  # opened again


def test_tables_are_listed_by_status_and_replaced_by_code(library):
    store = open_library(library)
    store.put_table("AAA-111", 1, "waiting", {"n": 1})
    store.put_table("BBB-222", 2, "playing", {"n": 2})
    store.put_table("AAA-111", 1, "over", {"n": 3})
    assert store.net_tables() == [("BBB-222", 2, "playing", {"n": 2})]
    assert [t[0] for t in store.net_tables(("over",))] == ["AAA-111"]


def test_a_group_commit_is_one_transaction(library):
    store = open_library(library)
    play, match, events = started(store)
    other, other_match, other_events = started(store)
    store.commit_many([(play.id, events, match.snapshot()), (other.id, other_events, other_match.snapshot())],
                      [("AAA-111", play.id, "playing", {})])
    assert store.get(play.id).decisions == 0 and store.load(other.id)["seed"] == 1
    assert store.export_record(play.id).count("\n") == len(events)
    # a batch naming a match that is not there changes nothing at all
    with pytest.raises(StoreError):
        resume = Resume.make(hand=1, decisions=0)
        store.commit_many([(other.id, [resume], other_match.snapshot()), (999, [], match.snapshot())],
                          [("BBB-222", 999, "playing", {})])
    assert store.export_record(other.id).count("\n") == len(other_events)
    assert [t[0] for t in store.net_tables()] == ["AAA-111"]


def test_a_servers_matches_are_not_offered_to_a_local_table(library):
    store = open_library(library)
    served, match, events = started(store, "server")
    local, local_match, local_events = started(store, "table")
    store.commit_many([(served.id, events, match.snapshot()),
                       (local.id, local_events, local_match.snapshot())])
    assert [m.id for m in store.list_unfinished()] == [local.id]
    assert store.get(served.id).source == "server"


def test_a_claim_and_a_local_lock_refuse_each_other_and_a_killed_holders_claims_die_with_it(library):
    path = library
    store = open_library(path)
    play, match, events = started(store)
    store.commit_many([(play.id, events, match.snapshot())])
    play.close()
    local = store.open(play.id)  # a local table holds it: no server may claim it
    server = open_library(path)
    with pytest.raises(MatchLocked):
        server.open(play.id, claim=True)
    local.close()
    held = server.open(play.id, claim=True)
    with pytest.raises(MatchLocked, match="at a cardcore server"):
        store.open(play.id)  # and the other way round
    third = open_library(path)
    with pytest.raises(MatchLocked, match="another cardcore server"):
        third.open(play.id, claim=True)
    third.close()
    assert store.get(play.id).locked
    held.close()  # released: free for anyone
    store.open(play.id).close()
    server.close()
    # a holder killed outright: its claim dies with it, its lock file is cleared away
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\n"
         "from cardcore.services.store import open_library\n"
         f"store = open_library(sys.argv[1])\nheld = store.open({play.id}, claim=True)\n"
         "print('held', flush=True)\ntime.sleep(60)\n", str(path)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(MatchLocked):
            store.open(play.id)
    finally:
        holder.kill()
        holder.wait(10)
    assert not store.get(play.id).locked
    again = store.open(play.id, claim=True)
    if not hasattr(store, "locks_dir"):  # PostgreSQL: the holder is a lock of the session's
        again.close()
        store.close()
        return
    assert [p.name for p in store.locks_dir.glob("holder-*")] == [f"holder-{store._holder()}.lock"]
    again.close()
    store.close()
    assert not list(store.locks_dir.glob("holder-*"))
