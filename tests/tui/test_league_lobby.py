"""A server's leagues from the front end (issue 23): ``l`` in the lobby lists them with a
league's standings (laid out as the library's), and the lobby's form makes a table for a
league with its partnerships' names, partners opposite. Against a real `cardcore serve` on
127.0.0.1, through Textual's pilot at 80x24."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Checkbox, Input, Select

from cardcore.apps.tui.app import CardcoreApp, Lobby
from cardcore.apps.tui.screens.lobby import LinksScreen, LobbyScreen, RemoteSetupScreen
from cardcore.apps.tui.screens.server_leagues import ServerLeaguesScreen
from cardcore.services.league.book import LeagueBook
from cardcore.services.store.sqlite import SqliteStore
from tests.league_helpers import new_league

from ..net.helpers import start_server, stop_server
from .helpers import text_of, until

SIZE = (80, 24)


def leagues_in(path: Any, registry: Any) -> None:
    """Tuesday (Casino to 11: Ann & Cat, Bob & Dan, Eve & Fay) and a Canasta league."""
    store = SqliteStore(path)
    book = LeagueBook(store)
    new_league(book, registry)
    new_league(book, registry, name="Weekly", pairs=[("Gus", "Hal"), ("Ivy", "Jo")], game_id="canasta",
               options={})
    book.close()
    store.close()


async def test_l_in_the_lobby_shows_the_servers_leagues_and_a_leagues_standings(tmp_path, cardcore_home,
                                                                                 registry):
    from cardcore.apps.league_cli import format_standings
    from cardcore.services.league.standings import standings

    path = tmp_path / "server.sqlite"
    leagues_in(path, registry)
    server = await start_server(path, registry=registry)
    try:
        app = CardcoreApp(registry, start=Lobby(f"ws://127.0.0.1:{server.port}/"), bot_delay=0,
                          animations=False)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.conn, "the lobby")
            await pilot.press("l")
            screen = await until(pilot, lambda: isinstance(app.screen, ServerLeaguesScreen)
                                 and app.screen.answer and app.screen, "the standings")
            assert screen.answer.league == "Tuesday"
            shown = text_of(app, "#standings")
            store = SqliteStore(path)
            book = LeagueBook(store)
            league = book.get("Tuesday")
            local = format_standings(registry, standings(league, book.entries(league)), 60)
            book.close()
            store.close()
            # the one layout: the library's lines, but for the entries the answer only counts
            assert local.split("\nNo entries yet")[0] in screen.standings_layout(60)
            assert "Tuesday · Casino" in shown and "Ann & Cat" in shown and "Players" in shown
            await pilot.press("down")
            await until(pilot, lambda: screen.answer.league == "Weekly", "the second league")
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
    finally:
        await stop_server(server)


@pytest.mark.slow  # the setup form (~3 s of CPU)
async def test_the_lobby_form_makes_a_league_table_with_its_partnerships_opposite(tmp_path, cardcore_home,
                                                                                 registry):
    """Choosing the league (and the partnerships to play) names the four seats after their
    players, partners opposite as Canasta seats them (0 & 2, 1 & 3), the league's options
    fixed; the table made counts for it."""
    path = tmp_path / "server.sqlite"
    leagues_in(path, registry)
    server = await start_server(path, registry=registry)
    try:
        app = CardcoreApp(registry, start=Lobby(f"ws://127.0.0.1:{server.port}/", "Gus"), bot_delay=0,
                          animations=False)
        async with app.run_test(size=SIZE) as pilot:
            lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.conn
                                and app.screen, "the lobby")
            # the keys: n, enter (Canasta, the first game), enter down enter (the league), ctrl+s
            await pilot.press("n")
            await until(pilot, lambda: app.screen is not lobby, "the game choice")
            await pilot.press("enter")
            form = await until(pilot, lambda: isinstance(app.screen, RemoteSetupScreen)
                               and app.screen.query("LeagueChoice") and app.screen, "the form")
            choice = await until(pilot, lambda: form.query_one("LeagueChoice").display
                                 and form.query_one("LeagueChoice"), "the league row (a Canasta league)")
            assert form.focused is choice.query_one("#league", Select)
            await pilot.press("enter", "down", "enter")  # the league row's list: Weekly
            await until(pilot, lambda: form.query_one("#name-3", Input).value == "Jo", "the names filled")
            await pilot.pause()
            names = [form.query_one(f"#name-{i}", Input).value for i in range(4)]
            assert names == ["Gus", "Ivy", "Hal", "Jo"]  # Gus & Hal at 0 and 2, Ivy & Jo at 1 and 3
            assert form.query_one("#options").disabled and form.league == "Weekly"
            # the server form's boxes draw on and off apart, as the setup form's (issue 23, item 8)
            public = form.query_one("#public", Checkbox)
            assert "▐ ▌" in str(public.render()) and not public.value
            public.value = True
            assert "▐X▌" in str(public.render())
            public.value = False
            await pilot.press("ctrl+s")
            links = await until(pilot, lambda: isinstance(app.screen, LinksScreen) and app.screen,
                                "the links")
            table = server.tables[links.created.code]
            assert table.league == "Weekly" and len(links.created.seats) == 4
            assert list(table.match.seating.names) == ["Gus", "Ivy", "Hal", "Jo"]
            assert list(table.match.seating.side_names) == ["Gus & Hal", "Ivy & Jo"]
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
            await until(pilot, lambda: "canasta (Weekly)" in str(lobby.query_one("#tables").get_row_at(0)),
                        "the list names the table's league")
    finally:
        await stop_server(server)


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_the_name_offered_at_a_server_is_the_last_profiles_and_a_name_sat_under_is_kept(
        tmp_path, cardcore_home, registry):
    """The lobby's name box offers the most recent profile's name; a seat taken under a name
    makes it the most recent profile, which the launcher's join box then offers."""
    from cardcore.apps.tui.screens.join_code import JoinCodeScreen
    from cardcore.apps.tui.screens.table import TableScreen
    from cardcore.services.profiles import known_names, remember

    from .test_join_code import BoxHost, make_table

    remember(["Zoe"])
    server = await start_server(tmp_path / "server.sqlite", registry=registry)
    try:
        made = await make_table(server.port, ["human", "greedy"])
        app = CardcoreApp(registry, start=Lobby(f"ws://127.0.0.1:{server.port}/"), bot_delay=0,
                          animations=False)
        async with app.run_test(size=SIZE) as pilot:
            lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.conn
                                and app.screen, "the lobby")
            box = lobby.query_one("#lobby-name", Input)
            assert box.value == "Zoe"
            box.value = "Ann"
            lobby.open_soon(made.code, made.seats[0].invite)
            table = await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted
                                and app.screen, "seated")
            await pilot.pause()
            await pilot.press("q")
            await until(pilot, lambda: not table.is_attached, "the table left")
        assert known_names()[0] == "Ann" and server.tables[made.code].match.seating.names[0] == "Ann"
        host = BoxHost(registry)
        async with host.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(host.screen, JoinCodeScreen), "the box")
            assert host.screen.query_one("#join-name", Input).value == "Ann"
    finally:
        await stop_server(server)
    remote = CardcoreApp(registry, start=Lobby("ws://127.0.0.1:1/", remote_only=True))
    from cardcore.apps.tui.screens.join_code import profile_name

    assert profile_name(remote) == ""  # the browser's app: the host's profiles are not its player's


