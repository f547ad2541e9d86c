"""The table while another process writes the match library: play goes on, a line says the
match waits for the library, and the moves are kept once the library is free."""

from __future__ import annotations

import sqlite3
import time

import pytest
from textual.widgets import Static

from cardcore.apps.tui.app import Play
from cardcore.apps.tui.screens.help import HelpScreen
from cardcore.apps.tui.session import SessionSetup
from cardcore.services.table_keeper import WAITING

from .helpers import your_turn

SIZE = (100, 30)


async def _until(pilot, check, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time allowed"
        await pilot.pause(0.05)


def _warning(app) -> str | None:
    line = app.screen.query_one("#save-warning", Static)
    return str(line.render()) if line.display else None


@pytest.mark.slow  # 2-3 s of CPU: `make test` runs it, the quick loop does not
async def test_the_table_answers_while_another_cardcore_holds_the_library(make_app, registry):
    game = registry.games["crazy_eights"]
    app = make_app(start=Play(SessionSetup(game, game.Options(), ["human", "greedy"], 7)))
    async with app.run_test(size=SIZE) as pilot:
        table = await your_turn(pilot)
        session = table.session
        store, match_id = session.store, session.match_id
        other = sqlite3.connect(store.path, isolation_level=None)  # another cardcore, writing
        other.execute("BEGIN IMMEDIATE")
        try:
            started = time.monotonic()
            await pilot.press("1")  # a move, then the bot's: both wait for the library
            await _until(pilot, lambda: _warning(app) is not None)
            assert time.monotonic() - started < 5  # not the library's 10 s busy timeout
            assert _warning(app) == f"⚠ {WAITING[:1].upper()}{WAITING[1:]}."
            assert session.match.decisions > store.get(match_id).decisions  # not written yet
            await pilot.press("question_mark")  # the screen still answers keys
            await _until(pilot, lambda: isinstance(app.screen, HelpScreen), 3)
            await pilot.press("escape")
            await _until(pilot, lambda: app.screen is table, 3)
        finally:
            other.execute("COMMIT")
            other.close()
        await _until(pilot, lambda: _warning(app) is None)  # gone once written
        assert store.get(match_id).decisions == session.match.decisions
        assert [e.to_json() for e in session.record_events()][-1]["event"] == "action"
