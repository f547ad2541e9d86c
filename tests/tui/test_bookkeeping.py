"""Issue 21, item 8, as a player meets it: a record of several matches replays one by one,
and the seed a setup form shows is the seed the match is dealt from."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from cardcore.apps.cli import main
from cardcore.apps.tui.app import ShowReplay
from cardcore.apps.tui.screens.replay import MatchPicker, RecordMatches, ReplayScreen

from .helpers import text_of

SIZE = (100, 30)


@pytest.mark.slow
async def test_a_record_of_several_matches_replays_each(make_app, registry, tmp_path):
    path = tmp_path / "x.jsonl"
    assert main(["simulate", "casino", "--matches", "3", "--seed", "3", "--record", str(path)]) == 0
    matches = RecordMatches(registry, path)
    assert len(matches) == 3
    app = make_app(start=ShowReplay(matches.replay(1), matches, 1))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert "match 2/3" in text_of(app, "#status")
        assert screen.replay.events[0].seed == 4  # the second match (seeds 3, 4, 5)
        await pilot.press("end", "right_square_bracket")
        await pilot.pause()
        assert "match 3/3" in text_of(app, "#status") and screen.index == 0
        assert screen.replay.events[0].seed == 5
        await pilot.press("right_square_bracket")  # no fourth: it stays
        await pilot.pause()
        assert "match 3/3" in text_of(app, "#status")
        await pilot.press("left_square_bracket", "left_square_bracket")
        await pilot.pause()
        assert "match 1/3" in text_of(app, "#status") and screen.replay.events[0].seed == 3
        last = screen.replay.events[-1]
        assert last.event == "match_end"  # the first match alone, not the file's last line
        await pilot.press("m")  # the picker: one line a match, read from the record
        await pilot.pause()
        assert isinstance(app.screen, MatchPicker)
        lines = [str(o.prompt) for o in app.screen.query_one("#picker", OptionList).options]
        assert [line.split(",")[0] for line in lines] == ["1. seed 3", "2. seed 4", "3. seed 5"]
        assert all(", won by " in line or ", no winner" in line for line in lines)
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert app.screen is screen and "match 3/3" in text_of(app, "#status")
        assert screen.replay.events[0].seed == 5


async def test_a_record_of_one_match_shows_no_match_keys(make_app, registry, tmp_path):
    path = tmp_path / "one.jsonl"
    assert main(["simulate", "casino", "--matches", "1", "--seed", "3", "--record", str(path)]) == 0
    matches = RecordMatches(registry, path)
    app = make_app(start=ShowReplay(matches.replay(0), matches))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "match 1/" not in text_of(app, "#status")
        assert not app.screen.check_action("match", (1,))


def test_a_forged_match_of_several_is_named_by_the_files_own_line(registry, tmp_path):
    import pytest

    from cardcore.engine.records import RecordError

    path = tmp_path / "x.jsonl"
    assert main(["simulate", "casino", "--matches", "2", "--seed", "3", "--record", str(path)]) == 0
    lines = path.read_text().splitlines(keepends=True)
    second = next(i for i, line in enumerate(lines) if '"match":1' in line and "match_start" in line)
    at = second + 3  # the second action of the second match
    assert '"event":"action","hand":1,"seat":' in lines[at]
    seat = lines[at].split('"seat":')[1][0]
    lines[at] = lines[at].replace(f'"seat":{seat}', f'"seat":{1 - int(seat)}', 1)  # the other's move
    path.write_text("".join(lines))
    matches = RecordMatches(registry, path)
    matches.replay(0)  # the first is sound
    with pytest.raises(RecordError, match=f"^x.jsonl: line {at + 1}: "):
        matches.replay(1)


# --- the seed shown is the seed used -------------------------------------------------------


@pytest.mark.slow
async def test_the_seed_the_setup_form_shows_is_the_matchs_the_librarys_and_the_records(make_app,
                                                                                      registry):
    from textual.widgets import Input

    from cardcore.apps.tui.screens.setup import SetupScreen
    from cardcore.apps.tui.screens.table import TableScreen

    app = make_app(seed=None)  # as `cardcore` starts: the form proposes a seed of its own
    async with app.run_test(size=SIZE) as pilot:
        app.open_setup(registry.games["casino"])
        await pilot.pause()
        form = app.screen
        assert isinstance(form, SetupScreen)
        shown = form.query_one("#seed", Input).value
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        session = app.screen.session
        assert str(session.match.seed) == shown
        assert str(session.record_events()[0].seed) == shown
        store = app.library()
        assert [str(m.seed) for m in store.list_unfinished()] == [shown]


@pytest.mark.slow
async def test_a_seed_the_form_cannot_deal_from_is_refused_not_a_crash(make_app, registry):
    from textual.widgets import Input


    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.open_setup(registry.games["casino"])
        await pilot.pause()
        form = app.screen
        for text in ("--5", "1" * 5000, "007", "٣", "²"):
            form.query_one("#seed", Input).value = text
            await pilot.pause()
            assert not form.valid and "whole number" in text_of(app, "#seed-error"), text
        await pilot.press("ctrl+s")  # with "²": int() refused it on Start, the app crashed
        await pilot.pause()
        assert app.screen is form and app.is_running  # still the form
        form.query_one("#seed", Input).value = "-12"
        await pilot.pause()
        assert form.valid and form.session_setup().seed == -12


@pytest.mark.slow
async def test_a_table_on_a_server_shows_no_seed_of_its_own(tmp_path, registry):
    """The server deals from a seed it draws itself (a seed the creator chose would tell
    every hand): the form shows none, rather than one that is not used."""
    from textual.widgets import Input

    from cardcore.apps.tui.app import CardcoreApp, Lobby
    from cardcore.apps.tui.screens.lobby import LinksScreen, LobbyScreen, RemoteSetupScreen
    from cardcore.services.net.server import ServerConfig

    from ..net.helpers import server_config, start_server, stop_server
    from .test_remote import until

    config: ServerConfig = server_config()
    config.allow_seed = False  # as `cardcore serve` runs
    server = await start_server(tmp_path / "server.sqlite", config)
    try:
        app = CardcoreApp(registry, start=Lobby(f"ws://127.0.0.1:{server.port}/", "Ann"),
                          bot_delay=0, animations=False)
        async with app.run_test(size=SIZE) as pilot:
            lobby = await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.conn
                                and app.screen, "the lobby, connected")
            lobby._chosen(registry.games["casino"], {"casino": ["greedy"]})
            form = await until(pilot, lambda: isinstance(app.screen, RemoteSetupScreen) and app.screen,
                               "the form")
            await pilot.pause()
            shown = [w.value for w in form.query(Input) if w.id == "seed" and w.display]
            assert shown == [] and "drawn by the server" in text_of(app, "#seed-note")
            await pilot.press("ctrl+s")
            links = await until(pilot, lambda: isinstance(app.screen, LinksScreen) and app.screen,
                                "the links")
            used = server.tables[links.created.code].match.seed
            assert shown in ([], [str(used)])  # none shown, or the one used
    finally:
        await stop_server(server)
