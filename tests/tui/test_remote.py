"""The table on a server: RemoteSession and the lobby against a real `cardcore serve` on
127.0.0.1 (in the test's own event loop), and the links `cardcore join` reads."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from textual.widgets import Button

from cardcore.apps.tui.app import CardcoreApp, JoinTable, Lobby
from cardcore.apps.tui.remote import RemoteSession
from cardcore.apps.tui.screens.lobby import LinksScreen, LobbyScreen
from cardcore.apps.tui.screens.table import TableScreen
from cardcore.apps.tui.widgets.zones import ZonesView
from cardcore.engine.cards import glyph
from cardcore.services.net import protocol as p
from cardcore.services.net.client import ClientError, Connection, Target, parse_target

from ..net.helpers import start_server, stop_server
from .helpers import play_first, until
from .test_table_items import footer_problems

SIZE = (80, 24)


async def new_table(port: int, game: str = "casino", seats: tuple[str, ...] = ("human", "greedy"),
                    seed: int = 3) -> p.TableCreated:
    conn = await Connection.open(f"ws://127.0.0.1:{port}/")
    try:
        created: p.TableCreated = await conn.call(p.CreateTable(game=game, seats=list(seats), seed=seed,
                                                                 public=True))
    finally:
        await conn.close()
    return created


@contextlib.asynccontextmanager
async def seated(tmp_path: Any, registry: Any, seat: int | None = 0, seats: tuple[str, ...] = (
        "human", "greedy")) -> AsyncIterator[tuple[Any, str, RemoteSession]]:
    """A server, a new table on it, and a session at ``seat`` of it (None: watching)."""
    server = await start_server(tmp_path / "server.sqlite")
    conn = None
    try:
        created = await new_table(server.port, seats=seats)
        conn = await Connection.open(f"ws://127.0.0.1:{server.port}/", "Ann")
        secret = None if seat is None else created.seats[seat].invite
        yield server, created.code, await RemoteSession.join(registry, conn, created.code, secret, "Ann")
    finally:
        if conn is not None:
            await conn.close()
        await stop_server(server)


def hands_of(server: Any, code: str) -> list[list[str]]:
    hands: list[list[str]] = server.tables[code].match.state.export()["hands"]
    return hands


# --- links ---------------------------------------------------------------------------------


def test_links_codes_and_web_links_name_the_server_table_and_secret():
    assert parse_target("kqx-482", secret="s3", server="ws://h:1") == Target("ws://h:1", "KQX-482", "s3")
    assert parse_target("KQX-482") == Target("ws://127.0.0.1:8765", "KQX-482", None)
    assert parse_target("cardcore://cards.example.org:9000/KQX-482#abc_-1") == \
        Target("ws://cards.example.org:9000/", "KQX-482", "abc_-1")
    assert parse_target("cardcores://cards.example.org/play/KQX-482#s") == \
        Target("wss://cards.example.org/play/", "KQX-482", "s")
    assert parse_target("http://web:8000/?table=KQX-482&secret=zz", server="ws://h:2") == \
        Target("ws://h:2", "KQX-482", "zz")


@pytest.mark.parametrize("bad", ["KQX4821", "cardcore://host/not-a-code#s", "ftp://x/KQX-482",
                                 "http://web/?secret=zz", "cardcore://host:99999/KQX-482#s", ""])
def test_a_bad_link_is_one_line(bad):
    with pytest.raises(ClientError) as err:
        parse_target(bad)
    assert err.value.code == "bad_link" and "\n" not in str(err.value)


def test_a_server_that_is_not_a_websocket_url_is_refused():
    with pytest.raises(ClientError, match="ws://HOST:PORT"):
        parse_target("KQX-482", server="http://127.0.0.1:8765")


# --- a seat at a table on a server ----------------------------------------------------------


async def your_turn(pilot: Any, app: CardcoreApp) -> TableScreen:
    table: TableScreen = await until(pilot, lambda: isinstance(app.screen, TableScreen)
                                     and app.screen.legal and app.screen, "the human's turn")
    return table


async def test_a_joined_table_plays_a_move_on_the_server_and_shows_only_its_own_hand(
        tmp_path, cardcore_home, registry):
    async with seated(tmp_path, registry) as (server, code, session):
        app = CardcoreApp(registry, start=JoinTable(session), bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            table = await your_turn(pilot, app)
            mine, theirs = hands_of(server, code)
            assert sorted(c for c in table.hand.cards if c) == sorted(mine)
            zones = table.query_one("#zones", ZonesView).plain
            assert not [c for c in theirs if glyph(c) in zones.split()], "another seat's card shown"
            before = server.tables[code].match.decisions
            first = table.legal[0]
            await pilot.press("1")
            await until(pilot, lambda: server.tables[code].match.decisions > before, "the server moved")
            await until(pilot, lambda: any(e.text == f"Ann: {first.label}" for e in session.log),
                        "the move in the log")
            assert session.why_no_undo() is not None  # no undo on a server
            await pilot.press("q")
        assert not app.is_running


async def test_a_hint_at_a_server_table_is_searched_from_the_seats_own_view(
        tmp_path, cardcore_home, registry):
    """The hint runs the search here, from what the server sent this seat (generic: no game imported),
    names one of the seat's legal actions with its estimate, and plays nothing."""
    async with seated(tmp_path, registry) as (server, code, session):
        app = CardcoreApp(registry, start=JoinTable(session), bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            table = await your_turn(pilot, app)
            before = server.tables[code].match.decisions
            best = session.hints(top=3)
            assert best and all(e.action in table.legal for e in best)
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            message = str(table.query_one("#message").render())
            assert message.startswith(f"Hint: {best[0].action.label}, about ") \
                and "points for your side" in message
            assert server.tables[code].match.decisions == before


async def test_w_at_a_server_table_asks_the_server_why_its_bot_moved(tmp_path, cardcore_home, registry):
    async with seated(tmp_path, registry) as (server, code, session):
        app = CardcoreApp(registry, start=JoinTable(session), bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            await your_turn(pilot, app)
            if not any(e.bot for e in session.log):  # Ann opened: the bot answers first
                await pilot.press("1")
                await until(pilot, lambda: any(e.bot for e in session.log), "the bot's move")
            line = next(e for e in reversed(session.log) if e.bot)
            assert line.turn is not None and line.turn in server.tables[code].service.reasons
            await pilot.press("w")
            message = await until(pilot, lambda: (m := str(app.screen.query_one("#message").render()))
                                  and " chose " in m and m, "the server's answer")
            name, move = line.text.split(": ", 1)
            assert message.startswith(f"{name} chose {move}: it expected about ")
            assert (await session.why(10**6)).startswith("No bot move at turn 1000000 to explain")


async def test_a_move_the_server_refuses_says_why_and_keeps_the_table(tmp_path, cardcore_home, registry):
    async with seated(tmp_path, registry) as (_server, code, session):
        app = CardcoreApp(registry, start=JoinTable(session), bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            table = await your_turn(pilot, app)
            session.conn.send_soon(p.Act(code=code, action={"move": "nonsense"}, turn=session.turn), code)
            await until(pilot, lambda: "The server said no" in str(table.query_one("#message").render()),
                        "the error shown")
            assert table.legal  # still this player's turn, nothing changed


async def test_a_lost_server_is_said_and_nothing_can_be_played(tmp_path, cardcore_home, registry):
    server = await start_server(tmp_path / "server.sqlite")
    created = await new_table(server.port)
    conn = await Connection.open(f"ws://127.0.0.1:{server.port}/")
    try:
        session = await RemoteSession.join(registry, conn, created.code, created.seats[0].invite)
        app = CardcoreApp(registry, start=JoinTable(session), bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            table = await your_turn(pilot, app)
            await stop_server(server)
            await until(pilot, lambda: "Not connected to the server" in
                        str(table.query_one("#save-warning").render()), "the warning")
            assert table.legal == [] and session.legal_actions() == []
            assert "Lost the server" in str(table.query_one("#message").render())
    finally:
        await conn.close()


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_chat_lines_reach_the_other_players_log(tmp_path, cardcore_home, registry):
    server = await start_server(tmp_path / "server.sqlite")
    try:
        created = await new_table(server.port, seats=("human", "greedy", "human", "greedy"))
        a = await Connection.open(f"ws://127.0.0.1:{server.port}/")
        b = await Connection.open(f"ws://127.0.0.1:{server.port}/")
        ann = await RemoteSession.join(registry, a, created.code, created.seats[0].invite, "Ann")
        bob = await RemoteSession.join(registry, b, created.code, created.seats[1].invite, "Bob")
        app = CardcoreApp(registry, start=JoinTable(ann), bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
            await pilot.press("c")
            await pilot.press(*"hello", "enter")
            await until(pilot, lambda: any(e.note and "hello" in e.text for e in bob.log), "Bob reads it")
            with pytest.raises(ValueError):
                bob.chat("x" * (p.MAX_CHAT_CHARS + 1))
    finally:
        await a.close()
        await b.close()
        await stop_server(server)


async def test_a_spectator_sees_no_hand(tmp_path, cardcore_home, registry):
    async with seated(tmp_path, registry, seat=None) as (_server, _code, session):
        assert session.humans == [] and session.legal_actions() == []
        cards = [c for z in session.table(None)[1] if z.kind == "hand" for c in z.cards]
        assert cards and all(c is None for c in cards)


async def test_joining_with_a_bad_secret_or_code_is_one_line(tmp_path, registry):
    server = await start_server(tmp_path / "server.sqlite")
    try:
        created = await new_table(server.port)
        conn = await Connection.open(f"ws://127.0.0.1:{server.port}/")
        with pytest.raises(ClientError) as err:
            await RemoteSession.join(registry, conn, created.code, "not-the-secret")
        assert err.value.code == "bad_secret"
        with pytest.raises(ClientError) as err:
            await RemoteSession.join(registry, conn, "ZZZ-999", None)
        assert err.value.code == "no_table"
    finally:
        await conn.close()
        await stop_server(server)


# --- the lobby -------------------------------------------------------------------------------


async def test_the_lobby_lists_creates_shows_the_links_and_sits(tmp_path, cardcore_home, registry, spoken):
    server = await start_server(tmp_path / "server.sqlite")
    try:
        other = await new_table(server.port, game="royal_casino")
        app = CardcoreApp(registry, start=Lobby(f"ws://127.0.0.1:{server.port}/", "Ann"),
                          bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.tables
                                and app.screen, "the list of tables")
            assert [t.code for t in lobby.tables] == [other.code]
            await pilot.pause()
            assert not await footer_problems(pilot)  # the lobby's keys whole
            from cardcore.apps.tui.session import SessionSetup

            game = registry.games["casino"]
            lobby.create(SessionSetup(game, game.Options(), ["human", "greedy"], 5))
            links = await until(pilot, lambda: isinstance(app.screen, LinksScreen) and app.screen,
                                "the links")
            assert len(links.created.seats) == 1
            assert links.created.seats[0].link.startswith(f"cardcore://127.0.0.1:{server.port}/")
            assert len(lobby.tables) == 2
            await pilot.press("enter")  # sit at seat 1
            table = await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen,
                                "the table")
            code = links.created.code
            await until(pilot, lambda: sorted(c for c in table.hand.cards if c)
                        == sorted(hands_of(server, code)[0]), "our own hand, face up")
            await pilot.press("q")  # back to the lobby, not out of the app
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
            assert app.is_running
    finally:
        await stop_server(server)


async def test_the_lobby_makes_a_stood_in_table_and_gives_a_seat_a_new_link(tmp_path, cardcore_home,
                                                                           registry):
    server = await start_server(tmp_path / "server.sqlite")
    try:
        app = CardcoreApp(registry, start=Lobby(f"ws://127.0.0.1:{server.port}/", "Ann"),
                          bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen,
                                "the lobby")
            from cardcore.apps.tui.session import SessionSetup

            game = registry.games["casino"]
            lobby.create(SessionSetup(game, game.Options(), ["human", "human"], 5), standin_open=True)
            links = await until(pilot, lambda: isinstance(app.screen, LinksScreen)
                                and app.screen.query("#new-1") and app.screen, "the links and buttons")
            table = server.tables[links.created.code]
            assert table.standin_open and table.status == "playing"
            old = links.created.seats[1].link
            links.query_one("#new-1", Button).press()
            def note() -> str | None:
                last = str(links.query_one("#links-text").render()).split("\n")[-1]
                return last if last.startswith(("Seat 2 has", "No new link")) else None

            said = await until(pilot, note, "the new link's note")
            assert said == "Seat 2 has a new link." and links.created.seats[1].link != old
            new_invite = links.created.seats[1].invite
            assert old.rsplit("#", 1)[1] != new_invite
            from cardcore.services.net.seats import hash_secret

            assert table.seats[1].invite_hash == hash_secret(new_invite)
    finally:
        await stop_server(server)


async def test_the_browser_app_reaches_nothing_of_this_machine(tmp_path, cardcore_home, registry):
    """``cardcore web``'s app (remote only): no launcher, resume, history, statistics, new local
    match or replay; the library is never opened (nothing written to CARDCORE_HOME)."""
    server = await start_server(tmp_path / "server.sqlite")
    try:
        app = CardcoreApp(registry, start=Lobby(f"ws://127.0.0.1:{server.port}/", remote_only=True),
                          bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            titles = {c.title for c in app.get_system_commands(app.screen)}
            assert not titles & {"New match", "Resume", "History", "Statistics"}
            app.open_history()
            app.open_stats()
            app.open_resume_list()
            app.resume_match(1)
            app.replay_match(1)
            app.command_new_match()
            app.open_setup(registry.games["casino"])
            await pilot.pause()
            assert isinstance(app.screen, LobbyScreen) and len(app.screen_stack) == 1
            assert app.library() is None and app.unfinished() == []
            await pilot.press("ctrl+p")
            await pilot.pause()
    finally:
        await stop_server(server)
    assert not cardcore_home.exists() or not any(cardcore_home.rglob("*.sqlite*"))


def test_the_web_app_command_and_seat_links_are_quoted_and_checked():
    from cardcore.apps.tui.web import app_command, seat_of

    assert app_command("ws://h:1/a b").startswith("exec ")
    assert app_command("ws://h:1/a b").endswith("join --server 'ws://h:1/a b' --remote-only")
    assert seat_of("KQX-482", "abc_-9") == ("KQX-482", "abc_-9")
    assert seat_of("KQX-482", "a;rm -rf") is None and seat_of("kqx", "abc") is None
    assert seat_of(None, "abc") is None and seat_of("KQX-482", "x" * 65) is None


@pytest.mark.slow
async def test_the_lobby_form_makes_a_public_table_with_side_names(tmp_path, cardcore_home, registry):
    from textual.widgets import Checkbox, Input, Select

    from cardcore.apps.tui.screens.lobby import RemoteSetupScreen

    server = await start_server(tmp_path / "server.sqlite")
    try:
        app = CardcoreApp(registry, start=Lobby(f"ws://127.0.0.1:{server.port}/", "Ann"),
                          bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.conn
                                and app.screen, "the lobby, connected")
            lobby._chosen(registry.games["royal_casino"], {"royal_casino": ["greedy", "medium"]})
            form = await until(pilot, lambda: isinstance(app.screen, RemoteSetupScreen) and app.screen,
                               "the form")
            await pilot.pause()
            form.query_one("#players", Select).value = 4
            await pilot.pause()
            assert form.query_one("#sides-row").display  # partners: their sides can be named
            form.query_one("#side-0", Input).value = "Us"
            form.query_one("#public", Checkbox).value = True
            await pilot.press("ctrl+s")
            links = await until(pilot, lambda: isinstance(app.screen, LinksScreen) and app.screen,
                                "the links")
            table = server.tables[links.created.code]
            assert table.public
            assert table.match.seating.side_names == ("Us", "West & East")
            await pilot.press("escape")
    finally:
        await stop_server(server)


# --- a rematch -----------------------------------------------------------------------------


async def settle(condition: Callable[[], Any], what: str, tries: int = 3000) -> None:
    import asyncio

    for _ in range(tries):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


@pytest.mark.asyncio
async def test_a_remote_table_asks_for_a_rematch_and_plays_the_new_match(tmp_path, registry):
    async with seated(tmp_path, registry) as (server, code, session):
        while not session.over:  # Ann plays her first legal action each turn, the bot its own
            await settle(lambda: session.over or (session.to_play == 0 and session.legal_actions()),
                         "Ann's turn or the end")
            if not session.over:
                turn = server.tables[code].match.decisions
                session.apply(session.legal_actions()[0])
                await settle(lambda t=turn: server.tables[code].match.decisions > t, "the move taken")
        first = server.tables[code].match
        assert session.can_rematch
        assert session.rematch() is None  # asked: the new match comes as updates
        await settle(lambda: not session.over and session.hand_no == 1, "the rematch dealt")
        assert server.tables[code].match is not first and session.names == list(first.seating.names)
        assert session.dealer == (first.seating.dealer + 1) % 2
        assert all(e.hand == 1 for e in session.log)  # the first match's log went with it
        assert any("rematch" in e.text for e in session.drain_events() if e.event == "note")


@pytest.mark.slow  # a whole match played at the table screen
async def test_a_rematch_under_the_table_screen_shows_the_new_hand_at_once(tmp_path, cardcore_home, registry):
    from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen

    server = await start_server(tmp_path / "server.sqlite")
    conn = await Connection.open(f"ws://127.0.0.1:{server.port}/", "Ann")
    try:
        created = await conn.call(p.CreateTable(game="crazy_eights", options={"target": 1},
                                                seats=["human", "greedy"], seed=3))
        session = await RemoteSession.join(registry, conn, created.code, created.seats[0].invite, "Ann")
        app = CardcoreApp(registry, start=JoinTable(session), bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            table = await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen,
                                "the table")
            for _ in range(300):  # Ann plays her first action at each turn, to the end of the match
                if session.over:
                    break
                if app.screen is table and table.legal:
                    await play_first(pilot)
                await pilot.pause(0.02)
            await until(pilot, lambda: isinstance(app.screen, ScoreSheetScreen), "the final score sheet")
            first_id = server.tables[created.code].match_id
            await pilot.press("a")  # Play again: the rematch is asked for, the table stays
            await until(pilot, lambda: not session.over and session.hand_no == 1, "the rematch dealt")
            await until(pilot, lambda: app.screen is table and table.finished is None,
                        "the new hand on the table, not the last match's end")
            assert server.tables[created.code].match_id != first_id  # a new match in the library
            await pilot.press("q")
    finally:
        await conn.close()
        await stop_server(server)


async def test_the_same_link_twice_brings_the_player_back_with_the_token_kept_here(tmp_path, cardcore_home,
                                                                                   registry, monkeypatch):
    """The invite claims the seat once; ``cardcore join LINK`` again comes back with the token
    the client kept (under the data dir, or CARDCORE_SEATS_DIR: a browser's own)."""
    from cardcore.services.net.seat_book import SeatBook, seats_dir

    server = await start_server(tmp_path / "server.sqlite")
    try:
        created = await new_table(server.port, seats=("human", "human"))
        url = f"ws://127.0.0.1:{server.port}/"
        invite = created.seats[0].invite
        for _ in range(2):
            conn = await Connection.open(url)
            try:
                session = await RemoteSession.join(registry, conn, created.code, invite, "Ann")
                assert session.seat == 0 and session.name(0) == "Ann"
            finally:
                await conn.close()
        assert SeatBook(cardcore_home / "seats").get(url, created.code, invite) is not None
        assert invite not in (cardcore_home / "seats" / "tokens.json").read_text()  # keys only
        monkeypatch.setenv("CARDCORE_SEATS_DIR", str(tmp_path / "browser-a"))
        assert seats_dir() == tmp_path / "browser-a"
        conn = await Connection.open(url)
        try:  # another browser's dir holds no token: the used invite is refused
            with pytest.raises(ClientError) as err:
                await RemoteSession.join(registry, conn, created.code, invite)
            assert err.value.code == "seat_taken"
        finally:
            await conn.close()
    finally:
        await stop_server(server)


async def test_a_seat_the_owner_reissues_leaves_the_table_and_plays_nothing_more(tmp_path, cardcore_home,
                                                                                 registry):
    server = await start_server(tmp_path / "server.sqlite")
    url = f"ws://127.0.0.1:{server.port}/"
    created = await new_table(server.port, seats=("human", "human"))
    player, owner = await Connection.open(url), await Connection.open(url)
    try:
        session = await RemoteSession.join(registry, player, created.code, created.seats[0].invite, "Ann")
        fresh = await owner.call(p.Reissue(code=created.code, seat=0, owner=created.owner))
        assert isinstance(fresh, p.Invite) and fresh.seat == 0
        for _ in range(400):
            if session.save_problem:
                break
            await asyncio.sleep(0.01)
        assert "new invite" in (session.save_problem or "")
        assert session.legal_actions() == []
    finally:
        for conn in (player, owner):
            await conn.close()
        await stop_server(server)
