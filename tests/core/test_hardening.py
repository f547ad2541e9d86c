"""Hostile files and unlucky users: every bad input is one line, and nothing is written
where a file says (the hardening issue). Each case failed before its fix."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardcore.apps.cli import main
from cardcore.apps.tui.session import Session, SessionSetup
from cardcore.engine import records
from cardcore.services import files
from cardcore.services.plugins import load_registry
from tests.plugin_helpers import fake_distribution

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "crazy_eights"


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.startswith("cardcore: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


# --- saves: validated, and never deciding where cardcore writes ---------------------------


@pytest.fixture
def saved_match():
    """A casino match against greedy with one move played: its autosave and record, as the
    table left them before the library (``cardcore resume FILE`` still takes them)."""
    registry = load_registry()
    game = registry.games["casino"]
    session = Session.new(registry, SessionSetup(game, game.Options(), ["human", "greedy"], 5))
    while session.to_play is not None and session.is_bot(session.to_play):
        session.bot_step()
    session.apply(session.legal_actions()[0])
    record = files.records_dir() / "20240101-000000-casino-5.jsonl"
    record.parent.mkdir(parents=True)
    record.write_text(session.record())
    session.close()
    path = files.autosave_path()
    files.write_save(path, records.SaveFile(match=session.match.snapshot(), record_path=str(record)))
    return registry, path, json.loads(path.read_text())


def test_a_save_cannot_make_cardcore_write_into_another_file(saved_match, tmp_path):
    registry, path, save = saved_match
    victim = tmp_path / "bashrc"
    victim.write_text("# my shell\n")
    save["record_path"] = str(victim)
    save["match"]["decisions"] = "$(touch /tmp/cardcore-pwned)"
    path.write_text(json.dumps(save))
    with pytest.raises(records.RecordError, match=r"match.decisions: Input should be a valid integer"):
        Session.resume(registry, path)
    save["match"]["decisions"] = 1
    path.write_text(json.dumps(save))
    session = Session.resume(registry, path)
    while session.to_play is not None and not session.over:
        if session.is_bot(session.to_play):
            session.bot_step()
        else:
            session.apply(session.legal_actions()[0])
    session.close()
    assert victim.read_text() == "# my shell\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bashrc", "cardcore-home"]
    # the match went on in the library, from the save's position, without the named file
    events = session.record_events()
    assert events[0].event == "match_start" and events[1].event == "resume"
    assert "# my shell" not in session.record()


def test_a_save_whose_record_is_a_directory_resumes_without_it(saved_match, tmp_path):
    registry, path, save = saved_match
    save["record_path"] = str(tmp_path)
    path.write_text(json.dumps(save))
    session = Session.resume(registry, path)
    assert [e.event for e in session.record_events()] == ["match_start", "resume"]
    session.close()


@pytest.mark.parametrize("field, value, message", [
    ("game", ["casino"], 'not a game id: ["casino"]'),
    ("names", ["only one"], "match.names: 1 names for 2 seats"),
    ("seats", ["human", "nosuchbot"], "the bot 'nosuchbot' is not installed"),
    ("dealer", 7, "no seat 7"),
    ("hand", 1.0, "match.hand: Input should be a valid integer"),
    ("sheet", {"hands": [{"sides": [{"total": "9"}]}]}, "match.sheet.hands.0: not a score row of 2 sides"),
    ("bot_rngs", {"1": [3, [1, 2], None]}, "match.bot_rngs: not the state of a random generator"),
    ("state", {"game": "casino", "players": 2}, "cannot continue this match"),
])
def test_every_field_of_a_save_is_checked_before_use(saved_match, capsys, field, value, message):
    registry, path, save = saved_match
    save["match"][field] = value
    path.write_text(json.dumps(save))
    before = path.read_bytes()
    assert main(["resume", str(path)]) == 2
    assert message in one_line_error(capsys)
    assert path.read_bytes() == before


def test_a_record_given_to_resume_is_named_as_a_record(tmp_path, capsys):
    record = tmp_path / "r.jsonl"
    assert main(["simulate", "casino", "--matches", "1", "--seed", "3", "--record", str(record)]) == 0
    capsys.readouterr()
    assert main(["resume", str(record)]) == 2
    assert f"a match record, not a save: `cardcore replay {record}`" in one_line_error(capsys)


# --- files that are not files -----------------------------------------------------------


def test_a_fifo_is_refused_at_once(tmp_path, capsys):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for command in (["replay", str(fifo)], ["resume", str(fifo)]):
        assert main(command) == 2
        assert "not a regular file" in one_line_error(capsys)


def test_a_record_without_a_game_is_one_line(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    path.write_text('{"event":"match_start","seed":1,"seats":["greedy","greedy"],"options":{}}\n')
    assert main(["replay", str(path)]) == 2
    assert "line 1: game: Field required" in one_line_error(capsys)


def test_an_oversized_file_is_refused_without_reading_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1000)
    path = tmp_path / "big.jsonl"
    path.write_text('{"event":"match_start"}\n' + " " * 2000)
    with pytest.raises(records.RecordError, match="too large for a record"):
        files.read_record(path)


# --- output that cannot be written ---------------------------------------------------------


def cardcore(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardcore", *args], capture_output=True, text=True,
                          timeout=300, **kwargs)


def test_stdout_on_a_full_device_is_one_line():
    with open("/dev/full", "w") as full:
        out = subprocess.run([sys.executable, "-m", "cardcore", "plugins"], stdout=full,
                             stderr=subprocess.PIPE, text=True, timeout=300)
    assert out.returncode == 2
    assert out.stderr == "cardcore: error: cannot write the output (No space left on device)\n"


@pytest.mark.slow
def test_a_reader_that_closes_the_pipe_early_ends_cardcore_quietly(tmp_path):
    shell = (f"{sys.executable} -m cardcore simulate casino --matches 200 --seed 1 --json "
             "2>err.txt | head -1; cat err.txt")
    out = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=300,
                         cwd=tmp_path)
    first, *rest = out.stdout.splitlines()
    assert json.loads(first)["match"] == 0
    assert "Traceback" not in out.stdout and "Error" not in "".join(rest)


# --- a plugin's game failing in the middle of a simulation ---------------------------------

FAULTY = """
from cardcore import hookimpl
from cardcore_crazy_eights.game import CrazyEights, CrazyEightsState

