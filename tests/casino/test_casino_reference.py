"""No legal action missing, no illegal one offered: the engine against a brute-force reading
of the decisions, on every position of seeded random hands (small enough tables) and on
crowded tables."""

import random

import pytest

from cardcore.engine.seating import Seating

from .helpers import GAMES, legal
from .reference import reference_legal

OPTIONS = {
    "casino": [{}, {"court_cards_take_all": True, "may_trail_capturing_card": False}],
    "royal_casino": [{}, {"ace_fourteen": False}],
}


@pytest.mark.slow
@pytest.mark.parametrize("variant", [0, 1])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_equal_the_brute_force_reading(game_id, players, variant):
    assert compare_with_the_reference(game_id, players, variant, hands=20) > 400


@pytest.mark.parametrize(("players", "variant"), [(2, 0), (3, 1), (4, 0)])
def test_legal_actions_equal_the_brute_force_reading_in_one_hand(game_id, players, variant):
    """The quick loop's share of the test above: its first hand."""
    assert compare_with_the_reference(game_id, players, variant, hands=1) > 5


def compare_with_the_reference(game_id, players, variant, hands):
    """Play random hands, comparing legal_actions with the brute-force reading in every
    position small enough for it; returns how many positions were compared."""
    game = GAMES[game_id]
    options = game.Options(**OPTIONS[game_id][variant])
    rng = random.Random(f"{game_id}:{players}:{variant}")
    checked = 0
    for hand in range(hands):
        seating = Seating(players, dealer=hand % players, direction=game.direction(options),
                          partnerships=players == 4)
        state = game.new_hand(seating, options, random.Random(hand),
                              [0] * (2 if players == 4 else players))
        while not state.is_over:
            if len(state.loose) <= 6 and len(state.builds) <= 3:
                assert legal(state) == reference_legal(state), state.export()
                checked += 1
            actions = state.legal_actions()
            # prefer builds now and then, so that positions with builds come up often
            builds = [a for a in actions if a.to_json()["type"] == "build"]
            pick = builds if builds and rng.random() < 0.5 else actions
            state.apply(pick[rng.randrange(len(pick))])
    return checked


#: Crowded tables (more than eight loose cards with value): the generator keeps an action's
#: loose cards over the sorted table and turns them into card ids only when read.
CROWDED = [
    ("casino", {"hands": [["10H", "9C", "5D", "4C"], ["10S", "7D", "5C", "QH"]], "to_play": 0,
                "table": {"loose": ["AS", "AH", "AD", "2S", "2H", "3S", "3H", "3D", "4D"],
                          "builds": [{"value": 9, "owner": 0, "groups": [["4S", "5S"]]},
                                     {"value": 5, "owner": 1, "groups": [["2D", "3C"]]}]}}),
    ("royal_casino", {"hands": [["KH", "AC", "QD", "6C"], ["KS", "7D", "6H", "QH"]], "to_play": 0,
                      "table": {"loose": ["AS", "AH", "2S", "2H", "3S", "3H", "4D", "5D", "6D"],
                                "builds": [{"value": 13, "owner": 1, "groups": [["8S", "5S"]]},
                                           {"value": 6, "owner": 1, "groups": [["2D", "4C"]]}]}}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "data"), CROWDED, ids=[g for g, _ in CROWDED])
def test_crowded_tables_equal_the_brute_force_reading(game_id, data):
    state = GAMES[game_id].state_from_json(data)
    assert len(state.loose) > 8
    expected = reference_legal(state)
    assert len(expected) > 900
    assert legal(state) == expected
    for action in state.legal_actions():  # the key names the same cards as the JSON
        assert GAMES[game_id].action_from_json(state, action.to_json()) is action
