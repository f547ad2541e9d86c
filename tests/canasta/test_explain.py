"""The numbers a player needs: each first meld's count beside its minimum (D36), each side's
melded total, why a card has no meld, add or pile to take, and the red threes a draw lays out
named in the log."""

from __future__ import annotations

from .helpers import play, position, steps

#: The side's total puts its first meld at 90 (D36).
AT_1500 = [1500, 0]


def labels(st) -> set[str]:
    return {a.label for a in st.legal_actions()}


def test_d36_first_melds_show_their_count_beside_the_minimum():
    st = position(hands=[["QS", "QH", "QD", "KS", "KH", "KD", "5C", "9D", "4H", "6H"], [], [], []])
    assert {a.label for a in st.legal_actions() if a.to_json()["type"] == "meld"} == {
        "Meld Q♠ Q♥ Q♦ + K♠ K♥ K♦ · 30 + 30 = 60 of 50"}
    st = position(hands=[["AS", "AH", "AD", "7C", "7D", "7S", "9C"], [], [], []], totals_before=[-20, 0])
    assert "Meld A♠ A♥ A♦ · 60 of 15" in labels(st) and "Meld 7♠ 7♦ 7♣ · 15 of 15" in labels(st)
    # taking the pile for the first meld: the top card counts in its meld (D29)
    st = position(phase="draw", hands=[["9H", "9C", "KS", "KH", "KD", "4D", "5C"], [], [], []],
                  discard=["4C", "9S"])
    assert labels(st) == {"Draw from the stock",
                          "Take the pile with 9♥ 9♣, meld K♠ K♥ K♦ · 30 + 30 = 60 of 50"}
    # after the first meld the labels carry no count
    play(st, "take 9H 9C | KS KH KD")
    assert not any("·" in label for label in labels(st))


def test_each_sides_melded_total_is_on_the_table():
    st = position(hands=[["9C", "4D"], ["5C", "6D"], [], []],
                  melds=[[{"rank": "K", "cards": ["KS", "KH", "KD", "2C"]},
                          {"rank": "7", "cards": ["7S", "7H", "7D"]}], []])
    zones = {z.id: z for z in st.zones(0)}
    assert zones["melds-0"].badges == ["melded 65"]  # 30 + 20 + 15; no canasta yet
    canasta = position(hands=[["9C", "4D"], ["5C", "6D"], [], []],
                       melds=[[{"rank": "K", "cards": ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]}],
                              []])
    assert {z.id: z for z in canasta.zones(0)}["melds-0"].badges == ["melded 70", "canastas 1"]
    assert zones["melds-1"].badges == ["first meld needs 50 points"]


def test_d28_red_threes_lie_beside_the_sides_melds():
    st = position(hands=[["9C", "4D"], ["5C", "6D"], [], []], red_threes=[["3H", "3D"], []],
                  melds=[[{"rank": "7", "cards": ["7S", "7H", "7D"]}], []])
    zones = {z.id: z for z in st.zones(0)}
    assert [(g.id, g.cards, g.badges) for g in zones["melds-0"].groups] == [
        ("meld-0-7", ["7S", "7H", "7D"], ["7"]), ("red-threes-0", ["3H", "3D"], ["red threes"])]
    assert zones["melds-0"].badges == ["melded 15"]  # red threes score apart
    assert zones["melds-1"].groups == []


def test_d36_why_a_card_makes_no_first_meld_below_the_minimum():
    # kings 40 + queens 30 = 70, and the side's first meld needs 90
    st = position(hands=[["KS", "KH", "KD", "KC", "QS", "QH", "QD", "5C", "9D", "6H"], [], [], []],
                  totals_before=AT_1500)
    assert all(a.to_json()["type"] == "discard" for a in st.legal_actions())
    assert st.why_not("KS") == "your best first meld counts 70; a first meld needs 90 points"
    assert st.why_not("AS") is None  # not in the hand


def test_d24_why_a_card_meets_no_meld():
    st = position(hands=[["9S", "4H", "5D", "6C", "JK", "3S"], [], [], []],
                  melds=[[{"rank": "7", "cards": ["7S", "7H", "7D", "7C", "2C", "2D"]}], []])
    assert st.why_not("JK") == "your melds take no more wild cards: 3 at most, 2 naturals each"
    assert st.why_not("9S") == "a meld needs three 9s, two of them natural (you hold 1 and 1 wild)"
    assert st.why_not("3S") == "black threes meld only when going out, three or four of them"


def test_d34_why_adding_the_last_cards_is_refused():
    st = position(hands=[["7C", "9S"], [], [], []],
                  melds=[[{"rank": "7", "cards": ["7S", "7H", "7D"]}], []])
    assert steps(st) == {"discard 7C", "discard 9S"}
    assert st.why_not("7C") == "it would leave you one card; going out needs a canasta"


