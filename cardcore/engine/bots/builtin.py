"""The built-in bots, registered through the same hook a plugin uses."""

from collections.abc import Callable, Iterable
from typing import Any

from cardcore.engine.bots.base import Bot
from cardcore.engine.bots.easy import EasyBot
from cardcore.engine.bots.expert import ExpertBot
from cardcore.engine.bots.greedy import GreedyBot
from cardcore.engine.bots.random_bot import RandomBot
from cardcore.engine.bots.search import HardBot, MediumBot
from cardcore.engine.hookspecs import hookimpl

#: The built-in levels, weakest first.
LEVELS: tuple[type[Bot], ...] = (RandomBot, EasyBot, GreedyBot, MediumBot, HardBot, ExpertBot)


def by_strength(ids: Iterable[str]) -> list[str]:
    """Bot ids as a player reads a list of levels: the built-in ones weakest first, then
    the others (a plugin's) by id."""
    order = {bot.id: n for n, bot in enumerate(LEVELS)}
    return sorted(ids, key=lambda bid: (order.get(bid, len(order)), bid))


@hookimpl
def cardcore_register_bots(register: Callable[[type[Bot]], Any]) -> None:
    for bot in LEVELS:
        register(bot)
