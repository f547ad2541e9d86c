"""Melds: the wild-card rule, one meld per rank, black threes, the minimum first meld."""

import pytest

from .helpers import GAME, discards, play, position, steps

SEVENS = [{"rank": "7", "cards": ["7S", "7H", "7D"]}]


def test_d24_two_naturals_for_each_wild_card_new_melds():
    # the side has melded; new melds are offered as three cards (more go on by adding)
    st = position(hands=[["9S", "9H", "KS", "KH", "KD", "2C", "JK", "5D"], [], [], []],
                  melds=[SEVENS, []])
    assert steps(st) == {
        "meld 9S 9H 2C", "meld 9S 9H JK",
        "meld KS KH KD", "meld KS KH 2C", "meld KS KH JK",
        "add 7: 2C", "add 7: JK",
    } | discards("5D", "9S", "9H", "KS", "KH", "KD", "2C", "JK")


def test_d24_two_per_wild_holds_when_adding():
    # 7 7 7 2 on the table: a second wild card needs a fourth natural first
    st = position(hands=[["7C", "JK", "9S", "9H"], [], [], []],
                  melds=[[{"rank": "7", "cards": ["7S", "7H", "7D", "2C"]}], []])
    assert steps(st) == {"add 7: 7C"} | discards("7C", "9S", "9H", "JK")
    play(st, "add 7: 7C")
    assert "add 7: JK" in steps(st)


def test_d24_classic_two_naturals_and_three_wild_cards():
    st = position(hands=[["JK", "9S", "9H", "5D", "6D"], [], [], []],
                  melds=[[{"rank": "7", "cards": ["7S", "7H", "2C", "2D"]}], []],
                  options={"wild_rule": "classic"})
    assert steps(st) == {"add 7: JK", "meld 9S 9H JK"} | discards("9S", "9H", "JK", "5D", "6D")
    with pytest.raises(ValueError, match="meld rule"):
        position(hands=[["9S"], [], [], []],
                 melds=[[{"rank": "7", "cards": ["7S", "7H", "2C", "2D"]}], []])


def test_d24_never_more_than_three_wild_cards():
    st = position(hands=[["JK", "9S", "9H"], [], [], []],
                  melds=[[{"rank": "7", "cards": ["7S", "7H", "7D", "7C", "7S", "7H", "2C",
                                                 "2D", "2H"]}], []])
    assert "add 7: JK" not in steps(st)


def test_d24_one_meld_per_rank_the_other_side_may_meld_it_too():
    st = position(hands=[["7C", "7C", "JK", "9S", "9H"], [], [], []],
                  melds=[SEVENS, SEVENS])
    assert not any(s.startswith("meld 7") for s in steps(st))
    assert {"add 7: 7C", "add 7: JK"} <= steps(st)
    st = position(hands=[[], ["7C", "7C", "7S", "4D", "9H"], [], []], to_play=1,
                  melds=[SEVENS, []], initial_meld_done=[True, True])
    assert "meld 7S 7C 7C" in steps(st)


def test_d35_black_threes_meld_only_when_going_out():
    canasta = [{"rank": "K", "cards": ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]}]
    st = position(hands=[["3S", "3C", "3S", "9H", "9D"], [], [], []], melds=[canasta, []])
    assert steps(st) == discards("3S", "3C", "9H", "9D")
    st = position(hands=[["3S", "3C", "3S", "9H"], [], [], []], melds=[canasta, []])
    assert steps(st) == {"meld 3S 3S 3C"} | discards("3S", "3C", "9H")
    play(st, "meld 3S 3S 3C")
    assert steps(st) == {"discard 9H"}
    play(st, "discard 9H")
    assert st.is_over and st.export()["went_out"] == 0
    # no canasta: no going out, so no black threes
    st = position(hands=[["3S", "3C", "3S", "9H"], [], [], []], melds=[SEVENS, []])
    assert steps(st) == discards("3S", "3C", "9H")


def test_d35_any_card_may_be_discarded():
    st = position(hands=[["JK", "2C", "3S", "AH"], [], [], []])
    assert discards("JK", "2C", "3S", "AH") <= steps(st)


HAND = ["4S", "4H", "4D", "KS", "KH", "KD", "AS", "AH", "AD", "9C", "8D", "6H"]


