"""What the PostgreSQL library does its own way: versioned SQL migrations, a database that
is not a library left alone, holds and the writers' lock as advisory locks."""

from __future__ import annotations

import psycopg
import pytest

from cardcore.services.store import LibraryBusy, MatchLocked, StoreUnavailable, open_library, postgres
from cardcore.services.store.commits import WRITER_KEY
from cardcore.services.store.postgres import MIGRATIONS, SCHEMA_VERSION
from cardcore.services.store.sqlite import SqliteStore


def layout(url):
    """Each table's columns (name, type, nullable, default) and the indexes, as the
    database's catalog has them."""
    with psycopg.connect(url) as conn:
        cols = conn.execute(
            "SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity "
            "FROM information_schema.columns WHERE table_schema = 'public' "
            "ORDER BY table_name, ordinal_position").fetchall()
        indexes = conn.execute("SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' "
                               "ORDER BY indexname").fetchall()
    return cols, indexes


def test_every_version_upgraded_is_the_fresh_schema_and_the_version_is_recorded(pg_server):
    fresh = pg_server.new_database()
    open_library(fresh).close()
    assert sorted(MIGRATIONS) == list(range(1, SCHEMA_VERSION + 1))
    for old in range(SCHEMA_VERSION):  # a library left at each older version, then opened
        url = pg_server.new_database()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
                         "applied DOUBLE PRECISION NOT NULL)")
            for version in range(1, old + 1):
                for statement in MIGRATIONS[version]:
                    conn.execute(statement)
                conn.execute("INSERT INTO schema_migrations VALUES (%s, 0)", (version,))
        open_library(url).close()
        assert layout(url) == layout(fresh)
    with psycopg.connect(fresh) as conn:
        assert conn.execute("SELECT version FROM schema_migrations ORDER BY version").fetchall() == [
            (v,) for v in range(1, SCHEMA_VERSION + 1)]


def test_the_tables_and_columns_are_the_sqlite_librarys(pg_url, tmp_path):
    lite = SqliteStore(tmp_path / "library.sqlite")
    want = {t: [r[1] for r in lite.conn.execute(f"PRAGMA table_info({t})")]
            for (t,) in lite.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                          "AND name != 'sqlite_sequence'")}
    open_library(pg_url).close()
    got: dict[str, list[str]] = {}
    for table, column, *_ in layout(pg_url)[0]:
        got.setdefault(table, []).append(column)
    assert got.pop("schema_migrations") == ["version", "applied"]
    assert got == want


def test_a_database_of_another_application_or_a_newer_cardcore_is_left_alone(pg_server):
    other = pg_server.new_database()
    with psycopg.connect(other, autocommit=True) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER)")
    with pytest.raises(StoreUnavailable, match="is not a cardcore library"):
        open_library(other)
    newer = pg_server.new_database()
    open_library(newer).close()
    with psycopg.connect(newer, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (%s, 0)", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreUnavailable, match="newer cardcore"):
        open_library(newer)
    for url, tables in ((other, ["invoices"]), (newer, None)):
        with psycopg.connect(url) as conn:
            names = [r[0] for r in conn.execute("SELECT tablename FROM pg_tables "
                                                "WHERE schemaname = 'public' ORDER BY 1")]
        assert tables is None or names == tables


def test_a_claim_dies_with_its_holders_connection_and_a_busy_writer_is_waited_for(pg_url):
    server, table = open_library(pg_url), open_library(pg_url)
    play = server.create("casino", {}, 1, ["greedy", "greedy"], claim=True)
    play.save_snapshot({"hand": 1})
    with pytest.raises(MatchLocked, match="cardcore server"):
        table.open(play.id)
    assert table.get(play.id).locked
    server.close()  # as if killed: the session's advisory lock is gone with it
    held = table.open(play.id)
    with pytest.raises(MatchLocked):
        open_library(pg_url).open(play.id)
    with psycopg.connect(pg_url) as other:  # another writer holds the library
        other.execute("SELECT pg_advisory_xact_lock(%s, 0)", (WRITER_KEY,))
        with pytest.raises(LibraryBusy, match="busy"):
            held.save_snapshot({"hand": 2}, wait=0.2)
    held.save_snapshot({"hand": 2}, wait=0.2)
    assert table.load(play.id) == {"hand": 2}


@pytest.mark.slow  # a database of its own: 0.2 s, PostgreSQL only
def test_a_dead_holder_s_token_is_never_given_again(pg_url, monkeypatch):
    dead = open_library(pg_url)
    token = dead.lease(0, 5.0)
    play = dead.create("casino", {}, 1, ["greedy", "greedy"], source="server", claim=True)
    play.save_snapshot({"hand": 1})
    dead.close()  # as if killed: its lock gone, its claim's and its lease's rows left
    draws = iter([int(token), 7, 8])  # the next store draws the dead one's number first
    monkeypatch.setattr(postgres.secrets, "randbelow", lambda _n: next(draws) - 1)
    later, other = open_library(pg_url), open_library(pg_url)
    try:
        assert later.lease(1, 5.0) == "7"
        assert later.live_leases() == {"7": 1}  # the dead one's lease dead still
        other.open(play.id, claim=True).close()  # and its claim
    finally:
        later.close()
        other.close()
