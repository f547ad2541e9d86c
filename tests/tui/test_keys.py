"""The table's keys keep their word (issue 23, items 2, 3, 7): action numbers keep their
meaning within a turn, ``m`` says what it will play before playing it, a key's message
stays while the bots play, no pop-up covers the message line, ``b`` quickens first."""

from __future__ import annotations

import pytest

from cardcore.apps.tui.app import Play, Resume
from cardcore.apps.tui.screens.table import TableScreen
from cardcore.apps.tui.widgets.message import MessageLine

from .helpers import screen_lines, text_of, until, your_turn
from .test_frictions import SMALL, session_at
from .test_tablefix_flows import setup_of

#: Canasta after the draw, the human's side has melded (the kings): the list reads
#: "1 Meld 7♥ 7♦ 7♣, 2 Discard 3♠, 3 Discard 4♦, ..." (the report's hand).
MELD_THEN_DISCARD = {
    "players": 2, "dealer": 1, "to_play": 0, "phase": "play",
    "hands": [["7C", "7D", "7H", "3S", "4D", "9C", "QS"], ["5H", "6H", "8C", "9D", "10S", "JD", "QH"]],
    "stock": ["6D", "8H", "2C", "5S", "JS", "8D"],
    "discard": ["9S"],
    "melds": [[{"rank": "K", "cards": ["KS", "KH", "KD"]}], []],
    "initial_meld_done": [True, False], "has_melded": [True, False],
}

#: Canasta, four cards left: 6♦ 6♣ Jkr cannot be melded (one card would be left, and
#: going out needs a canasta), so laying them out plays only "Add Jkr to the queens".
LAY_OUT = {
    "players": 2, "dealer": 1, "to_play": 0, "phase": "play",
    "hands": [["6D", "6C", "JK", "4S"], ["5H", "6H", "8C", "9D", "10S", "JD", "QH"]],
    "stock": ["6S", "8H", "2C"],
    "discard": ["9S"],
    "melds": [[{"rank": "Q", "cards": ["QS", "QH", "QD"]}], []],
    "initial_meld_done": [True, False], "has_melded": [True, False],
}


#: The same with 2♣ too: melding the 7s makes "Add 2♣ to the 7s", listed after the
#: others, on page 2.
WITH_A_WILD = {**MELD_THEN_DISCARD, "hands": [
    ["7C", "7D", "7H", "2C", "3S", "4D", "5S", "6H", "9C", "QS", "JD"],
    MELD_THEN_DISCARD["hands"][1]]}


#: Canasta after the draw, three melds in hand: once they are laid, every move of the
#: first page is played or gone (the discards left are on page 2).
THREE_MELDS = {**MELD_THEN_DISCARD, "hands": [
    ["4S", "4C", "4C", "5H", "5D", "5C", "KH", "KC", "2H", "8S", "10H", "JS"],
    MELD_THEN_DISCARD["hands"][1]], "melds": [[{"rank": "Q", "cards": ["QS", "QH", "QD"]}], []]}


def number_of(table: TableScreen, label: str) -> str:
    """The key shown before ``label`` on the first page, as the player reads it."""
    return next(str(n) for n, row in enumerate(table.rows[:9], start=1) if row.label == label)


def mine(session) -> list[str]:
    """The human's moves this match, as the log says them ("Player 1: Discard 3♠")."""
    return [e.text.split(": ", 1)[1] for e in session.log if e.seat == 0 and not e.note]


