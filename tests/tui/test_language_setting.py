"""The launcher's language setting (docs/languages.md, "Choosing the language"): g (or its
button) goes to the next language at once, the launcher drawn anew in it with the game
that was highlighted, and the choice is kept for the next start."""

from __future__ import annotations

import pytest
from textual.widgets import Button, ListView

from cardcore import language
from cardcore.services import settings

from .helpers import screen_lines


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_g_speaks_indonesian_at_once_and_keeps_it_for_the_next_start(make_app):
    app = make_app()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            games = app.screen.query_one("#games", ListView)
            games.index = 1
            await pilot.pause()
            chosen = app.screen.selected_game()
            await pilot.press("g")
            await pilot.pause()
            lines = screen_lines(app)
            assert language.current() == "id"
            assert settings.remembered_language() == "id"
            assert "pilih permainan" in lines[0]
            assert "Main baru" in lines[-1] and "Keluar" in lines[-1]  # the footer too
            assert app.screen.query_one("#language", Button).label.plain == "Bahasa: Indonesia (g)"
            assert app.screen.selected_game() is chosen  # the same game highlighted
            await pilot.click("#language")  # the button: the next language, English
            await pilot.pause()
            assert language.current() == "en" and settings.remembered_language() == "en"
            assert "pick a game" in screen_lines(app)[0]
            assert app.screen.selected_game() is chosen
    finally:
        language.set_language(language.ENGLISH)
