"""The easy level, for children and beginners: greedy's eye, a person's slips.

It sees the moves as greedy does (one ply, the game's heuristic), and at a set rate it
misses the best one and plays one of the next two it saw: the capture it did not spot,
the meld it kept for later. A near miss, as a person's mistake is, never a random move.
"""

from __future__ import annotations

import random

from cardcore.engine.bots.base import Bot, InfoSet
from cardcore.engine.bots.greedy import ranked
from cardcore.engine.game import Action


class EasyBot(Bot):
    id = "easy"
    name = "Easy"
    description = "misses the best move about one time in three"
    #: How often it misses the best move it sees (when there is another).
    mistake_rate = 1 / 3
    #: How far down its own ranking a slip goes: the second or the third best.
    slip_depth = 2
    tunable = ("mistake_rate", "slip_depth")

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        actions = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        order = ranked(info, rng)
        if rng.random() >= self.mistake_rate:
            return order[0]
        near = order[1:1 + self.slip_depth]
        return near[rng.randrange(len(near))]
