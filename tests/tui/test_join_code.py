"""Joining a friend's table (issue 23): join by code from the launcher and the lobby, the
invites shown as text and copied, a private table's seats given without making it public,
why a link did not seat you, and whom the table waits for. Against a real `cardcore
serve` on 127.0.0.1, through Textual's pilot."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.widgets import Input

from cardcore.apps.tui.app import CardcoreApp, JoinTable, Launch, Lobby
from cardcore.apps.tui.remote import RemoteSession
from cardcore.apps.tui.screens.join_code import JoinCodeScreen, own_connection_joiner
from cardcore.apps.tui.screens.launcher import LauncherScreen
from cardcore.apps.tui.screens.lobby import LinksScreen, LobbyScreen
from cardcore.apps.tui.screens.table import TableScreen
from cardcore.language import _
from cardcore.services.net import protocol as p
from cardcore.services.net.client import Connection
from cardcore.services.net.seat_book import SeatBook

from ..net.helpers import start_server, stop_server
from .helpers import screen_lines, text_of, until

SIZE = (80, 24)


async def make_table(port: int, seats: list[str], public: bool = False) -> p.TableCreated:
    conn = await Connection.open(f"ws://127.0.0.1:{port}/")
    try:
        created: p.TableCreated = await conn.call(p.CreateTable(game="casino", seats=seats, seed=3,
                                                                 public=public))
    finally:
        await conn.close()
    return created


async def on(pilot: Any, kind: type, what: str) -> Any:
    """The app's screen once it is a ``kind``."""
    return await until(pilot, lambda: isinstance(pilot.app.screen, kind) and pilot.app.screen, what)


def spoken(code: str, invite: str) -> str:
    """The invite as a friend types it after hearing it: lower case, spaces."""
    return f"{code.lower()} {invite.replace('-', ' ')}"


class Keys:
    """Presses keys through the pilot, counting the ones that are not typing."""

    def __init__(self, pilot: Any) -> None:
        self.pilot, self.count = pilot, 0

    async def press(self, *keys: str) -> None:
        self.count += len(keys)
        await self.pilot.press(*keys)

    async def type(self, text: str) -> None:
        await self.pilot.press(*("space" if c == " " else c for c in text))


@pytest.mark.slow  # three tables opened (~3.5 s of CPU)
async def test_from_the_launcher_to_a_seat_at_a_friends_table_in_three_keys_plus_typing(
        tmp_path, registry):
    """The friend hears the code and the seat's invite (and the server's address, the first
    time): j, the code and invite, tab, the server, enter: seated. The next time the box
    offers the server joined last: j, the code and invite, enter; the code alone takes the
    seat back."""
    server = await start_server(tmp_path / "server.sqlite")
    try:
        made = await make_table(server.port, ["human", "human", "human", "human"])
        app = CardcoreApp(registry, start=Launch(), bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LauncherScreen), "the launcher")
            keys = Keys(pilot)
            await keys.press("j")
            box = await on(pilot, JoinCodeScreen, "the box")
            await keys.type(spoken(made.code, made.seats[1].invite))
            await keys.press("tab")
            await keys.type(f"127.0.0.1:{server.port}")
            await keys.press("enter")
            table = await on(pilot, TableScreen, "the table")
            assert keys.count == 3 <= 10, keys.count
            assert table.session.seat == 1 and server.tables[made.code].seats[1].claimed
            assert not box.is_attached
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, LauncherScreen), "the launcher again")
            # the next time: the server joined last is offered
            assert SeatBook().last_server() == f"ws://127.0.0.1:{server.port}"
            keys = Keys(pilot)
            await keys.press("j")
            await until(pilot, lambda: isinstance(app.screen, JoinCodeScreen), "the box")
            await keys.type(spoken(made.code, made.seats[2].invite))
            await keys.press("enter")
            table = await on(pilot, TableScreen, "the table")
            assert keys.count == 2 and table.session.seat == 2
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, LauncherScreen), "the launcher again")
            await pilot.press("j")
            await until(pilot, lambda: isinstance(app.screen, JoinCodeScreen), "the box")
            await pilot.press(*made.code.lower().replace("-", ""), "enter")
            table = await on(pilot, TableScreen, "back at the seat")
            assert table.session.seat == 2
            await pilot.press("q")
            await on(pilot, LauncherScreen, "the launcher again")
            await pilot.click("#join")  # the launcher's button does what j does
            await on(pilot, JoinCodeScreen, "the box from the button")
    finally:
        await stop_server(server)


