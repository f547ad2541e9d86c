"""Names are drawn as text on every screen (issue 22, item 8): a name, a side's name, a chat
line or a record's field that looks like markup (``[/]`` used to crash the score sheet, the
lobby and the statistics) shows as typed; an escape from an old library shows as U+FFFD;
the setup form refuses what the names rule refuses, in one line."""

from __future__ import annotations

import io
import json
import sqlite3
from typing import Any

import pytest
from textual.widgets import Input, Select, Static

from cardcore.apps.cli import main
from cardcore.apps.tui.app import Launch, Lobby, Play, ShowReplay
from cardcore.apps.tui.screens.handover import HandoverScreen
from cardcore.apps.tui.screens.library import HistoryScreen, StatsScreen
from cardcore.apps.tui.screens.lobby import LobbyScreen
from cardcore.apps.tui.screens.replay import MatchPicker, RecordMatches, ReplayScreen
from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen
from cardcore.apps.tui.screens.setup import SetupScreen
from cardcore.apps.tui.session import Replay, SessionSetup
from cardcore.engine import records
from cardcore.engine.bots.play import play_bots
from cardcore.engine.match import Match
from cardcore.engine.scoresheet import ScoreSheet
from cardcore.services.store import open_library

from .helpers import play_to_the_sheet, screen_lines, until, your_turn

SIZE = (120, 36)
NAMES = ["[/]", "[reverse]x"]
SIDES = ["[bold red]x[/]", "[@click=app.quit]y[/]"]


def shown(app: Any) -> str:
    return "\n".join(screen_lines(app))


def no_escape(app: Any) -> None:
    """Nothing of a name's escape or direction override reaches the terminal (the screen's
    own cursor moves aside)."""
    text = shown(app)
    assert "Ann\x1b" not in text and "\x1b[31m" not in text and "\u202e" not in text


@pytest.mark.slow  # 2-3 s of CPU: `make test` runs it, the quick loop does not
async def test_the_sheet_and_the_handover_draw_names_as_typed(make_app):
    row = {"sides": [{"seats": [0], "items": {"cards": 3}, "total": 3, "note": "[reverse]note",
                      "counts": {"cards": "[/]"}},
                     {"seats": [1], "items": {"cards": 0}, "total": 0}]}
    app = make_app(start=Launch())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(ScoreSheetScreen(sheet=ScoreSheet(SIDES, 21, [row]), winner=0, over=True))
        await until(pilot, lambda: isinstance(app.screen, ScoreSheetScreen), "the sheet")
        await pilot.pause()
        text = shown(app)
        assert f"the winner: {SIDES[0]}" in text and f"{SIDES[0]} ★" in text and SIDES[1] in text
        assert "hand 1, [bold red]x[/]: [reverse]note" in text and "3 ([/])" in text
        await pilot.press("escape")
        app.push_screen(HandoverScreen("[/]"))
        await until(pilot, lambda: isinstance(app.screen, HandoverScreen), "the hand-over")
        await pilot.pause()
        assert "Pass the keyboard to [/]." in shown(app) and "[/]: press any key" in shown(app)
        await pilot.press("x")
        assert app.is_running


@pytest.mark.slow
async def test_the_setup_form_shows_names_as_typed_and_refuses_what_the_rule_refuses(make_app, registry):
    game = registry.games["casino"]
    app = make_app(start=Launch())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(SetupScreen(game))
        setup = await until(pilot, lambda: isinstance(app.screen, SetupScreen)
                            and app.screen.query("#players") and app.screen, "the form")
        setup.query_one("#players", Select).value = 4
        setup.query_one("#name-0", Input).value = "[/]"
        setup.query_one("#side-1", Input).value = "[reverse]x"
        await pilot.pause()
        assert "Partners sit opposite: [/] (seat 1) with North (seat 3)" in shown(app)
        assert setup.valid
        setup.query_one("#name-1", Input).value = "Bo\u202eb"
        await pilot.pause()
        status = str(setup.query_one("#setup-status", Static).render())
        assert status == "Fix: seat 2's name (U+202E (RIGHT-TO-LEFT OVERRIDE) is not allowed: " \
                         "a control, invisible or direction character)"
        assert not setup.valid and setup.session_setup() is None
        setup.query_one("#name-1", Input).value = "Bob"
        await pilot.pause()
        assert setup.valid
        no_escape(app)
        assert app.is_running


