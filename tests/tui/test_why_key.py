"""``w`` at the table: why the last bot move, on the message line, in a player's words."""

from __future__ import annotations

import re

from cardcore.apps.tui.app import Play
from cardcore.apps.tui.session import SessionSetup
from cardcore.engine.bots.base import unseen_cards
from cardcore.engine.cards import glyph

from .helpers import text_of, your_turn

SIZE = (80, 24)


async def test_w_explains_the_last_bot_move_without_a_hidden_card_or_says_there_is_none(make_app, registry):
    game = registry.games["casino"]
    app = make_app(start=Play(SessionSetup(game, game.Options(), ["human", "greedy"], 11)))
    async with app.run_test(size=SIZE) as pilot:
        session = (await your_turn(pilot)).session
        if not any(e.bot for e in session.log):  # the human opened: the bot answers first
            await pilot.press("1")
            await your_turn(pilot)
        line = next(e for e in reversed(session.log) if e.bot)
        await pilot.press("w")
        await app.workers.wait_for_complete()
        await pilot.pause()
        message = text_of(app, "#message")
        name, move = line.text.split(": ", 1)
        assert message.startswith(f"{name} chose {move}: it expected about ")
        assert re.search(r"points? for its side", message)
        reason = session.service.reasons[line.turn]
        if reason.others:
            assert "it also considered" in message
        hidden = unseen_cards(session.state, 0)
        assert not [c for c in hidden
                    if re.search(rf"(?<![\w♠♥♦♣]){re.escape(glyph(c))}(?![\w♠♥♦♣])", message)]
        assert "visits" not in message and "samples" not in message
        session.service.reasons.clear()  # as after a resume: no reason kept
        await pilot.press("w")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert text_of(app, "#message").startswith("No bot move to explain: the table keeps")

