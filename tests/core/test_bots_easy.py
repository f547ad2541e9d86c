"""The easy level: greedy's eye and a person's slips at a set rate, never a random move."""

import random
from collections import Counter

from cardcore.engine.bots import InfoSet
from cardcore.engine.bots.easy import EasyBot
from cardcore.engine.bots.greedy import GreedyBot, ranked
from cardcore.services.plugins import load_registry

REGISTRY = load_registry()


def casino_position():
    """South to play 10♦ (capturing 10♣ or 6♥ 4♠ and a sweep), 2♣, 9♠, K♥."""
    game = REGISTRY.game("casino")
    data = {"players": 2, "dealer": 1, "to_play": 0,
            "hands": [["10D", "2C", "9S", "KH"], ["3D", "5H", "8C", "QS"]],
            "table": {"loose": ["10C", "6H", "4S", "7D"], "builds": []},
            "stock": ["AS", "2H", "3H", "4H", "5S", "6S", "7S", "8S"]}
    return game, game.state_from_json(data)


def test_easy_is_registered_and_says_what_it_means():
    assert REGISTRY.bots["easy"] is EasyBot and "one time in three" in EasyBot.description


def test_it_slips_at_its_rate_and_only_to_the_next_two_it_saw():
    game, state = casino_position()
    info = InfoSet.of(game, state, 0)
    order = ranked(info, random.Random(0))
    picks = Counter(EasyBot().choose(info, random.Random(seed)) for seed in range(600))
    assert set(picks) <= set(order[:3])  # a near miss, never the worst moves
    best = picks[order[0]] / 600
    assert 0.60 < best < 0.74  # two in three (the rate 1/3: 0.667, a 99.9% band for 600)
    assert picks[order[1]] > 60 and picks[order[2]] > 60


def test_without_slips_it_is_greedy_and_always_slipping_it_never_plays_the_best():
    game, state = casino_position()
    info = InfoSet.of(game, state, 0)
    best = GreedyBot().choose(info, random.Random(1))
    careful, careless = EasyBot(), EasyBot()
    careful.mistake_rate, careless.mistake_rate = 0.0, 1.0
    assert all(careful.choose(info, random.Random(s)) is best for s in range(20))
    assert all(careless.choose(info, random.Random(s)) is not best for s in range(20))
