"""The random bot: any legal action, uniformly."""

from __future__ import annotations

import random

from cardcore.engine.bots.base import Bot, InfoSet
from cardcore.engine.game import Action


class RandomBot(Bot):
    id = "random"
    name = "Random"
    description = "any legal move (for testing)"

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        actions = info.legal_actions()
        return actions[rng.randrange(len(actions))]
