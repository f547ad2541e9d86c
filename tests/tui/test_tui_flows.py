"""Pilot tests of every flow: launcher -> setup -> a whole hand against bots -> score sheet, and more."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from textual.widgets import Button, Input, ListView, Static

from cardcore import hookimpl
from cardcore.apps.tui.app import BaseScreen, Launch, Play, Resume, ShowReplay
from cardcore.apps.tui.screens.handover import HandoverScreen
from cardcore.apps.tui.screens.launcher import LauncherScreen
from cardcore.apps.tui.screens.library import ResumeScreen
from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen, SheetChoice
from cardcore.apps.tui.screens.setup import SetupScreen
from cardcore.apps.tui.screens.table import TableScreen
from cardcore.apps.tui.session import Session, SessionSetup, zone_cards
from cardcore.apps.tui.widgets.hand import HandView
from cardcore.apps.tui.widgets.options_form import OptionsForm
from cardcore.apps.tui.widgets.tail import TailStatic
from cardcore.services.plugins import load_registry

from .helpers import play_first, record_calls, text_of, until, your_turn

SIZE = (100, 30)




def against_greedy(make_app, registry):
    """Crazy Eights, a human in seat 0 against the greedy bot, seed 7."""
    game = registry.games["crazy_eights"]
    return make_app(start=Play(SessionSetup(game, game.Options(), ["human", "greedy"], 7)))




async def choose_game(pilot, game_id: str) -> None:
    games = pilot.app.screen.query_one("#games", ListView)
    for _ in range(len(games.children)):
        if games.highlighted_child.id == f"game-{game_id}":
            break
        await pilot.press("down")
    assert games.highlighted_child.id == f"game-{game_id}"


async def play_until_sheet(pilot, max_presses: int = 3000) -> int:
    """Play the human's first action until the hand's score sheet shows; returns the presses."""
    app = pilot.app
    for n in range(max_presses):
        if isinstance(app.screen, ScoreSheetScreen):
            return n
        await play_first(pilot)
        await pilot.pause()
    raise AssertionError("the hand did not end")


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["crazy_eights", "casino", "royal_casino", "canasta"])
async def test_launcher_setup_whole_hand_to_score_sheet(make_app, need_game, game_id):
    game = need_game(game_id)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LauncherScreen)
        await choose_game(pilot, game_id)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen) and app.screen.game is game
        await pilot.press("ctrl+s")
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        session = table.session
        assert session.match.seats[0] == "human"
        assert all(s != "human" for s in session.match.seats[1:])
        await play_until_sheet(pilot)
        sheet = app.screen
        assert isinstance(sheet, ScoreSheetScreen)
        assert len(session.match.sheet.hands) == 1
        assert "over" in str(sheet.query_one("#sheet-heading", Static).render())
        # the record holds the human's moves too
        events = session.record_events()
        assert any(e.event == "action" and e.seat == 0 for e in events)
        assert any(e.event == "hand_end" for e in events)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is table
        assert session.match.hand_no == 2 or session.match.over


async def test_broken_plugin_shows_in_launcher(make_app):
    class Broken:
        @hookimpl
        def cardcore_register_games(self, register):
            raise RuntimeError("the engine fell over")

    registry = load_registry(extra_plugins=[("broken", Broken())])
    assert registry.errors
    app = make_app(registry=registry)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        errors = text_of(app, "#load-errors")
        assert "broken" in errors and "the engine fell over" in errors
        assert app.screen.query_one("#game-crazy_eights")  # every other game still listed


@pytest.mark.slow
async def test_invalid_option_is_refused_with_its_message(make_app, registry):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.open_setup(registry.games["crazy_eights"])
        await pilot.pause()
        setup = app.screen
        target = setup.query_one("#opt-target", Input)
        target.value = "0"
        await pilot.pause()
        message = text_of(app, "#err-target")
        assert "greater than or equal to 1" in message
        assert setup.query_one("#start", Button).disabled
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is setup  # nothing started
        target.value = "abc"
        await pilot.pause()
        assert "valid integer" in text_of(app, "#err-target")
        target.value = "50"
        await pilot.pause()
        assert text_of(app, "#err-target") == ""
        assert not setup.query_one("#start", Button).disabled
        assert setup.query_one("#options", OptionsForm).options.target == 50
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.screen.session.match.options.target == 50


@pytest.mark.slow
async def test_partnerships_shown_and_draw_offered(make_app, need_game):
    game = need_game("canasta")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.open_setup(game)
        await pilot.pause()
        partners = text_of(app, "#partners")
        assert "South (seat 1) with North (seat 3)" in partners
        draw = app.screen.query_one("#draw")
        assert draw.display
        draw.value = True
        await pilot.pause()
        assert "drawn" in text_of(app, "#partners")
        setup = app.screen.session_setup()
        assert setup.draw_for_partners


async def test_hot_seat_handover_hides_every_hand(make_app, registry):
    game = registry.games["crazy_eights"]
    setup = SessionSetup(game, game.Options(), ["human", "human"], 5)
    app = make_app(start=Play(setup))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoverScreen)
        table = app.screen_stack[-2]
        assert isinstance(table, TableScreen)
        first = table.session.to_play
        # under the hand-over screen every hand is face down
        assert table.viewer is None
        assert all(c is None for c in table.query_one(HandView).cards)
        await pilot.press("x")
        await pilot.pause()
        assert app.screen is table and table.viewer == first
        assert all(c is not None for c in table.query_one(HandView).cards)
        await pilot.press("1")
        await pilot.pause()
        # the next human's turn: hidden again until they press a key
        assert isinstance(app.screen, HandoverScreen)
        assert table.viewer is None
        assert all(c is None for c in table.query_one(HandView).cards)
        await pilot.press("space")
        await pilot.pause()
        assert table.viewer == table.session.to_play != first


@pytest.mark.slow
async def test_resume_after_save_continues_the_same_state(make_app, registry):
    game = registry.games["crazy_eights"]
    setup = SessionSetup(game, game.Options(), ["human", "greedy"], 11)
    app = make_app(start=Play(setup))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen
        for _ in range(3):
            await play_first(pilot)
            await pilot.pause()
        saved = table.session.match.snapshot()
        await pilot.press("q")
        await pilot.pause()
    app2 = make_app()
    async with app2.run_test(size=SIZE) as pilot:
        await pilot.pause()
        launcher = app2.screen
        assert launcher.query_one("#resume", Button).display
        await pilot.press("r")  # the list of unfinished matches
        await pilot.pause()
        assert isinstance(app2.screen, ResumeScreen)
        await pilot.press("enter")  # the most recently played
        await pilot.pause()
        table = app2.screen
        assert isinstance(table, TableScreen)
        assert table.session.match.snapshot() == saved
        assert table.query_one("#log", TailStatic).plain.strip()  # the hand's moves, read back


async def test_resume_hidden_without_save(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not app.screen.query_one("#resume", Button).display
        await pilot.press("r")  # says there is no save; no crash
        await pilot.pause()
        assert isinstance(app.screen, LauncherScreen)


async def test_pick_card_narrows_actions_and_refuses_nonsense(make_app, registry):
    app = against_greedy(make_app, registry)
    async with app.run_test(size=SIZE) as pilot:
        table = await your_turn(pilot)
        legal = table.legal
        hand = table.query_one(HandView)
        playable = {c for a in legal for c in a.hand_cards}
        dead = next((i for i, c in enumerate(hand.cards) if c not in playable), None)
        live = next(i for i, c in enumerate(hand.cards) if c in playable)
        hand.focus()
        hand.cursor = live
        await pilot.press("space")
        await pilot.pause()
        card = hand.cards[live]
        assert hand.picked == {live}
        assert table.shown and all(card in a.hand_cards or not a.hand_cards for _, a in table.shown)
        await pilot.press("escape")
        await pilot.pause()
        assert not hand.picked and len(table.shown) == len(legal)
        if dead is not None:
            hand.cursor = dead
            await pilot.press("enter")
            await pilot.pause()
            assert not hand.picked
            assert "No legal action" in text_of(app, "#message")
        await pilot.press("9")  # fewer than nine actions, or the ninth: never a crash
        await pilot.pause()
        assert isinstance(app.screen, TableScreen | ScoreSheetScreen)


@pytest.mark.slow
async def test_click_a_card_then_an_action(make_app, registry):
    app = against_greedy(make_app, registry)
    async with app.run_test(size=SIZE) as pilot:
        table = await your_turn(pilot)
        hand = table.query_one(HandView)
        live = next(i for i, c in enumerate(hand.cards) if any(c in a.hand_cards for a in table.legal))
        card = hand.cards[live]
        await pilot.click(HandView, offset=(live * 5 + 2, 0))
        await pilot.pause()
        assert hand.picked == {live}
        decisions = table.session.match.decisions
        await pilot.click("#actions", offset=(3, 0))
        await pilot.pause()
        assert table.session.match.decisions > decisions
        assert card in [e.action.get("card") for e in table.session.record_events()
                        if e.event == "action" and e.seat == 0]


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_hint_and_undo_keys(make_app, registry):
    app = against_greedy(make_app, registry)
    async with app.run_test(size=SIZE) as pilot:
        table = await your_turn(pilot)
        session = table.session
        before = session.match.state.export()
        assert not session.can_undo()
        await pilot.press("u")
        await pilot.pause()
        assert session.match.state.export() == before
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        message = text_of(app, "#message")
        assert table.hint_index is not None
        best = table.legal[table.hint_index]
        # the best action first, with the search's estimate for the side, then the next ones
        assert message.startswith(f"Hint: {best.label}, about ") and "points for your side" in message
        assert re.search(r"about [+-]\d+\.\d points for your side(;|$)", message)
        assert "samples" not in message
        if len(table.legal) > 1:
            assert re.search(r"; next: .+ [+-]\d+\.\d", message)
        app.fixed_delay = 60  # the bot's reply waits: a card it plays would stop undo
        await pilot.press("1")
        await pilot.pause()
        assert session.can_undo()
        await pilot.press("u")
        await pilot.pause()
        assert session.match.state.export() == before
        assert "taken back" in text_of(app, "#message")
        kinds = [e.event for e in session.record_events()]
        assert "undo" in kinds


def face_up(session) -> Counter:
    return Counter(c for z in session.state.zones(0) for c in zone_cards(z) if c is not None)


async def test_undo_never_takes_back_the_bots_card_the_testers_casino_seed_42(make_app, registry):
    game = registry.games["casino"]
    app = make_app(start=Play(SessionSetup(game, game.Options(), ["human", "greedy"], 42)))
    async with app.run_test(size=SIZE) as pilot:
        table = await your_turn(pilot)  # the bot opened: Trail J♥
        session = table.session
        await pilot.press("5")
        await pilot.pause()
        assert [e.text.split(": ", 1)[1] for e in session.hand_log()][:2] == ["Trail J♥", "Trail 6♥"]
        await until(pilot, lambda: len(session.hand_log()) == 3 and table.legal, "the bot's reply")
        assert session.hand_log()[-1].text.endswith("Build 10: 4♥ on 6♥")
        after, seen = session.match.state.export(), face_up(session)
        for _ in range(2):  # probing again changes nothing
            await pilot.press("u")
            await pilot.pause()
            assert session.match.state.export() == after  # the bot's move stays
            assert not seen - face_up(session)  # nothing the human saw is hidden again
            message = text_of(app, "#message")
            assert message.startswith("Nothing to undo: undo stops at ") and "Build 10: 4♥ on 6♥" in message
        assert not [e for e in session.record_events() if e.event == "undo"]


async def test_a_hint_that_comes_after_the_move_is_dropped(make_app, registry):
    app = against_greedy(make_app, registry)
    async with app.run_test(size=SIZE) as pilot:
        table = await your_turn(pilot)
        asked = list(table.legal)
        best = table.session.hint_search(top=3)()  # found for this turn
        table.show_hint(best, asked[1:])  # ... but the table moved on meanwhile
        assert table.hint_index is None and not text_of(app, "#message").startswith("Hint:")
        table.show_hint(best, asked)
        assert table.hint_index is not None and text_of(app, "#message").startswith("Hint:")


async def test_long_hand_scrolls_and_stays_usable_at_80x24(make_app, registry, spoken):
    game = registry.games["crazy_eights"]
    deck = [r + s for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    state = {"players": 2, "dealer": 1, "to_play": 0, "hands": [deck[:48], deck[48:50]],
             "stock": deck[50:51], "discard": [deck[51]]}
    session = Session.new(registry, SessionSetup(game, game.Options(), ["human", "greedy"], 1))
    session.match.state = game.state_from_json(state)
    app = make_app(start=Resume(session))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen
        hand = table.query_one(HandView)
        assert len(hand.cards) == 48
        scroll = table.query_one("#hand-scroll")
        assert scroll.virtual_size.height > scroll.size.height  # it scrolls
        hand.focus()
        await pilot.press("end")
        await pilot.pause()
        assert hand.cursor == 47
        assert scroll.scroll_y > 0  # the cursor's line is in view
        await pilot.press("space")
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        assert session.match.decisions >= 1


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_score_sheet_key_and_help(make_app, registry):
    app = against_greedy(make_app, registry)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, ScoreSheetScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)


@pytest.mark.slow
async def test_match_end_offers_play_again(make_app, registry):
    game = registry.games["crazy_eights"]
    setup = SessionSetup(game, game.Options(target=1), ["human", "greedy"], 3)
    app = make_app(start=Play(setup))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        first = app.screen.session
        for _ in range(5):
            await play_until_sheet(pilot)
            if first.over:
                break
            await pilot.press("escape")
            await pilot.pause()
        assert first.over
        assert "Match over" in str(app.screen.query_one("#sheet-heading", Static).render())
        assert not app.unfinished()  # nothing left to resume: the match is in the history
        assert [m.id for m in app.finished()] == [first.match_id]
        await pilot.press("a")
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen) and table.session is not first
        again = table.session  # a rematch (TableService.rematch): a new deal, the deal moving on
        assert again.match.seed != first.match.seed and again.seats == first.seats
        assert again.dealer == (first.dealer + 1) % 2 and again.match_id != first.match_id


async def test_replay_steps_through_a_human_record(make_app, registry):
    from cardcore.apps.tui.screens.replay import ReplayScreen
    from cardcore.apps.tui.session import Replay

    game = registry.games["crazy_eights"]
    session = Session.new(registry, SessionSetup(game, game.Options(target=20), ["greedy", "human"], 2))
    while not session.over:  # a match with a human seat is replayed once it has ended
        if session.is_bot(session.to_play):
            session.bot_step()
        else:
            session.apply(session.legal_actions()[0])
    session.close()
    replay = Replay.from_text(registry, session.record(), "match")
    app = make_app(start=ShowReplay(replay))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert "position 1/" in text_of(app, "#status")
        assert text_of(app, "#message") == "Hand 1 dealt"
        await pilot.press("end")
        await pilot.pause()
        assert screen.index == len(replay.frames) - 1
        assert any(f.text.startswith("Player 2: ") for f in replay.frames)  # the human's moves
        assert text_of(app, "#status").endswith(" · hand over")
        assert text_of(app, "#message") == replay.frames[-1].text
        hands = [z for z in replay.zones(screen.index) if z.kind == "hand"]
        assert hands and all(c is not None for z in hands for c in z.cards)  # every hand is open
        await pilot.press("left")
        await pilot.pause()
        assert screen.index == len(replay.frames) - 2


# --- the typed start and the screens' messages ------------------------------------------




@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_the_first_screen_comes_from_the_start(make_app, registry):
    game = registry.games["crazy_eights"]
    app = make_app()
    assert isinstance(app.start, Launch)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert [type(s) for s in app.screen_stack] == [LauncherScreen]
    app = make_app(start=Play(SessionSetup(game, game.Options(), ["human", "greedy"], 7)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # a table is never the first screen: an empty base stays under it (textual#2650)
        assert [type(s) for s in app.screen_stack] == [BaseScreen, TableScreen]
        assert app.screen.session.match.seed == 7


async def test_a_match_that_cannot_start_falls_back_to_the_launcher(make_app, registry, monkeypatch):
    def cannot_deal(*args, **kwargs):
        raise RuntimeError("no deck")

    monkeypatch.setattr(Session, "new", cannot_deal)
    game = registry.games["crazy_eights"]
    app = make_app(start=Play(SessionSetup(game, game.Options(), ["human", "greedy"], 7)))
    notes = record_calls(app, "notify")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LauncherScreen)
        assert any("could not start" in args[0] and "no deck" in args[0] for args, _ in notes)


@pytest.mark.slow
async def test_launcher_play_starts_a_match_via_messages_and_leaving_returns(make_app, registry):
    game = registry.games["crazy_eights"]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        launcher = app.screen
        launcher.post_message(LauncherScreen.SetupRequested(game))
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen) and setup.game is game
        await pilot.press("ctrl+s")  # posts SetupScreen.StartRequested
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        assert app.screen_stack == [launcher, table]  # the table took the setup's place
        assert table.session.match.seed == 7
        await pilot.press("q")  # posts TableScreen.Left
        await pilot.pause()
        assert app.screen is launcher
        assert table.session.play is None  # the match left: its lock released
        assert launcher.query_one("#resume", Button).display  # and the match saved


@pytest.mark.slow
async def test_a_match_that_cannot_start_keeps_the_setup(make_app, registry, monkeypatch):
    app = make_app()
    notes = record_calls(app, "notify")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)

        def cannot_deal(*args, **kwargs):
            raise RuntimeError("no deck")

        monkeypatch.setattr(Session, "new", cannot_deal)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is setup  # the form is still there to fix
        assert any("no deck" in args[0] for args, _ in notes)


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_resume_from_the_launcher_via_its_message(make_app, registry):
    game = registry.games["crazy_eights"]
    saved = Session.new(registry, SessionSetup(game, game.Options(), ["human", "greedy"], 9))
    saved.close()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.screen.post_message(LauncherScreen.ResumeRequested())
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        app.screen.post_message(ResumeScreen.Chosen(saved.match_id))
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.screen.session.match.snapshot() == saved.match.snapshot()


async def play_to_the_end(pilot) -> Session:
    first = pilot.app.screen.session
    for _ in range(5):
        await play_until_sheet(pilot)
        if first.over:
            return first
        await pilot.press("escape")
        await pilot.pause()
    raise AssertionError("the match did not end")


@pytest.mark.slow
async def test_play_again_from_the_launcher_replaces_the_table(make_app, registry):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        launcher = app.screen
        await choose_game(pilot, "crazy_eights")
        await pilot.press("enter")
        await pilot.pause()
        app.screen.query_one("#opt-target", Input).value = "1"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        first = await play_to_the_end(pilot)
        await pilot.press("a")  # the sheet dismisses AGAIN; the table posts PlayAgainRequested
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen) and table.session is not first
        assert table.session.match.seed != first.match.seed
        assert table.session.dealer == (first.dealer + 1) % 2
        assert first.play is None
        assert app.screen_stack == [launcher, table]
        await pilot.press("q")
        await pilot.pause()
        assert app.screen is launcher


@pytest.mark.slow
async def test_the_sheets_launcher_button_leaves_a_play_start_program(make_app, registry):
    game = registry.games["crazy_eights"]
    app = make_app(start=Play(SessionSetup(game, game.Options(target=1), ["human", "greedy"], 3)))
    exits = record_calls(app, "exit")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await play_to_the_end(pilot)
        await pilot.press("m")  # SheetChoice.MENU: leave; `cardcore play` then ends
        await pilot.pause()
        assert exits


@pytest.mark.slow
async def test_the_score_sheet_dismisses_with_a_typed_choice(make_app, registry):
    game = registry.games["crazy_eights"]
    app = make_app(start=Play(SessionSetup(game, game.Options(target=1), ["human", "greedy"], 3)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = await play_to_the_end(pilot)
        results: list = []
        app.pop_screen()
        await pilot.pause()
        for key, choice in (("escape", SheetChoice.CONTINUE), ("a", SheetChoice.AGAIN),
                            ("m", SheetChoice.MENU)):
            app.push_screen(ScoreSheetScreen(session), results.append)
            await pilot.pause()
            await pilot.press(key)
            await pilot.pause()
            assert results[-1] is choice


async def test_leaving_a_replay_ends_the_program(make_app, registry):
    from cardcore.apps.tui.session import Replay

    game = registry.games["crazy_eights"]
    session = Session.new(registry, SessionSetup(game, game.Options(), ["greedy", "greedy"], 2))
    session.bot_step()
    session.close()
    app = make_app(start=ShowReplay(Replay.from_text(registry, session.record(), "match")))
    exits = record_calls(app, "exit")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("q")  # posts ReplayScreen.Left
        await pilot.pause()
        assert exits


@pytest.mark.slow
async def test_setup_asks_the_games_seating_who_partners_whom(make_app, need_game, monkeypatch):
    from cardcore.engine.seating import Seating

    game = need_game("canasta")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.open_setup(game)
        await pilot.pause()
        setup = app.screen
        setup.query_one("#name-0", Input).value = "Ann"
        await pilot.pause()
        assert setup.query_one("#side-0", Input).placeholder == "Ann & North"
        made = setup.session_setup()
        assert made.names == ["Ann", "West", "North", "East"]
        assert made.side_names == ["Ann & North", "West & East"]

        def adjacent(players, options, dealer=0, names=(), side_names=()):
            """A table whose partners sit side by side: 0+1 against 2+3."""

            class Adjacent(Seating):
                def side_of(self, seat: int) -> int:
                    return seat // 2

            return Adjacent(players, dealer=dealer, partnerships=True, names=names)

        monkeypatch.setattr(game, "seating", adjacent)
        setup.update_seats()
        await pilot.pause()
        partners = text_of(app, "#partners")
        assert "Ann (seat 1) with West (seat 2); North (seat 3) with East (seat 4)" in partners
        assert setup.session_setup().side_names == ["Ann & West", "North & East"]


async def test_replay_score_sheet_at_the_end_names_the_winner(make_app, registry):
    from cardcore.apps.tui.session import Replay

    game = registry.games["crazy_eights"]
    session = Session.new(registry, SessionSetup(game, game.Options(target=1), ["greedy", "greedy"], 3))
    while not session.over:
        session.bot_step()
    session.close()
    app = make_app(start=ShowReplay(Replay.from_text(registry, session.record(), "match")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("end", "s")
        await pilot.pause()
        assert isinstance(app.screen, ScoreSheetScreen)
        heading = str(app.screen.query_one("#sheet-heading", Static).render())
        assert "Match over — the winner: Player " in heading  # the side's name, as in the match