@pytest.mark.parametrize("total, expected", [
    (-5, {"meld 4S 4H 4D", "meld KS KH KD", "meld AS AH AD"}),
    (0, {"meld AS AH AD"}),
    (1495, {"meld AS AH AD"}),
    (1500, {"meld KS KH KD | AS AH AD"}),
    (2995, {"meld KS KH KD | AS AH AD"}),
    (3000, set()),
])
def test_d36_minimum_first_meld_by_the_side_total(total, expected):
    # the first melds are one step: the minimal sets that count enough (15/50/90/120)
    st = position(hands=[HAND, [], [], []], totals_before=[total, 0])
    assert steps(st) == expected | discards(*HAND)


def test_d36_first_meld_sets_are_minimal_then_more_by_steps():
    # 4s are 5, kings 10, the deuce 20; minimum 50. A set is offered when no meld and
    # no card of it can be left out with 50 still met: 4 4 4 2 + K K K (65) is not,
    # since 4 4 2 + K K K (60) is enough; more comes by further steps of the turn.
    hand = ["4S", "4H", "4D", "4C", "KS", "KH", "KD", "2C", "9C", "8D"]
    st = position(hands=[hand, [], [], []])
    assert steps(st) - discards(*hand) == {
        "meld KS KH KD 2C",  # 50
        "meld 4S 4H 4D 4C | KS KH KD",  # 20 + 30
        "meld 4S 4H 2C | KS KH KD",  # 30 + 30
        "meld 4S 4H 4D | KS KH 2C",  # 15 + 40
    }
    play(st, "meld KS KH KD 2C")
    assert st.export()["initial_meld_done"] == [True, False]
    assert steps(st) - discards(*hand) == {"meld 4S 4H 4D"}
    play(st, "meld 4S 4H 4D")
    assert steps(st) - discards(*hand) == {"add 4: 4C"}


def test_d36_taking_the_pile_counts_only_the_top_card():
    # top 7 (5 points) + a pair of 7s: 15; the ace pile card does not count
    st = position(phase="draw", hands=[["7S", "7H", "9C", "KD"], [], [], []],
                  discard=["AS", "AH", "7D"], totals_before=[-100, 0])
    assert steps(st) == {"draw", "take 7S 7H"}
    st = position(phase="draw", hands=[["7S", "7H", "9C", "KD"], [], [], []],
                  discard=["AS", "AH", "7D"])
    assert steps(st) == {"draw"}


def test_d39_a_wild_card_added_to_a_natural_canasta_makes_it_mixed():
    natural = [{"rank": "K", "cards": ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]}]
    st = position(hands=[["JK", "9S", "9H"], [], [], []], melds=[natural, []])
    def badges():
        zone = next(z for z in st.zones(0) if z.id == "melds-0")
        return [(g.id, g.badges) for g in zone.groups]

    assert badges() == [("meld-0-K", ["K", "natural canasta"])]
    play(st, "add K: JK")
    assert badges() == [("meld-0-K", ["K", "mixed canasta"])]


CANASTA_K = [{"rank": "K", "cards": ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]}]


def test_d35_black_threes_never_take_a_wild_card():
    # 3 3 3 melded on going out, a joker left: it goes on the kings or is discarded,
    # never on the black threes
    st = position(hands=[["3S", "3C", "3S", "JK"], [], [], []], melds=[CANASTA_K, []])
    assert steps(st) == {"meld 3S 3S 3C", "add K: JK"} | discards("3S", "3C", "JK")
    play(st, "meld 3S 3S 3C")
    assert steps(st) == {"add K: JK", "discard JK"}
    st = position(hands=[["3S", "3C", "3S", "2D"], [], [], []], melds=[CANASTA_K, []])
    play(st, "meld 3S 3S 3C")
    assert steps(st) == {"add K: 2D", "discard 2D"}


def test_d35_black_threes_three_or_four():
    st = position(hands=[["3S", "3C", "3S", "3C"], [], [], []], melds=[CANASTA_K, []])
    assert steps(st) == {"meld 3S 3S 3C 3C", "meld 3S 3S 3C"} | discards("3S", "3C")
    play(st, "meld 3S 3S 3C")
    assert steps(st) == {"add 3: 3C", "discard 3C"}  # the fourth, or the final discard
    play(st, "add 3: 3C")
    assert st.is_over and st.export()["melds"][0][0] == {
        "rank": "3", "cards": ["3S", "3S", "3C", "3C"]}


