"""The frictions new players met at the table: keystroke counts on fixed positions, table
picks, step keys, laying out picked cards, the end of a hand, score counts, the setup form."""

from __future__ import annotations

from collections import Counter

import pytest
from textual.widgets import Static

from cardcore.apps.tui import picks
from cardcore.apps.tui.app import Resume
from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen
from cardcore.apps.tui.screens.table import TableScreen
from cardcore.apps.tui.session import Session, SessionSetup
from cardcore.apps.tui.widgets.zones import ZonesView

from .helpers import play_first

SIZE = (100, 30)
SMALL = (80, 24)


def session_at(registry, game_id: str, position: dict, seats=("human", "greedy")) -> Session:
    """A session whose hand is ``position`` (``game.state_from_json``): no record, no save."""
    game = registry.games[game_id]
    setup = SessionSetup(game, game.Options(), list(seats), 1)
    session = Session.new(registry, setup, save=False)
    session.match.state = game.state_from_json(position)
    return session


#: Casino, the human (seat 0) to play; eight loose cards; 9♥ takes 4♣ + 5♦ (and only those).
CASINO = {
    "players": 2, "dealer": 1, "to_play": 0,
    "hands": [["9H", "KD", "2S", "JC"], ["QS", "6C", "AH", "7S"]],
    "table": {"loose": ["4C", "5D", "KH", "QC", "8S", "3H", "JD", "10C"], "builds": []},
    "stock": ["5C", "3S", "JH", "8C", "9C", "2C", "AC", "KS", "7D", "8H", "AD", "9D", "JS", "8D",
              "4S", "6H", "2H", "5H", "6C", "AS", "2D", "4C", "2S", "7C", "AH", "QH", "3C", "5D",
              "3D", "6D", "4H", "5S", "10S", "9S", "10D", "10H", "6S", "4D", "KC", "7H"][:24],
}

#: Canasta, the human (seat 0) to draw, the side has melded kings; after the draw (the
#: stock's two cards are drawn) it melds 7♣ 7♦ 7♥, adds K♣ to the kings and discards 4♠.
CANASTA = {
    "players": 2, "dealer": 1, "to_play": 0, "phase": "draw",
    "hands": [["7C", "7D", "7H", "KC", "4S", "9C", "QS"], ["5H", "6H", "8C", "9D", "10S", "JD", "QH"]],
    "stock": ["6D", "8H"],
    "discard": ["9S"],
    "melds": [[{"rank": "K", "cards": ["KS", "KH", "KD"]}], []],
    "initial_meld_done": [True, False], "has_melded": [True, False],
}


def casino_position() -> dict:
    data = dict(CASINO)
    used = Counter(c for h in data["hands"] for c in h) + Counter(data["table"]["loose"])
    stock = [c for c in data["stock"] if c not in used]
    data["stock"] = stock[:len(stock) // 8 * 8]
    return data


@pytest.mark.slow
async def test_casino_capture_of_two_loose_cards_is_three_keys(make_app, registry):
    session = session_at(registry, "casino", casino_position())
    app = make_app(start=Resume(session))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen) and table.legal
        letter = {u.card: k for k, u in table.units.items()}
        presses = [letter["4C"], letter["5D"]]
        await pilot.press(*presses)
        await pilot.pause()
        assert [a.label for _, a in table.shown] == ["Capture 4♣ 5♦ with 9♥"]
        zones = table.query_one("#zones", ZonesView).plain
        assert "_4♣_" in zones and "_5♦_" in zones and "_K♥_" not in zones  # marked, no colour
        await pilot.press("1")
        presses.append("1")
        await pilot.pause()
        assert len(presses) <= 3
        captured = session.state.export()["captured"][0]
        assert sorted(captured) == ["4C", "5D", "9H"]


async def test_table_pick_that_fits_nothing_is_refused(make_app, registry):
    session = session_at(registry, "casino", casino_position())
    app = make_app(start=Resume(session))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen
        letter = {u.card: k for k, u in table.units.items()}
        await pilot.press(letter["4C"], letter["KH"])
        await pilot.pause()
        assert [u.card for u in table.picked_units] == ["4C"]
        assert "No legal action takes" in str(table.query_one("#message", Static).render())


@pytest.mark.slow
async def test_canasta_turn_draw_meld_add_discard_is_five_keys(make_app, registry):
    session = session_at(registry, "canasta", CANASTA)
    app = make_app(start=Resume(session))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen
        presses = ["d"]
        await pilot.press("d")
        await pilot.pause()
        assert "You drew 6♦ 8♥" in str(table.query_one("#message", Static).render())
        assert len(table.hand.new) == 2  # the drawn cards are marked in the hand

        async def number(label: str) -> None:
            n = next(n for n, row in enumerate(table.rows[:9], start=1) if row.label == label)
            presses.append(str(n))
            await pilot.press(str(n))
            await pilot.pause()

        await number("Meld 7♥ 7♦ 7♣")
        await number("Add K♣ to the kings")
        melds = session.state.export()["melds"][0]
        assert {m["rank"]: len(m["cards"]) for m in melds} == {"K": 4, "7": 3}
        presses.append("x")
        await pilot.press("x")  # several discards: the list narrows to them
        await pilot.pause()
        assert all(a.step == "discard" for _, a in table.shown)
        await number("Discard 4♠")
        assert len(presses) <= 5, presses
        assert session.state.to_play == 1 or session.over or session.match.hand_no > 1
        assert [e.text for e in session.log if e.seat == 0][-1].endswith("Discard 4♠")


