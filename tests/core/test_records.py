import json
import os
import subprocess
import sys

import pytest

from cardcore.engine.bots import RandomBot
from cardcore.engine.bots.play import play_bots
from cardcore.engine.match import Match
from cardcore.engine.records import RecordError, SaveFile
from cardcore.services.files import (
    RecordWriter,
    autosave_path,
    data_dir,
    read_record,
    read_save,
    write_save,
)


def record_twice(tmp_path, game, seed, extra=()):
    files = []
    for hashseed in ("1", "4242"):
        out = tmp_path / f"rec-{hashseed}.jsonl"
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        run = subprocess.run([sys.executable, "-m", "cardcore", "simulate", game, "--matches", "2",
                              "--seed", str(seed), "--record", str(out), *extra],
                             capture_output=True, text=True, env=env, timeout=600)
        assert run.returncode == 0, run.stderr
        files.append(out.read_bytes())
    return files


@pytest.mark.parametrize("game, extra", [
    ("casino", ["--players", "3", "--seats", "greedy,random,greedy"]),
    ("canasta", ["--target", "1000", "--seats", "greedy,random,random,greedy"]),
])
@pytest.mark.slow
def test_records_are_byte_identical_whatever_the_hash_seed(tmp_path, game, extra):
    a, b = record_twice(tmp_path, game, 7, extra)
    assert a == b
    lines = a.decode().splitlines()
    assert json.loads(lines[0])["event"] == "match_start"
    assert lines[0] == json.dumps(json.loads(lines[0]), separators=(",", ":"), ensure_ascii=False)


def test_a_record_replays_to_the_same_states(tmp_path, crazy_eights):
    path = tmp_path / "r.jsonl"
    with open(path, "w") as f:
        match = Match(crazy_eights, crazy_eights.Options(target=80), seed=2, players=2,
                      on_event=RecordWriter(f))
        match.start()
        play_bots(match, {0: RandomBot(), 1: RandomBot()})
    events = read_record(path)
    state = None
    for e in events:
        if e.event == "deal":
            state = crazy_eights.state_from_json(e.state)
        elif e.event == "action":
            state.apply(crazy_eights.action_from_json(state, e.action))
            assert state.export() == e.state
        elif e.event == "hand_end":
            assert state.score() == e.score


def test_saves_live_in_cardcore_home(cardcore_home):
    assert data_dir() == cardcore_home
    assert autosave_path().is_relative_to(cardcore_home)


def test_a_save_round_trips_and_is_written_atomically(tmp_path):
    path = tmp_path / "saves" / "s.json"
    save = SaveFile(match={"game": "x", "hand": 3})
    write_save(path, save)
    assert read_save(path) == save
    assert [p.name for p in path.parent.iterdir()] == ["s.json"]  # no temp file left behind


@pytest.mark.parametrize("content, message", [
    ('{"format": "cardcore-save", "version": 1, "match": {"ga', "corrupt or truncated"),
    ("", "corrupt or truncated"),
    ('{"hello": "world"}', "not a cardcore save"),
    ('[1, 2]', "not a cardcore save"),
    ('{"format": "cardcore-save", "version": 99, "match": {}}', "save format 99"),
    ('{"format": "cardcore-save", "version": 1}', "bad save (match: Field required)"),
])
def test_bad_saves_give_a_clear_error_and_are_left_untouched(tmp_path, content, message):
    path = tmp_path / "save.json"
    path.write_text(content)
    with pytest.raises(RecordError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_save(path)
    assert path.read_text() == content


def test_bad_records_give_a_clear_error(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"event": "deal"}\n')
    with pytest.raises(RecordError, match="no match_start"):
        read_record(path)
    path.write_text('{"event": "match_start"}\nnot json\n')
    with pytest.raises(RecordError, match="line 2 is not JSON"):
        read_record(path)
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "missing.jsonl")


# --- a record's fields given the wrong type: one line, never a traceback ----------------

