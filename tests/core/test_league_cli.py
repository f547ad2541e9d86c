"""``cardcore league``: each command on a real library (on each back end, where a test takes
``library``); bad input one line, exit 2, nothing changed."""

from __future__ import annotations

import csv
import io

import pytest

from cardcore.apps.cli import main
from cardcore.services.league.book import LeagueBook
from cardcore.services.plugins import load_registry
from cardcore.services.store import open_library
from tests.league_helpers import finished_match

PAIRS = ["--pair", "Ann,Cat", "--pair", "Bob,Dan", "--pair", "The Eves=Eve,Fay"]


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def matches(registry, *seated):
    store = open_library()
    try:
        return [finished_match(store, registry, names, seed) for names, seed in seated]
    finally:
        store.close()


def entries(name="Tuesday"):
    store = open_library()
    book = LeagueBook(store)
    try:
        return book.entries(book.get(name))
    finally:
        book.close()
        store.close()


def test_a_season_from_the_command_line(registry, capsys, tmp_path, monkeypatch, library):
    monkeypatch.setenv("COLUMNS", "80")
    status, out, _ = run(capsys, "league", "new", "Tuesday", "--game", "casino", "--option", "target=11",
                         "--season", "autumn", *PAIRS)
    assert status == 0 and out == "league Tuesday: 3 partnerships, Casino (target=11), season autumn\n"
    one, two = matches(registry, (["Ann", "Bob", "Cat", "Dan"], 1), (["Bob", "Eve", "Dan", "Fay"], 2))
    assert run(capsys, "league", "add", "Tuesday", str(one))[0] == 0
    status, out, _ = run(capsys, "league", "add", "Tuesday", str(two))
    assert status == 0 and f"match {two}" in out and "Bob & Dan 16 - 6 The Eves, won by Bob & Dan" in out
    status, out, _ = run(capsys, "league", "forfeit", "Tuesday", "--by", "ann & cat", "--to", "The Eves",
                         "--date", "2026-11-30")
    assert status == 0 and "forfeit, 2026-11-30: Ann & Cat forfeited to The Eves" in out
    status, out, _ = run(capsys, "league", "show", "Tuesday")
    lines = out.splitlines()
    assert status == 0 and max(map(len, lines)) <= 80
    assert lines[2].split()[:8] == ["1", "Bob", "&", "Dan", "2", "2", "0", "0"]
    assert "Ann & Cat: played" not in out and "Ann (Ann & Cat): played 1, won 0" in out
    # the forfeit (dated before both matches) is listed first
    assert [e.kind for e in entries()] == ["forfeit", "match", "match"]
    first = entries()[1]
    status, out, _ = run(capsys, "league", "correct", "Tuesday", str(first.id), "--winner", "Ann & Cat",
                         "--points", "12,10", "--reason", "miscounted")
    assert status == 0 and "Ann & Cat 12 - 10 Bob & Dan, won by Ann & Cat (corrected: miscounted)" in out
    target = tmp_path / "table.csv"
    assert run(capsys, "league", "export", "Tuesday", "--output", str(target))[0] == 0
    rows = list(csv.DictReader(target.open(newline="")))
    assert [(r["partnership"], r["played"], r["won"], r["lost"], r["forfeits"], r["points_for"],
             r["points_against"]) for r in rows] == [
        # one win each: points difference decides (+8, +2, -10)
        ("Bob & Dan", "2", "1", "1", "0", "26", "18"), ("Ann & Cat", "2", "1", "1", "1", "12", "10"),
        ("The Eves", "2", "1", "1", "0", "6", "16")]
    status, out, _ = run(capsys, "league", "export", "Tuesday", "--entries")
    listed = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and [r["kind"] for r in listed] == ["forfeit", "match", "match"]
    assert listed[1]["correction"] == "miscounted" and listed[1]["first_players"] == "Ann & Cat"
    status, out, _ = run(capsys, "league", "remove", "Tuesday", str(first.id))
    assert status == 0 and len(entries()) == 2
    status, out, _ = run(capsys, "league", "list")
    assert out == "Tuesday  Casino (target=11)  season autumn  3 partnerships, 2 entries\n"
    # another library (a server's): its own leagues
    status, out, _ = run(capsys, "league", "--library", str(tmp_path / "server.sqlite"), "list")
    assert status == 0 and out.startswith("No league yet")