class BoxHost(App[None]):
    """The launcher's box alone (the launcher's own screen is costly to draw; the slow test
    above goes through it)."""

    def __init__(self, registry: Any) -> None:
        super().__init__()
        self.box = JoinCodeScreen(own_connection_joiner(registry), "ws://127.0.0.1:8765", ask_server=True)

    def on_mount(self) -> None:
        self.push_screen(self.box)


async def test_a_wrong_invite_in_the_box_says_why_and_the_box_stays(tmp_path, registry):
    server = await start_server(tmp_path / "server.sqlite")
    try:
        made = await make_table(server.port, ["human", "human"])
        app = BoxHost(registry)
        async with app.run_test(size=SIZE) as pilot:
            box = await on(pilot, JoinCodeScreen, "the box")
            box.query_one("#join-server", Input).value = f"127.0.0.1:{server.port}"
            box.query_one("#join-code", Input).value = f"{made.code} maple river stone tigre"
            await pilot.press("enter")
            said = await until(pilot, lambda: text_of(app, "#join-message").strip(), "why not")
            assert said.startswith(f"Table {made.code} did not seat you (not a seat's invite)")
            assert app.screen is box and not server.tables[made.code].seats[0].claimed
            # a port that is no number (a name typed on the server's line) is one line too
            box.query_one("#join-server", Input).value = f"ws://127.0.0.1:{server.port}Bob"
            await pilot.press("enter")
            said = await until(pilot, lambda: "the server is ws://" in text_of(app, "#join-message")
                               and text_of(app, "#join-message"), "why not")
            assert said.startswith(f"ws://127.0.0.1:{server.port}Bob: the server is"), said
            assert app.screen is box
    finally:
        await stop_server(server)


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_a_private_tables_seat_is_given_by_its_code_and_invite_without_listing_it(
        tmp_path, registry):
    """The friend's lobby lists no table (it is private); the code and the seat's invite,
    typed in capitals, seat the friend, and the table stays private."""
    server = await start_server(tmp_path / "server.sqlite")
    try:
        made = await make_table(server.port, ["human", "human"])
        assert not server.tables[made.code].public
        app = CardcoreApp(registry, start=Lobby(f"ws://127.0.0.1:{server.port}/", "Bob"),
                          bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen
                                and app.screen.conn, "the lobby") and app.screen
            assert isinstance(lobby, LobbyScreen) and lobby.tables == []
            await pilot.press("j")
            box = await on(pilot, JoinCodeScreen, "the box")
            assert not box.query("#join-server")  # the lobby's server
            box.query_one("#join-code", Input).value = spoken(made.code, made.seats[1].invite).upper()
            await pilot.press("enter")
            table = await until(pilot, lambda: isinstance(app.screen, TableScreen)
                                and app.screen.session.seat is not None and app.screen, "seated")
            assert table.session.seat == 1 and server.tables[made.code].match.seating.names[1] == "Bob"
            assert not server.tables[made.code].public
    finally:
        await stop_server(server)


async def test_the_links_screen_shows_the_invites_as_text_and_copies_them(tmp_path, registry, spoken):
    server = await start_server(tmp_path / "server.sqlite")
    try:
        app = CardcoreApp(registry, start=Lobby(f"ws://127.0.0.1:{server.port}/", "Ann"),
                          bot_delay=0, animations=False)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = await on(pilot, LobbyScreen, "the lobby")
            from cardcore.apps.tui.session import SessionSetup

            game = registry.games["casino"]
            lobby.create(SessionSetup(game, game.Options(), ["human"] * 4, 5))
            links = await on(pilot, LinksScreen, "the links")
            code, seats = links.created.code, links.created.seats
            # the screen is up before its widgets are mounted (a loaded machine shows it)
            await until(pilot, lambda: app.screen.query("#links-text"), "the links' text mounted")
            lines = [line.strip() for line in text_of(app, "#links-text").splitlines()]
            shown = await until(pilot, lambda: " ".join(screen_lines(app)).strip(), "the links drawn")
            for s in seats:  # the invites read aloud, all in view at 80x24; then the links
                seat = _("Seat {number}:").format(number=s.seat + 1)
                assert f"{seat} {code} {s.invite}" in lines
                assert f"{seat} {code} {s.invite}" in shown
                assert f"{seat} {s.link}" in lines
            await pilot.press("c")  # the focus is on seat 1's button: its invite alone
            first = _("cardcore table {code}, seat {number}: join by code with {invite} or the link {link}")
            invite, link = f"{code} {seats[0].invite}", seats[0].link
            assert app.clipboard.startswith(first.format(code=code, number=1, invite=invite, link=link))
            assert seats[1].invite not in app.clipboard
            copied = _("Seat {number}'s invite copied to the clipboard.").format(number=1)
            assert copied in " ".join(text_of(app, "#links-text").split())
            links.query_one("#back").focus()
            await pilot.press("c")  # no seat's button: every seat's
            assert all(s.invite in app.clipboard and s.link in app.clipboard for s in seats)
    finally:
        await stop_server(server)


