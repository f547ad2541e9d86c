"""The launcher's settings file (services/settings.py): the language chosen is kept for the
next start; a file that is not a settings file is no setting and is never overwritten."""

from __future__ import annotations

import pytest

from cardcore.services import settings


def test_no_file_means_no_language_chosen(cardcore_home):
    assert settings.remembered_language() is None


def test_the_language_chosen_is_kept(cardcore_home):
    settings.remember_language("id")
    assert settings.remembered_language() == "id"
    assert settings.remembered_language(cardcore_home) == "id"  # the data dir named
    settings.remember_language("en")
    assert settings.remembered_language() == "en"


def test_a_language_cardcore_does_not_speak_is_refused_and_nothing_written(cardcore_home):
    with pytest.raises(ValueError, match="not a language cardcore speaks"):
        settings.remember_language("fr")
    assert not settings.settings_path().exists()


@pytest.mark.parametrize("text", ["not json", '{"version": 1, "language": "fr"}', '{"version": 2}'])
def test_a_damaged_file_is_no_setting_and_is_set_aside_when_written(cardcore_home, text):
    path = settings.settings_path()
    path.parent.mkdir(parents=True)
    path.write_text(text)
    assert settings.remembered_language() is None
    settings.remember_language("id")
    assert settings.remembered_language() == "id"
    (aside,) = path.parent.glob("settings.json.damaged-*")
    assert aside.read_text() == text
