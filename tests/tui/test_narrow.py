"""At 80x24 (and 100x30) everything needed is on screen: the setup form's option
descriptions whole, and at the table the score, the target, the hand, the actions, the
table's cards and the footer's help key."""

from __future__ import annotations

import pytest

from cardcore.tui.screens.setup import SetupScreen
from cardcore.tui.widgets.options_form import OptionsForm, help_line

from .helpers import screen_lines, text_in

GAMES = ("casino", "royal_casino", "canasta")


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_setup_option_descriptions_are_whole_at_80_and_100_columns(make_app, registry, size):
    for game_id in GAMES:
        game = registry.games[game_id]
        app = make_app()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            app.push_screen(SetupScreen(game, seed=7))
            await pilot.pause()
            screen = app.screen
            form = screen.query_one("#setup-form")
            options = screen.query_one("#options", OptionsForm)
            for name, info in game.Options.model_fields.items():
                help_static = options.query_one(f"#help-{name}")
                form.scroll_to_widget(help_static, animate=False)
                await pilot.pause()
                region = help_static.region
                assert form.region.contains_region(region), (game_id, name, region)
                kind = options.kinds[name][0]
                default = info.get_default(call_default_factory=True)
                default = getattr(default, "value", default)
                want = " ".join(help_line(info.description, default, kind).split())
                assert text_in(screen_lines(app), region) == want, (game_id, name)
