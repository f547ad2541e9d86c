"""`cardcore library copy FROM TO`: an SQLite library into PostgreSQL and back, every match's
export the same, its leagues and counters of ids with it; clear one-line errors."""

from __future__ import annotations

import pytest

from cardcore.apps.cli import main
from cardcore.engine.match import Match
from cardcore.services.league.book import LeagueBook
from cardcore.services.plugins import load_registry
from cardcore.services.store import open_library
from tests.league_helpers import PAIRS, finished_match, new_league


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def filled(location, registry):
    """A library with two finished matches, an unfinished one, a deleted one (its id must
    not come again), a server's table and a league with an entry of each kind."""
    store = open_library(location)
    first = finished_match(store, registry, ["Ann", "Bob", "Cat", "Dan"], 1)
    finished_match(store, registry, ["Eve", "Bob", "Fay", "Dan"], 2)
    game = registry.games["casino"]
    play = store.create("casino", game.Options().model_dump(mode="json"), 3, ["greedy", "human"])
    match = Match(game, seed=3, seats=["greedy", "human"], on_event=play.append_event)
    match.start()
    play.save_snapshot(match.snapshot())
    play.close()
    gone = store.create("casino", game.Options().model_dump(mode="json"), 4, ["greedy", "greedy"])
    gone.close()
    store.delete(gone.id)
    store.put_table("ABCD", play.id, "waiting", {"seats": ["x"]})
    book = LeagueBook(store)
    league = new_league(book, registry)
    book.add_match(league, first)
    book.forfeit(league, PAIRS[2][0] + " & " + PAIRS[2][1], PAIRS[1][0] + " & " + PAIRS[1][1], 5.0)
    book.close()
    return store, gone.id


def exports(store):
    ids = [m.id for m in store.finished()] + [m.id for m in store.list_unfinished()]
    return {i: (store.get(i), store.export_record(i)) for i in ids}


def test_a_library_goes_to_postgresql_and_back_the_same(tmp_path, pg_url, registry, capsys):
    path = str(tmp_path / "library.sqlite")
    source, gone = filled(path, registry)
    before = exports(source)
    assert main(["library", "copy", path, pg_url]) == 0
    assert "copied 3 matches" in capsys.readouterr().out
    pg = open_library(pg_url)
    assert exports(pg) == before and len(before) == 3
    assert pg.stats() == source.stats() and pg.net_tables() == source.net_tables()
    book = LeagueBook(pg)
    (league,) = book.leagues()
    assert [e.kind for e in book.entries(league)] == ["forfeit", "match"]
    book.close()
    assert pg.create("casino", {}, 9, ["greedy"]).id > gone  # the counter came too
    back = str(tmp_path / "back.sqlite")
    assert main(["library", "copy", pg_url, back]) == 0
    again = open_library(back)
    assert {i: v for i, v in exports(again).items() if i in before} == before
    assert again.create("casino", {}, 9, ["greedy"]).id > gone + 1


def test_a_copy_is_refused_in_one_line(tmp_path, pg_url, registry, capsys):
    path = str(tmp_path / "library.sqlite")
    filled(path, registry)
    assert main(["library", "copy", path, pg_url]) == 0
    capsys.readouterr()
    cases = [
        ([path, pg_url], "is not empty (3 matches"),  # the target holds a library already
        ([path, "mysql://host/db"], "a file's path or a postgresql:// URL"),
        ([path, "postgresql://nobody:secret@127.0.0.1:1/none"], "cannot be used"),  # nobody listens
        ([str(tmp_path / "none.sqlite"), pg_url], "no library at"),
    ]
    for argv, said in cases:
        assert main(["library", "copy", *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, err
        assert "secret" not in err
