"""Melds: the wild-card rule, one meld per rank, black threes, the minimum first meld."""

import pytest

from .helpers import discards, play, position, steps

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