async def test_a_table_shows_its_players_names_as_typed(make_app, registry):
    game = registry.games["casino"]
    setup = SessionSetup(game, game.Options(), ["human", "greedy"], 7, NAMES, None)
    app = make_app(start=Play(setup))
    async with app.run_test(size=SIZE) as pilot:
        await your_turn(pilot)
        text = shown(app)
        assert "[/] 0 · [reverse]x 0" in text  # the status line: the score by side
        assert "Your hand — [/]" in text and "[reverse]x" in text


@pytest.mark.slow
async def test_the_end_of_a_hand_shows_the_sheet_with_the_names_as_typed(make_app, registry):
    game = registry.games["casino"]
    setup = SessionSetup(game, game.Options(), ["human", "greedy"], 7, NAMES, None)
    app = make_app(start=Play(setup))
    async with app.run_test(size=SIZE) as pilot:
        await your_turn(pilot)
        await play_to_the_sheet(pilot)
        await pilot.pause()
        text = shown(app)
        assert "Hand 1 over: [/] " in text and ", [reverse]x " in text
        assert app.is_running


# --- the library: history, its sheets, the statistics, a replay ---------------------------------


def record(registry: Any, names: list[str], seed: int) -> str:
    out = io.StringIO()
    match = Match(registry.games["casino"], seed=seed, seats=["human", "human"], names=names,
                  on_event=lambda e: out.write(records.dumps(e) + "\n"))
    match.start()
    play_bots(match, {s: registry.bots["greedy"]() for s in range(2)})
    return out.getvalue()


def library_with_markup_names(registry: Any, tmp_path: Any) -> str:
    """Two finished matches: one imported (markup-like names), one whose names an old
    library holds with an escape and a direction override. Returns the first's record."""
    text = record(registry, NAMES, 5)
    for i, body in enumerate((record(registry, ["Ann", "Bob"], 6), text)):
        path = tmp_path / f"m{i}.jsonl"
        path.write_text(body, encoding="utf-8")
        assert main(["import", str(path)]) == 0
    db = sqlite3.connect(open_library().path)
    bad = json.dumps(["Ann\x1b[31m", "\u202eBob"])
    db.execute("UPDATE matches SET names = ?, side_names = ? WHERE id = 1", (bad, bad))
    db.commit()
    db.close()
    return text


@pytest.mark.slow
async def test_history_its_sheet_statistics_and_replay_draw_names_as_typed(make_app, registry, tmp_path):
    text = library_with_markup_names(registry, tmp_path)
    app = make_app(start=Launch())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen), "the history")
        await pilot.pause()
        screen = shown(app)
        assert "[/] (human), [reverse]x (human)" in screen and "Ann\ufffd[31m (human)" in screen
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, ScoreSheetScreen), "the history's sheet")
        await until(pilot, lambda: "Ann\ufffd[31m" in shown(app) or "[reverse]x" in shown(app),
                    "the names", 50)
        no_escape(app)
        await pilot.press("escape", "escape")
        app.push_screen(StatsScreen())
        await until(pilot, lambda: isinstance(app.screen, StatsScreen), "the statistics")
        await pilot.pause()
        stats = shown(app)
        assert "[/]" in stats and "[reverse]x" in stats and "Ann\ufffd[31m" in stats
        no_escape(app)
    two = text + record(registry, ["[bold]a", "b[/b]"], 8)
    replay = ShowReplay(Replay.from_text(registry, text, "[/].jsonl"))
    app = make_app(start=replay)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        await pilot.press("right", "right")
        await pilot.pause()
        assert "[/].jsonl" in shown(app) and "[/]:" in shown(app)  # the file, a move's line
        await pilot.press("end", "s")
        await until(pilot, lambda: isinstance(app.screen, ScoreSheetScreen), "the replay's sheet")
        assert app.is_running
    path = tmp_path / "two.jsonl"
    path.write_text(two, encoding="utf-8")
    matches = RecordMatches(registry, path)
    app = make_app(start=ShowReplay(matches.replay(0), matches))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        await pilot.press("m")
        await until(pilot, lambda: isinstance(app.screen, MatchPicker), "the picker")
        await pilot.pause()
        assert "won by [/]" in shown(app) or "won by [reverse]x" in shown(app)
        assert "won by [bold]a" in shown(app) or "won by b[/b]" in shown(app)


