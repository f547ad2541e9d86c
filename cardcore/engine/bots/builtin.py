"""The built-in bots, registered through the same hook a plugin uses."""

from collections.abc import Callable
from typing import Any

from cardcore.engine.bots.base import Bot
from cardcore.engine.bots.easy import EasyBot
from cardcore.engine.bots.greedy import GreedyBot
from cardcore.engine.bots.random_bot import RandomBot
from cardcore.engine.bots.search import HardBot, MediumBot
from cardcore.engine.hookspecs import hookimpl


@hookimpl
def cardcore_register_bots(register: Callable[[type[Bot]], Any]) -> None:
    register(RandomBot)
    register(EasyBot)
    register(GreedyBot)
    register(MediumBot)
    register(HardBot)
