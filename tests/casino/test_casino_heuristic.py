"""The fishing games' heuristic as positions: what greedy (and the search's leaves) read.

A bare table's sweep chance is the chance the seat to play holds a card that clears it,
counted from the cards the evaluating seat has not seen (docs/bots.md); a constant
chance for any table of two cards or fewer made greedy trail rather than capture."""

import math
import random

import pytest

from cardcore.engine.bots import GreedyBot, InfoSet
from cardcore_casino import heuristic as h
from cardcore_casino.rules import ID, NAMES
from tests.bot_helpers import weighed

from .helpers import CASINO, ROYAL, load

#: From greedy play (casino, 2 players, hand seed 0): East holds J♥ alone, J♠ is loose.
#: Trailing J♥ left a table of four; capturing left K♣ 8♥, which the constant chance
#: gave South 0.15 of a sweep, more than two more cards were worth when South led on
#: cards already: greedy trailed (the tester's J♣ trailed beside J♦, issue 26).
LAST_CARD = {
    "players": 2, "dealer": 0, "to_play": 1, "hands": [["4S"], ["JH"]],
    "table": {"loose": ["KC", "8H", "JS"], "builds": []},
    "captured": [["7C", "AS", "8S", "KS", "KD", "2S", "6S", "8D", "4D", "2H", "6C", "5S", "4C",
                  "9D", "9H", "3H", "2D", "5H", "5C", "2C", "7S"],
                 ["3C", "3D", "JC", "JD", "AC", "9C", "10D", "10S", "QS", "QC"]],
    "sweeps": [1, 0], "last_capture": 0, "totals_before": [0, 0],
    "stock": ["6H", "9S", "8C", "AH", "QD", "10H", "5D", "7H", "KH", "6D", "7D", "4H", "3S",
              "AD", "10C", "QH"]}


def test_greedy_takes_the_jack_with_its_last_card_of_the_deal():
    state = CASINO.state_from_json(LAST_CARD)
    for seed in range(5):
        choice = GreedyBot().choose(InfoSet.of(CASINO, state, 1), random.Random(seed))
        assert choice.label == "Capture J♠ with J♥"


def takers(game, loose, **options):
    rules = game.rules_for(game.Options(**options))
    return {NAMES[c] for c, takes in enumerate(h._takers(rules, tuple(ID[x] for x in loose))) if takes}


def test_the_cards_that_clear_a_table_of_one_or_two():
    assert takers(CASINO, ["5D"]) == {"5S", "5H", "5D", "5C"}
    assert takers(CASINO, ["KD"]) == {"KS", "KH", "KD", "KC"}  # a court card pairs its rank
    assert takers(CASINO, ["3D", "4S"]) == {"7S", "7H", "7D", "7C"}  # the sum
    assert takers(CASINO, ["4D", "4S"]) == {"4H", "4C", "4D", "4S", "8S", "8H", "8D", "8C"}
    assert takers(CASINO, ["6D", "7S"]) == set()  # 13: no card captures it in casino
    assert takers(CASINO, ["KD", "KS"]) == set()  # a court card takes one of its rank
    assert takers(CASINO, ["KD", "KS"], court_cards_take_all=True) == {"KH", "KC", "KD", "KS"}
    assert takers(ROYAL, ["6D", "7S"]) == {"KS", "KH", "KD", "KC"}  # king 13 in royal
    assert takers(ROYAL, ["JD", "3S"], ace_fourteen=True) == {"AS", "AH", "AD", "AC"}


@pytest.mark.parametrize(("held", "chance"), [(1, 1 / 20), (2, 2 / 20), (3, 3 / 20)])
def test_another_seats_sweep_chance_is_its_hand_drawn_from_what_the_seat_has_not_seen(held, chance):
    """One 5 unseen (5D loose, 5S in South's hand, 5H captured) among 20 cards South has not
    seen: East, to play with ``held`` cards, holds it with chance held/20."""
    state = load("casino", players=2, dealer=0, to_play=1,
                 hands=[["5S", "KS", "QS", "JS"], ["2C", "3C", "4C"][:held]],
                 table={"loose": ["5D"], "builds": []}, captured=[["5H"], []])
    assert h._sweep_chance(state, 0, 20) == pytest.approx(chance)
    assert h._sweep_chance(state, 0, 20) == pytest.approx(1 - math.comb(19, held) / math.comb(20, held))


def test_the_seat_to_play_knows_its_own_hand():
    for hand, chance in ((["5S", "KS"], 1.0), (["6S", "KS"], 0.0)):
        state = load("casino", players=2, dealer=0, to_play=0, hands=[hand, ["2C"]],
                     table={"loose": ["5D"], "builds": []})
        assert h._sweep_chance(state, 0, 2) == chance


@pytest.mark.parametrize(("game", "players", "hands", "digest"), [
    (CASINO, 2, 2, "f29aaac24899e002"), (CASINO, 3, 1, "03f31678eb1bc36c"),
    (ROYAL, 4, 2, "b3bc84978be034a5"), (ROYAL, 2, 1, "8136c2dc1b857560")])
def test_the_heuristic_gives_the_same_floats_as_it_always_has(game, players, hands, digest):
    """Pinned at a4db0b3, before the heuristic was rewritten for speed (benches/RESULTS.md):
    every value of thousands of positions, to the last bit, compiled and pure."""
    assert weighed(game, players, hands) == digest
