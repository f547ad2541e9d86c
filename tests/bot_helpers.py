"""Helpers the bot tests share."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from cardcore.engine.bots.base import InfoSet
from cardcore.engine.match import Match


def opening_info_set(registry: Any, game_id: str = "casino", seed: int = 3) -> InfoSet:
    """What the seat to play first sees in a two-seat match of ``game_id``."""
    game = registry.games[game_id]
    match = Match(game, game.Options(), seed=seed, seats=["human"] * 2)
    match.start()
    assert match.to_play is not None and match.state is not None
    return InfoSet.of(game, match.state, match.to_play)


def weighed(game: Any, players: int, hands: int) -> str:
    """The heuristic of every seat, as exact floats (``float.hex``), after each of the first
    six legal actions at every position of ``hands`` seeded hands played at random: their
    SHA-256, cut short. A faster heuristic must give these same floats (the searches' choices
    and the levels' calibration rest on them), compiled and pure alike."""
    options = game.Options()
    seating = game.seating(players, options)
    digest = hashlib.sha256()
    for hand in range(hands):
        state = game.new_hand(seating, options, random.Random(f"{players}:{hand}"), [0] * seating.sides)
        rng = random.Random(hand)
        while not state.is_over:
            actions = state.legal_actions()
            for action in actions[:6]:
                after = state.clone()
                after.apply(action)
                for seat in range(players):
                    digest.update(game.heuristic(after, seat).hex().encode())
            state.apply(actions[rng.randrange(len(actions))])
    return digest.hexdigest()[:16]
