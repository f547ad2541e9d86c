"""Names are plain text (issue 22, item 8): one rule (``cardcore.engine.names``) refuses
control, invisible and direction characters wherever a name or a chat line enters (a setup,
a protocol message, an imported record), in one line naming the character; names that look
like markup are allowed and printed as they are; lengths are capped, import included."""

from __future__ import annotations

import io
import json
import sqlite3

import pytest

from cardcore.apps.cli import main
from cardcore.engine import records
from cardcore.engine.bots.play import play_bots
from cardcore.engine.journal import EventError, parse_event
from cardcore.engine.match import Match, SetupError
from cardcore.engine.match_setup import MatchSetup
from cardcore.engine.names import check_name, plain_text, shown
from cardcore.services.net import protocol as p
from cardcore.services.plugins import load_registry
from cardcore.services.store import open_library

#: Refused in a name and in a chat line, with the code point the error names.
REFUSED = {
    "Ann\x1b[31mred": "U+001B", "Bob\u202e": "U+202E", "Al\u2060ice": "U+2060", "\ufeffZoe": "U+FEFF",
    "Ann\u061c": "U+061C", "\u3164": "U+3164", "A\u115fB": "U+115F", "A\u1160B": "U+1160",
    "A\uffa0B": "U+FFA0", "A\u2800B": "U+2800", "Ann\u00a0Lee": "U+00A0", "Ann\u3000Lee": "U+3000",
    "Ann\tLee": "U+0009", "Ann\u2028": "U+2028", "Ann\u2029": "U+2029", "Ann\ue000": "U+E000",
    "Ann\u0378": "U+0378", "Ann\ud800": f"U+{0xD800:04X}", "Ann\u200b": "U+200B", "A\u2066B\u2069": "U+2066",
}
#: Allowed, and drawn as typed everywhere (never read as markup).
MARKUP_LIKE = ["[/]", "[reverse]x", "[bold red]x[/]", "[@click=app.quit]x[/]"]
ALLOWED = [*MARKUP_LIKE, "Zoë", "李小龍", "O'Brien", "Ann ❤️", "x" * 24]


@pytest.mark.parametrize(("name", "code"), REFUSED.items())
def test_the_rule_names_the_character_it_refuses_in_one_line(name, code):
    for check in (check_name, plain_text):
        with pytest.raises(ValueError) as refused:
            check(name)
        message = str(refused.value)
        assert message.startswith(code) and "\n" not in message
        assert not any(ch in message for ch in name if not ch.isascii()), "the character itself is echoed"


@pytest.mark.parametrize("name", ALLOWED)
def test_markup_like_and_other_scripts_are_names(name):
    assert check_name(name) == name == plain_text(name)
    MatchSetup.of(game="casino", seats=["human", "human"], names=[name, "Bob"])


@pytest.mark.parametrize(("name", "why"), [("", "1 to 24"), ("x" * 25, "1 to 24"), ("   ", "visible"),
                                           (" Ann", "begin or end"), ("Ann ", "begin or end")])
def test_a_name_is_1_to_24_characters_with_something_to_see(name, why):
    with pytest.raises(ValueError, match=why):
        check_name(name)


@pytest.mark.parametrize("name", list(REFUSED)[:6])
def test_every_entry_point_refuses_the_same_names(name):
    with pytest.raises(SetupError, match="names.0: U\\+"):
        MatchSetup.of(game="casino", seats=["human", "human"], names=[name, "Bob"])
    messages = [
        {"type": "hello", "name": name},
        {"type": "join", "code": "ABC-123", "secret": "s", "name": name},
        {"type": "create_table", "game": "casino", "seats": ["human", "human"], "names": [name, "B"]},
        {"type": "create_table", "game": "casino", "seats": ["human"] * 4, "side_names": [name, "B"]},
        {"type": "chat", "code": "ABC-123", "text": f"hi {name}"},
    ]
    for message in messages:
        with pytest.raises(p.ProtocolError) as refused:
            p.decode(json.dumps({"v": 1, **message}))
        assert refused.value.code == "bad_field" and "U+" in refused.value.message
    with pytest.raises(EventError, match="name: U\\+"):
        parse_event({"event": "seat", "seat": 0, "what": "named", "name": name})


def test_shown_keeps_a_terminal_still():
    assert shown("[/] Zoë") == "[/] Zoë"
    assert shown("Ann\x1b[31mred\u202e") == "Ann\ufffd[31mred\ufffd"
    assert shown("a\ud800b") == "a\ufffdb"  # a lone surrogate cannot even be printed


