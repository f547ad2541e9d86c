"""Leagues (docs/leagues.md): matches, forfeits, corrections and removals in a real library,
the standings recomputed from the entries, the ratings as openskill computes them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from cardcore.apps.league_cli import format_standings
from cardcore.services.league import LeagueError
from cardcore.services.league.book import LeagueBook
from cardcore.services.league.standings import standings
from cardcore.services.plugins import load_registry
from cardcore.services.store import NoSuchMatch, open_library
from cardcore.services.store.sqlite import SCHEMA_VERSION, SqliteStore
from tests.league_helpers import finished_match, new_league

DOCS = Path(__file__).resolve().parents[2] / "docs" / "leagues.md"
#: docs/leagues.md's example: who sat where (seats 0 and 2 are a side) and the seed.
EXAMPLE = [(["Ann", "Bob", "Cat", "Dan"], 1), (["Bob", "Eve", "Dan", "Fay"], 2),
           (["Fay", "Ann", "Eve", "Cat"], 3)]


@pytest.fixture(scope="module")
def registry():
    return load_registry()


@pytest.fixture
def book(library):
    """The leagues of a library on each back end (``library``)."""
    store = open_library()
    book = LeagueBook(store)
    yield book
    book.close()
    store.close()


def example(book, registry):
    league = new_league(book, registry)
    ids = [finished_match(book.store, registry, names, seed) for names, seed in EXAMPLE]
    for match_id in ids:
        book.add_match(league, match_id)
    return league, ids


def table(book, league):
    s = standings(league, book.entries(league))
    return {t.name: (t.played, t.won, t.lost, t.forfeits, t.points_for, t.points_against) for t in s.teams}, s


def test_the_docs_example_standings_and_ratings(book, registry):
    league, _ = example(book, registry)
    rows, s = table(book, league)
    # checked by hand from the three matches' totals (docs/leagues.md)
    assert rows == {"Bob & Dan": (2, 2, 0, 0, 28, 16), "Eve & Fay": (2, 1, 1, 0, 23, 21),
                    "Ann & Cat": (2, 0, 2, 0, 15, 29)}
    assert [t.name for t in s.teams] == ["Bob & Dan", "Eve & Fay", "Ann & Cat"]
    # the ratings, openskill computed here directly: 1 Ann & Cat lost to Bob & Dan, 2 Bob & Dan
    # beat Eve & Fay, 3 Eve & Fay beat Ann & Cat
    model = PlackettLuce()
    p = {n: model.rating(name=n) for n in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")}
    t = {n: model.rating(name=n) for n in ("AC", "BD", "EF")}
    for (a, b), (c, d), (x, y) in ((("Bob", "Dan"), ("Ann", "Cat"), ("BD", "AC")),
                                   (("Bob", "Dan"), ("Eve", "Fay"), ("BD", "EF")),
                                   (("Eve", "Fay"), ("Ann", "Cat"), ("EF", "AC"))):
        [[p[a], p[b]], [p[c], p[d]]] = model.rate([[p[a], p[b]], [p[c], p[d]]], ranks=[1, 2])
        [[t[x]], [t[y]]] = model.rate([[t[x]], [t[y]]], ranks=[1, 2])
    for team, key in (("Bob & Dan", "BD"), ("Eve & Fay", "EF"), ("Ann & Cat", "AC")):
        row = next(r for r in s.teams if r.name == team)
        assert (row.rating.mu, row.rating.sigma) == pytest.approx((t[key].mu, t[key].sigma))
    for row in s.players:
        assert (row.rating.mu, row.rating.sigma) == pytest.approx((p[row.name].mu, p[row.name].sigma))
    assert t["BD"].mu > t["EF"].mu > t["AC"].mu
    # the docs show this very table
    text = format_standings(registry, s, 80).splitlines()
    docs = DOCS.read_text()
    for line in text[1:5]:
        assert line in docs, line


def test_a_match_whose_side_is_no_partnership_is_refused_in_one_line_and_nothing_changes(book, registry):
    league = new_league(book, registry)
    swapped = finished_match(book.store, registry, ["Ann", "Cat", "Bob", "Dan"], 4)  # Ann & Bob together
    with pytest.raises(LeagueError, match=r"^match \d+: side 1 \(Ann & Bob\) is no partnership of league "
                                          r"Tuesday; `--as FIRST,SECOND`"):
        book.add_match(league, swapped)
    assert book.entries(league) == []
    # named by hand (a stand-in sat in), it counts, and its real players are rated
    entry = book.add_match(league, swapped, ("Ann & Cat", "Bob & Dan"))
    assert entry.teams == (0, 1) and entry.players == (("Ann", "Bob"), ("Cat", "Dan"))


def test_what_a_league_does_not_take(book, registry):
    league = new_league(book, registry)
    other_target = finished_match(book.store, registry, ["Ann", "Bob", "Cat", "Dan"], 1,
                                  options={"target": 21})
    royal = finished_match(book.store, registry, ["Ann", "Bob", "Cat", "Dan"], 1, game_id="royal_casino",
                           options={})
    unfinished = book.store.create("casino", league.options, 1, ["human"] * 4, ["Ann", "Bob", "Cat", "Dan"])
    unfinished.close()
    cases = [(other_target, r"other options than league Tuesday: target 21 \(the league: 11\)"),
             (royal, r"is royal_casino; league Tuesday plays casino"),
             (unfinished.id, r"is not finished")]
    for match_id, message in cases:
        with pytest.raises(LeagueError, match=message):
            book.add_match(league, match_id)
    with pytest.raises(NoSuchMatch):
        book.add_match(league, 999)
    ok = finished_match(book.store, registry, ["Ann", "Bob", "Cat", "Dan"], 1)
    entry = book.add_match(league, ok)
    with pytest.raises(LeagueError, match=f"already in league Tuesday \\(entry {entry.id}\\)"):
        book.add_match(league, ok)
    assert [e.id for e in book.entries(league)] == [entry.id]


def test_forfeits_corrections_and_removals_are_recomputed_from_the_entries(book, registry):
    league, ids = example(book, registry)
    ff = book.forfeit(league, "Ann & Cat", "Eve & Fay", when=book.entries(league)[-1].played + 1)
    rows, s = table(book, league)
    assert rows["Ann & Cat"] == (3, 0, 3, 1, 15, 29)
    assert rows["Eve & Fay"] == (3, 2, 1, 0, 23, 21)
    before = {r.name: r.rating for r in s.teams}
    unrated = standings(league, book.entries(league)[:3]).teams
    assert {r.name: r.rating for r in unrated} == before  # a forfeit moves no rating
    # match 1 overridden: Ann & Cat won it 12-10 (a miscount), the reason kept
    first = book.entries(league)[0]
    fixed = book.correct(league, first.id, "score sheet miscounted", winner="Ann & Cat", points=(12, 10))
    assert (fixed.winner, fixed.points, fixed.note) == (0, (12, 10), "score sheet miscounted")
    rows, s = table(book, league)
    assert rows["Ann & Cat"] == (3, 1, 2, 1, 17, 27) and rows["Bob & Dan"] == (2, 1, 1, 0, 26, 18)
    assert next(r for r in s.teams if r.name == "Ann & Cat").rating.mu > before["Ann & Cat"].mu
    # removed: the standings are those of the entries left, computed afresh
    book.remove(league, ff.id)
    book.remove(league, first.id)
    rows, s = table(book, league)
    assert rows == {"Bob & Dan": (1, 1, 0, 0, 16, 6), "Eve & Fay": (2, 1, 1, 0, 23, 21),
                    "Ann & Cat": (1, 0, 1, 0, 5, 17)}
    fresh = LeagueBook(book.store)
    assert standings(league, fresh.entries(league)).teams == s.teams
    fresh.close()
    # bad corrections change nothing
    third = book.entries(league)[-1]
    for kwargs, message in (({"winner": "Bob & Dan"}, "did not play in entry"),
                            ({"winner": "Nobody"}, "has no partnership 'Nobody'"),
                            ({"points": (1,)}, "two whole numbers"),
                            ({"teams": ("Ann & Cat", "Ann & Cat")}, "cannot play itself")):
        with pytest.raises(LeagueError, match=message):
            book.correct(league, third.id, "why", **kwargs)
    with pytest.raises(LeagueError, match="needs a reason"):
        book.correct(league, third.id, "  ", winner=None)
    assert book.entries(league)[-1] == third


def test_a_new_league_is_checked(book, registry):
    for pairs, message in (([("Ann", "Bob")], "2 to 32 partnerships, not 1"),
                           ([("Ann", "Bob"), ("ann", "Cat")], "ann is in two partnerships"),
                           ([("Ann", "Bob", "Cat"), ("Dan", "Eve")], "two players, not 3"),
                           ([("Ann", "B\u202eob"), ("Cat", "Dan")], "RIGHT-TO-LEFT OVERRIDE")):
        with pytest.raises(LeagueError, match=message):
            new_league(book, registry, pairs=pairs)
    assert book.leagues() == []
    new_league(book, registry)
    with pytest.raises(LeagueError, match="exists already"):
        new_league(book, registry)


def test_a_fourth_version_library_gains_the_league_tables(tmp_path, registry):
    path = tmp_path / "library.sqlite"
    store = SqliteStore(path)
    for table in ("leagues", "league_teams", "league_entries", "league_pending"):
        store.conn.execute(f"DROP TABLE {table}")
    store.conn.execute("ALTER TABLE matches DROP COLUMN people")  # version 6's
    store.conn.execute("PRAGMA user_version = 4")
    store.close()
    store = SqliteStore(path)
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    book = LeagueBook(store)
    assert book.leagues() == [] and new_league(book, registry).name == "Tuesday"
    book.close()
    store.close()


def test_a_drawn_match_ties_the_ratings_and_players_are_ordered_by_ordinal(book, registry):
    league, _ = example(book, registry)
    first = book.entries(league)[0]
    book.correct(league, first.id, "agreed a draw", winner=None)
    s = standings(league, book.entries(league))
    assert [(t.name, t.drawn) for t in s.teams if t.drawn] == [("Bob & Dan", 1), ("Ann & Cat", 1)] or \
        sorted(t.name for t in s.teams if t.drawn) == ["Ann & Cat", "Bob & Dan"]
    assert "drawn" in format_standings(registry, s, 80).splitlines()[1]
    ordinals = [p.rating.ordinal for p in s.players]
    assert ordinals == sorted(ordinals, reverse=True)
    assert re.fullmatch(r"rating \d+\.\d ± \d+\.\d", s.players[0].rating.words())
