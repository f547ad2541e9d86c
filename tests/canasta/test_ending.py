"""Going out, concealed going out, the empty stock: D33-D34."""

from .helpers import discards, play, position, steps

KINGS = [{"rank": "K", "cards": ["KS", "KH", "KD"]}]
CANASTA = [{"rank": "K", "cards": ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]}]


def sevens(n):
    return {"rank": "7", "cards": (["7S", "7H", "7D", "7C", "7S"] + ["7H"])[:n]}


def test_d33_empty_stock_must_take_when_the_top_card_goes_on_a_meld():
    st = position(phase="draw", stock=[], hands=[["4H", "5H"], [], [], []], discard=["KC"],
                  melds=[KINGS, []])
    assert steps(st) == {"onto K"}


def test_d33_empty_stock_may_take_or_decline():
    st = position(phase="draw", stock=[], hands=[["9S", "9H", "5H", "6H"], [], [], []],
                  discard=["9C"], melds=[KINGS, []])
    assert steps(st) == {"take 9S 9H", "decline"}
    play(st, "decline")
    assert st.is_over and st.export()["went_out"] is None


def test_d33_empty_stock_and_no_way_to_take_ends_the_hand_without_going_out_bonus():
    st = position(stock=[], hands=[["4H", "5H"], ["6S", "8S"], [], []], discard=["KC"],
                  melds=[KINGS, []])
    play(st, "discard 5H")
    assert st.is_over and st.to_play is None and st.legal_actions() == []
    items = [s["items"] for s in st.score()["sides"]]
    assert items[0]["going_out"] == 0 and items[1]["going_out"] == 0
    assert items[0]["in_hand"] == -5 and items[1]["in_hand"] == -15


def test_d33_a_red_three_as_the_last_stock_card_ends_the_hand():
    st = position(phase="draw", stock=["3H"], hands=[["4H", "5H"], [], [], []],
                  discard=["JK"], melds=[KINGS, []])
    assert steps(st) == {"draw"}
    play(st, "draw")
    data = st.export()
    assert st.is_over and data["red_threes"] == [["3H"], []] and data["stock"] == []
    assert data["hands"][0] == ["4H", "5H"] and data["went_out"] is None


def test_d34_going_out_needs_a_canasta():
    st = position(hands=[["7C", "9C"], [], [], []], melds=[[sevens(5)], []])
    assert steps(st) == discards("7C", "9C")  # adding the 7 would leave one card, no canasta
    st = position(hands=[["7C", "9C"], [], [], []], melds=[[sevens(6)], []])
    assert steps(st) == {"add 7: 7C"} | discards("7C", "9C")
    play(st, "add 7: 7C")
    assert steps(st) == {"discard 9C"}
    assert [a.label for a in st.legal_actions()] == ["Go out: discard 9♣"]
    play(st, "discard 9C")
    assert st.is_over and st.export()["went_out"] == 0 and not st.export()["concealed"]


def test_d34_going_out_without_a_discard():
    # both cards at once, or one at a time: the card left then completes the canasta
    st = position(hands=[["7C", "2C"], [], [], []], melds=[[sevens(5)], []])
    assert steps(st) == {"add 7: 7C 2C", "add 7: 7C", "add 7: 2C"} | discards("7C", "2C")
    play(st, "add 7: 7C 2C")
    assert st.is_over and st.export()["went_out"] == 0 and st.export()["hands"][0] == []
    st = position(hands=[["7C", "2C"], [], [], []], melds=[[sevens(5)], []])
    play(st, "add 7: 2C")
    assert steps(st) == {"add 7: 7C"}  # no discard: one card, no canasta yet
    play(st, "add 7: 7C")
    assert st.is_over and st.export()["went_out"] == 0


def test_d34_the_last_card_may_complete_the_canasta_it_goes_out_with():
    # 9 9 9 leaves the 7 that makes the sixth-card sevens a canasta: going out
    st = position(hands=[["9S", "9H", "9D", "7C"], [], [], []], melds=[[sevens(6)], []])
    assert steps(st) == {"meld 9S 9H 9D", "add 7: 7C"} | discards("9S", "9H", "9D", "7C")
    play(st, "meld 9S 9H 9D")
    assert steps(st) == {"add 7: 7C"}
    # ... but not a card that completes nothing: 9 9 9 would leave 4C and no canasta
    st = position(hands=[["9S", "9H", "9D", "4C"], [], [], []], melds=[[sevens(6)], []])
    assert steps(st) == discards("9S", "9H", "9D", "4C")
    # a wild card completes it only within the wild-card rule (6 sevens + 2 wild
    # cards would be 6 naturals and 3 wild cards with one more: two_per_wild allows it)
    six_mixed = {"rank": "7", "cards": ["7S", "7H", "7D", "7C", "2S", "2H"]}
    st = position(hands=[["9S", "9H", "9D", "JK"], [], [], []], melds=[[six_mixed], []])
    assert "meld 9S 9H 9D" not in steps(st)  # 4 naturals, 3 wild cards: not two each
    st = position(hands=[["9S", "9H", "9D", "JK"], [], [], []], melds=[[six_mixed], []],
                  options={"wild_rule": "classic"})
    assert "meld 9S 9H 9D" in steps(st)