def test_d31_why_the_pile_cannot_be_taken():
    frozen = position(phase="draw", hands=[["7H", "9C", "9S"], [], [], []],
                      discard=["2C", "4D", "7D"], melds=[[{"rank": "K", "cards": ["KH", "KD", "KC"]}], []])
    assert steps(frozen) == {"draw"}
    assert frozen.why_not("7H") == "draw first (d): the pile is frozen: it takes two natural 7s"
    assert frozen.why_not("9C") == frozen.why_not("7H")
    wild_top = position(phase="draw", hands=[["7H", "7C", "9S"], [], [], []], discard=["4D", "2C"],
                        melds=[[{"rank": "K", "cards": ["KH", "KD", "KC"]}], []])
    assert wild_top.why_not("7H") == "draw first (d): 2♣ on top, the pile cannot be taken"


def test_d29_why_the_pile_is_not_taken_for_a_first_meld_below_the_minimum():
    st = position(phase="draw", hands=[["9H", "9C", "KS", "KH", "KD", "4D", "5C"], [], [], []],
                  discard=["4C", "9S"], totals_before=AT_1500)
    assert steps(st) == {"draw"}
    assert st.why_not("9H") == "draw first (d): a first meld with 9♠ counts 60; it needs 90 points"
    assert st.why_not("KS") == st.why_not("9H")  # the 9s could take it, no other card
    one = position(phase="draw", hands=[["9H", "KS", "KH", "KD", "4D"], [], [], []],
                      discard=["4C", "9S"])
    assert one.why_not("KS") == "draw first (d): a first meld takes the pile with two natural 9s"


def test_d30_why_the_pile_goes_onto_a_meld_without_hand_cards():
    st = position(phase="draw", hands=[["9C", "4H", "5D"], [], [], []], discard=["4C", "7D"],
                  melds=[[{"rank": "7", "cards": ["7S", "7H", "7C"]}], []])
    assert steps(st) == {"draw", "onto 7"}
    assert st.why_not("9C") == "draw first (d): the 7♦ goes onto your 7s with no hand card: t"
    unfrozen = position(phase="draw", hands=[["9C", "7H", "5D"], [], [], []], discard=["4C", "7D"],
                        melds=[[{"rank": "K", "cards": ["KS", "KH", "KC"]}], []])
    assert unfrozen.why_not("7H") == "draw first (d): one 7 and no wild card cannot take the pile"
    assert unfrozen.why_not("9C") == "draw first (d): the 7♦ takes two 7s or a 7 and a wild card"
    pair = position(phase="draw", hands=[["9C", "7H", "7S"], [], [], []], discard=["4C", "7D"],
                    melds=[[{"rank": "K", "cards": ["KS", "KH", "KC"]}], []])
    assert steps(pair) == {"draw", "take 7S 7H"}
    assert pair.why_not("9C") == "draw first (d): the 7♦ is taken with your 7s, not this card: t"
    assert pair.why_not("7H") is None


def test_d34_one_card_may_not_take_a_pile_of_one():
    st = position(phase="draw", hands=[["7H"], [], [], []], discard=["7D"],
                  melds=[[{"rank": "7", "cards": ["7S", "7C", "7S", "7C", "7H", "2C", "JK"]}], []])
    assert st.why_not("7H") == "draw first (d): with one card you may not take a pile of one"


def test_d28_a_red_three_drawn_is_named_in_the_log():
    st = position(phase="draw", to_play=1, hands=[["9C", "4H"], ["5D", "6C"], [], []],
                  stock=["3H", "8C", "4C", "5C"], discard=["4D", "2C"])
    draw = next(a for a in st.legal_actions() if a.to_json() == {"type": "draw"})
    assert st.log_line(draw) == "Draw from the stock — drew a red three 3♥ (laid out, replaced)"
    st.apply(draw)
    assert st.export()["red_threes"][1] == ["3H"]
    last = position(phase="draw", to_play=1, hands=[["9C", "4H"], ["5D", "6C"], [], []],
                    stock=["3D"], discard=["4D", "2C"])
    draw = next(a for a in last.legal_actions() if a.to_json() == {"type": "draw"})
    assert last.log_line(draw) == ("Draw from the stock — drew a red three 3♦ (laid out, "
                                   "the last card: the hand ends)")
    plain = position(phase="draw", to_play=1, hands=[["9C", "4H"], ["5D", "6C"], [], []],
                     discard=["4D", "2C"])
    draw = next(a for a in plain.legal_actions() if a.to_json() == {"type": "draw"})
    assert plain.log_line(draw) == "Draw from the stock"  # the card drawn stays hidden