async def test_meld_then_discard_keys_do_what_the_player_read(make_app, registry):
    session = session_at(registry, "canasta", MELD_THEN_DISCARD)
    app = make_app(start=Resume(session))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        meld, discard, gone = (number_of(table, label) for label in
                               ("Meld 7♥ 7♦ 7♣", "Discard 3♠", "Discard 7♥"))
        assert (meld, discard) == ("1", "2")  # the report's list: 2 was "Discard 3♠"
        await pilot.press(meld)
        await pilot.pause()
        # the meld's row stays, marked; the 7s' discards stay where they were, marked
        assert [r.label for r in table.rows[:2]] == ["Meld 7♥ 7♦ 7♣", "Discard 3♠"]
        assert table.rows[0].index is None and table.rows[0].played
        lines = "\n".join(screen_lines(app))
        assert "Meld 7♥ 7♦ 7♣ · played" in lines and "Discard 7♥ · not now" in lines
        hand = len(table.hand.cards)
        await pilot.press(gone)  # a number whose action went: refused, never another
        await pilot.pause()
        assert text_of(app, "#message") == (f"{gone} was “Discard 7♥”, not possible after "
                                            "your last move: nothing played.")
        assert len(table.hand.cards) == hand and session.state.to_play == 0
        await pilot.press(discard)
        await pilot.pause()
        assert mine(session)[-2:] == ["Meld 7♥ 7♦ 7♣", "Discard 3♠"]
        await your_turn(pilot)  # the next turn is numbered anew: nothing marked
        assert table.rows and all(r.index is not None for r in table.rows)


@pytest.mark.slow  # 2-3 s of CPU: `make test` runs it, the quick loop does not
async def test_a_page_whose_moves_are_all_taken_gives_way_to_the_next(make_app, registry):
    """Dan's turn in the weekly evening: three melds, then 1-9 named only moves played or
    gone, the discards on page 2. The list now shows page 2 itself; ] and [ still show page
    1 (its marks) when asked."""
    session = session_at(registry, "canasta", THREE_MELDS)
    app = make_app(start=Resume(session))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        for label in ("Meld 4♠ 4♣ 4♣", "Meld 5♥ 5♦ 5♣", "Meld K♥ K♣ 2♥"):
            assert table.page == 0
            await pilot.press(number_of(table, label))
            await pilot.pause()
        assert all(r.index is None for r in table.rows[:9])  # page 1: nothing left to play
        assert table.page == 1 and "page 2/3" in "\n".join(screen_lines(app))
        first = next(n for n, r in enumerate(table.rows[9:18], 1) if r.index is not None)
        label = table.rows[9 + first - 1].label
        assert label.startswith("Discard ")
        await pilot.press("[")  # asked for, page 1 shows (marked), and stays
        await pilot.pause()
        assert table.page == 0 and "Meld 4♠ 4♣ 4♣ · played" in "\n".join(screen_lines(app))
        await pilot.press("]")
        await pilot.pause()
        await pilot.press(str(first))
        await pilot.pause()
        assert mine(session)[-1] == label


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_typed_ahead_meld_then_discard(make_app, registry):
    """Both keys sent at once, before the screen redraws between them."""
    session = session_at(registry, "canasta", MELD_THEN_DISCARD)
    app = make_app(start=Resume(session))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("1", "2")
        await pilot.pause()
        assert mine(session)[-2:] == ["Meld 7♥ 7♦ 7♣", "Discard 3♠"]


async def test_actions_a_move_adds_come_last_and_the_line_says_where(make_app, registry):
    session = session_at(registry, "canasta", WITH_A_WILD)
    app = make_app(start=Resume(session))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        await pilot.press(number_of(table, "Meld 7♥ 7♦ 7♣"))
        await pilot.pause()
        assert table.rows[-1].label == "Add 2♣ to the 7s" and len(table.rows) > 9
        assert text_of(app, "#message") == ("You played: Meld 7♥ 7♦ 7♣ · new actions at the "
                                            "end: page 2 (] [)")
        await pilot.press("right_square_bracket")
        await pilot.pause()
        await pilot.press(str(len(table.rows) - 9))
        await pilot.pause()
        sevens = next(m for m in session.state.export()["melds"][0] if m["rank"] == "7")
        assert sorted(sevens["cards"]) == ["2C", "7C", "7D", "7H"]