async def test_lay_out_finds_and_plays_the_steps(registry):
    """The front end's search: picked cards laid out as a run of legal steps."""
    session = session_at(registry, "canasta", CANASTA)
    session.apply(next(a for a in session.legal_actions() if a.step == "draw"))
    plan = picks.lay_out(session.state, Counter(["7C", "7D", "7H", "KC"]))
    assert sorted(c for a in plan for c in a.hand_cards) == ["7C", "7D", "7H", "KC"]
    for action in plan:
        session.apply(action)
    melds = session.state.export()["melds"][0]
    assert {m["rank"]: len(m["cards"]) for m in melds} == {"K": 4, "7": 3}


@pytest.mark.slow
async def test_lay_out_key_plays_the_picked_cards(make_app, registry):
    session = session_at(registry, "canasta", CANASTA)
    app = make_app(start=Resume(session))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen
        await pilot.press("d")
        await pilot.pause()
        hand = table.hand
        for card in ("7C", "7D", "7H", "KC"):
            hand.cursor = hand.cards.index(card)
            await pilot.press("space")
            await pilot.pause()
        await pilot.press("m")  # says what it will play
        await pilot.pause()
        message = str(table.query_one("#message", Static).render())
        assert message.startswith("m again plays: ") and "7♥ 7♦ 7♣" in message, message
        assert {m["rank"]: len(m["cards"]) for m in session.state.export()["melds"][0]} == {"K": 3}
        await pilot.press("m")  # plays it
        await pilot.pause()
        melds = session.state.export()["melds"][0]
        assert {m["rank"]: len(m["cards"]) for m in melds} == {"K": 4, "7": 3}
        assert "Laid out 4 card(s)" in str(table.query_one("#message", Static).render())


@pytest.mark.slow
async def test_end_of_hand_shows_the_final_table_and_n_moves_on(make_app, registry):
    game = registry.games["crazy_eights"]
    from cardcore.apps.tui.app import Play

    app = make_app(start=Play(SessionSetup(game, game.Options(), ["human", "greedy"], 7)))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(600):
            if isinstance(app.screen, ScoreSheetScreen):
                break
            await play_first(pilot)
            await pilot.pause()
        sheet = app.screen
        assert isinstance(sheet, ScoreSheetScreen)
        table = app.screen_stack[-2]
        assert isinstance(table, TableScreen)
        await pilot.press("escape")  # back to the final table, not the next hand
        await pilot.pause()
        assert app.screen is table and table.finished is not None
        assert "is over — n: next hand" in str(table.query_one("#hand-title", Static).render())
        assert not table.legal
        hand_no = table.finished_no
        await pilot.press("n")
        await pilot.pause()
        assert table.finished is None and table.session.match.hand_no == hand_no + 1


def test_sheet_shows_counts_and_keeps_a_tied_row(registry):
    from rich.console import Console

    from cardcore.apps.tui.widgets.sheet import score_table
    from cardcore.engine.scoresheet import ScoreSheet

    row = {"sides": [
        {"seats": [0], "items": {"cards": 0, "spades": 1, "aces": 1, "sweeps": 0}, "total": 2,
         "counts": {"cards": 26, "spades": 10, "aces": ["AS"], "sweeps": 0}},
        {"seats": [1], "items": {"cards": 0, "spades": 0, "aces": 3, "sweeps": 0}, "total": 3,
         "counts": {"cards": 26, "spades": 3, "aces": ["AC", "AH", "AD"], "sweeps": 0},
         "note": "18 of 21 before the hand: only cards scores (near-target rule), no sweeps"}]}
    console = Console(width=100, record=True)
    console.print(score_table(ScoreSheet(["You", "Bots"], 21, [row])))
    text = console.export_text()
    assert "cards" in text and text.count("0 (26)") == 2  # the tie shows, scoring nobody
    assert "1 (10)" in text and "A♣ A♥ A♦" in text
    assert "near-target rule" in text


def test_engines_fill_counts(registry):
    import random

    for game_id, keys in (("casino", {"cards", "spades", "aces", "sweeps", "big_casino"}),
                          ("royal_casino", {"cards", "spades", "aces", "sweeps"}),
                          ("canasta", {"canastas", "red_threes", "going_out"})):
        game = registry.games[game_id]
        options = game.Options()
        state = game.new_hand(game.seating(2, options), options, random.Random(3), [0, 0])
        rng = random.Random(3)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        for side in state.score()["sides"]:
            assert keys <= set(side["counts"])
            assert side["total"] == sum(side["items"].values())


@pytest.mark.slow
async def test_setup_preset_fills_the_options_the_player_left(make_app, registry):
    from textual.widgets import Checkbox, Select

    from cardcore.apps.tui.screens.setup import SetupScreen
    from cardcore.apps.tui.widgets.options_form import OptionsForm
    from cardcore_canasta.rules import PRESETS

    game = registry.games["canasta"]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(SetupScreen(game))
        await pilot.pause()
        form = app.screen.query_one("#options", OptionsForm)
        form.query_one("#opt-preset", Select).value = "classic"
        await pilot.pause()
        await pilot.pause()
        options = form.options
        assert options is not None and options.preset == "classic"
        for name, value in PRESETS["classic"].items():
            assert getattr(options, name) == value, name
        boxes = list(form.query(Checkbox))
        assert boxes and all(str(b.label) == ("yes" if b.value else "no") for b in boxes)
