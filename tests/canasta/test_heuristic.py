"""Canasta's heuristic as positions: what greedy (and the search's leaves) read of the pile.

The pile is worth to the seat about to draw the chance it takes it, as the evaluating
seat may know it (docs/bots.md): a constant chance whatever the top card let greedy and
medium feed the opponents' meld (the 10♠ then 10♥ onto their 10s, issue 26)."""

import math
import random

import pytest

from cardcore.engine.bots import GreedyBot, InfoSet
from cardcore.engine.bots.greedy import scored
from cardcore_canasta import heuristic as h
from tests.bot_helpers import weighed

from .helpers import GAME, position

#: South (seat 0) must discard; West and East (side 1) have melded 10s; the pile is open.
FEED = {"players": 4, "hands": [["10S", "10H", "5C", "4C"], ["4S", "6D", "7C", "8H", "JS", "QD"],
                                ["4H", "6S", "7D", "8C", "JD", "QS"], ["4D", "6C", "7H", "8S", "JC", "QC"]],
        "melds": [[{"rank": "A", "cards": ["AS", "AH", "AD"]}],
                  [{"rank": "10", "cards": ["10D", "10C", "10C"]}]],
        "initial_meld_done": [True, True], "has_melded": [True, True, False, False],
        "discard": ["6H", "5S", "9C"],
        "stock": ["3S", "KS", "KD", "QH", "JH", "9S", "9H", "8D", "7S", "5D", "5H", "4C", "6H", "2C"]}


def test_greedy_never_feeds_the_opponents_meld_when_a_safe_card_exists():
    state = position(**FEED)
    for seed in range(5):
        choice = GreedyBot().choose(InfoSet.of(GAME, state, 0), random.Random(seed))
        assert choice.to_json() == {"type": "discard", "card": "5C"}  # was 10♠, the highest


def after_discard(card: str, **changes):
    state = position(**{**FEED, **changes})
    [step] = [a for a in state.legal_actions() if a.to_json() == {"type": "discard", "card": card}]
    state.apply(step)
    return state


def test_the_pile_onto_a_meld_of_its_rank_is_certain_and_a_three_or_wild_top_never():
    assert h._take_chance(after_discard("10S"), 1, 0) == 1.0  # West takes it onto its 10s
    assert h._take_chance(after_discard("5C", hands=[["10S", "3S", "5C", "2D"], *FEED["hands"][1:]]),
                          1, 0) < 1.0
    assert h._take_chance(after_discard("3S", hands=[["10S", "3S", "5C"], *FEED["hands"][1:]]), 1, 0) == 0.0
    assert h._take_chance(after_discard("2D", hands=[["10S", "2D", "5C"], *FEED["hands"][1:]]), 1, 0) == 0.0


def test_a_pair_from_the_unseen_cards_is_the_hypergeometric_chance():
    # 20 unseen cards, 3 naturals of the rank among them, a hand of 5: no pair
    miss = (math.comb(17, 5) + 3 * math.comb(17, 4)) / math.comb(20, 5)
    assert h._miss(20, 5, 3, 4, 0, 0, False) == pytest.approx(miss)
    # not frozen, a natural and a wild card take it too: one natural drawn misses only
    # with no wild card beside it
    miss_open = (math.comb(17, 5) + 3 * math.comb(13, 4)) / math.comb(20, 5)
    assert h._miss(20, 5, 3, 4, 0, 0, True) == pytest.approx(miss_open)
    assert h._miss(20, 5, 3, 4, 2, 0, False) == 0.0  # known to hold a pair (taken with the pile)
    assert h._miss(20, 5, 3, 4, 1, 1, True) == 0.0  # a natural and a wild card known
    assert h._miss(20, 0, 3, 4, 0, 0, True) == 1.0  # no card in hand


def discard_order(state) -> list[str]:
    """Greedy's discards, best first (one sample: the seat's view decides, tests/core re-deals)."""
    order = [a.to_json() for a, _ in scored(InfoSet.of(GAME, state, 0), random.Random(0))]
    return [j["card"] for j in order if j["type"] == "discard"]


def test_every_safe_discard_is_ranked_before_every_feeding_one():
    order = discard_order(position(**FEED))
    assert set(order[:2]) == {"5C", "4C"} and set(order[2:]) == {"10S", "10H"}


#: Side 1 has melded 10s one short of a canasta and three kings; South holds only those ranks.
ALL_FEED = {**FEED, "hands": [["10S", "KC"], *FEED["hands"][1:]],
            "melds": [[{"rank": "A", "cards": ["AS", "AH", "AD"]}],
                      [{"rank": "10", "cards": ["10D", "10C", "10C", "10D", "10H", "2H"]},
                       {"rank": "K", "cards": ["KH", "KH", "KC"]}]]}


def test_when_every_discard_feeds_them_the_one_that_gives_least():
    # either gives West the pile; the 10 also gives them a canasta (the two used to tie,
    # and the game's order chose the 10)
    assert discard_order(position(**ALL_FEED)) == ["KC", "10S"]


#: Ten cards in the open pile; side 1 has melded 10s and kings; South holds a 10, a king, a deuce.
BIG_PILE = {**FEED, "hands": [["10S", "KC", "2D"], *FEED["hands"][1:]],
            "melds": [[{"rank": "A", "cards": ["AS", "AH", "AD"]}],
                      [{"rank": "10", "cards": ["10D", "10C", "10C"]},
                       {"rank": "K", "cards": ["KH", "KH", "KC"]}]],
            "discard": ["6H", "5S", "9C", "9D", "8D", "7H", "QH", "JH", "5D", "4S"],
            "stock": ["3S", "KS", "KD", "QH", "JH", "9S", "7S"]}


def test_a_wild_card_freezes_a_big_pile_that_any_other_discard_hands_them():
    assert discard_order(position(**BIG_PILE))[0] == "2D"


def test_a_black_three_stops_the_pile_before_a_wild_card_is_thrown():
    # both stop West and freeze the pile; the deuce is worth keeping (it used to look a
    # liability late in the hand, 20 points at risk, and went first)
    late = position(**{**FEED, "hands": [["10S", "3S", "2D"], *FEED["hands"][1:]]})
    assert discard_order(late)[0] == "3S"


def test_what_a_discard_gives_away_is_judged_from_the_seat_s_view():
    # West's and North's hands dealt again from the stock (South sees neither): the same values
    state = position(**BIG_PILE)
    hands = [list(hand) for hand in BIG_PILE["hands"]]
    stock = list(BIG_PILE["stock"])
    hands[1][:3], stock[:3] = stock[:3], hands[1][:3]
    hands[2][3:], stock[3:6] = stock[3:6], hands[2][3:]
    other = position(**{**BIG_PILE, "hands": hands, "stock": stock})
    assert other.view(0) == state.view(0) and other.export() != state.export()
    for card in ("10S", "KC", "2D"):
        values = [h.heuristic(after_discard(card, **{**BIG_PILE, "hands": hs, "stock": st}), 0)
                  for hs, st in ((BIG_PILE["hands"], BIG_PILE["stock"]), (hands, stock))]
        assert values[0] == values[1]


@pytest.mark.parametrize(("players", "digest"), [(4, "ecdcf2196dcd7d1a"), (2, "077bf2bf54595a76")])
def test_the_heuristic_gives_the_same_floats_as_it_always_has(players, digest):
    """Pinned at a4db0b3, before the heuristic was rewritten for speed (benches/RESULTS.md):
    every value of a hand's positions, to the last bit, compiled and pure."""
    assert weighed(GAME, players, 1) == digest
