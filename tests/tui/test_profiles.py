"""The setup form offers the local profiles' names and a match started from it remembers the
new ones: the person is the same in the next match (docs/library.md, "People")."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from cardcore.apps.tui.screens.table import TableScreen
from cardcore.services import profiles

from .helpers import until


@pytest.mark.slow  # about 2 s of CPU: the form's first frame (profiles alone: tests/core/test_people.py)
async def test_the_setup_form_offers_known_names_and_remembers_new_ones(make_app, registry):
    (annabel,) = profiles.remember(["Annabel"])
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_setup(registry.games["casino"])
        await pilot.pause()
        name = app.screen.query_one("#name-0", Input)
        name.focus()
        await pilot.press("a", "n", "n")
        await until(pilot, lambda: name._suggestion == "Annabel", "the known name offered")
        await pilot.press("right")  # takes the name offered
        assert name.value == "Annabel"
        app.screen.query_one("#who-1").value = "human"
        app.screen.query_one("#name-1", Input).value = "Zed"  # a new person
        await pilot.pause()
        app.screen.action_start()
        table = await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen, "the table")
        zed = next(p for p in profiles.load() if p.name == "Zed")
        assert table.session.match.people == [annabel, zed.key]
        assert sorted(profiles.known_names()) == ["Annabel", "Zed"]
