"""A bot's choice with its reasons: what it played and the estimates behind it.

``decide`` plays exactly as ``bot.choose`` does (the same action, the same draws from the
random stream, so a seeded match replays alike), and keeps what a search or greedy
already computed and ``choose`` drops: the best few candidates with the side's expected
hand margin in points. A bot with its own ``choose`` (easy, random, a plugin's) gives no
estimates; the table says in words what kind of player it is (docs/bots.md, "Why").
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cardcore.engine.bots.base import Bot, InfoSet
from cardcore.engine.bots.greedy import GreedyBot, scored
from cardcore.engine.bots.search import SearchBot
from cardcore.engine.game import Action

#: Candidates kept with a choice: the one played and the next two.
WHY_TOP = 3


@dataclass(frozen=True)
class Choice:
    """The action a bot chose and, best first, its top candidates with their estimates
    (the side's expected hand margin, points; the chosen one first). Empty: no reasons
    (a bot without estimates, or a move with no other choice)."""

    action: Action
    estimates: tuple[tuple[Action, float], ...] = ()
    #: The only legal action (no choice to explain).
    forced: bool = False


def decide(bot: Bot, info: InfoSet, rng: random.Random) -> Choice:
    """``bot.choose(info, rng)`` with its estimates, where the bot has them."""
    plays = type(bot).choose
    forced = len(info.legal_actions()) == 1
    if not forced:
        if plays is SearchBot.choose and isinstance(bot, SearchBot):
            found = bot.analyse(info, rng)
            return Choice(found[0].action, tuple((e.action, e.margin) for e in found[:WHY_TOP]))
        if plays is GreedyBot.choose:
            ranked = scored(info, rng)
            return Choice(ranked[0][0], tuple(ranked[:WHY_TOP]))
    return Choice(bot.choose(info, rng), forced=forced)
