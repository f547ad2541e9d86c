"""The numbers and reasons at the table: a Canasta first meld's count beside its minimum, the
sides' melded totals, why a picked card has no meld or trail, a bot's red three in the log."""

from __future__ import annotations

from cardcore.apps.tui.app import Resume
from cardcore.apps.tui.screens.table import TableScreen
from cardcore.apps.tui.widgets.tail import TailStatic
from cardcore.apps.tui.widgets.zones import ZonesView

from .helpers import screen_lines, text_of, your_turn
from .test_frictions import session_at

SIZE = (100, 30)
FOUR = ("human", "greedy", "greedy", "greedy")

#: South to play; kings and queens make 60 of 50; North's side (seat 2's) has melded.
FIRST_MELD = {
    "players": 4, "dealer": 3, "to_play": 0, "phase": "play",
    "hands": [["QS", "QH", "QD", "KS", "KH", "KD", "5C", "9D", "4H", "6H"],
              ["5H", "6C"], ["8C", "9C"], ["10S", "JD"]],
    "stock": ["4C", "5D", "6D", "8D"], "discard": ["9S"],
    "melds": [[], [{"rank": "A", "cards": ["AS", "AH", "AD"]}]],
    "initial_meld_done": [False, True], "has_melded": [False, True, False, False],
}

#: The same hand, but the side's total asks 90 of its first meld (D36): kings and queens, 60.
BELOW = {**FIRST_MELD, "totals_before": [1500, 0]}


async def pick(pilot, table: TableScreen, card: str) -> None:
    table.hand.cursor = table.hand.cards.index(card)
    await pilot.press("space")
    await pilot.pause()


async def test_canasta_first_meld_shows_its_count_and_the_melded_totals(make_app, registry):
    session = session_at(registry, "canasta", FIRST_MELD, FOUR)
    app = make_app(start=Resume(session))
    async with app.run_test(size=SIZE) as pilot:
        table = await your_turn(pilot)
        labels = [a.label for _, a in table.shown]
        assert "Meld Q♠ Q♥ Q♦ + K♠ K♥ K♦ · 30 + 30 = 60 of 50" in labels
        zones = table.query_one("#zones", ZonesView).plain
        assert "Melds — West & East [melded 60]\n" in zones and "[first meld needs 50 points]" in zones


async def test_canasta_picked_card_says_the_first_meld_is_below_the_minimum(make_app, registry):
    session = session_at(registry, "canasta", BELOW, FOUR)
    app = make_app(start=Resume(session))
    async with app.run_test(size=SIZE) as pilot:
        table = await your_turn(pilot)
        await pick(pilot, table, "KS")
        # kings are alike (card_key): each may be discarded, none melded
        assert [a.label for _, a in table.shown] == ["Discard K♠", "Discard K♥", "Discard K♦"]
        assert text_of(app, "#message").startswith(
            "K♠: your best first meld counts 60; a first meld needs 90 points · ")


async def test_casino_picked_card_says_why_it_has_no_trail(make_app, registry):
    position = {"players": 2, "dealer": 1, "to_play": 0,
                "hands": [["8C", "5D", "QH"], ["KD", "2C", "3C"]],
                "table": {"loose": ["4H", "10S"],
                          "builds": [{"value": 8, "owner": 0, "groups": [["2H", "6S"]]}]}}
    session = session_at(registry, "casino", position)
    app = make_app(start=Resume(session))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await your_turn(pilot)
        await pick(pilot, table, "QH")  # a queen: no capture, no build, no trail
        line = "Q♥: the owner of a build may not trail: you own the 8"
        assert text_of(app, "#message") == line
        assert line in " ".join(screen_lines(app)[-4].split())  # whole on the 80-column line
        await pilot.press("escape")
        await pick(pilot, table, "8C")  # it captures the build, but may not trail
        assert text_of(app, "#message").startswith(
            "8♣: the owner of a build may not trail: you own the 8 · ")


async def test_a_red_three_a_bot_draws_is_in_the_log(make_app, registry):
    # West (a bot) must draw: a wild card on top of the pile; the stock's top card is 3♥
    position = {"players": 4, "dealer": 0, "to_play": 1, "phase": "draw",
                "hands": [["9C", "4H", "7S"], ["5D", "6C", "JS"], ["8C", "QC", "10D"],
                          ["KS", "AC", "9D"]],
                "stock": ["3H", "8H", "4C", "5C", "6D", "7C", "9S", "10H"],
                "discard": ["4D", "2C"]}
    session = session_at(registry, "canasta", position, FOUR)
    app = make_app(start=Resume(session))
    async with app.run_test(size=SIZE) as pilot:
        await your_turn(pilot)
        log = app.screen.query_one("#log", TailStatic).plain
        assert "West: Draw from the stock — drew a red three 3♥ (laid out, replaced)" in log
        assert session.state.export()["red_threes"][1] == ["3H"]