@pytest.mark.slow  # a whole match watched at the table screen (~3 s)
async def test_a_league_match_names_its_league_and_its_final_sheet_shows_the_standings_now(
        tmp_path, cardcore_home, registry):
    """Watching a league table (Casino to 1: one hand): the status line and the sheet name the
    league, and once the match is over the sheet shows the league's table with the match in it."""
    from cardcore.apps.tui.app import JoinTable
    from cardcore.apps.tui.remote import RemoteSession
    from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen
    from cardcore.apps.tui.screens.server_leagues import LeaguePanel
    from cardcore.services.net import protocol as p
    from cardcore.services.net.client import Connection

    path = tmp_path / "server.sqlite"
    store = SqliteStore(path)
    book = LeagueBook(store)
    new_league(book, registry, options={"target": 1})
    book.close()
    store.close()
    server = await start_server(path, registry=registry)
    conn = await Connection.open(f"ws://127.0.0.1:{server.port}/")
    try:
        created = await conn.call(p.CreateTable(game="casino", options={"target": 1}, seats=["random"] * 4,
                                                names=["Ann", "Bob", "Cat", "Dan"], league="Tuesday"))
        session = await RemoteSession.join(registry, conn, created.code, None)
        assert session.league == "Tuesday"
        app = CardcoreApp(registry, start=JoinTable(session), bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            def final_panel() -> LeaguePanel | None:
                screen = app.screen
                if isinstance(screen, ScoreSheetScreen) and screen.over:
                    panel = screen.query(LeaguePanel)
                    return panel.first() if panel and panel.first().answer else None
                return None

            for _ in range(50):  # a hand that ends in a tie goes on: on to the next (n)
                sheet = await until(pilot, lambda: isinstance(app.screen, ScoreSheetScreen) and app.screen,
                                    "a score sheet")
                if sheet.over:
                    break
                await pilot.press("n")
                await until(pilot, lambda s=sheet: not s.is_attached, "the next hand")
            panel = await until(pilot, final_panel, "the league's standings under the final sheet")
            assert panel.answer.entries == 1 and sum(t.played for t in panel.answer.teams) == 2
            heading = text_of(app, "#sheet-heading")
            assert heading.startswith("Match over") and "league Tuesday" in heading
            shown = str(panel.render())
            assert "Tuesday · Casino" in shown and "1 entry" in shown and "\ufffd" not in shown
            assert [line.split()[0] for line in shown.split("\n")[1:3]] == ["partnership", "1"]
            assert "Ann & Cat" in shown and "Bob & Dan" in shown
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, ScoreSheetScreen), "the table")
            assert "league Tuesday" in text_of(app, "#status")
    finally:
        await conn.close()
        await stop_server(server)
