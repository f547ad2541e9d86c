"""The exact solver: where nothing hidden matters (Casino's last deal, two players) hard
plays the move that is best against every reply, checked by brute force."""

import json
import random

import pytest

from cardcore.engine.bots import InfoSet
from cardcore.engine.bots.expert import ExpertBot
from cardcore.engine.bots.greedy import GreedyBot
from cardcore.engine.bots.search import HardBot, MediumBot
from cardcore.engine.bots.solve import solve
from cardcore.services.plugins import load_registry

REGISTRY = load_registry()
OPTIONS = {"target": 21, "court_cards_take_all": False, "direction": "clockwise",
           "deal_in_twos": True, "may_trail_capturing_card": True, "sweeps": True}

#: Last deals from greedy play where greedy's move loses points against best replies.
#: Seat 1 (KC 10H 8C) may pair the 10C at once (-5); trailing the king keeps the 10H to
#: take the 10C, the 8C and the little casino seat 0 (5D 2S KH) must trail (0).
KING = {"game": "casino", "players": 2, "dealer": 0, "to_play": 1,
        "hands": [["5D", "2S", "KH"], ["KC", "10H", "8C"]],
        "table": {"loose": ["9D", "10C"], "builds": []},
        "captured": [["9C", "AC", "10D", "5H", "5S", "6H", "2D", "8H", "QD", "QC", "5C", "2C",
                      "7C", "6S", "AD", "7S", "8S", "8D", "4H", "4D", "JC", "JS"],
                     ["3S", "3H", "6C", "6D", "KS", "KD", "JD", "JH", "7H", "3D", "10S", "9H",
                      "9S", "4C", "4S", "2H", "AS", "AH", "3C", "7D", "QS", "QH"]],
        "sweeps": [0, 0], "stock": [], "last_capture": 0, "totals_before": [0, 0],
        "options": OPTIONS}
#: Seat 0 (QC 5H 7C) against 7H 2D: greedy pairs the queens at once (+3); trailing the 5H
#: keeps the queen for the last capture (+5).
QUEEN = {"game": "casino", "players": 2, "dealer": 0, "to_play": 0,
         "hands": [["QC", "5H", "7C"], ["7H", "2D"]],
         "table": {"loose": ["QD"], "builds": []},
         "captured": [["3C", "3H", "4C", "2S", "6H", "2H", "5D", "7S", "AD", "AC", "8D", "8H",
                       "KD", "KC", "KH", "KS", "JD", "JH", "QS", "QH", "JC", "JS", "10D", "10H"],
                      ["6D", "2C", "8C", "4H", "AS", "5S", "5C", "3S", "4S", "7D", "6C", "10C",
                       "4D", "10S", "8S", "AH", "9H", "9C", "9D", "3D", "6S", "9S"]],
         "sweeps": [0, 0], "stock": [], "last_capture": 1, "totals_before": [0, 0],
         "options": OPTIONS}


def brute(state, side):
    """The exact margin of ``side`` under best play, by the whole tree (no pruning)."""
    if state.is_over:
        totals = [s["total"] for s in state.score()["sides"]]
        return totals[side] - totals[1 - side]
    values = []
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        values.append(brute(after, side))
    return max(values) if state.to_play == side else min(values)


def exact_values(state):
    seat = state.to_play
    out = {}
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        out[action.key] = brute(after, seat)
    return out


@pytest.mark.parametrize("data", [KING, QUEEN], ids=["king", "queen"])
def test_hard_plays_the_best_move_of_a_last_deal_where_greedy_does_not(data):
    game = REGISTRY.game("casino")
    state = game.state_from_json(json.loads(json.dumps(data)))
    info = InfoSet.of(game, state, state.to_play)
    exact = exact_values(state)
    bot = HardBot()
    hard = bot.choose(info, random.Random(0))
    greedy = GreedyBot().choose(info, random.Random(0))
    assert bot.last_iterations == 0  # solved: no search
    assert exact[hard.key] == max(exact.values())
    assert exact[greedy.key] < exact[hard.key]
    # the best action's value is exact, every other one's an upper bound
    got = solve(game, info.exact(), info.side_of, info.seat, cap=10**7)
    assert got is not None
    values = {a.key: v for a, v in got.values}
    assert max(values.values()) == max(exact.values())
    assert all(exact[k] <= v for k, v in values.items())


def last_deal(game_id, players, seed=1):
    """A position of the last deal of a hand of greedy play, several cards still to play."""
    game = REGISTRY.game(game_id)
    options = game.Options()
    seating = game.seating(players, options)
    state = game.new_hand(seating, options, random.Random(f"{seed}:1"), [0] * seating.sides)
    rng = random.Random(seed)
    while state.export()["stock"] or sum(map(len, state.export()["hands"])) > 2 * players:
        state.apply(GreedyBot().choose(InfoSet.of(game, state, state.to_play), rng))
    return game, state


def sorted_hands(data):
    return {**data, "hands": [sorted(h) for h in data["hands"]]}


def test_only_a_last_deal_of_two_players_is_exact():
    game, state = last_deal("casino", 2)
    info = InfoSet.of(game, state, state.to_play)
    exact = info.exact()
    assert exact is not None
    assert sorted_hands(exact.export()) == sorted_hands(state.export())  # but for hand order
    early = game.new_hand(game.seating(2, game.Options()), game.Options(), random.Random(1), [0, 0])
    assert InfoSet.of(game, early, early.to_play).exact() is None  # the stock is hidden
    game, four = last_deal("royal_casino", 4)
    assert InfoSet.of(game, four, four.to_play).exact() is None  # three hands hidden


def test_past_its_work_cap_the_solver_gives_way_to_the_search():
    game = REGISTRY.game("casino")
    state = game.state_from_json(json.loads(json.dumps(KING)))
    info = InfoSet.of(game, state, state.to_play)
    assert solve(game, info.exact(), info.side_of, info.seat, cap=500) is None
    bot = HardBot(work_budget=40_000)
    bot.solve_work = 500
    action = bot.choose(info, random.Random(0))
    assert 1 < bot.last_iterations < HardBot.iterations and bot.last_work >= 40_000
    assert action.key in {a.key for a in info.legal_actions()}
    medium = MediumBot(iterations=10)
    medium.choose(info, random.Random(0))
    assert medium.last_iterations == 10  # medium never solves


@pytest.mark.parametrize("data", [KING, QUEEN], ids=["king", "queen"])
def test_the_opponents_hand_dealt_again_changes_no_solved_choice(data):
    game = REGISTRY.game("casino")
    state = game.state_from_json(json.loads(json.dumps(data)))
    seat = state.to_play
    other_data = json.loads(json.dumps(data))
    other_data["hands"][1 - seat].reverse()
    other = game.state_from_json(other_data)
    assert other.export() != state.export() and other.view(seat) == state.view(seat)
    for bot in (HardBot(), ExpertBot(parallel=False)):
        a = bot.choose(InfoSet.of(game, state, seat), random.Random(3))
        b = bot.choose(InfoSet.of(game, other, seat), random.Random(3))
        assert a == b