class FaultyState(CrazyEightsState):
    def apply(self, action):
        if len(self.discard) > 3:
            raise ZeroDivisionError("the eighth card")
        super().apply(action)

class Faulty(CrazyEights):
    id = "faulty"

    def new_hand(self, *args):
        state = super().new_hand(*args)
        state.__class__ = FaultyState
        return state

@hookimpl
def cardcore_register_games(register):
    register(Faulty())
"""


def test_a_game_failing_during_simulate_is_one_line_naming_plugin_and_method(tmp_path):
    fake_distribution(tmp_path, "faulty", FAULTY)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(EXAMPLE)])}
    out = cardcore("simulate", "faulty", "--matches", "1", "--seed", "2", env=env)
    assert out.returncode == 2
    assert out.stderr == ("cardcore: error: match 0 (seed 2): plugin faulty: FaultyState.apply "
                          "raised ZeroDivisionError: the eighth card\n")


# --- kill -9 while simulate writes its record ----------------------------------------------


@pytest.mark.slow
def test_kill_9_loses_at_most_the_event_in_flight_and_never_a_reported_match_end(tmp_path):
    """Killed right after it reports a match, the record holds that match's end; killed at
    any moment, the record is a prefix of the full one, cut at most inside one line."""
    full = tmp_path / "full.jsonl"
    args = ["simulate", "casino", "--matches", "40", "--seed", "9", "--json"]
    assert cardcore(*args, "--record", str(full)).returncode == 0
    whole = full.read_bytes()
    deadline = time.monotonic() + 90
    kills = 0
    for n in range(8):
        if time.monotonic() > deadline:
            break
        path = tmp_path / f"killed-{n}.jsonl"
        proc = subprocess.Popen([sys.executable, "-m", "cardcore", *args, "--record", str(path)],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        reported = [json.loads(proc.stdout.readline()) for _ in range(1 + n % 3)]
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stdout.close()
        kills += 1
        data = path.read_bytes()
        assert whole.startswith(data)
        ends = [line for line in data.split(b"\n")[:-1] if b"\"match_end\"" in line]
        assert len(ends) >= len(reported)
    assert kills >= 3


# --- records are replayed, not trusted -------------------------------------------------------


@pytest.fixture(scope="module")
def casino_record(tmp_path_factory) -> list[str]:
    path = tmp_path_factory.mktemp("rec") / "r.jsonl"
    assert main(["simulate", "casino", "--matches", "1", "--seed", "3", "--record", str(path)]) == 0
    return path.read_text().splitlines()


def replay_error(tmp_path, lines: list[str], capsys) -> str:
    path = tmp_path / "forged.jsonl"
    path.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["replay", str(path)]) == 2
    return one_line_error(capsys)


def test_replay_refuses_positions_out_of_order(tmp_path, casino_record, capsys):
    lines = list(casino_record)
    lines[3], lines[4] = lines[4], lines[3]
    assert "line 4: seat 1 plays, but seat 0 is to play" in replay_error(tmp_path, lines, capsys)


def test_replay_refuses_a_fake_action(tmp_path, casino_record, capsys):
    lines = list(casino_record)
    event = json.loads(lines[2])
    event["action"] = {"type": "trail", "card": "AS" if event["action"].get("card") != "AS" else "2S"}
    lines[2] = json.dumps(event)
    assert "line 3: not a legal action here" in replay_error(tmp_path, lines, capsys)


def test_replay_refuses_a_forged_state(tmp_path, casino_record, capsys):
    lines = list(casino_record)
    event = json.loads(lines[2])
    hands = event["state"]["hands"]
    hands[0], hands[1] = hands[1], hands[0]
    lines[2] = json.dumps(event, separators=(",", ":"))
    assert replay_error(tmp_path, lines, capsys).endswith(
        "line 3: this action event is not what the engine gives (it differs in state)\n")


def test_a_whole_record_replays(casino_record, tmp_path):
    from cardcore.apps.tui.session import Replay

    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(casino_record) + "\n")
    replay = Replay(load_registry(), path)
    assert len(replay.events) == len(casino_record)
