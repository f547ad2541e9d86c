"""The Leagues screen: ``l`` in the launcher (in the footer and in ``?``), a league's table
and ratings as ``cardcore league show`` computes them, whole at 80x24."""

from __future__ import annotations

import re

import pytest

from cardcore.apps.tui.app import Launch
from cardcore.apps.tui.screens.help import HelpScreen
from cardcore.apps.tui.screens.launcher import LauncherScreen
from cardcore.apps.tui.screens.league import LeagueScreen
from cardcore.services.league.book import LeagueBook
from cardcore.services.store import open_library
from tests.league_helpers import finished_match, new_league

from .helpers import screen_lines, until


def a_season(registry):
    store = open_library()
    book = LeagueBook(store)
    league = new_league(book, registry)
    for names, seed in ((["Ann", "Bob", "Cat", "Dan"], 1), (["Bob", "Eve", "Dan", "Fay"], 2),
                        (["Fay", "Ann", "Eve", "Cat"], 3)):
        book.add_match(league, finished_match(store, registry, names, seed))
    new_league(book, registry, name="Friday", pairs=[("Gil", "Hal"), ("Ivy", "Jo")])
    book.close()
    store.close()


@pytest.mark.slow  # about 3 s of CPU (the launcher, help and the screen, twice)
async def test_the_leagues_screen_shows_the_season_table_at_80x24(make_app, registry):
    app = make_app(start=Launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LauncherScreen), "the launcher")
        await pilot.press("l")  # no league yet: the screen says how to make one
        await until(pilot, lambda: "No league yet" in "\n".join(screen_lines(app)), "the hint")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LauncherScreen), "back")
        a_season(registry)
        footer = await until(pilot, lambda: "Leagues" in screen_lines(app)[-1] and screen_lines(app)[-1],
                             "the footer")
        assert " l " in f" {footer} " and "l Leagues" in footer, footer
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "help")
        await until(pilot, lambda: any(re.search(r"\bl\s+leagues: each league's standings", line)
                                            for line in screen_lines(app)),
                    "l in the help")
        await pilot.press("escape")
        await pilot.press("l")
        screen = await until(pilot, lambda: isinstance(app.screen, LeagueScreen) and app.screen, "leagues")
        await until(pilot, lambda: "Bob & Dan" in "\n".join(screen_lines(app)), "the standings")
        lines = screen_lines(app)
        rows = [line for line in lines if "& " in line and "." in line]
        # the table of docs/leagues.md: played, won, lost, for, against (no forfeit: at 80
        # columns that column, and ±, make room for the list of leagues)
        for team, figures in (("Bob & Dan", "2 2 0 28 16"), ("Eve & Fay", "2 1 1 23 21"),
                              ("Ann & Cat", "2 0 2 15 29")):
            line = next(r for r in rows if team in r)
            assert figures in " ".join(line.replace("│", " ").split()), line
        assert max(len(line.rstrip()) for line in lines) <= 80
        assert "Tuesday" in "\n".join(lines) and "Friday" in "\n".join(lines)
        # the other league: no entries yet
        screen.query_one("#leagues").index = 1
        await until(pilot, lambda: "No entries yet" in "\n".join(screen_lines(app)), "Friday's table")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LauncherScreen), "back")
