"""The match library: resume any match, delete, export / import, history, statistics (the
tests taking ``library`` run on both back ends: SQLite and PostgreSQL)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cardcore.apps.cli import main
from cardcore.engine import records
from cardcore.engine.bots.base import InfoSet
from cardcore.engine.bots.play import play_bots
from cardcore.engine.journal import parse_event
from cardcore.engine.match import Match
from cardcore.engine.records import RecordError
from cardcore.services import files
from cardcore.services.files import RecordWriter
from cardcore.services.plugins import load_registry
from cardcore.services.store import MatchLocked, NoSuchMatch, StoreError, open_library
from cardcore.services.store.checks import import_checked, resume
from cardcore.services.store.sqlite import SCHEMA_VERSION, SqliteStore, library_path

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "library-v1.sqlite"


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def reference(registry, game_id, seed, seats, **kw):
    """The record the table writes for this match, played through without a stop."""
    game = registry.games[game_id]
    out = io.StringIO()
    match = Match(game, seed=seed, seats=seats, on_event=lambda e: out.write(records.dumps(e) + "\n"),
                  **kw)
    match.start()
    play_bots(match, {s: registry.bots[b]() for s, b in enumerate(seats)})
    return out.getvalue()


def start(store, registry, game_id, seed, seats, names=None):
    game = registry.games[game_id]
    play = store.create(game_id, game.Options().model_dump(mode="json"), seed, seats, names)
    match = Match(game, seed=seed, seats=seats, names=names, on_event=play.append_event)
    match.start()
    play.save_snapshot(match.snapshot())
    return play, match


def step(play, match, registry, n=None):
    """The bots play ``n`` actions (all, by default), each committed as the table does."""
    game = match.game
    done = 0
    while not match.over and (n is None or done < n):
        seat = match.to_play
        bot = registry.bots[{"human": "greedy"}.get(match.seats[seat], match.seats[seat])]()
        match.apply(bot.choose(InfoSet.of(game, match.state, seat), match.bot_rng(seat)))
        play.save_snapshot(match.snapshot())
        done += 1


def without_resumes(text):
    return "".join(line + "\n" for line in text.splitlines() if '"event":"resume"' not in line)


def test_resume_each_of_two_unfinished_matches_after_a_third_was_started(registry, library):
    store = open_library()
    seats = ["greedy", "random"]
    a, ma = start(store, registry, "casino", 11, seats)
    step(a, ma, registry, 10)
    a.close()
    b, mb = start(store, registry, "casino", 12, seats)
    step(b, mb, registry, 25)
    b.close()
    c, mc = start(store, registry, "casino", 13, seats)  # nothing is overwritten by it
    step(c, mc, registry, 3)
    listed = store.list_unfinished()
    assert [m.id for m in listed] == [c.id, b.id, a.id]  # newest first
    assert listed[0].locked and not listed[1].locked
    assert [m.decisions for m in listed] == [3, 25, 10]
    for play_id, seed in ((a.id, 11), (b.id, 12)):
        play = store.open(play_id)
        match = resume(play, registry.games["casino"], on_event=play.append_event)
        play.save_snapshot(match.snapshot())
        step(play, match, registry)
        play.close()
        record = store.export_record(play_id)
        assert record.count('"event":"resume"') == 1
        assert without_resumes(record) == reference(registry, "casino", seed, seats)
    assert [m.id for m in store.list_unfinished()] == [c.id]
    assert {m.id for m in store.finished()} == {a.id, b.id}
    assert store.get(a.id).winner is not None
    assert len(store.score_sheet(a.id)) == store.get(a.id).hand
    c.close()


def test_a_match_held_elsewhere_is_locked_and_a_closed_one_is_not(registry, library):
    store = open_library()
    play, match = start(store, registry, "casino", 1, ["greedy", "greedy"])
    other = open_library()  # another connection: its hold is refused, as across processes
    with pytest.raises(MatchLocked, match="being played in another cardcore"):
        other.open(play.id)
    with pytest.raises(MatchLocked):
        other.delete(play.id)
    play.close()
    again = other.open(play.id)
    assert again.snapshot() == match.snapshot()
    again.close()


def test_an_id_no_library_holds_is_no_such_match_on_either_back_end(library):
    store = open_library()
    for bad in (0, -1, 3_000_000_000, 2**70):
        for call in (store.get, store.load, store.open, store.delete, store.export_record):
            with pytest.raises(NoSuchMatch, match=f"no match {bad} in the library"):
                call(bad)
    assert store.list_unfinished() == [] and store.finished() == []


def test_delete(registry, library):
    store = open_library()
    keep, _ = start(store, registry, "casino", 1, ["greedy", "greedy"])
    gone, match = start(store, registry, "casino", 2, ["greedy", "greedy"])
    step(gone, match, registry, 5)
    keep.close()
    gone.close()
    store.delete(gone.id)
    assert [m.id for m in store.list_unfinished()] == [keep.id]
    with pytest.raises(NoSuchMatch):
        store.export_record(gone.id)
    with pytest.raises(NoSuchMatch):
        store.load(gone.id)
    rows = store.conn.execute("SELECT count(*) FROM events WHERE match_id = ?", (gone.id,)).fetchone()
    assert rows[0] == 0


def test_export_is_what_the_table_writes_and_import_export_is_byte_identical(registry, library, tmp_path,
                                                                           capsys):
    store = open_library()
    play, match = start(store, registry, "casino", 5, ["greedy", "random", "greedy", "random"])
    step(play, match, registry)
    play.close()
    first = store.export_record(play.id)
    assert first == reference(registry, "casino", 5, ["greedy", "random", "greedy", "random"])
    capsys.readouterr()
    assert main(["export", str(play.id)]) == 0
    assert capsys.readouterr().out == first
    path = tmp_path / "match.jsonl"
    path.write_text(first, encoding="utf-8")
    assert main(["import", str(path)]) == 0  # the library holds it already: said, not added
    assert f"already in the library as match {play.id}" in capsys.readouterr().out
    assert main(["import", str(path), "--again"]) == 0
    new_id = int(capsys.readouterr().out.split(" as match ")[1].split()[0])
    assert new_id != play.id and store.get(new_id).finished and store.get(new_id).source == "import"
    assert store.export_record(new_id) == first
    assert main(["export", str(new_id)]) == 0
    assert capsys.readouterr().out == first
    assert store.score_sheet(new_id) == store.score_sheet(play.id)


def test_a_forged_record_is_refused_in_one_line_and_nothing_is_added(registry, library, tmp_path, capsys):
    text = reference(registry, "casino", 3, ["greedy", "greedy"])
    lines = text.splitlines()
    forged = json.loads(lines[3])
    assert forged["event"] == "action"
    forged["state"]["sweeps"] = [5, 0]
    lines[3] = records.compact_json(forged).decode()
    path = tmp_path / "forged.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["import", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 4" in err and "refused" in err
    assert open_library().finished() == [] and open_library().list_unfinished() == []


def test_an_unfinished_record_imports_as_a_match_to_resume(registry, library, tmp_path):
    text = reference(registry, "casino", 4, ["greedy", "greedy"])
    cut = "".join(line + "\n" for line in text.splitlines()[:20])
    store = open_library()
    numbered = list(enumerate((parse_event(json.loads(x)) for x in cut.splitlines()), start=1))
    match_id = import_checked(store, registry.games["casino"], numbered)
    assert store.export_record(match_id) == cut
    play = store.open(match_id)
    match = resume(play, registry.games["casino"], on_event=play.append_event)
    play.save_snapshot(match.snapshot())
    step(play, match, registry)
    play.close()
    assert store.get(match_id).finished
    with pytest.raises(RecordError):  # a record cut in the middle of an event's line is refused
        import_checked(store, registry.games["casino"], [(1, {"event": "match_start"})])


def recount(registry, text):
    """Per (name or bot id): matches, wins, hands, points and counts, read from a record and
    from the positions in it (not from the store's figures)."""
    events = [json.loads(x) for x in text.splitlines()]
    start_ = events[0]
    out = {}
    ends = [e for e in events if e["event"] == "hand_end"]
    winner = next(e["winner"] for e in events if e["event"] == "match_end")
    last_state = {}
    for e in events:
        if e["event"] in ("action", "deal"):
            last_state[e["hand"]] = e["state"]
    return start_, ends, winner, last_state, out


@pytest.mark.slow
def test_statistics_are_the_counts_recomputed_from_the_records(registry, library, capsys):
    store = open_library()
    expected = {}
    names = ["Ada", "Bob"]

    def add(key, **kw):
        row = expected.setdefault(key, {"matches": 0, "wins": 0, "hands": 0, "points": 0,
                                        "sweeps": 0, "big_casino": 0})
        for k, v in kw.items():
            row[k] += v

    for seed in range(6):
        seats = ["human", "greedy"] if seed % 2 else ["greedy", "human"]
        seat_names = names if seed % 2 else names[::-1]
        play, match = start(store, registry, "casino", seed, seats, seat_names)
        step(play, match, registry)
        play.close()
        _, ends, winner, last_state, _ = recount(registry, store.export_record(play.id))
        for seat, who in enumerate(seats):
            key = ("casino", seat_names[seat] if who == "human" else who)
            add(key, matches=1, wins=int(winner == seat))
            for end in ends:
                state = last_state[end["hand"]]
                add(key, hands=1, points=end["score"]["sides"][seat]["total"],
                    big_casino=int("10D" in state["captured"][seat]),
                    sweeps=end["score"]["sides"][seat]["items"]["sweeps"])
    got = {("casino", s.player): {"matches": s.matches, "wins": s.wins, "hands": s.hands,
                                  "points": s.points, "sweeps": s.counts.get("sweeps", 0),
                                  "big_casino": s.counts.get("big_casino", 0)}
           for s in store.stats("casino")}
    assert got == expected
    assert sum(v["big_casino"] for v in got.values()) == sum(v["hands"] for v in got.values()) // 2
    capsys.readouterr()
    assert main(["stats", "casino"]) == 0
    out = capsys.readouterr().out
    assert "Casino (standard)" in out and "Ada" in out and "greedy (bot)" in out


def test_canasta_counts_from_the_score_items_agree_with_the_melds(registry, library):
    store = open_library()
    seats = ["random"] * 4
    game = registry.games["canasta"]
    play = store.create("canasta", game.Options().model_dump(mode="json"), 9, seats)
    match = Match(game, seed=9, seats=seats, max_hands=2, on_event=play.append_event)
    match.start()
    play.save_snapshot(match.snapshot())
    step(play, match, registry)
    play.close()
    _, ends, _, last_state, _ = recount(registry, store.export_record(play.id))
    canastas = sum(len([m for m in side if len(m["cards"]) >= 7])
                   for e in ends for side in last_state[e["hand"]]["melds"])
    reds = sum(len(side) for e in ends for side in last_state[e["hand"]]["red_threes"])
    stats = store.stats("canasta")
    assert len(stats) == 1 and stats[0].player == "random" and stats[0].bot
    assert stats[0].counts["canastas"] == canastas
    assert stats[0].counts["red_threes"] == reds


def test_counts_are_read_when_a_score_row_has_them(registry):
    from cardcore.services.store.stats import side_counts

    casino = registry.games["casino"]
    extras = casino.score_extras(casino.Options())
    old = {"sides": [{"items": {"sweeps": 2, "big_casino": 2}}]}  # stored before rows had counts
    assert side_counts(old, 0, extras) == {"sweeps": 2, "big_casino": 1}  # the game derives them
    assert side_counts(old, 0) == {}  # the core alone knows no game's items
    new = {"sides": [{"items": {"sweeps": 2}, "counts": {"sweeps": 3, "aces": ["AS"]}}]}
    assert side_counts(new, 0, extras) == {"sweeps": 3}
    assert side_counts({"sides": [{"items": {"x": 1}}]}, 0) == {}


def test_statistics_of_the_first_version_fixture_are_the_games_reading_of_its_rows(tmp_path, registry):
    """Rows stored before ``counts``: casino's sweeps and big casinos come from the points, and
    Royal Casino's aces and outright wins from its own keys, all through ``Game.score_extras``."""
    path = tmp_path / "library.sqlite"
    path.write_bytes(FIXTURE.read_bytes())
    store = SqliteStore(path)
    expected: dict[tuple[str, str], dict[str, int]] = {}
    for m in store.finished():
        assert m.players() and len(m.seats) == 2  # two players: seat i is side i
        for seat, who in enumerate(m.seats):
            name = m.names[seat] if who == "human" else who
            want = expected.setdefault((m.game, name), {})
            for row in store.score_sheet(m.id):
                side = row["sides"][seat]
                assert "counts" not in side
                for key, n in (("sweeps", side["items"]["sweeps"]),
                               ("big_casino", side["items"]["big_casino"] // 2),
                               ("aces", len(side.get("ace_cards", []))),
                               ("outright", int(seat in row.get("outright", [])))):
                    if m.game == "royal_casino" or key in ("sweeps", "big_casino"):
                        want[key] = want.get(key, 0) + n
    got = {(st.game, st.player): st.counts for st in store.stats(games=registry.games)}
    assert got == expected
    assert {"casino", "royal_casino"} == {game for game, _ in got}
    assert sum(c.get("outright", 0) for c in got.values()) == 1
    assert all(c == {} for c in (st.counts for st in store.stats()))
    store.close()


def test_variants_are_told_apart(registry, library, capsys):
    store = open_library()
    game = registry.games["casino"]
    for target in (21, 11):
        options = game.Options(target=target)
        play = store.create("casino", options.model_dump(mode="json"), 1, ["greedy", "greedy"])
        match = Match(game, options, seed=1, seats=["greedy", "greedy"], on_event=play.append_event)
        match.start()
        play.save_snapshot(match.snapshot())
        step(play, match, registry)
        play.close()
    assert len({json.dumps(s.options) for s in store.stats()}) == 2
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "Casino (standard)" in out and "Casino (target=11)" in out


def test_the_old_autosave_is_imported_once_and_left_as_it_was(registry, library):
    game = registry.games["casino"]
    files.records_dir().mkdir(parents=True)
    record_path = files.records_dir() / "old.jsonl"
    with open(record_path, "w", encoding="utf-8", newline="\n") as f:
        match = Match(game, seed=8, seats=["human", "greedy"], on_event=RecordWriter(f))
        match.start()
        for _ in range(6):
            seat = match.to_play
            match.apply(registry.bots["greedy"]().choose(InfoSet.of(game, match.state, seat),
                                                        match.bot_rng(seat)))
    save = records.SaveFile(match=match.snapshot(), record_path=str(record_path))
    files.write_save(files.autosave_path(), save)
    before = files.autosave_path().read_bytes()
    store = open_library()
    (old,) = store.list_unfinished()
    assert old.source == "autosave" and old.decisions == 6
    assert old.names == list(match.seating.names) and old.seats == ["human", "greedy"]
    assert store.export_record(old.id) == record_path.read_text(encoding="utf-8")
    assert store.load(old.id) == match.snapshot()
    assert files.autosave_path().read_bytes() == before
    assert len(open_library().list_unfinished()) == 1  # once
    store.delete(old.id)
    assert open_library().list_unfinished() == []  # and not again after a delete


def test_cli_resume_and_history(registry, library, capsys, monkeypatch):
    import cardcore.apps.tui

    store = open_library()
    a, ma = start(store, registry, "casino", 1, ["human", "greedy"])
    step(a, ma, registry, 4)
    a.close()
    b, mb = start(store, registry, "casino", 2, ["human", "greedy"])
    b.close()
    seen = []
    monkeypatch.setattr(cardcore.apps.tui, "run_resume_match", seen.append, raising=False)
    assert main(["resume"]) == 0
    assert main(["resume", str(a.id)]) == 0
    assert seen == [b.id, a.id]
    held = store.open(a.id)
    capsys.readouterr()
    assert main(["resume", str(a.id)]) == 2
    assert "being played in another cardcore" in capsys.readouterr().err
    held.close()
    assert main(["resume", "999"]) == 2
    assert "no match 999" in capsys.readouterr().err
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "Unfinished (2)" in out and "Player 1 (human)" in out
    assert main(["delete", str(b.id)]) == 0
    assert [m.id for m in store.list_unfinished()] == [a.id]


def test_cli_resume_plays_a_library_match_the_most_recent_by_default(registry, library, capsys, monkeypatch):
    import cardcore.apps.tui

    played: list[int] = []
    monkeypatch.setattr(cardcore.apps.tui, "run_resume_match", played.append)
    store = open_library()
    assert main(["resume"]) == 2  # nothing to resume: one line
    assert "no unfinished match" in capsys.readouterr().err
    a, _ = start(store, registry, "casino", 1, ["human", "greedy"])
    a.close()
    b, _ = start(store, registry, "casino", 2, ["human", "greedy"])
    b.close()
    assert main(["resume", str(a.id)]) == 0
    assert main(["resume"]) == 0
    assert played == [a.id, b.id]


def test_load_refuses_a_finished_match_and_a_damaged_snapshot(registry, library):
    store = open_library()
    play, match = start(store, registry, "casino", 1, ["greedy", "greedy"])
    step(play, match, registry)
    play.close()
    with pytest.raises(StoreError, match="is finished"):
        store.open(play.id)
    other, _ = start(store, registry, "casino", 2, ["greedy", "greedy"])
    other.close()
    store.conn.execute("UPDATE matches SET snapshot = ? WHERE id = ?", (b"\x00\xff", other.id))
    with pytest.raises(StoreError, match="damaged"):
        store.load(other.id)


def test_the_committed_first_version_fixture_opens(tmp_path, registry):
    path = tmp_path / "library.sqlite"
    path.write_bytes(FIXTURE.read_bytes())
    store = SqliteStore(path)
    assert store.notice is None
    # opened, it is migrated to the current version (net_tables added), its matches kept
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
    assert store.net_tables() == []
    unfinished = store.list_unfinished()
    finished = store.finished()
    assert len(unfinished) == 1 and len(finished) == 2
    for m in finished:
        text = store.export_record(m.id)
        numbered = records.parse_record_lines(text, "export")
        from cardcore.engine.replay import replay

        replay(registry.games[m.game], numbered)
    play = store.open(unfinished[0].id)
    match = resume(play, registry.games[unfinished[0].game], on_event=play.append_event)
    play.save_snapshot(match.snapshot())
    step(play, match, registry)
    play.close()
    assert store.stats()
    assert library_path() != path
