"""A game's own score extras (Game.score_extras) on every score sheet the front end opens (the
table's, a replay's, the history's) and in the statistics screen, with no front-end change."""

from __future__ import annotations

import pytest
from rich.console import Console
from textual.widgets import Static

from cardcore.apps.tui.app import Launch, ShowReplay
from cardcore.apps.tui.screens.library import HistoryScreen, StatsScreen
from cardcore.apps.tui.screens.replay import ReplayScreen
from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen
from cardcore.apps.tui.session import Replay, Session, SessionSetup
from cardcore.services.plugins import load_registry
from tests.core.test_score_extras import HeldEights

SIZE = (160, 40)


def shown(widget: Static) -> str:
    console = Console(width=300, record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


async def wait_for(pilot, kind, tries=100):
    for _ in range(tries):
        await pilot.pause()
        if isinstance(pilot.app.screen, kind):
            return pilot.app.screen
    raise AssertionError(f"no {kind.__name__} came")


def held_registry():
    registry = load_registry()  # a copy of its own: the game is "installed" here alone
    registry.games[HeldEights.id] = HeldEights()
    return registry


def finished(registry, seed=4):
    game = registry.games[HeldEights.id]
    s = Session.new(registry, SessionSetup(game, game.Options(target=60), ["greedy"] * 3, seed))
    while not s.over:
        s.bot_step()
    s.close()
    assert any(row["went_out"] for row in s.match.sheet.hands)
    return s


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_the_tables_and_the_replays_score_sheets_show_the_games_extras(make_app):
    registry = held_registry()
    s = finished(registry)
    app = make_app(registry=registry, start=ShowReplay(Replay.from_text(registry, s.record(), "m")))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, ReplayScreen)
        await pilot.press("end", "s")  # the last position's sheet
        sheet = await wait_for(pilot, ScoreSheetScreen)
        text = shown(sheet.query_one("#sheet-table", Static))
        assert "cards held" in text and "went out" in text and "✓" in text
        await pilot.press("escape")
        await wait_for(pilot, ReplayScreen)
        app.push_screen(ScoreSheetScreen(s))  # the table's sheet: the session's game says
        sheet = await wait_for(pilot, ScoreSheetScreen)
        assert shown(sheet.query_one("#sheet-table", Static)) == text


@pytest.mark.slow
async def test_the_historys_sheet_and_the_statistics_show_the_games_extras(make_app):
    registry = held_registry()
    s = finished(registry)
    held = sum(len(side["cards_held"]) for row in s.match.sheet.hands for side in row["sides"])
    app = make_app(registry=registry, start=Launch())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await wait_for(pilot, HistoryScreen)
        await pilot.press("s")
        sheet = await wait_for(pilot, ScoreSheetScreen)
        assert "cards held" in shown(sheet.query_one("#sheet-table", Static))
        await pilot.press("escape")
        await wait_for(pilot, HistoryScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("s")
        stats = await wait_for(pilot, StatsScreen)
        text = shown(stats.query_one("#stats", Static))
        lines = text.splitlines()
        at = next(i for i, x in enumerate(lines) if "greedy (bot)" in x)
        counts = []  # the counts under the row: "cards held 12 · went out 1", wrapped
        for line in lines[at + 1:]:
            if not line.startswith("    "):
                break
            counts += line.strip().split(" · ")
        columns = {item.rpartition(" ")[0]: item.rpartition(" ")[2] for item in counts}
        assert columns["cards held"] == str(held)
        assert columns["went out"] == str(sum(len(row["went_out"]) for row in s.match.sheet.hands))
