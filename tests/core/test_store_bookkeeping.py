"""The library's bookkeeping (issue 21, item 8): ids never reused, score rows in the order the
game gave them however the match was resumed, libraries of earlier schemas migrated."""

from __future__ import annotations

import json
import sqlite3
import zlib
from pathlib import Path

import pytest

from cardcore.engine.bots.base import InfoSet
from cardcore.engine.match import Match
from cardcore.services.plugins import load_registry
from cardcore.services.store import open_library
from cardcore.services.store.checks import resume
from cardcore.services.store.sqlite import SCHEMA_VERSION, SqliteStore

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "library-v1.sqlite"


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def start(store, registry, game_id, seed, seats):
    game = registry.games[game_id]
    play = store.create(game_id, game.Options().model_dump(mode="json"), seed, seats)
    match = Match(game, seed=seed, seats=seats, on_event=play.append_event)
    match.start()
    play.save_snapshot(match.snapshot())
    return play, match


def play_to_hand(play, match, registry, hand):
    """The bots play, each action committed as the table does, until hand ``hand`` is dealt
    (or the match is over)."""
    while not match.over and match.hand_no < hand:
        seat = match.to_play
        bot = registry.bots[match.seats[seat]]()
        match.apply(bot.choose(InfoSet.of(match.game, match.state, seat), match.bot_rng(seat)))
        play.save_snapshot(match.snapshot())


def shape(row):
    """The order of a score row: its keys, each side's keys and items, in order."""
    return [list(row), [(list(side), list(side["items"])) for side in row["sides"]]]


def hand_ends(text):
    return [e["score"] for e in map(json.loads, text.splitlines()) if e["event"] == "hand_end"]


# --- ids -------------------------------------------------------------------------------


def test_a_deleted_matchs_id_is_never_given_again(registry, library):
    store = open_library()
    kept, _ = start(store, registry, "casino", 1, ["greedy", "greedy"])
    gone, _ = start(store, registry, "casino", 2, ["greedy", "greedy"])
    kept.close()
    gone.close()
    store.delete(gone.id)  # the highest id: SQLite's rowid alone gives it again
    new, _ = start(store, registry, "casino", 3, ["greedy", "greedy"])
    new.close()
    assert new.id > gone.id > kept.id
    text = new.record()
    store.delete(new.id)
    from cardcore.engine.records import parse_record_lines
    from cardcore.services.store.checks import import_checked

    imported = import_checked(store, registry.games["casino"], parse_record_lines(text, "x"))
    assert imported > new.id


def v2_library(path: Path) -> None:
    """A library as schema version 2 left it: the first-version fixture, migrated by the
    version 2 statement (net_tables), its last match deleted as `cardcore delete` did."""
    path.write_bytes(FIXTURE.read_bytes())
    conn = sqlite3.connect(path)
    conn.execute("""CREATE TABLE net_tables (
        code TEXT PRIMARY KEY, match_id INTEGER NOT NULL, status TEXT NOT NULL,
        data TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL)""")
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()


