"""The conformance kit on both games, and 10,000 random hands per game with the checksum
(their first 200, and the kit on one seed, in the quick loop)."""

import random

import pytest

from cardcore.engine.seating import Seating
from cardcore.engine.testing import check_game

from .helpers import GAMES

POINTS = {"AS": 1, "AH": 1, "AD": 1, "AC": 1, "10D": 2, "2S": 1}


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_check_game(game_id, players):
    report = check_game(GAMES[game_id], seeds=range(6), player_counts=[players])
    assert report.hands >= 6 and report.decisions >= 6 * 48


def test_check_game_on_one_seed(game_id):
    report = check_game(GAMES[game_id], seeds=range(1), player_counts=[2], max_hands=1,
                        deep_every=6)
    assert report.hands >= 1 and report.matches == 1 and report.decisions >= 48


def random_options(game_id, rng):
    if game_id == "casino":
        return {"court_cards_take_all": rng.random() < 0.3,
                "deal_in_twos": rng.random() < 0.7,
                "may_trail_capturing_card": rng.random() < 0.7,
                "direction": rng.choice(["clockwise", "counter_clockwise"])}
    return {"ace_fourteen": rng.random() < 0.7,
            "direction": rng.choice(["clockwise", "counter_clockwise"])}


def net_sweeps(game_id, sides):
    if game_id == "casino":
        return sum(sides)
    return sum(max(0, s - max(x for j, x in enumerate(sides) if j != i))
               for i, s in enumerate(sides))


def tie_at_top(counts):
    top = max(counts)
    return counts.count(top) > 1


@pytest.mark.slow
def test_checksum_of_10000_random_hands(game_id):
    check_random_hands(game_id, 10_000)


def test_checksum_of_200_random_hands(game_id):
    check_random_hands(game_id, 200)


def check_random_hands(game_id, hands):
    """points = 11 + net sweep points - 3 if cards tie - 1 if spades tie - what went to nobody,
    on hands where every side starts on 17 or less."""
    game = GAMES[game_id]
    rng = random.Random(f"checksum:{game_id}")
    for hand in range(hands):
        players = rng.choice([2, 3, 4])
        options = game.Options(**random_options(game_id, rng))
        sides = 2 if players == 4 else players
        totals = [rng.randint(0, 17) for _ in range(sides)]
        seating = Seating(players, dealer=rng.randrange(players),
                          direction=game.direction(options), partnerships=players == 4)
        state = game.new_hand(seating, options, random.Random(hand), totals)
        while not state.is_over:
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        data = state.export()
        piles = [sum((data["captured"][s] for s in range(players) if s % sides == side), [])
                 for side in range(sides)]
        left = data["table"]["loose"]
        assert sum(map(len, piles)) + len(left) == 52
        assert left == [] or data["last_capture"] is None
        swept = [sum(data["sweeps"][s] for s in range(players) if s % sides == side)
                 for side in range(sides)]
        want = 11 + net_sweeps(game_id, swept)
        want -= 3 * tie_at_top([len(p) for p in piles])
        want -= tie_at_top([sum(c.endswith("S") for c in p) for p in piles])
        want -= sum(POINTS.get(c, 0) for c in left)
        row = state.score()
        got = sum(side["total"] for side in row["sides"])
        assert got == want, (hand, data, row)
