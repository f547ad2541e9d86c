"""Pilot tests of the table as new players found it: one table at a time, the palette, keys
that say why they do nothing, focus, the help, the log, hot-seat lines, faults on screen."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList, Static

from cardcore.apps.tui.app import BaseScreen, Launch, Play, Resume
from cardcore.apps.tui.screens.handover import HandoverScreen
from cardcore.apps.tui.screens.help import HelpScreen
from cardcore.apps.tui.screens.launcher import LauncherScreen
from cardcore.apps.tui.screens.library import ResumeScreen
from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen
from cardcore.apps.tui.screens.setup import SetupScreen
from cardcore.apps.tui.screens.table import TableScreen
from cardcore.apps.tui.session import Session, SessionSetup
from cardcore.apps.tui.widgets.actions import ActionList
from cardcore.apps.tui.widgets.hand import HandView
from cardcore.engine import records
from cardcore.services import files

from .helpers import play_first, record_calls, text_of, your_turn
from .test_table_items import footer_problems

SIZE = (100, 30)






def setup_of(registry, game_id="crazy_eights", seats=("human", "greedy"), seed=7, **kw):
    game = registry.games[game_id]
    return SessionSetup(game, game.Options(**kw), list(seats), seed)




async def run_palette(pilot, command: str) -> None:
    await pilot.press("ctrl+p")
    await pilot.pause()
    for key in command:
        await pilot.press(key)
    await pilot.pause(0.3)
    await pilot.press("enter")
    await pilot.pause()


def tables(app) -> list[TableScreen]:
    return [s for s in app.screen_stack if isinstance(s, TableScreen)]


# --- 1. one table at a time -----------------------------------------------------------------


@pytest.mark.slow
async def test_palette_resume_during_a_match_lists_the_other_matches_and_replaces_the_table(
        make_app, registry):
    other = Session.new(registry, setup_of(registry, seed=9))
    other.close()
    app = make_app(start=Play(setup_of(registry)))
    exits = record_calls(app, "exit")
    async with app.run_test(size=SIZE) as pilot:
        first = await your_turn(pilot)
        await pilot.press("1")
        await pilot.pause()
        await run_palette(pilot, "resume")
        lister = app.screen
        assert isinstance(lister, ResumeScreen)  # the list, without this table's own match
        assert [m.id for m in app.unfinished()] == [other.match_id]
        await pilot.press("enter")
        table = await your_turn(pilot)
        assert table is not first
        assert tables(app) == [table]  # no stale table under it
        assert [type(s) for s in app.screen_stack] == [BaseScreen, TableScreen]
        assert first.session.play is None  # the first one was left (its lock released)
        assert table.session.match_id == other.match_id
        assert [m.id for m in app.unfinished()] == [first.session.match_id]  # kept, resumable
        await pilot.press("1")
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert exits  # `cardcore play`: leaving the table ends the program
    # one history in the record: it replays through the engine
    events = table.session.record_events()
    assert [e.event for e in events].count("match_start") == 1
    assert sum(e.event == "resume" for e in events) == 1


@pytest.mark.slow
async def test_palette_resume_from_a_launcher_table_goes_back_to_the_launcher(make_app, registry):
    Session.new(registry, setup_of(registry, seed=9)).close()
    Session.new(registry, setup_of(registry, seed=10)).close()
    app = make_app(start=Launch())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        launcher = app.screen
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("enter")
        first = await your_turn(pilot)
        assert first.session.match.seed == 10  # the most recently played first
        await run_palette(pilot, "resume")
        await pilot.press("enter")
        second = await your_turn(pilot)
        assert second is not first and app.screen_stack == [launcher, second]
        assert second.session.match.seed == 9
        await pilot.press("q")
        await pilot.pause()
        assert app.screen is launcher


# --- 10. palette New match: the game being played -------------------------------------------


@pytest.mark.slow
async def test_palette_new_match_sets_up_the_game_being_played(make_app, registry):
    app = make_app(start=Launch())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_match(setup_of(registry, "casino"))
        await your_turn(pilot)
        assert app.screen_stack[0].selected_game().id != "casino"  # the launcher's highlight
        await run_palette(pilot, "new match")
        assert isinstance(app.screen, SetupScreen) and app.screen.game.id == "casino"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert len(tables(app)) == 1


# --- 7. tab: to the actions and back ----------------------------------------------------------


@pytest.mark.slow
async def test_tab_goes_to_the_actions_and_back(make_app, registry):
    app = make_app(start=Play(setup_of(registry)))
    async with app.run_test(size=SIZE) as pilot:
        table = await your_turn(pilot)
        table.query_one(HandView).focus()
        await pilot.pause()
        await pilot.press("tab")
        await pilot.pause()
        assert isinstance(app.focused, ActionList)
        await pilot.press("tab")
        await pilot.pause()
        assert isinstance(app.focused, HandView)


# --- 8. help keeps its words ------------------------------------------------------------------


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_help_says_cards_in_brackets(make_app):
    app = make_app()
    async with app.run_test(size=(100, 50)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Cards in [brackets] are picked" in text_of(app, "#help-text")


# --- 9. keys that do nothing say why -----------------------------------------------------------


@pytest.mark.slow
async def test_undo_in_hot_seat_and_with_nothing_to_undo_says_why(make_app, registry):
    app = make_app(start=Play(setup_of(registry, seats=("human", "human"))))
    notes = record_calls(app, "notify")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("space")  # the hand-over
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        assert "between human players" in text_of(app, "#message")
        assert not notes  # the message line says it: no pop-up over it
    app = make_app(start=Play(setup_of(registry)))
    async with app.run_test(size=SIZE) as pilot:
        await your_turn(pilot)
        await pilot.press("u")
        await pilot.pause()
        assert "Nothing to undo" in text_of(app, "#message")


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_resume_key_on_the_launcher_without_a_save_says_so(make_app):
    app = make_app()
    notes = record_calls(app, "notify")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, LauncherScreen)
        assert any("no unfinished match" in args[0] for args, _ in notes)


# --- 6. hot-seat names who played; a new hand clears the line ---------------------------------


@pytest.mark.slow
async def test_hot_seat_names_who_played_and_a_new_hand_clears_the_message(make_app, registry):
    app = make_app(start=Play(setup_of(registry, seats=("human", "human"), seed=4)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        table = app.screen
        mover = table.session.name(table.session.to_play)
        await pilot.press("1")
        await pilot.pause()
        message = str(table.query_one("#message", Static).render())  # under the hand-over
        assert message.startswith(f"{mover} played: ") and "You played" not in message
        for _ in range(400):  # play the hand out
            if isinstance(app.screen, ScoreSheetScreen):
                break
            await pilot.press("space")
            await pilot.pause()
            await play_first(pilot)
            await pilot.pause()
        assert isinstance(app.screen, ScoreSheetScreen)
        # the final table keeps the last move's line; moving on (n) clears it
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is table or isinstance(app.screen, HandoverScreen)
        assert str(table.query_one("#message", Static).render()) == ""


# --- 4. the newest log entry stays visible ------------------------------------------------------


@pytest.mark.slow
async def test_the_newest_log_entry_is_visible_when_entries_wrap(make_app, registry, spoken):
    game = registry.games["casino"]
    names = ["Somebody long-named, too", "Another long-named one"]  # a name is at most 24
    setup = SessionSetup(game, game.Options(), ["human", "greedy"], 7, names=names)
    app = make_app(start=Play(setup))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(8):
            await your_turn(pilot)
            await pilot.press("1")
            await pilot.pause()
        table = await your_turn(pilot)
        scroll = table.query_one("#log-scroll")
        await pilot.pause()
        assert scroll.max_scroll_y > 0
        assert scroll.scroll_y == scroll.max_scroll_y


# --- 13. resizing keeps the actions -------------------------------------------------------------


@pytest.mark.slow
async def test_resizing_keeps_the_actions_on_the_players_turn(make_app, registry, spoken):
    app = make_app(start=Play(setup_of(registry, "casino")))
    async with app.run_test(size=(120, 40)) as pilot:
        table = await your_turn(pilot)
        for size in ((80, 24), (60, 20), (120, 40)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            actions = table.query_one("#actions", OptionList)
            assert actions.option_count == min(9, len(table.shown)) > 0
            assert actions.region.height > 0


async def test_the_bot_speed_of_a_save_file_survives_its_resume(make_app, registry, tmp_path):
    s = Session.new(registry, setup_of(registry))
    saved = tmp_path / "old.json"
    files.write_save(saved, records.SaveFile(match=s.match.snapshot(), record=s.record(),
                                               speed="slow"))
    s.close()
    app = make_app(start=Resume(Session.resume(registry, saved)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.speed == "slow"


# --- C. faults on screen -------------------------------------------------------------------------


async def test_a_full_disk_shows_a_status_and_play_goes_on(make_app, registry, monkeypatch):
    from cardcore.services.store import StoreUnavailable
    from cardcore.services.store.sqlite import SqliteStore

    def full(self, match_id, events, snapshot, wait=None):
        raise StoreUnavailable("the match library cannot be written: database or disk is full")

    app = make_app(start=Play(setup_of(registry)))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await your_turn(pilot)
        monkeypatch.setattr(SqliteStore, "commit", full)
        decisions = table.session.match.decisions
        await pilot.press("1")
        table = await your_turn(pilot)
        assert table.session.match.decisions > decisions + 1  # the bot played on
        warning = table.query_one("#save-warning", Static)
        assert warning.display and "database or disk is full" in str(warning.render())
        assert "failed" not in text_of(app, "#message")
        monkeypatch.undo()
        await pilot.press("1")
        await pilot.pause()
        await your_turn(pilot)
        assert not warning.display  # saving works again
        session = table.session
        assert session.store.load(session.match_id)["state"] == session.state.export()


@pytest.mark.slow
async def test_a_data_dir_that_cannot_be_written_plays_on_and_says_so(make_app, registry,
                                                                      tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("CARDCORE_HOME", str(blocker / "home"))  # under a regular file
    app = make_app()
    notes = record_calls(app, "notify")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")  # nothing to resume: says why
        await pilot.pause()
        assert any("no unfinished match" in args[0] and "Not a directory" in args[0]
                   for args, _ in notes)
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+s")
        table = await your_turn(pilot)
        warning = table.query_one("#save-warning", Static)
        assert warning.display and "play goes on without saving" in str(warning.render())
        await pilot.press("1")
        table = await your_turn(pilot)
        assert app.is_running and warning.display
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, LauncherScreen)


async def test_a_failing_move_on_screen_names_the_plugin_and_changes_nothing(make_app, registry):
    app = make_app(start=Play(setup_of(registry)))
    async with app.run_test(size=SIZE) as pilot:
        table = await your_turn(pilot)
        state = table.session.state
        if not any(a.to_json().get("type") != "draw" for a in table.legal):
            return

        class Exploding(list):
            def append(self, card):
                raise ZeroDivisionError("division by zero")

        before = table.session.match.snapshot()
        state.discard = Exploding(state.discard)
        index = next(i for i, a in enumerate(table.legal) if a.to_json().get("type") != "draw")
        table.play(table.legal[index])
        await pilot.pause()
        message = text_of(app, "#message")
        assert "plugin crazy_eights: CrazyEightsState.apply raised ZeroDivisionError" in message
        assert table.session.match.snapshot() == before
        assert table.session.store.load(table.session.match_id) == before


# --- 2. the replay's score sheet shows the last hand at 80x24 -----------------------------------


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_replay_sheet_at_80x24_shows_the_last_hand_and_the_buttons(make_app, registry, tmp_path,
                                                                        spoken):
    import subprocess
    import sys

    from cardcore.apps.tui.app import ShowReplay
    from cardcore.apps.tui.session import Replay

    record = tmp_path / "r.jsonl"
    subprocess.run([sys.executable, "-m", "cardcore", "simulate", "casino", "--matches", "1",
                    "--seed", "3", "--players", "4", "--record", str(record)],
                   check=True, capture_output=True, timeout=120)
    app = make_app(start=ShowReplay(Replay(registry, record)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not await footer_problems(pilot)  # the replay's keys whole
        await pilot.press("end", "s")
        await pilot.pause()
        await pilot.pause(0.2)
        sheet = app.screen
        assert isinstance(sheet, ScoreSheetScreen)
        scroll = sheet.query_one("#sheet-scroll")
        assert scroll.max_scroll_y > 0 and scroll.scroll_y == scroll.max_scroll_y
        assert scroll.region.bottom <= 23 and sheet.query_one("#close").region.bottom <= 23
        assert f"West & East (28, {sheet.goal})" in str(sheet.query_one("#sheet-heading", Static).render())
