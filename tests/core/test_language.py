"""The language in use: chosen, cut to its code, scoped, and English without a catalog."""

from __future__ import annotations

import threading

import pytest

from cardcore import language
from cardcore.language import Domain, UnknownLanguage, from_environment, known, speaking


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "id_ID.UTF-8"}, "id"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_ALL": "id_ID.UTF-8"}, "id"),
        ({"LANGUAGE": "fr:id:en", "LANG": "en_GB"}, "id"),
        ({"LANG": "id_ID", "CARDCORE_LANG": "en"}, "en"),
        ({"CARDCORE_LANG": "id-ID"}, "id"),
    ],
)
def test_the_environment_chooses_cardcore_lang_then_the_locale(environ: dict, expected: str) -> None:
    assert from_environment(environ) == expected


def test_an_unknown_cardcore_lang_is_one_clear_error() -> None:
    with pytest.raises(UnknownLanguage, match="unknown language 'xx': choose one of en .English., id"):
        from_environment({"CARDCORE_LANG": "xx"})
    assert known("id_ID.UTF-8@euro") == "id"


def test_speaking_holds_inside_the_block_and_this_thread_only() -> None:
    seen: list[str] = []
    with speaking("id"):
        assert language.current() == "id"
        worker = threading.Thread(target=lambda: seen.append(language.current()))
        worker.start()
        worker.join()
    assert language.current() == "en"
    assert seen == ["en"]


def test_a_domain_with_no_catalog_shows_english() -> None:
    words = Domain("cardcore_nothing", "cardcore")
    with speaking("id"):
        assert words.gettext("Capture") == "Capture"
        assert words.ngettext("one card", "{n} cards", 2) == "{n} cards"
        assert words.pgettext("suit", "Spades") == "Spades"


def test_default_names_are_said_in_the_language_in_use_and_make_no_profile(tmp_path, monkeypatch):
    """Issue 27: a match set up here in Indonesian names its seats Selatan, Utara; Pemain 1
    (the engine's defaults stay English data), and such a name is no person's profile."""
    from cardcore.engine.match_setup import MatchSetup
    from cardcore.engine.seating import COMPASS, said_default_names, said_names
    from cardcore.services.plugins import load_registry
    from cardcore.services.profiles import with_people

    assert said_default_names(4) == COMPASS
    with speaking("id"):
        assert said_default_names(4) == ("Selatan", "Barat", "Utara", "Timur")
        assert said_names(("Ann", "Player 2")) == ("Ann", "Pemain 2")
        monkeypatch.setenv("CARDCORE_HOME", str(tmp_path))
        setup = MatchSetup.of(game="casino", options={}, seats=["human", "human"], seed=1,
                              names=["Pemain 1", "Budi"]).check(load_registry())
        people = with_people(setup).people
    assert people is not None and people[0] is None and people[1] is not None
