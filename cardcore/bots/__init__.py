"""Computer players: they see a seat's view, its legal actions and samples, never the true state."""

from cardcore.bots.base import Bot, InfoSet
from cardcore.bots.greedy import GreedyBot
from cardcore.bots.random_bot import RandomBot

__all__ = ["Bot", "GreedyBot", "InfoSet", "RandomBot"]
