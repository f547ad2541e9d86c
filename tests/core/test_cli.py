import json
import subprocess
import sys

import pytest

from cardcore.apps.cli import main


def cli(*args):
    return subprocess.run([sys.executable, "-m", "cardcore", *args], capture_output=True,
                          text=True, timeout=600)


@pytest.mark.parametrize("args, message", [
    (["simulate", "nosuchgame", "--matches", "1"], "unknown game 'nosuchgame'"),
    (["simulate", "casino", "--matches", "x"], "argument --matches: wants a whole number, not 'x'"),
    (["simulate", "casino", "--matches", "1", "--option", "nosuch=1"],
     "bad option for casino: no option 'nosuch' (options: target, court_cards_take_all, direction, "
     "deal_in_twos, may_trail_capturing_card, sweeps)"),
    (["rules", "canasta", "--option", "bogus=1"], "no option 'bogus' (options: target, preset,"),
    (["play", "casino", "--option", "sweeps=maybe"],
     "bad option for casino: sweeps: Input should be a valid boolean, unable to interpret input "
     "(it takes true or false)"),
    (["simulate", "canasta", "--matches", "1", "--option", "wild_rule=x"],
     "wild_rule: Input should be 'two_per_wild' or 'classic' (it takes two_per_wild or classic)"),
    (["simulate", "casino", "--matches", "1", "--target", "0"], "target: Input should be greater"),
    (["simulate", "casino", "--matches", "1", "--option", "oops"], "--option wants KEY=VALUE"),
    (["simulate", "casino", "--matches", "1", "--players", "7"], "not 7"),
    (["simulate", "casino", "--matches", "1", "--seats", "greedy,human"], "unknown seat 'human'"),
    (["simulate", "casino", "--matches", "1", "--seats", "greedy"], "not 1"),
    (["simulate", "casino", "--matches", "1", "--players", "2", "--seats", "greedy"], "names 1 seats for 2"),
    (["simulate", "casino", "--matches", "0"], "argument --matches: must be between 1 and 1000000, not 0"),
    (["simulate", "casino", "--matches", "1", "--players", "0"], "argument --players: must be between 1"),
    (["simulate", "casino", "--matches", "1", "--option", "target=" + "[" * 5000 + "]" * 5000],
     "option value too long"),
    (["simulate", "casino", "--matches", "1", "--option", "target=" + "[" * 400 + "]" * 400],
     "target: Input should be a valid integer"),
    (["simulate", "casino", "--matches", "1", "--record", "/dev/full"],
     "--record /dev/full: not a regular file"),
    (["simulate", "casino", "--matches", "1", "--record", "/proc/version"], "cannot write /proc/version"),
    (["replay", "/dev/zero"], "/dev/zero: not a record (not a regular file)"),
    (["tournament", "casino", "--bots", "greedy,random", "--deals", "1", "--resume", "/dev/zero"],
     "/dev/zero: not a checkpoint (not a regular file)"),
    (["history", "nosuchgame"], "unknown game 'nosuchgame'"),
    (["simulate", "casino", "--matches", "1", "--target", "1000000000"],
     "target: 1000000000 is out of reach: at most 420 (20 times the usual 21)"),
    (["simulate", "canasta", "--matches", "1", "--option", "target=99999999999999999999"],
     "target: 99999999999999999999 is out of reach: at most 100000"),
    (["rules", "nosuchgame"], "unknown game"),
    (["replay", "/nonexistent/record.jsonl"], "cannot read"),
    (["resume", "/nonexistent/save.json"], "cannot read the save"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_bad_input_is_one_clear_line_and_exit_2(args, message, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cardcore: error: ")
    assert message in err and "Traceback" not in err


def test_plugins_lists_games_bots_and_versions():
    out = cli("plugins")
    assert out.returncode == 0
    for gid in ("casino", "royal_casino", "canasta"):
        assert f"plugin {gid} (cardcore 0.1.0)" in out.stdout
    bots = out.stdout.split("Bots (weakest first):\n")[1].splitlines()
    listed = [line.split()[0] for line in bots[0::2]]
    assert listed == ["random", "easy", "greedy", "medium", "hard", "expert"]
    # each with what it means, on the line under it
    assert " ".join(bots[-1].split()) == "searches on every core for a few seconds a move"
    assert "one time in three" in bots[3]


def test_rules_prints_the_rules_with_options(capsys):
    assert main(["rules", "casino", "--option", "target=11"]) == 0
    assert "11" in capsys.readouterr().out


def test_rules_lists_each_option_by_its_key_and_fits_columns(capsys, monkeypatch):
    """Every option of the model by its --option key, with its default, what it takes and
    what it does; the Markdown laid out to $COLUMNS (stdout is not a terminal here)."""
    from cardcore_canasta.rules import CanastaOptions

    monkeypatch.setenv("COLUMNS", "60")
    assert main(["rules", "canasta"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert max(map(len, lines)) <= 60 and not any(line != line.rstrip() for line in lines)
    assert "#" not in out and "`" not in out  # rendered, not raw Markdown
    flat = " ".join(out.split())
    assert "Options Given as --option KEY=VALUE" in flat
    assert "target (default 5000; a whole number from 1 to 100000): points that win the match" in flat
    assert "wild_rule (default two_per_wild; two_per_wild or classic): two_per_wild:" in flat
    for key in CanastaOptions.model_fields:
        assert f" {key} (default " in flat


def test_rules_width_follows_columns(capsys, monkeypatch):
    widths = []
    for columns in ("40", "120"):
        monkeypatch.setenv("COLUMNS", columns)
        assert main(["rules", "casino"]) == 0
        widths.append(max(map(len, capsys.readouterr().out.splitlines())))
    assert widths[0] <= 40 < 100 < widths[1] <= 120


def test_simulate_json_gives_one_object_per_match():
    out = cli("simulate", "casino", "--matches", "3", "--seed", "5", "--json", "--seats", "random,random")
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["match"] for r in rows] == [0, 1, 2]
    assert [r["seed"] for r in rows] == [5, 6, 7]
    for r in rows:
        assert set(r) == {"match", "game", "seed", "seats", "winner", "totals", "hands"}
        assert max(r["totals"]) >= 21 and r["winner"] == r["totals"].index(max(r["totals"]))


def test_simulate_summary():
    out = cli("simulate", "casino", "--matches", "4", "--seed", "1", "--seats", "greedy,random")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "side 0:" in text and "side 1:" in text and "hands per match" in text
    assert "decisions:" in text and "/s)" in text
    wins = sum(int(line.split(":")[1].split()[0]) for line in text.splitlines()
               if line.strip().startswith("side "))
    assert wins == 4
    assert "4/4 matches" in out.stderr


def test_a_damaged_record_is_one_clear_line(tmp_path, capsys):
    good = tmp_path / "good.jsonl"
    assert main(["simulate", "casino", "--matches", "1", "--seed", "3", "--record", str(good)]) == 0
    lines = good.read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([lines[0], lines[1].replace('"AS"', '"ZZ"').replace('"2S"', '"ZZ"')]))
    capsys.readouterr()
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardcore: error: ") and err.count("\n") == 1
    assert err.endswith("line 2: this deal event is not what the engine gives (it differs in state)\n")
    missing_hand = tmp_path / "nohand.jsonl"
    missing_hand.write_text(lines[0] + '\n{"event": "deal", "state": {}}\n')
    assert main(["replay", str(missing_hand)]) == 2
    assert "line 2: hand: Field required" in capsys.readouterr().err  # checked as it is read


def test_a_save_that_cannot_continue_is_one_clear_line(tmp_path, capsys):
    path = tmp_path / "save.json"
    path.write_text('{"format": "cardcore-save", "version": 1, "match": {"game": "casino"}}')
    assert main(["resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardcore: error: ") and "cannot continue this match" in err
