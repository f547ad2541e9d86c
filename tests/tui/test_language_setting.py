"""The launcher's language setting (docs/languages.md, "Choosing the language"): g (or its
button) goes to the next language at once, the launcher drawn anew in it with the game
that was highlighted, and the choice is kept for the next start."""

from __future__ import annotations

import pytest
from textual.widgets import Button, ListView
from textual.widgets._footer import FooterKey

from cardcore import language
from cardcore.language import _
from cardcore.services import settings

from .helpers import screen_lines, until
from .test_table_items import footer_problems


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


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_the_launchers_footer_keys_are_whole_at_80x24(make_app, spoken):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.query(FooterKey), "the footer drawn")
        await pilot.pause()
        assert not await footer_problems(pilot)
        assert f"q {_('Quit')}" in screen_lines(app)[-1]


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
@pytest.mark.parametrize("opens", ["open_history", "open_stats", "open_resume_list", "leagues"])
async def test_the_library_screens_keys_are_whole_at_80x24(make_app, registry, spoken, opens):
    from cardcore.apps.tui.screens.league import LeagueScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if opens == "leagues":
            app.push_screen(LeagueScreen())
        else:
            getattr(app, opens)()
        await until(pilot, lambda: app.screen.query(FooterKey), "the footer drawn")
        await pilot.pause()
        assert not await footer_problems(pilot), opens


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_the_setup_forms_keys_and_buttons_are_whole_at_80x24(make_app, registry, spoken):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_setup(registry.games["canasta"])
        await until(pilot, lambda: app.screen.query(FooterKey), "the footer drawn")
        await pilot.pause()
        assert not await footer_problems(pilot)
        lines = screen_lines(app)
        for button in app.screen.query(Button):
            assert str(button.label) in lines[button.region.y], button.label