def test_d34_taking_the_pile_then_going_out_with_a_card_that_completes_a_canasta():
    # the taker keeps one king; the side's six kings take it as the seventh: going out
    kings6 = [{"rank": "K", "cards": ["KS", "KH", "KD", "KC", "KS", "KH"]}]
    st = position(phase="draw", hands=[["9S", "9H", "KC"], [], [], []], discard=["9C"],
                  melds=[kings6, []])
    assert steps(st) == {"draw", "take 9S 9H"}
    play(st, "take 9S 9H")
    assert steps(st) == {"add K: KC"}
    play(st, "add K: KC")
    assert st.is_over and st.export()["went_out"] == 0
    # the card left may come from the pile: one 9 and 9 9 in hand, a king under it
    st = position(phase="draw", hands=[["9S", "9H"], [], [], []], discard=["KD", "9C"],
                  melds=[kings6, []])
    assert steps(st) == {"draw", "take 9S 9H"}
    play(st, "take 9S 9H")
    assert steps(st) == {"add K: KD"}
    # a card that completes nothing: no taking (it would strand the taker)
    st = position(phase="draw", hands=[["9S", "9H", "QC"], [], [], []], discard=["9C"],
                  melds=[kings6, []])
    assert steps(st) == {"draw"}


def test_d34_concealed_whole_hand_in_new_melds_with_a_canasta():
    # the partner made the side's first meld; seat 0 has not melded this hand
    hand = ["8S", "8H", "8D", "8C", "8S", "8H", "2C", "9S", "9H", "9D"]
    st = position(hands=[hand, [], ["4H"], []], melds=[KINGS, []])
    # cards of a rank are interchangeable: a step names the first ones (S H D C)
    for step in ("meld 8S 8S 8H", "add 8: 8H", "add 8: 8D", "add 8: 8C", "add 8: 2C",
                 "meld 9S 9H 9D"):
        play(st, step)
    data = st.export()
    assert st.is_over and data["went_out"] == 0 and data["concealed"]
    assert data["turn"] == {"new_ranks": ["8", "9"], "added_to_earlier": False}
    assert st.score()["sides"][0]["items"] == {
        "melded": 30 + 80 + 30, "natural_canastas": 0, "mixed_canastas": 300,
        "red_threes": 0, "going_out": 100, "concealed": 100, "in_hand": -5}


def test_d34_not_concealed_after_adding_to_an_earlier_meld_or_having_melded():
    hand = ["KC", "8S", "8H", "8D", "8C", "8S", "8H", "2C"]
    st = position(hands=[hand, [], [], []], melds=[KINGS, []])
    for step in ("add K: KC", "meld 8S 8S 8H", "add 8: 8H", "add 8: 8D", "add 8: 8C 2C"):
        play(st, step)
    assert st.is_over and not st.export()["concealed"]
    st = position(hands=[hand[1:], [], [], []], melds=[KINGS, []],
                  has_melded=[True, False, False, False])
    play(st, "meld 8S 8S 8H 8H 8D 8C 2C")
    assert st.is_over and not st.export()["concealed"]


def test_d34_concealed_before_the_first_meld_in_one_step():
    hand = ["KS", "KH", "KD", "KC", "KS", "KH", "JK", "9S", "9H", "9D", "5C"]
    st = position(hands=[hand, [], [], []])
    goes_out = {s for s in steps(st) if "KC" in s and "9S" in s}
    assert goes_out == {"meld 9S 9H 9D | KS KS KH KH KD KC JK"}
    play(st, "meld 9S 9H 9D | KS KS KH KH KD KC JK")
    assert steps(st) == {"discard 5C"}
    play(st, "discard 5C")
    assert st.export()["concealed"]
    assert st.score()["sides"][0]["total"] == 140 + 300 + 100 + 100


def test_d34_two_lone_naturals_go_out_no_way():
    # as above with a second lone natural: a natural never melds alone, and only one card
    # may be kept for the discard, so no step melds the whole hand
    hand = ["KS", "KH", "KD", "KC", "KS", "KH", "JK", "9S", "9H", "9D", "5C", "6D"]
    st = position(hands=[hand, [], [], []])
    assert steps(st) == {"meld 9S 9H 9D | KS KS KH", "meld 9S 9H JK", "meld KS KS JK",
                         "meld KS KS KH KH KD"} | discards(*hand)


def test_d34_concealed_needs_minimum_option():
    hand = ["4S", "4H", "4D", "4C", "4S", "4H", "4D", "9C"]
    st = position(hands=[hand, [], [], []], totals_before=[3000, 0])
    assert steps(st) == discards("4S", "4H", "4D", "4C", "9C")
    st = position(hands=[hand, [], [], []], totals_before=[3000, 0],
                  options={"concealed_needs_minimum": False})
    assert steps(st) == {"meld 4S 4S 4H 4H 4D 4D 4C"} | discards("4S", "4H", "4D", "4C", "9C")
    play(st, "meld 4S 4S 4H 4H 4D 4D 4C")
    play(st, "discard 9C")
    assert st.export()["concealed"] and st.export()["went_out"] == 0


def test_d34_the_last_card_goes_only_by_going_out():
    st = position(hands=[["9C", "JK"], [], [], []], melds=[CANASTA, []])
    assert steps(st) == {"add K: JK"} | discards("9C", "JK")
    play(st, "add K: JK")
    assert steps(st) == {"discard 9C"}


def test_d34_d36_first_meld_by_the_pile_the_card_under_the_top_completes_the_canasta():
    # no meld yet (15 needed): 9 9 take the 9 and lay six kings from the hand; the king
    # under the top comes into the hand and goes on as the seventh: concealed
    hand = ["9S", "9H", "KS", "KH", "KD", "KC", "KS", "KH"]
    st = position(phase="draw", hands=[hand, [], [], []], discard=["KD", "9C"],
                  totals_before=[-100, 0])
    assert steps(st) == {"draw", "take 9S 9H", "take 9S 9H | KS KS KH KH KD KC"}
    play(st, "take 9S 9H | KS KS KH KH KD KC")
    assert steps(st) == {"add K: KD"}
    play(st, "add K: KD")
    assert st.is_over and st.export()["concealed"]
    assert st.score()["sides"][0]["total"] == 30 + 70 + 500 + 100 + 100
