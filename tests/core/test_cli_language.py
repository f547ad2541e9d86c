"""The command line's language: ``--lang`` on every command, else CARDCORE_LANG, else the
system locale; an unknown one is one line and status 2 (docs/languages.md)."""

from __future__ import annotations

import pytest

from cardcore import language
from cardcore.apps.args import chosen_language, explicit_language, without_lang
from cardcore.apps.cli import main


@pytest.fixture(autouse=True)
def english_after():
    yield
    language.set_language("en")


@pytest.mark.parametrize(("argv", "environ", "expected"), [
    (["--lang", "id", "plugins"], {}, "id"),
    (["history", "--lang=id"], {"CARDCORE_LANG": "en"}, "id"),
    (["history"], {"CARDCORE_LANG": "id", "LANG": "en_GB.UTF-8"}, "id"),
    (["history"], {"LANG": "id_ID.UTF-8"}, "id"),
    (["history"], {"LANG": "de_DE.UTF-8"}, "en"),
    (["join", "--", "--lang", "id"], {}, "en"),  # after --: an argument, not the option
])
def test_lang_then_cardcore_lang_then_the_locale(argv, environ, expected):
    assert chosen_language(argv, environ) == expected


@pytest.mark.parametrize(("argv", "environ", "remembered", "expected"), [
    ([], {"LANG": "en_GB.UTF-8"}, "id", "id"),
    (["--lang", "en"], {}, "id", "en"),
    ([], {"CARDCORE_LANG": "en"}, "id", "en"),
    ([], {"LANG": "id_ID"}, "fr", "id"),
])
def test_a_remembered_language_comes_after_the_runs_own_choice(argv, environ, remembered, expected):
    assert chosen_language(argv, environ, remembered) == expected
    assert explicit_language(argv, environ) in (None, expected)


@pytest.mark.parametrize(("argv", "environ"), [
    (["--lang", "xx", "plugins"], {}), (["plugins"], {"CARDCORE_LANG": "zz"}),
])
def test_an_unknown_language_is_one_line_and_status_2(argv, environ, monkeypatch, capsys):
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown language" in err and "id (Bahasa Indonesia)" in err


@pytest.mark.parametrize(("argv", "left"), [
    (["--lang", "id", "history", "--limit", "3"], ["history", "--limit", "3"]),
    (["history", "--lang=id", "casino"], ["history", "casino"]),
    (["join", "--", "--lang", "id"], ["join", "--", "--lang", "id"]),
])
def test_lang_is_taken_out_wherever_it_is(argv, left):
    assert without_lang(argv) == left


def test_help_errors_and_figures_come_in_indonesian(capsys, monkeypatch):
    monkeypatch.delenv("CARDCORE_LANG", raising=False)
    with pytest.raises(SystemExit):
        main(["rules", "--lang", "id", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("pemakaian: cardcore rules") and "tampilkan bantuan ini lalu keluar" in out
    assert main(["--lang", "id", "simulate", "casino", "--matches", "0"]) == 2
    assert capsys.readouterr().err == \
        "cardcore: galat: argumen --matches: harus antara 1 dan 1000000, bukan 0\n"
    assert main(["simulate", "casino", "--matches", "2", "--seed", "3", "--lang", "id"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Casino: 2 pertandingan, seed 3") and "rata-rata skor ronde " in out
    assert "," in out.split("rata-rata skor ronde ")[1].split("\n")[0]  # 4,73: the decimal comma


def test_english_is_as_it_was(capsys, monkeypatch):
    monkeypatch.setenv("CARDCORE_LANG", "en")
    assert main(["simulate", "casino", "--matches", "0"]) == 2
    assert capsys.readouterr().err == \
        "cardcore: error: argument --matches: must be between 1 and 1000000, not 0\n"
    assert language.current() == "en"
