"""A plugin's rules() that raise or never return: the rules screen and the launcher say so
in one line naming the plugin, and the front end goes on."""

from __future__ import annotations

import threading

import pytest
from textual.widgets import Markdown

from cardcore import hookimpl
from cardcore.apps.tui.app import Launch
from cardcore.apps.tui.screens.rules import RulesScreen
from cardcore.services import plugins
from cardcore.services.plugins import load_registry

SIZE = (100, 30)


def _registry_with(game):
    class Plugin:
        @hookimpl
        def cardcore_register_games(self, register):
            register(game)

    return load_registry(extra_plugins=[("troubled", Plugin())])


@pytest.mark.slow  # waits out a hanging rules(); `cardcore rules` is quick in tests/core/test_plugins.py
async def test_rules_that_raise_or_hang_are_one_line_on_the_rules_screen(make_app, crazy_eights,
                                                                         monkeypatch):
    release = threading.Event()

    class Raising(type(crazy_eights)):
        id = "raising_rules"

        def rules(self, options):
            raise ValueError("no rules today")

    class Hanging(type(crazy_eights)):
        id = "hanging_rules"

        def rules(self, options):
            release.wait(5)
            return "late"

    monkeypatch.setattr(plugins, "PLUGIN_SECONDS", 0.2)
    raising, hanging = Raising(), Hanging()
    registry = _registry_with(raising)
    registry.games[hanging.id] = hanging
    registry.origin[hanging.id] = ("troubled", None, None)
    app = make_app(registry=registry, start=Launch())
    try:
        async with app.run_test(size=SIZE) as pilot:
            for game, says in [(raising, "Raising.rules raised ValueError: no rules today"),
                               (hanging, "Hanging.rules did not return within 0.2 s")]:
                app.push_screen(RulesScreen(registry, game))
                await pilot.pause()
                shown = app.screen.query_one(Markdown).source
                assert shown.startswith("(the rules could not be produced: plugin troubled: ")
                assert shown.endswith(f"{says})") and "\n" not in shown
                await pilot.press("escape")
                await pilot.pause()
    finally:
        release.set()
