"""The greedy bot: one ply on a sampled state, scored by the game's heuristic."""

from __future__ import annotations

import random

from cardcore.engine.bots.base import Bot, InfoSet
from cardcore.engine.game import Action


class GreedyBot(Bot):
    id = "greedy"
    name = "Greedy"

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        actions = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        sample = info.sample(rng)
        best, best_value = actions[0], float("-inf")
        for action in actions:
            after = sample.clone()
            after.apply(action)
            value = info.game.heuristic(after, info.seat)
            if value > best_value:  # first best wins ties: the order is the game's
                best, best_value = action, value
        return best