@pytest.mark.parametrize("wild_rule, offered", [("two_per_wild", False), ("classic", True)])
def test_d24_laying_a_first_meld_under_both_wild_rules(wild_rule, offered):
    # 3000+: 120 needed. A A JK JK (140) is two naturals and two wild cards: classic only
    hand = ["AS", "AH", "JK", "JK", "9C", "8D"]
    st = position(hands=[hand, [], [], []], totals_before=[3000, 0],
                  options={"wild_rule": wild_rule})
    assert steps(st) == ({"meld AS AH JK JK"} if offered else set()) | discards(*hand)


@pytest.mark.parametrize("wild_rule", ["two_per_wild", "classic"])
def test_d24_d39_adding_to_a_canasta_under_both_wild_rules(wild_rule):
    # 5 naturals + 2 wild cards is a mixed canasta under both rules; one more wild
    # card needs a sixth natural with two_per_wild, not with classic
    mixed = [{"rank": "K", "cards": ["KS", "KH", "KD", "KC", "KS", "2H", "2D"]}]
    hand = ["KD", "JK", "2C", "9S", "9H"]
    st = position(hands=[hand, [], [], []], melds=[mixed, []], options={"wild_rule": wild_rule})
    expected = {"add K: KD", "meld 9S 9H JK", "meld 9S 9H 2C"} | discards(*hand)
    if wild_rule == "classic":
        expected |= {"add K: JK", "add K: 2C"}
    assert steps(st) == expected
    play(st, "add K: KD")
    assert {"add K: JK", "add K: 2C"} <= steps(st)  # 6 naturals: a third wild card
    play(st, "add K: JK")
    assert steps(st) == {"meld 9S 9H 2C"} | discards("2C", "9S", "9H")  # never a fourth


def test_d39_a_wild_card_added_to_a_natural_canasta_scores_it_mixed():
    natural = [{"rank": "K", "cards": ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]}]
    st = position(hands=[["2C", "9S", "9H"], [], [], []], melds=[natural, []])
    play(st, "add K: 2C")
    play(st, "discard 9S")
    st = GAME.state_from_json({**st.export(), "phase": "over", "to_play": None})
    assert st.score()["sides"][0]["items"] == {
        "melded": 90, "natural_canastas": 0, "mixed_canastas": 300, "red_threes": 0,
        "going_out": 0, "concealed": 0, "in_hand": -10}


@pytest.mark.parametrize("total, hand, expected", [
    (-5, ["4S", "4H", "4D"], {"meld 4S 4H 4D"}),  # below 0: 15
    (0, ["KS", "KH", "KD", "2C"], {"meld KS KH KD 2C"}),  # 0-1495: 50
    (0, ["KS", "KH", "KD", "4S", "4H", "4D"], set()),  # 45
    (1495, ["KS", "KH", "KD", "2C"], {"meld KS KH KD 2C"}),
    (1495, ["KS", "KH", "KD", "4S", "4H", "4D"], set()),
    (1500, ["AS", "AH", "AD", "KS", "KH", "KD"], {"meld KS KH KD | AS AH AD"}),  # 90
    (1500, ["AS", "AH", "2C", "4S", "4H", "4D", "4C", "4S"], set()),  # 85 at most
    (2995, ["AS", "AH", "AD", "KS", "KH", "KD"], {"meld KS KH KD | AS AH AD"}),
    (2995, ["AS", "AH", "2C", "4S", "4H", "4D", "4C", "4S"], set()),
    (3000, ["AS", "AH", "AD", "AC", "AS", "AH"], {"meld AS AS AH AH AD AC"}),  # 120
    (3000, ["AS", "AH", "AD", "AC", "AS", "4S", "4H", "4D"], set()),  # 115
    (9000, ["AS", "AH", "AD", "AC", "AS", "AH"], {"meld AS AS AH AH AD AC"}),
])
def test_d36_minimum_first_meld_at_the_edges(total, hand, expected):
    st = position(hands=[hand + ["9C", "8D"], [], [], []], totals_before=[total, 0])
    assert steps(st) - discards(*hand, "9C", "8D") == expected
