"""Scores of whole hands worked by hand (D26, D40) and the match (D41)."""

from cardcore.engine.scoresheet import ScoreSheet

from .helpers import GAME, play, position


def test_d40_seven_aces_natural_two_red_threes_going_out():
    st = position(
        hands=[["AS", "9C"], ["4S"], ["5H", "KD"], ["JK"]],
        melds=[[{"rank": "A", "cards": ["AS", "AH", "AD", "AC", "AH", "AD"]}],
               [{"rank": "7", "cards": ["7S", "7H", "7D"]}]],
        red_threes=[["3H", "3D"], []], has_melded=[True, False, True, False])
    play(st, "add A: AS")
    play(st, "discard 9C")
    assert st.is_over
    row = st.score()
    assert [side.pop("counts")["canastas"] for side in row["sides"]] == [1, 0]
    assert row == {"sides": [
        {"seats": [0, 2], "items": {"melded": 140, "natural_canastas": 500, "mixed_canastas": 0,
                                    "red_threes": 200, "going_out": 100, "concealed": 0,
                                    "in_hand": -15}, "total": 925},
        {"seats": [1, 3], "items": {"melded": 15, "natural_canastas": 0, "mixed_canastas": 0,
                                    "red_threes": 0, "going_out": 0, "concealed": 0,
                                    "in_hand": -55}, "total": -40},
    ], "end": "going out"}


def test_d40_four_red_threes_without_a_meld_count_minus_800():
    st = GAME.state_from_json({
        "phase": "over", "to_play": None, "went_out": 0,
        "hands": [[], ["AS", "2C", "3S"], [], ["4D"]],
        "melds": [[{"rank": "K", "cards": ["KS", "KH", "KD", "KC", "KS", "KH", "JK"]}], []],
        "red_threes": [[], ["3H", "3H", "3D", "3D"]]})
    side0, side1 = (s["items"] for s in st.score()["sides"])
    assert side1 == {"melded": 0, "natural_canastas": 0, "mixed_canastas": 0,
                     "red_threes": -800, "going_out": 0, "concealed": 0, "in_hand": -50}
    assert side0["melded"] == 110 and side0["mixed_canastas"] == 300
    assert side0["going_out"] == 100 and st.score()["sides"][1]["total"] == -850


def test_d40_four_red_threes_with_a_meld_count_800():
    st = GAME.state_from_json({
        "phase": "over", "to_play": None,
        "melds": [[], [{"rank": "8", "cards": ["8S", "8H", "2D"]}]],
        "red_threes": [[], ["3H", "3H", "3D", "3D"]]})
    assert st.score()["sides"][1]["items"]["red_threes"] == 800
    assert st.score()["sides"][1]["total"] == 840


def test_d26_card_values():
    st = GAME.state_from_json({
        "phase": "over", "to_play": None,
        "hands": [["4S", "7C", "8D", "KH", "AS", "2H", "JK", "3C"], [], [], []]})
    assert st.score()["sides"][0]["items"]["in_hand"] == -(5 + 5 + 10 + 10 + 20 + 20 + 50 + 5)


def test_d41_first_side_on_5000_the_higher_when_both_equal_plays_on():
    options = GAME.Options()

    def winner(*rows):
        sheet = ScoreSheet(["A", "B"], options.target)
        for a, b in rows:
            sheet.add({"sides": [{"items": {}, "total": a}, {"items": {}, "total": b}]})
        return GAME.match_winner(sheet, options)

    assert winner((4990, 4000)) is None
    assert winner((4990, 4000), (20, 900)) == 0
    assert winner((4990, 4000), (20, 1100)) == 1
    assert winner((4990, 4000), (110, 1100)) is None  # 5100 each: another hand
    assert options.target == 5000


def test_d28_d40_a_red_three_of_a_side_without_a_meld_counts_minus_100():
    st = GAME.state_from_json({
        "phase": "over", "to_play": None,
        "melds": [[{"rank": "8", "cards": ["8S", "8H", "8D"]}], []],
        "red_threes": [["3H", "3D", "3H"], ["3D"]]})
    sides = [s["items"]["red_threes"] for s in st.score()["sides"]]
    assert sides == [300, -100]


def test_d34_d40_concealed_going_out_by_taking_the_pile():
    # the partner opened the side; seat 0 takes the pile with 9 9 and melds all: the
    # pile's 9 and a deuce go onto the nines, kings K K K K K K 2 make a mixed canasta
    st = position(phase="draw", hands=[["9S", "9H", "KS", "KH", "KD", "KC", "KS", "KH",
                                         "2D"], [], ["5C"], []],
                  discard=["2C", "9D", "9C"], melds=[[{"rank": "A", "cards": ["AS", "AH", "AD"]}],
                                                     []])
    play(st, "take 9S 9H")
    for step in ("add 9: 9D", "add 9: 2D", "meld KS KS KH", "add K: KH", "add K: KD",
                 "add K: KC", "add K: 2C"):
        play(st, step)
    assert st.is_over and st.export()["concealed"]
    assert st.score()["sides"][0]["items"] == {
        "melded": 60 + (40 + 20) + (60 + 20), "natural_canastas": 0, "mixed_canastas": 300,
        "red_threes": 0, "going_out": 100, "concealed": 100, "in_hand": -5}