def columns(conn: sqlite3.Connection) -> dict[str, list[tuple]]:
    tables = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    out = {t: [tuple(r) for r in conn.execute(f"PRAGMA table_info({t})")] for t in tables}
    out["indexes"] = sorted(r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'"))
    out["autoincrement"] = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE sql LIKE '%AUTOINCREMENT%'")]
    return out


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_library_is_migrated_and_gives_no_id_twice(tmp_path, registry, version):
    path = tmp_path / "library.sqlite"
    if version == 1:
        path.write_bytes(FIXTURE.read_bytes())
    else:
        v2_library(path)
    before = sqlite3.connect(path)
    cursor = before.execute("SELECT * FROM matches ORDER BY id")
    rows, names = cursor.fetchall(), [d[0] for d in cursor.description]
    before.close()
    store = SqliteStore(path)
    assert store.notice is None
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    fresh = SqliteStore(tmp_path / "new.sqlite")
    assert columns(store.conn) == columns(fresh.conn)  # the same schema as a new library's
    kept = store.conn.execute(f"SELECT {', '.join(names)} FROM matches ORDER BY id").fetchall()
    assert kept == rows  # every match kept, column for column
    top = max(r[0] for r in rows)
    store.delete(top)
    play, _ = start(store, registry, "casino", 9, ["greedy", "greedy"])
    play.close()
    assert play.id == top + 1
    store.close()
    fresh.close()


# --- the order of score rows --------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "players"), [("royal_casino", 2), ("canasta", 4)])
def test_score_rows_keep_the_games_order_however_the_match_was_resumed(registry, game_id, players, library):
    store = open_library()
    play, match = start(store, registry, game_id, 7, ["greedy"] * players)
    play_to_hand(play, match, registry, 2)
    live = shape(match.sheet.hands[0])
    play.close()
    play = store.open(play.id)
    match = resume(play, registry.games[game_id], on_event=play.append_event)
    play.save_snapshot(match.snapshot())
    play_to_hand(play, match, registry, 3)
    play.close()
    assert len(match.sheet.hands) == 2
    assert [shape(r) for r in match.sheet.hands] == [live, live]  # the sheet of the resumed match
    assert [shape(r) for r in hand_ends(store.export_record(play.id))] == [live, live]  # the record
    assert [shape(r) for r in store.score_sheet(play.id)] == [live, live]  # the history's sheet
    assert store.score_sheet(play.id) == match.sheet.hands
    again = store.open(play.id)  # and resumed once more, from the snapshot saved after the resume
    assert [shape(r) for r in resume(again, registry.games[game_id]).sheet.hands] == [live, live]
    again.close()


#: ``matches`` as schema versions 1 and 2 made it (cardcore/services/store/sqlite.py before version 3).
OLD_MATCHES = """
CREATE TABLE matches (
    id INTEGER PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL, seed TEXT NOT NULL,
    seats TEXT NOT NULL, names TEXT NOT NULL, side_names TEXT NOT NULL,
    totals TEXT NOT NULL DEFAULT '[]', hand INTEGER NOT NULL DEFAULT 0,
    decisions INTEGER NOT NULL DEFAULT 0, started REAL NOT NULL, last_played REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0, winner INTEGER, source TEXT NOT NULL,
    n_events INTEGER NOT NULL DEFAULT 0, snapshot BLOB)"""
OLD_COLUMNS = ("id, game, options, seed, seats, names, side_names, totals, hand, decisions, "
               "started, last_played, finished, winner, source, n_events, snapshot")


def as_version_2_wrote_it(path: Path) -> None:
    """The library at ``path`` as schema version 2 would have written the same play: the old
    ``matches`` table, and snapshots and score rows stored with their keys sorted."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    rows = conn.execute(f"SELECT {OLD_COLUMNS} FROM matches").fetchall()
    conn.execute("DROP TABLE matches")
    conn.execute("DELETE FROM sqlite_sequence")  # (the table itself cannot be dropped)
    conn.execute(OLD_MATCHES)
    conn.execute("CREATE INDEX matches_by_state ON matches (finished, last_played)")
    for row in rows:
        snap = row[-1] and zlib.compress(json.dumps(json.loads(zlib.decompress(row[-1])),
                                                    sort_keys=True, separators=(",", ":")).encode())
        conn.execute(f"INSERT INTO matches ({OLD_COLUMNS}) VALUES ({', '.join('?' * len(row))})",
                     (*row[:-1], snap))
    for match_id, seq, row in conn.execute("SELECT match_id, seq, row FROM scores").fetchall():
        conn.execute("UPDATE scores SET row = ? WHERE match_id = ? AND seq = ?",
                     (json.dumps(json.loads(row), sort_keys=True, separators=(",", ":")),
                      match_id, seq))
    conn.execute("PRAGMA user_version = 2")
    conn.execute("COMMIT")
    conn.close()


def test_a_snapshot_stored_in_sorted_order_by_an_earlier_version_is_put_back_in_order(tmp_path,
                                                                                    registry):
    """A canasta match stopped in hand 2 in a version 2 library: once migrated and resumed,
    its sheet's rows read as the record has them, hand 1's as hand 2's."""
    path = tmp_path / "library.sqlite"
    store = SqliteStore(path)
    play, match = start(store, registry, "canasta", 7, ["greedy"] * 4)
    play_to_hand(play, match, registry, 2)
    live = shape(match.sheet.hands[0])
    play.close()
    store.close()
    as_version_2_wrote_it(path)
    store = SqliteStore(path)
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    play = store.open(play.id)
    match = resume(play, registry.games["canasta"], on_event=play.append_event)
    play.save_snapshot(match.snapshot())
    play_to_hand(play, match, registry, 3)
    play.close()
    assert [shape(r) for r in match.sheet.hands] == [live, live]
    assert [shape(r) for r in store.score_sheet(play.id)] == [live, live]
    store.close()


def test_statistics_read_the_same_from_rows_in_either_order(tmp_path, registry):
    """`cardcore stats` lists a player's counts in one order whether the library stored
    its score rows sorted (versions 1 and 2) or in the game's order (version 3)."""
    path = tmp_path / "library.sqlite"
    store = SqliteStore(path)
    play, match = start(store, registry, "royal_casino", 5, ["greedy", "random"])
    play_to_hand(play, match, registry, 99)
    play.close()
    assert store.get(play.id).finished

    def listed(s):
        return [(st.player, list(st.counts.items())) for st in s.stats()]

    now = listed(store)
    assert all(counts for _, counts in now)
    store.close()
    as_version_2_wrote_it(path)
    assert listed(SqliteStore(path)) == now


# --- records of several matches, imported once -------------------------------------------


@pytest.fixture
def three_matches(tmp_path):
    """`cardcore simulate --matches 3 --record` (casino: the quickest whole matches)."""
    from cardcore.apps.cli import main

    path = tmp_path / "x.jsonl"
    assert main(["simulate", "casino", "--matches", "3", "--seed", "3", "--record", str(path)]) == 0
    return path


def matches_of(path: Path) -> list[str]:
    """The record's text cut at each match_start: one text a match."""
    out: list[str] = []
    for line in path.read_text().splitlines(keepends=True):
        if '"event":"match_start"' in line:
            out.append("")
        out[-1] += line
    return out


def test_import_keeps_each_match_of_a_record_of_several(three_matches, capsys, library):
    from cardcore.apps.cli import main

    capsys.readouterr()
    assert main(["import", str(three_matches)]) == 0  # was: exit 2, "a 'match_start' event where..."
    out = capsys.readouterr().out.splitlines()
    assert [line.split(" as match ")[0] for line in out] == [
        f"imported {three_matches} (match {i} of 3)" for i in (1, 2, 3)]
    store = open_library()
    done = sorted(store.finished(), key=lambda m: m.id)
    assert [m.seed for m in done] == [3, 4, 5]
    assert [store.export_record(m.id) for m in done] == matches_of(three_matches)  # byte for byte


@pytest.mark.slow
def test_importing_the_same_record_twice_keeps_one_copy_unless_again(three_matches, tmp_path,
                                                                     capsys, library):
    from cardcore.apps.cli import main

    assert main(["import", str(three_matches)]) == 0
    capsys.readouterr()
    assert main(["import", str(three_matches)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and all("is already in the library as match" in line and "--again" in line
                                 for line in out)
    store = open_library()
    assert len(store.finished()) == 3
    # the same events spaced and ordered otherwise, with CRLF ends, are the same record
    first = matches_of(three_matches)[0]
    respaced = tmp_path / "respaced.jsonl"
    respaced.write_bytes("".join(json.dumps(json.loads(line), sort_keys=True, indent=None) + "\r\n"
                                 for line in first.splitlines()).encode())
    assert main(["import", str(respaced)]) == 0
    assert capsys.readouterr().out.startswith(f"{respaced} is already in the library as match ")
    # a match played here, exported, is the same as itself
    play, match = start(store, load_registry(), "casino", 40, ["greedy", "greedy"])
    play_to_hand(play, match, load_registry(), 99)
    play.close()
    exported = tmp_path / "exported.jsonl"
    exported.write_text(store.export_record(play.id))
    assert main(["import", str(exported)]) == 0
    assert capsys.readouterr().out.strip() == (
        f"{exported} is already in the library as match {play.id}: not imported again "
        "(`--again` imports a second copy)")
    assert len(store.finished()) == 4
    assert main(["import", str(three_matches), "--again"]) == 0
    assert capsys.readouterr().out.count("imported ") == 3
    assert len(store.finished()) == 7


def test_a_record_of_several_with_one_forged_match_adds_none(three_matches, tmp_path, capsys, library):
    from cardcore.apps.cli import main

    texts = matches_of(three_matches)
    lines = texts[2].splitlines(keepends=True)
    assert '"event":"action","hand":1,"seat":0' in lines[3]
    lines[3] = lines[3].replace('"seat":0', '"seat":1', 1)  # the other seat's move: forged
    forged = tmp_path / "forged.jsonl"
    forged.write_text(texts[0] + texts[1] + "".join(lines))
    capsys.readouterr()
    assert main(["import", str(forged)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{forged} (match 3 of 3): refused: line " in err
    assert open_library().finished() == []


def test_replay_of_a_record_of_several_picks_one(three_matches, capsys, monkeypatch):
    import cardcore.apps.tui
    from cardcore.apps.cli import main

    shown: list[tuple[str, int]] = []
    monkeypatch.setattr(cardcore.apps.tui, "run_replay", lambda path, match=0: shown.append((path, match)))
    capsys.readouterr()
    assert main(["replay", str(three_matches)]) == 0  # was: exit 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds 3 matches" in err and "--match N" in err
    assert main(["replay", str(three_matches), "--match", "3"]) == 0
    assert capsys.readouterr().err == ""
    assert shown == [(str(three_matches), 0), (str(three_matches), 2)]
    assert main(["replay", str(three_matches), "--match", "4"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds 3 matches (--match 1 to 3), not a match 4" in err


def test_a_match_twice_in_one_record_is_imported_once(three_matches, tmp_path, capsys, library):
    from cardcore.apps.cli import main

    texts = matches_of(three_matches)
    doubled = tmp_path / "doubled.jsonl"
    doubled.write_text(texts[0] + texts[1] + texts[0])
    capsys.readouterr()
    assert main(["import", str(doubled)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2] == (f"{doubled} (match 3 of 3) is the same as its match 1: not imported again "
                      "(`--again` imports a second copy)")
    assert len(open_library().finished()) == 2
