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
