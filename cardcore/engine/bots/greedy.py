"""The greedy bot: one ply on a sampled state, scored by the game's heuristic."""

from __future__ import annotations

import random

from cardcore.engine.bots.base import Bot, InfoSet
from cardcore.engine.game import Action


def ranked(info: InfoSet, rng: random.Random) -> list[Action]:
    """The legal actions best first by one ply on one sample (the game's heuristic); equal
    values keep the game's order."""
    return [action for action, _ in scored(info, rng)]


def scored(info: InfoSet, rng: random.Random) -> list[tuple[Action, float]]:
    """``ranked`` with each action's one-ply value (the side's hand margin, in points)."""
    actions = info.legal_actions()
    sample = info.sample(rng)
    # the sample's own action objects, in the same order (determinize keeps the mover's
    # listing): applied, they need no look-up by key, which a crowded casino table's
    # thousands would pay for each
    own = sample.legal_actions()
    if len(own) != len(actions) or (own and own[-1].key != actions[-1].key):
        own = actions
    values = []
    for action in own:
        after = sample.clone()
        after.apply(action)
        values.append(float(info.game.heuristic(after, info.seat)))
    order = sorted(range(len(actions)), key=lambda i: (-values[i], i))
    return [(actions[i], values[i]) for i in order]


class GreedyBot(Bot):
    id = "greedy"
    name = "Greedy"
    description = "plays the move that looks best now"

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        actions = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        return ranked(info, rng)[0]