#: A value of every JSON type but the one a field has (and a few edge values).
WRONG = [5, -1, 2**70, 1.5, "x", None, True, [], [1], {}, {"a": 1}]


def _fields(value, path=()):
    """The paths of a line's fields, into objects and the first item of lists (score rows:
    a side's seats, items, counts, note)."""
    yield path
    if len(path) < 4 and isinstance(value, dict):
        for key, item in value.items():
            if path or key not in ("event", "state"):  # a position is the game's: compared whole
                yield from _fields(item, (*path, key))
    elif len(path) < 4 and isinstance(value, list) and value:
        yield from _fields(value[0], (*path, 0))


def _with(line, path, value):
    data = json.loads(line)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(data)


@pytest.mark.slow
def test_every_field_of_every_event_given_a_wrong_type_is_one_line_never_a_traceback():
    """What import and replay do with a record (read, rebuild through the engine, the score
    sheets drawn): each field of each kind of event, given each wrong type, is either
    refused with one line (RecordError) or read and drawn."""
    from cardcore.apps.tui.session import Replay
    from cardcore.apps.tui.widgets.sheet import score_table
    from cardcore.services.plugins import load_registry

    from .test_journal import played_record

    registry = load_registry()
    lines = played_record(registry.games["casino"], 3, 2, undo_at=1)
    lines.insert(2, '{"event":"seat","seat":1,"what":"named","name":"Bob"}')  # after the deal
    end = next(i for i, line in enumerate(lines) if '"event":"hand_end"' in line)
    lines = lines[:end + 1]  # the first hand: every kind but match_end (compared whole)
    assert Replay.from_text(registry, "\n".join(lines), "fuzzed").final_sheet is not None
    firsts = {}
    for i, line in enumerate(lines):
        firsts.setdefault(json.loads(line)["event"], i)
    assert set(firsts) == {"match_start", "seat", "deal", "action", "undo", "resume", "hand_end"}
    tried = refused = 0
    for i in firsts.values():
        for path in list(_fields(json.loads(lines[i])))[1:]:
            for value in WRONG:
                text = "\n".join([*lines[:i], _with(lines[i], path, value), *lines[i + 1:]])
                tried += 1
                try:
                    replay = Replay.from_text(registry, text, "fuzzed")
                except RecordError as exc:
                    assert "\n" not in str(exc) and str(exc).startswith("fuzzed: ")
                    refused += 1
                    continue
                for sheet in {id(s): s for s in replay.sheets}.values():
                    score_table(sheet)
    assert tried > 300 and 0 < refused < tried


@pytest.mark.parametrize("path, value, says", [
    (("score", "sides"), 5, "score: a score row needs sides: a list of objects"),
    (("score", "sides", 0, "counts"), 5, "score: sides.0.counts: an object (what was counted, by name)"),
    (("score", "sides", 1, "note"), [], "score: sides.1.note: text"),
    ("undo", 2**70, "undo by a seat this match does not have"),
])
def test_import_and_replay_refuse_an_ill_typed_field_in_one_line(tmp_path, capsys, crazy_eights,
                                                                 path, value, says):
    from cardcore.apps import cli

    from .test_journal import played_record

    lines = played_record(crazy_eights, 3, 2)
    if path == "undo":  # an undo's seat is written, not compared to the engine's
        path, kind = ("seat",), '"event":"undo"'
    else:
        kind = '"event":"hand_end"'
    end = next(i for i, line in enumerate(lines) if kind in line)
    lines[end] = _with(lines[end], path, value)
    record = tmp_path / "bad.jsonl"
    record.write_text("\n".join(lines) + "\n")
    for command in ("import", "replay"):
        assert cli.main([command, str(record)]) == 2
        out, err = capsys.readouterr()
        # import says the rebuild "refused" the record; both name the line
        assert err.replace(": refused: ", ": ") == f"cardcore: error: {record}: line {end + 1}: {says}\n"
