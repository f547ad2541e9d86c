"""The built-in bots, registered through the same hook a plugin uses."""

from cardcore import hookimpl
from cardcore.bots.greedy import GreedyBot
from cardcore.bots.random_bot import RandomBot


@hookimpl
def cardcore_register_bots(register):
    register(RandomBot)
    register(GreedyBot)