@pytest.mark.slow  # 2-3 s of CPU: `make test` runs it, the quick loop does not
async def test_m_says_what_it_will_play_and_a_second_m_plays_it(make_app, registry):
    session = session_at(registry, "canasta", LAY_OUT)
    app = make_app(start=Resume(session))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        hand = table.hand

        async def pick(card: str) -> str:
            hand.cursor = hand.cards.index(card)
            await pilot.press("space")
            await pilot.pause()
            return text_of(app, "#message")

        await pick("6D")
        assert (await pick("6C")).startswith("6♣: a new meld would leave you 1 card")
        await pick("JK")
        assert sorted(table.picked_cards()) == ["6D", "JK"]
        await pilot.press("m")
        await pilot.pause()
        question = text_of(app, "#message")
        assert question.startswith("m again plays: Add Jkr to the queens · 6♦ stays in your "
                                   "hand (a new meld would leave you 1 card"), question
        assert "JK" in session.state.export()["hands"][0]  # nothing played yet
        await pilot.press("left", "m")  # another key in between: m asks again
        await pilot.pause()
        assert text_of(app, "#message") == question
        assert "JK" in session.state.export()["hands"][0]
        await pilot.press("m")
        await pilot.pause()
        assert text_of(app, "#message").startswith("Laid out 1 card(s) in 1 play(s)")
        queens = session.state.export()["melds"][0][0]["cards"]
        assert sorted(queens) == ["JK", "QD", "QH", "QS"]
        await pick("6C")  # a pick no play lays out: m says why, plays nothing
        await pilot.press("m")
        await pilot.pause()
        assert text_of(app, "#message").startswith("6♣: a meld needs three 6s")
        assert sorted(session.state.export()["hands"][0]) == ["4S", "6C", "6D"]


@pytest.mark.slow  # 2-3 s of CPU: `make test` runs it, the quick loop does not
async def test_a_keys_message_stays_while_the_bots_play(make_app, registry):
    app = make_app(start=Play(setup_of(registry, "casino")))
    async with app.run_test(size=SMALL) as pilot:
        table = await your_turn(pilot)
        line = table.query_one("#message", MessageLine)
        bot_moves = len([e for e in table.session.log if e.bot])
        await pilot.press("1")
        await until(pilot, lambda: len([e for e in table.session.log if e.bot]) > bot_moves,
                    "the bot moved")
        await pilot.pause()
        assert line.plain.startswith("You played: "), line.plain  # the bot's move waits
        await pilot.press("left")  # the next key: the bot's move shows
        await pilot.pause()
        assert "(greedy): " in line.plain, line.plain
        line.hold = 0.05  # or a few seconds: the same with the time made short
        await your_turn(pilot)
        await pilot.press("1")
        await until(pilot, lambda: "(greedy): " in line.plain, "the bot's move after the hold")


async def test_no_undo_leaves_the_message_line_and_the_hand_in_view(make_app, registry):
    app = make_app(start=Play(setup_of(registry, "casino")))
    async with app.run_test(size=SMALL) as pilot:
        table = await your_turn(pilot)
        await pilot.press("u")
        await pilot.pause()
        assert not app._notifications  # no pop-up
        lines = screen_lines(app)
        message = next(n for n, row in enumerate(lines) if "Nothing to undo" in row)
        hand = next(n for n in range(message, len(lines)) if "Your hand" in lines[n])
        cards = [c for c in table.hand.cards if c is not None]
        assert len(cards) == 4 and hand <= message + 3  # the message (it may wrap), then the hand
        from cardcore.engine.cards import glyph

        assert all(glyph(c) in lines[hand + 1] for c in cards)


async def test_b_goes_normal_then_instant_then_slow(make_app, registry):
    app = make_app(start=Play(setup_of(registry, "casino")), bot_delay=None)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        seen = []
        for _ in range(3):
            await pilot.press("b")
            await pilot.pause()
            seen.append((app.speed, app.bot_delay, text_of(app, "#message")))
        assert seen == [("instant", 0.0, "Bot speed: instant (b: slow)."),
                        ("slow", 1.5, "Bot speed: slow (b: normal)."),
                        ("normal", 0.6, "Bot speed: normal (b: instant).")]
