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