@pytest.mark.parametrize("width", [20, 40, 60, 100])
def test_show_fits_the_width(registry, capsys, monkeypatch, width):
    run(capsys, "league", "new", "Tuesday", "--game", "casino", "--option", "target=11",
        "--pair", "Annabelle Longname,Catherine Longname", "--pair", "Bob,Dan")
    (one,) = matches(registry, (["Annabelle Longname", "Bob", "Catherine Longname", "Dan"], 1))
    run(capsys, "league", "add", "Tuesday", str(one))
    monkeypatch.setenv("COLUMNS", str(width))
    status, out, _ = run(capsys, "league", "show", "Tuesday")
    assert status == 0 and max(map(len, out.splitlines())) <= width
    assert "Catherine" in out and "Longname" in out  # wrapped, not cut


def test_bad_input_is_one_line_exit_2_and_nothing_changes(registry, capsys, tmp_path, library):
    run(capsys, "league", "new", "Tuesday", "--game", "casino", "--option", "target=11", *PAIRS)
    one, other = matches(registry, (["Ann", "Bob", "Cat", "Dan"], 1), (["Ann", "Cat", "Bob", "Dan"], 2))
    run(capsys, "league", "add", "Tuesday", str(one))
    before = entries()
    bad = [
        (["league", "show", "Nope"], "no league named 'Nope' (leagues: Tuesday)"),
        (["league", "add", "Tuesday", "999"], "no match 999 in the library"),
        (["league", "add", "Tuesday", str(one)], f"match {one} is already in league Tuesday"),
        (["league", "add", "Tuesday", str(other)], "side 1 (Ann & Bob) is no partnership"),
        (["league", "add", "Tuesday", str(other), "--as", "Ann & Cat"], "--as wants two partnerships"),
        (["league", "forfeit", "Tuesday", "--by", "Ann & Cat", "--to", "Ann & Cat"],
         "cannot forfeit to itself"),
        (["league", "forfeit", "Tuesday", "--by", "Ann & Cat", "--to", "X"], "has no partnership 'X'"),
        (["league", "forfeit", "Tuesday", "--by", "Ann & Cat", "--to", "Bob & Dan", "--date", "1 May"],
         "--date wants YYYY-MM-DD"),
        (["league", "correct", "Tuesday", str(before[0].id), "--points", "a,b", "--reason", "x"],
         "--points wants two whole numbers"),
        (["league", "correct", "Tuesday", "77", "--winner", "none", "--reason", "x"], "has no entry 77"),
        (["league", "remove", "Tuesday", "77"], "has no entry 77"),
        (["league", "new", "Tuesday", "--game", "casino", *PAIRS], "exists already"),
        (["league", "new", "Two", "--game", "casino"], "the following arguments are required: --pair"),
        (["league", "new", "Two", "--game", "nope", *PAIRS], "nope"),
        (["league", "new", "Two", "--game", "casino", "--option", "bogus=1", *PAIRS], "bogus"),
        (["league", "export", "Tuesday", "--output", str(tmp_path / "no" / "x.csv")], "cannot write"),
    ]
    for argv, message in bad:
        status, out, err = run(capsys, *argv)
        assert status == 2, argv
        assert message in err and err.count("\n") == 1 and "Traceback" not in err, (argv, err)
    assert entries() == before
    assert [lg for lg in run(capsys, "league", "list")[1].splitlines()] == [
        "Tuesday  Casino (target=11)  season 2026  3 partnerships, 1 entry"]