async def test_a_link_that_does_not_seat_you_says_why_and_the_lobby_keeps_saying_it(tmp_path, registry):
    """The browser's path: a web link opens the lobby at its seat; the seat is someone
    else's, so the lobby says so (taken), and refreshing the list does not cover it."""
    server = await start_server(tmp_path / "server.sqlite")
    conn = None
    try:
        made = await make_table(server.port, ["human", "greedy"])
        conn = await Connection.open(f"ws://127.0.0.1:{server.port}/", "Ann")
        await conn.call(p.Join(code=made.code, invite=made.seats[0].invite))
        app = CardcoreApp(registry, start=Lobby(f"ws://127.0.0.1:{server.port}/", remote_only=True,
                                                seat=(made.code, made.seats[0].invite)),
                          bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            lobby = await on(pilot, LobbyScreen, "the lobby")
            said = await until(pilot, lambda: "did not seat" in text_of(app, "#lobby-message")
                               and " ".join(text_of(app, "#lobby-message").split()), "why not")
            assert said.startswith(f"Table {made.code} did not seat you (taken): "
                                   "seat 1's invite has been used")
            await lobby.refresh_tables()
            await pilot.pause()
            assert "did not seat you (taken)" in text_of(app, "#lobby-message")
            assert "No table yet" not in text_of(app, "#lobby-message")
    finally:
        if conn is not None:
            await conn.close()
        await stop_server(server)


async def test_the_status_line_names_the_seat_the_table_waits_for(tmp_path, registry):
    """While a seat is unclaimed the table waits: the status says for whom, not whose turn
    it would be; once the seat is taken, play goes on and the status says who plays."""
    server = await start_server(tmp_path / "server.sqlite")
    conn = friend = None
    try:
        made = await make_table(server.port, ["human", "greedy", "human", "greedy"])
        conn = await Connection.open(f"ws://127.0.0.1:{server.port}/", "Ann")
        session = await RemoteSession.join(registry, conn, made.code, made.seats[0].invite, "Ann")
        north = session.names[2]
        app = CardcoreApp(registry, start=JoinTable(session), bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
            status = await until(pilot, lambda: text_of(app, "#status"), "the status line")
            assert f"waiting for {north} to sit" in status and "to play:" not in status
            assert "(the table waits)" in text_of(app, "#actions-title")
            friend = await Connection.open(f"ws://127.0.0.1:{server.port}/", "Bob")
            await friend.join(made.code, made.seats[1].invite, "Bob")
            await until(pilot, lambda: "waiting for" not in text_of(app, "#status")
                        and "to play:" in text_of(app, "#status"), "play going on")
    finally:
        for c in (conn, friend):
            if c is not None:
                await c.close()
        await stop_server(server)


async def test_several_open_seats_are_counted_first_and_the_server_unreachable_is_no_refusal(
        tmp_path, registry):
    """At 80 columns the status line keeps the count of seats the table waits for (names
    after it); a box whose server cannot be reached says so, not that a seat refused."""
    from cardcore.services.net.client import ClientError, not_seated

    server = await start_server(tmp_path / "server.sqlite")
    conn = None
    try:
        made = await make_table(server.port, ["human", "human", "human", "human"])
        conn = await Connection.open(f"ws://127.0.0.1:{server.port}/", "Ann")
        session = await RemoteSession.join(registry, conn, made.code, made.seats[1].invite, "Ann")
        others = [session.names[s] for s in (0, 2, 3)]
        assert session.waiting_for == f"3 players to sit: {', '.join(others)}"
    finally:
        if conn is not None:
            await conn.close()
        await stop_server(server)
    refused = ClientError("unreachable", "cannot reach the server at ws://127.0.0.1:1")
    assert not_seated("KQX-482", refused) == "cannot reach the server at ws://127.0.0.1:1"
