"""Computer players: they see a seat's view, its legal actions and samples, never the true state."""

from cardcore.engine.bots.base import Bot, InfoSet
from cardcore.engine.bots.greedy import GreedyBot
from cardcore.engine.bots.random_bot import RandomBot

__all__ = ["Bot", "GreedyBot", "InfoSet", "RandomBot"]