# --- records: import and history ---------------------------------------------------------------


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def record(registry, names, seed=5, seats=("greedy", "greedy")):
    """A finished casino record (greedy bots play every seat), its seats named ``names``."""
    out = io.StringIO()
    match = Match(registry.games["casino"], seed=seed, seats=list(seats), names=names,
                  on_event=lambda e: out.write(records.dumps(e) + "\n"))
    match.start()
    play_bots(match, {s: registry.bots["greedy"]() for s in range(2)})
    return out.getvalue()


def one_line(capsys):
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cardcore: error: ") and "Traceback" not in err
    assert "\x1b" not in err
    return err


def nothing_imported():
    store = open_library()
    try:
        return store.finished() == [] and store.list_unfinished(here_only=False) == []
    finally:
        store.close()


@pytest.mark.parametrize(("change", "says"), [
    pytest.param(lambda e: e["names"].__setitem__(0, "x" * 60_000_000), "line 1: names.0: a name is 1 to 24",
                 marks=pytest.mark.slow),  # the 60 MB name (~2 s)
    (lambda e: e["names"].__setitem__(0, "x" * 1_000_000), "line 1: names.0: a name is 1 to 24"),
    (lambda e: e["names"].__setitem__(0, "Ann\x1b[31m"), "line 1: names.0: U+001B"),
    (lambda e: e["side_names"].__setitem__(1, "Bob\u202e"), "line 1: side_names.1: U+202E"),
    (lambda e: e["seats"].__setitem__(1, "greedy\x1b]0;owned\x07"), "line 1: seats.1: U+001B"),
    (lambda e: e.__setitem__("version", "\x1b[2J"), "line 1: version: U+001B"),
    (lambda e: e.__setitem__("seed", "s" * 100), "line 1: seed"),
    (lambda e: e.__setitem__("later", "z" * 1_000_000), "line 1: match_start: fields this version does not"),
])
def test_an_import_with_a_bad_field_is_refused_in_one_line(registry, tmp_path, capsys, change, says):
    lines = record(registry, ["Ann", "Bob"]).splitlines()
    start = json.loads(lines[0])
    change(start)
    lines[0] = json.dumps(start, ensure_ascii=False)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["import", str(path)]) == 2
    err = one_line(capsys)
    assert says in err and len(err) < 300, err[:300]
    assert nothing_imported()


def test_a_score_rows_note_and_counts_are_bounded_and_plain(registry, tmp_path, capsys):
    lines = record(registry, ["Ann", "Bob"]).splitlines()
    n = next(i for i, line in enumerate(lines) if '"hand_end"' in line)
    for side, says in (({"note": "\x1b[31mwon"}, "sides.0.note: U+001B"),
                       ({"counts": {"[/]\x1b": 1}}, "sides.0.counts: U+001B"),
                       ({"note": "n" * 5000}, "sides.0.note: over 4096")):
        event = json.loads(lines[n])
        event["score"]["sides"][0].update(side)
        path = tmp_path / "note.jsonl"
        path.write_text("\n".join([*lines[:n], json.dumps(event), *lines[n + 1:]]) + "\n", encoding="utf-8")
        assert main(["import", str(path)]) == 2
        assert says in one_line(capsys)
    assert nothing_imported()


def test_history_prints_markup_like_names_as_they_are_and_never_an_escape(registry, tmp_path, capsys):
    path = tmp_path / "m.jsonl"
    path.write_text(record(registry, ["[/]", "[bold red]x[/]"]), encoding="utf-8")
    assert main(["import", str(path)]) == 0
    # a library written before the rule (or by hand) may hold anything: it prints as text
    db = sqlite3.connect(open_library().path)
    db.execute("UPDATE matches SET names = ?, side_names = ?",
               (json.dumps(["Ann\x1b[31m", "\u202eBob"]), json.dumps(["Ann\x1b[31m", "\u202eBob"])))
    db.commit()
    db.close()
    capsys.readouterr()
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "Ann\ufffd[31m (greedy)" in out and "\ufffdBob (greedy)" in out
    assert "\x1b" not in out and "\u202e" not in out
    path2 = tmp_path / "n.jsonl"
    path2.write_text(record(registry, ["[/]", "[reverse]x"], seed=6, seats=("human", "human")),
                     encoding="utf-8")
    assert main(["import", str(path2)]) == 0
    assert main(["history"]) == 0
    assert "[/] (human), [reverse]x (human)" in capsys.readouterr().out
    assert main(["stats", "casino"]) == 0
    out = capsys.readouterr().out
    assert "\n  [/]  " in out and "\n  [reverse]x  " in out and "\x1b" not in out


@pytest.mark.parametrize("name", ["Ann\x1b[31m", "\u3164", "Bob\u202e"])
def test_cardcore_join_refuses_the_name_before_it_connects(capsys, name):
    assert main(["join", "KQX-482", "--server", "ws://127.0.0.1:1", "--name", name]) == 2
    err = one_line(capsys)
    assert "--name" in err and "U+" in err and "Value error" not in err
