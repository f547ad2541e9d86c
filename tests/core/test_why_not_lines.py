"""``GameState.why_not`` over whole seeded hands of the built-in games: for every card of
the hand to play, at every step, None or one short line that fits the table's message line
at 80 columns after the card ("K♠: ..."), and it never raises."""

from __future__ import annotations

import random

import pytest

import cardcore

GAMES = cardcore.load_games()
#: 80 columns, the message line's padding (2) and the card's "10♠: " (5).
MOST = 73


@pytest.mark.parametrize(("game_id", "players"), [
    ("casino", 2), ("casino", 4), ("royal_casino", 4), ("royal_casino", 3),
    ("canasta", 4), ("canasta", 2)])
def test_every_reason_is_one_short_line(game_id, players):
    game = GAMES[game_id]
    options = game.Options()
    seen = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_hand(game.seating(players, options), options, rng,
                              [0] * game.seating(players, options).sides)
        while not state.is_over:
            hand = state.export()["hands"][state.to_play]
            for card in set(hand):
                reason = state.why_not(card)
                if reason is not None:
                    seen += 1
                    assert isinstance(reason, str) and "\n" not in reason
                    assert len(reason) <= MOST, reason
            state.apply(rng.choice(state.legal_actions()))
    assert seen  # the games do explain some cards
