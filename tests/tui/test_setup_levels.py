"""The setup form says what each bot level in the seats means, weakest first, whole at 80x24."""

from __future__ import annotations

import pytest
from textual.geometry import Region
from textual.widgets import Select

from cardcore.apps.tui.screens.setup import SetupScreen

from .helpers import screen_lines, text_in


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_the_levels_chosen_are_explained_under_the_seats_at_80x24(make_app, registry, spoken):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(SetupScreen(registry.games["canasta"], seed=7))
        await pilot.pause()
        screen = app.screen
        choices = [value for _, value in screen.bot_choices()]
        assert choices == ["human", "random", "easy", "greedy", "medium", "hard", "expert"]
        screen.query_one("#players", Select).value = 4
        await pilot.pause()
        for seat, level in enumerate(["human", "expert", "easy", "expert"]):
            screen.query_one(f"#who-{seat}", Select).value = level
        await pilot.pause()
        levels = screen.query_one("#levels")
        form = screen.query_one("#setup-form")
        assert form.region.contains_region(levels.region)  # on screen, nothing to scroll
        lines = screen_lines(app)
        x, y, width, height = levels.region
        shown = [text_in(lines, Region(x, y + row, width, 1)) for row in range(height)]
        bots = registry.bots
        assert shown == [f"easy: {bots['easy'].description}", f"expert: {bots['expert'].description}"]
        assert "every core" in shown[1]
        # a human in every seat: no levels to explain
        for seat in range(4):
            screen.query_one(f"#who-{seat}", Select).value = "human"
        await pilot.pause()
        assert not screen.query_one("#levels-row").display