# --- a server's lobby and a chat line -------------------------------------------------------------


async def test_the_lobby_lists_a_table_whose_seats_look_like_markup(tmp_path, registry):
    from cardcore.apps.tui.app import CardcoreApp
    from cardcore.services.net import protocol as p
    from cardcore.services.net.client import Connection

    from ..net.helpers import start_server, stop_server

    server = await start_server(tmp_path / "server.sqlite")
    try:
        conn = await Connection.open(f"ws://127.0.0.1:{server.port}/")
        try:
            created = await conn.call(p.CreateTable(game="casino", seats=["human", "greedy"], public=True,
                                                    names=["[/]", "[@click=app.quit]x[/]"]))
        finally:
            await conn.close()
        app = CardcoreApp(registry, start=Lobby(f"ws://127.0.0.1:{server.port}/", "[reverse]x"),
                          bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.tables,
                        "the list of tables")
            await pilot.pause()
            text = shown(app)
            assert created.code in text and "seat 1 open · [@click=app.quit]x[/] (greedy)" in text
            lobby = app.screen
            lobby.query_one("#lobby-name", Input).value = "Bo\u202eb"
            await lobby.open(created.code, None)  # watch, under a name the rule refuses
            said = str(lobby.query_one("#lobby-message", Static).render())
            assert said.startswith("Your name: U+202E (RIGHT-TO-LEFT OVERRIDE) is not allowed")
            assert isinstance(app.screen, LobbyScreen)
            lobby.query_one("#lobby-name", Input).value = "[reverse]x"
            await pilot.click("#tables", offset=(60, 1))  # a click on the row binds nothing
            await pilot.pause()
            assert app.is_running
    finally:
        await stop_server(server)


async def test_a_player_named_like_markup_and_their_chat_line_show_as_typed(tmp_path, registry):
    from cardcore.apps.tui.app import CardcoreApp, JoinTable
    from cardcore.apps.tui.remote import RemoteSession
    from cardcore.apps.tui.screens.table import TableScreen
    from cardcore.services.net.client import Connection

    from ..net.helpers import start_server, stop_server
    from .test_remote import new_table

    server = await start_server(tmp_path / "server.sqlite")
    a = b = None
    try:
        created = await new_table(server.port, seats=("human", "human"))
        a = await Connection.open(f"ws://127.0.0.1:{server.port}/")
        b = await Connection.open(f"ws://127.0.0.1:{server.port}/")
        ann = await RemoteSession.join(registry, a, created.code, created.seats[0].invite, "Ann")
        app = CardcoreApp(registry, start=JoinTable(ann), bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
            rogue = await RemoteSession.join(registry, b, created.code, created.seats[1].invite, "[/]")
            rogue.chat("[reverse]x [/] [@click=app.quit]y[/]")
            await until(pilot, lambda: any(e.note and "[reverse]x" in e.text for e in ann.log), "the chat")
            await until(pilot, lambda: "[/]: “[reverse]x [/] [@click=app.quit]y[/]”" in shown(app),
                        "the chat line drawn", 50)
            assert "Ann 0 · [/] 0" in shown(app)  # the side renamed by the player who sat
            with pytest.raises(ValueError, match="U\\+202E"):
                rogue.chat("\u202eevil")
            assert app.is_running
    finally:
        for conn in (a, b):
            if conn is not None:
                await conn.close()
        await stop_server(server)
