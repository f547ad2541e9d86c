"""The author's kit: decks by spec, later deals, score rows, subset sums, declared states."""

import random

import pytest

from cardcore import StateError
from cardcore.engine.cards import CardError, canasta_deck, deck, double_deck, forty_card_deck, standard_deck
from cardcore.engine.deal import deal_again
from cardcore.engine.kit import Scores, disjoint_groups, most, smallest_subsets, subsets_summing_to
from cardcore.engine.seating import Seating
from cardcore.engine.testing import check_game
from cardcore_crazy_eights.game import CrazyEights


def test_decks_by_spec():
    assert len(forty_card_deck()) == 40 and not {"8S", "9H", "10D"} & set(forty_card_deck())
    assert double_deck() == standard_deck() * 2 and len(canasta_deck()) == 108
    assert deck(["A", "K"], suits="SH", jokers=2) == ["AS", "KS", "AH", "KH", "JK", "JK"]
    with pytest.raises(CardError, match="no rank or suit '11'"):
        deck(without_ranks=["11"])


def test_deal_again_in_seating_order_from_the_top():
    seating = Seating(3, dealer=0)
    stock, hands = list("abcdefg"), [[], [], []]
    deal_again(stock, hands, seating.deal_order(), 2)
    assert hands == [["c", "f"], ["a", "d"], ["b", "e"]] and stock == ["g"]
    deal_again(stock, hands, seating.deal_order(), 2)  # a short last round
    assert hands[1] == ["a", "d", "g"] and stock == []


def test_scores_most_ties_score_nothing_and_partners_pool():
    pairs = Seating(4, partnerships=True)
    row = (Scores(pairs).most("cards", [10, 3, 10, 3], 3, per_seat=True)
           .most("spades", [4, 4]).each("aces", [1, 3]).row(end="deck"))
    assert row == {"sides": [{"seats": [0, 2], "items": {"cards": 3, "spades": 0, "aces": 1}, "total": 4},
                             {"seats": [1, 3], "items": {"cards": 0, "spades": 0, "aces": 3}, "total": 3}],
                   "end": "deck"}
    assert most([2, 2, 1]) is None and most([1, 3, 2]) == 1


def test_subset_sums():
    assert subsets_summing_to([1, 2, 3, 4], 5) == [(0, 3), (1, 2)]
    assert subsets_summing_to([1, 2, 3, 4], 6, most=2) == [(1, 3)]
    assert smallest_subsets([3, 1, 2, 3], 3) == [(0,), (3,)]
    assert disjoint_groups([1, 4, 2, 3, 5], 5) == [((0, 1), (2, 3), (4,))]


def test_a_declared_state_loads_with_errors_naming_the_part(crazy_eights):
    state = crazy_eights.new_hand(crazy_eights.seating(3, crazy_eights.Options()),
                                  crazy_eights.Options(), random.Random(1), [0, 0, 0])
    data = state.export()
    assert crazy_eights.state_from_json(data, strict=True).export() == data
    hands = [*data["hands"][:1], ["ZZ"], *data["hands"][2:]]
    for change, words, path in [({"hands": data["hands"][:2]}, "hands: a list of 3", ("hands",)),
                                ({"hands": hands}, "not a card", ("hands", 1)),
                                ({"suit": "X"}, "suit: 'X' is not one of S, H, D, C", ("suit",)),
                                ({"passes": 1.0}, "passes: an integer", ("passes",)),
                                ({"stock": ["AS"] + data["stock"]}, "cards: AS appears 2 times",
                                 ("cards",)),
                                ({"players": 7}, "players: 7 is not a player count", ("players",)),
                                ({"options": {"hand_size": 99}}, "options.hand_size",
                                 ("options", "hand_size"))]:
        with pytest.raises(StateError, match=words.replace("(", r"\(")) as refused:
            crazy_eights.state_from_json({**data, **change})
        assert refused.value.path == path  # the place at fault, as data (the bots' sampler reads it)
    partial = {k: v for k, v in data.items() if k != "stock"}
    assert crazy_eights.state_from_json(partial).stock == []
    with pytest.raises(StateError, match="stock: missing"):
        crazy_eights.state_from_json(partial, strict=True)
    with pytest.raises(StateError, match="whole deck; missing"):
        crazy_eights.state_from_json({**data, "stock": data["stock"][1:]}, strict=True)


def test_a_declared_state_hides_by_part(crazy_eights):
    state = crazy_eights.new_hand(crazy_eights.seating(2, crazy_eights.Options()),
                                  crazy_eights.Options(), random.Random(2), [0, 0])
    view = state.view(0)
    assert view["hands"][0] == state.hands[0] and view["hands"][1] == [None] * 7
    assert view["stock"] == [None] * len(state.stock) and view["discard"] == state.discard
    assert state.view(None)["hands"][0] == [None] * 7
    twin = state.determinize(0, random.Random(3))
    assert twin.hands[0] == state.hands[0] and twin.hands[1] != state.hands[1]
    assert twin.clone().hands is not twin.hands
    assert [z.kind for z in state.zones(0)] == ["hand", "hand", "stock", "pile"]


@pytest.mark.slow
def test_the_example_on_the_kit_conforms():
    report = check_game(CrazyEights(), seeds=range(3))
    assert report.hands >= 9 and report.matches == 9
