"""Legal actions, decision by decision: each position beside its exact set of actions."""

import random
from itertools import combinations

import pytest

from cardcore_casino.combos import Table

from .helpers import expect, legal, load, play

# --- D1: court cards in casino pair one at a time ---------------------------------


def test_d01_court_card_captures_exactly_one_loose_court_of_its_rank():
    s = load("casino", hands=[["QH"], ["2C"]], table={"loose": ["QS", "QD", "5C"]}, to_play=0)
    assert legal(s) == expect("capture QH: QS", "capture QH: QD", "trail QH")


def test_d01_court_cards_take_all_option_takes_any_number_of_them():
    s = load("casino", hands=[["QH"], ["2C"]], table={"loose": ["QS", "QD", "5C"]}, to_play=0,
             options={"court_cards_take_all": True})
    assert legal(s) == expect("capture QH: QS", "capture QH: QD", "capture QH: QS QD",
                              "trail QH")


def test_d01_a_court_card_never_takes_another_rank():
    s = load("casino", hands=[["KH"], ["2C"]], table={"loose": ["QS", "JD"]}, to_play=0)
    assert legal(s) == expect("trail KH")


# --- D2 and D16: groups of the played card's value -------------------------------------


def test_d02_an_eight_takes_one_or_both_loose_eights_with_sums_besides():
    s = load("casino", hands=[["8D"], ["2C"]], table={"loose": ["8C", "8H", "3H", "5S"]},
             to_play=0)
    assert legal(s) == expect(
        "capture 8D: 8C", "capture 8D: 8H", "capture 8D: 3H 5S",
        "capture 8D: 8C 8H", "capture 8D: 8C 3H 5S", "capture 8D: 8H 3H 5S",
        "capture 8D: 8C 8H 3H 5S", "trail 8D")


def test_d16_the_eight_takes_three_and_five_and_the_eight_together(game_id):
    s = load(game_id, hands=[["8D"], ["2C"]], table={"loose": ["3H", "5S", "8C"]}, to_play=0)
    want = {"capture 8D: 8C", "capture 8D: 3H 5S", "capture 8D: 3H 5S 8C"}
    # royal: the 8 matches the loose 8, so it may not be trailed (D11)
    assert legal(s) == expect(*want, *(["trail 8D"] if game_id == "casino" else []))


def test_d16_ten_sweeps_ace_two_three_four(game_id):
    s = load(game_id, hands=[["10H"], ["2C"]], table={"loose": ["AC", "2D", "3S", "4H"]},
             to_play=0)
    assert legal(s) == expect("capture 10H: AC 2D 3S 4H", "trail 10H")
    play(s, "capture 10H: AC 2D 3S 4H")
    assert s.sweeps == [1, 0]
    assert s.export()["captured"][0] == ["AC", "2D", "3S", "4H", "10H"]


def test_d16_a_ten_takes_two_disjoint_sums_at_once():
    s = load("casino", hands=[["10H"], ["2C"]], table={"loose": ["6C", "4D", "7S", "3H"]},
             to_play=0)
    assert legal(s) == expect(
        "capture 10H: 6C 4D", "capture 10H: 7S 3H", "capture 10H: 6C 4D 7S 3H", "trail 10H")


def test_d16_a_build_is_never_part_of_a_sum(game_id):
    s = load(game_id, hands=[["9D"], ["5C", "KS"]],
             table={"loose": ["4S"], "builds": [{"value": 5, "owner": 1,
                                                 "groups": [["2H", "3C"]]}]}, to_play=0)
    assert legal(s) == expect("trail 9D")


def test_d16_builds_and_loose_groups_are_taken_together_in_any_choice(game_id):
    s = load(game_id, hands=[["9D"], ["9S", "KS"]],
             table={"loose": ["4S", "5H"], "builds": [{"value": 9, "owner": 1,
                                                        "groups": [["2H", "7C"]]}]}, to_play=0)
    assert legal(s) == expect("capture 9D: 4S 5H", "capture 9D: 2H 7C",
                              "capture 9D: 2H 7C 4S 5H", "trail 9D")


# --- D3: values --------------------------------------------------------------------


def test_d03_casino_court_cards_never_sum_or_build():
    # J Q K have no value: 10 cannot take K... and nothing builds on a court card
    s = load("casino", hands=[["3H", "KC"], ["2C"]], table={"loose": ["KD", "AS"]}, to_play=0)
    assert legal(s) == expect("capture KC: KD", "trail 3H", "trail KC")


def test_d03_royal_queen_takes_ace_and_jack():
    s = load("royal_casino", hands=[["QS"], ["2C"]], table={"loose": ["AH", "JC"]}, to_play=0)
    assert legal(s) == expect("capture QS: AH JC", "trail QS")


def test_d03_royal_build_of_five_and_nine_is_taken_by_an_ace():
    s = load("royal_casino", hands=[["AS"], ["AH", "2C"]],
             table={"builds": [{"value": 14, "owner": 1, "groups": [["5C", "9D"]]}]},
             to_play=0)
    assert legal(s) == expect("capture AS: 5C 9D", "trail AS")
    action = s.legal_actions()[0]
    assert action.label == "Capture 5♣ 9♦ with A♠ as 14"


def test_d03_royal_ace_from_the_hand_counts_1_or_14():
    s = load("royal_casino", hands=[["AS"], ["2C"]], table={"loose": ["AH", "5C", "9D"]},
             to_play=0)
    # the loose ace pairs it (1), the 5 and 9 make 14; it may not be trailed onto an ace
    assert legal(s) == expect("capture AS: AH", "capture AS: 5C 9D")


def test_d03_without_ace_fourteen_an_ace_is_only_1():
    s = load("royal_casino", hands=[["AS"], ["2C"]], table={"loose": ["AH", "5C", "9D"]},
             to_play=0, options={"ace_fourteen": False})
    assert legal(s) == expect("capture AS: AH")


def test_d03_royal_ace_counts_1_in_builds_and_builds_go_up_to_14():
    # A on K builds 14 (held ace to take it); A on 3 builds 4 (held 4)
    s = load("royal_casino", hands=[["AS", "AD", "4H"], ["2C"]],
             table={"loose": ["KC", "3D"]}, to_play=0)
    assert legal(s) == expect(
        "build AS=14: KC", "build AD=14: KC", "build AS=4: 3D", "build AD=4: 3D",
        "trail AS", "trail AD", "trail 4H")


def test_d03_without_ace_fourteen_royal_builds_stop_at_13():
    s = load("royal_casino", hands=[["AS", "AD", "4H"], ["2C"]],
             table={"loose": ["KC", "3D"]}, to_play=0, options={"ace_fourteen": False})
    assert legal(s) == expect("build AS=4: 3D", "build AD=4: 3D", "trail AS", "trail AD",
                              "trail 4H")


def test_d03_casino_highest_build_is_ten():
    s = load("casino", hands=[["5H", "10S"], ["2C"]], table={"loose": ["6D"]}, to_play=0)
    assert legal(s) == expect("trail 5H", "trail 10S")


# --- D11: trailing -----------------------------------------------------------------


def test_d11_casino_may_trail_a_card_that_could_capture():
    s = load("casino", hands=[["7S", "9D"], ["KC"]], table={"loose": ["7H", "2C"]}, to_play=0)
    assert legal(s) == expect("capture 7S: 7H", "capture 9D: 7H 2C", "build 7S=9: 2C",
                              "trail 7S", "trail 9D")


def test_d11_option_no_trailing_a_card_that_could_capture():
    s = load("casino", hands=[["7S", "9D", "4C"], ["3C"]], table={"loose": ["7H", "2C"]},
             to_play=0, options={"may_trail_capturing_card": False})
    assert legal(s) == expect("capture 7S: 7H", "capture 9D: 7H 2C", "build 7S=9: 2C",
                              "trail 4C")


def test_d11_royal_no_trailing_a_card_matching_a_loose_card_capture_stays_optional():
    s = load("royal_casino", hands=[["7S", "9D"], ["3C"]], table={"loose": ["7H", "2C"]},
             to_play=0)
    assert legal(s) == expect("capture 7S: 7H", "capture 9D: 7H 2C", "build 7S=9: 2C",
                              "trail 9D")


def test_d11_royal_trailing_restriction_looks_at_loose_cards_not_builds():
    s = load("royal_casino", hands=[["8S"], ["8C", "3C"]],
             table={"builds": [{"value": 8, "owner": 1, "groups": [["2H", "6C"]]}]}, to_play=0)
    assert legal(s) == expect("capture 8S: 2H 6C", "trail 8S")


# --- D12: owners ----------------------------------------------------------------------


def test_d12_six_on_two_building_eight_while_holding_an_eight(game_id):
    s = load(game_id, hands=[["6S", "8C"], ["KD"]], table={"loose": ["2H"]}, to_play=0)
    assert legal(s) == expect("build 6S=8: 2H", "trail 6S", "trail 8C")
    play(s, "build 6S=8: 2H")
    assert s.export()["table"] == {"loose": [], "builds": [
        {"value": 8, "owner": 0, "groups": [["2H", "6S"]]}]}


def test_d12_no_build_without_a_card_to_capture_it(game_id):
    s = load(game_id, hands=[["6S", "7C"], ["KD"]], table={"loose": ["2H"]}, to_play=0)
    assert legal(s) == expect("trail 6S", "trail 7C")


def test_d12_an_owner_may_not_trail_nor_give_up_the_capturing_card(game_id):
    s = load(game_id, hands=[["8C", "5D"], ["KD"]],
             table={"loose": ["5H"], "builds": [{"value": 8, "owner": 0,
                                                  "groups": [["2H", "6S"]]}]}, to_play=0)
    assert legal(s) == expect("capture 8C: 2H 6S", "capture 5D: 5H")


def test_d12_only_the_current_owner_is_bound(game_id):
    # seat 1 built 6; seat 0 raised it to 9 (casino and royal alike): seat 1 may trail now
    s = load(game_id, hands=[["3C", "9D", "JH"], ["6H", "KD"]],
             table={"builds": [{"value": 6, "owner": 1, "groups": [["2H", "4S"]]}]}, to_play=0)
    play(s, "build 3C=9: 2H 4S")
    assert s.export()["table"]["builds"] == [
        {"value": 9, "owner": 0, "groups": [["2H", "4S", "3C"]]}]
    assert legal(s) == expect("trail 6H", "trail KD")


def test_d12_an_owner_who_plays_the_last_card_must_capture_the_build(game_id):
    s = load(game_id, hands=[["8C"], ["KD"]],
             table={"loose": ["3H"], "builds": [{"value": 8, "owner": 0,
                                                  "groups": [["2H", "6S"]]}]}, to_play=0)
    assert legal(s) == expect("capture 8C: 2H 6S")


def test_d12_royal_one_ace_backs_a_build_of_1_or_of_14_not_both():
    # seat 0 owns a build of 14 and holds two aces: building aces (value 1) would leave
    # one ace for two builds, a dead end once it is the last card
    build = {"value": 14, "owner": 0, "groups": [["5C", "9D"]]}
    s = load("royal_casino", hands=[["AS", "AH"], ["KD"]],
             table={"loose": ["AC"], "builds": [build]}, to_play=0)
    assert legal(s) == expect("capture AS: 5C 9D", "capture AH: 5C 9D",
                              "capture AS: AC", "capture AH: AC")
    # with a third ace the build of aces is fine
    s = load("royal_casino", hands=[["AS", "AH", "AD"], ["KD"]],
             table={"loose": ["AC"], "builds": [build]}, to_play=0)
    assert {"build AS=1: AC", "build AH=1: AC", "build AD=1: AC"} <= legal(s)


# --- D13: several builds ---------------------------------------------------------------


def test_d13_builds_of_the_same_value_stand_side_by_side(game_id):
    s = load(game_id, hands=[["3S", "8D"], ["8C", "KD"]],
             table={"loose": ["5H"], "builds": [{"value": 8, "owner": 1,
                                                  "groups": [["2H", "6S"]]}]}, to_play=0)
    assert legal(s) == expect(
        "build 3S=8: 5H",                  # a new build of 8 beside the other
        "build 3S=8: 2H 6S 5H",            # or 3+5 joins it (multiple)
        "capture 8D: 2H 6S",
        "trail 3S", "trail 8D")
    play(s, "build 3S=8: 5H")
    assert [b["value"] for b in s.export()["table"]["builds"]] == [8, 8]


def test_d13_a_player_may_own_several_builds():
    s = load("casino", hands=[["4D", "7S", "9C"], ["KD"]],
             table={"loose": ["3H", "2C"], "builds": [{"value": 7, "owner": 0,
                                                        "groups": [["3D", "4S"]]}]}, to_play=0)
    assert legal(s) == expect("build 4D=9: 3H 2C", "build 4D=7: 3H", "build 4D=7: 3D 4S 3H",
                              "capture 7S: 3D 4S")
    play(s, "build 4D=9: 3H 2C")
    assert [(b["value"], b["owner"]) for b in s.export()["table"]["builds"]] == [(7, 0), (9, 0)]


# --- D14: raising ----------------------------------------------------------------------


def test_d14_multiple_build_of_ten_from_two_plus_five_raised_by_three_with_the_loose_ten():
    s = load("casino", hands=[["3D", "10H"], ["7C", "KD"]],
             table={"loose": ["10S"], "builds": [{"value": 7, "owner": 1,
                                                   "groups": [["2H", "5C"]]}]}, to_play=0)
    assert legal(s) == expect(
        "build 3D=10: 2H 5C", "build 3D=10: 2H 5C 10S",
        "capture 10H: 10S", "trail 3D", "trail 10H")
    play(s, "build 3D=10: 2H 5C 10S")
    assert s.export()["table"] == {"loose": [], "builds": [
        {"value": 10, "owner": 0, "groups": [["2H", "5C", "3D"], ["10S"]]}]}


def test_d14_loose_cards_never_raise_a_single_build(game_id):
    # A+3 would make 4 more: not allowed; the ace alone raises 6 to 7
    s = load(game_id, hands=[["AC", "10D", "7S"], ["6C", "KD"]],
             table={"loose": ["3H"], "builds": [{"value": 6, "owner": 1,
                                                  "groups": [["2H", "4S"]]}]}, to_play=0)
    trails = {"trail AC", "trail 10D", "trail 7S"}
    assert legal(s) == expect("build AC=7: 2H 4S", "build 7S=10: 3H", *trails)


def test_d14_casino_may_raise_its_own_build():
    s = load("casino", hands=[["2C", "8D", "6H"], ["KD"]],
             table={"builds": [{"value": 6, "owner": 0, "groups": [["2H", "4S"]]}]}, to_play=0)
    assert legal(s) == expect("build 2C=8: 2H 4S", "capture 6H: 2H 4S")


def test_d14_royal_raises_only_an_opponents_build():
    s = load("royal_casino", hands=[["2C", "8D", "6H"], ["KD"]],
             table={"builds": [{"value": 6, "owner": 0, "groups": [["2H", "4S"]]}]}, to_play=0)
    assert legal(s) == expect("capture 6H: 2H 4S")


def test_d14_royal_rule_4_example_six_and_four_raised_by_two_to_a_queen():
    s = load("royal_casino", hands=[["2D", "QS"], ["10C", "KD"]],
             table={"builds": [{"value": 10, "owner": 1, "groups": [["6C", "4H"]]}]},
             to_play=0)
    assert legal(s) == expect("build 2D=12: 4H 6C", "trail 2D", "trail QS")


def test_d14_partner_may_not_raise_partners_build(game_id):
    hands = [["3C", "9D"], ["KD"], ["6D"], ["QD"]]
    build = {"value": 6, "owner": 2, "groups": [["2H", "4S"]]}
    s = load(game_id, hands=hands, table={"builds": [build]}, to_play=0)
    assert legal(s) == expect("trail 3C", "trail 9D")
    # the opponents may
    s = load(game_id, hands=[["KD"], ["3C", "9D"], ["6D"], ["QD"]], table={"builds": [build]},
             to_play=1)
    assert legal(s) == expect("build 3C=9: 2H 4S", "trail 3C", "trail 9D")


def test_d14_partner_may_not_add_to_partners_build_but_may_capture_it(game_id):
    build = {"value": 6, "owner": 2, "groups": [["2H", "4S"]]}
    s = load(game_id, hands=[["6C", "6S"], ["KD"], ["6D"], ["QD"]], table={"builds": [build]},
             to_play=0)
    assert legal(s) == expect("capture 6C: 2H 4S", "capture 6S: 2H 4S", "trail 6C", "trail 6S")


# --- D15: multiple builds ----------------------------------------------------------------


def test_d15_two_fives_in_hand_building_fives(game_id):
    s = load(game_id, hands=[["5H", "5D"], ["KD"]], table={"loose": ["5C"]}, to_play=0)
    want = {"build 5H=5: 5C", "build 5D=5: 5C", "capture 5H: 5C", "capture 5D: 5C"}
    trails = {"trail 5H", "trail 5D"} if game_id == "casino" else set()
    assert legal(s) == expect(*want, *trails)
    play(s, "build 5H=5: 5C")
    assert s.export()["table"]["builds"] == [
        {"value": 5, "owner": 0, "groups": [["5H"], ["5C"]]}]


def test_d15_a_multiple_build_never_changes_value_and_takes_in_loose_cards(game_id):
    s = load(game_id, hands=[["2D", "8D"], ["8C", "KD"]],
             table={"loose": ["6C"], "builds": [{"value": 8, "owner": 1,
                                                  "groups": [["8H"], ["5H", "3S"]]}]},
             to_play=0)
    assert legal(s) == expect(
        "build 2D=8: 6C", "build 2D=8: 3S 5H 8H 6C", "capture 8D: 3S 5H 8H",
        "trail 2D", "trail 8D")


def test_d15_a_card_making_the_value_of_a_single_build_joins_it_and_it_becomes_multiple(game_id):
    s = load(game_id, hands=[["8D", "8C"], ["8S", "KD"]],
             table={"builds": [{"value": 8, "owner": 1, "groups": [["2H", "6S"]]}]}, to_play=0)
    assert legal(s) == expect(
        "capture 8D: 2H 6S", "capture 8C: 2H 6S", "build 8D=8: 2H 6S", "build 8C=8: 2H 6S",
        "trail 8D", "trail 8C")
    play(s, "build 8D=8: 2H 6S")
    assert s.export()["table"]["builds"] == [
        {"value": 8, "owner": 0, "groups": [["2H", "6S"], ["8D"]]}]


def test_d15_adding_to_a_build_may_take_in_further_loose_groups():
    s = load("casino", hands=[["4D", "9C"], ["9S", "KD"]],
             table={"loose": ["5S", "9H", "6C", "3C"],
                    "builds": [{"value": 9, "owner": 1, "groups": [["2H", "7S"]]}]}, to_play=0)
    got = legal(s)
    assert expect("build 4D=9: 2H 7S 5S", "build 4D=9: 2H 7S 5S 9H",
                  "build 4D=9: 2H 7S 5S 6C 3C", "build 4D=9: 2H 7S 5S 9H 6C 3C") <= got
    play(s, "build 4D=9: 2H 7S 5S 9H 6C 3C")
    (build,) = s.export()["table"]["builds"]
    assert build["owner"] == 0 and build["value"] == 9
    assert sorted(map(sorted, build["groups"])) == sorted(
        map(sorted, [["2H", "7S"], ["5S", "4D"], ["9H"], ["6C", "3C"]]))


def test_d15_every_build_uses_a_card_already_on_the_table(game_id):
    s = load(game_id, hands=[["3C", "5D", "8H"], ["KD"]], to_play=0)
    assert legal(s) == expect("trail 3C", "trail 5D", "trail 8H")


def test_d15_builds_never_merge(game_id):
    # 3 + build(5) would be 8 with build(3)... a card joins one build only
    s = load(game_id, hands=[["3D", "8C"], ["5C", "3S"]],
             table={"builds": [{"value": 5, "owner": 1, "groups": [["2H", "3H"]]},
                               {"value": 3, "owner": 1, "groups": [["AS", "2D"]]}]},
             to_play=0)
    got = legal(s)
    assert not any("2H" in a and "AS" in a for a in got)
    assert expect("build 3D=8: 2H 3H") <= got  # raising build 5 by the 3


# --- D18: after a sweep ----------------------------------------------------------------


def test_d18_after_a_sweep_the_next_player_can_only_trail(game_id):
    s = load(game_id, hands=[["10H", "2D"], ["4C", "6C"]],
             table={"loose": ["AC", "2S", "3S", "4H"]}, to_play=0)
    play(s, "capture 10H: AC 2S 3S 4H")
    assert s.to_play == 1
    assert legal(s) == expect("trail 4C", "trail 6C")


@pytest.mark.parametrize("game_id", ["casino", "royal_casino"])
def test_d12_no_dead_end_owner_always_has_a_move(game_id):
    s = load(game_id, hands=[["9S", "5C"], ["KD", "QD"]],
             table={"loose": ["4H"], "builds": [{"value": 9, "owner": 0,
                                                  "groups": [["2H", "7S"]]}]}, to_play=0)
    assert legal(s) == expect("capture 9S: 2H 7S", "build 5C=9: 2H 7S 4H", "build 5C=9: 4H")


# --- review: the clauses each decision names, one position each -------------------------------


def test_d01_a_court_card_that_could_pair_may_not_be_trailed_under_the_option():
    s = load("casino", hands=[["QH", "KC"], ["2C"]], table={"loose": ["QS", "5C"]}, to_play=0,
             options={"may_trail_capturing_card": False})
    assert legal(s) == expect("capture QH: QS", "trail KC")


def test_d01_a_court_card_never_takes_a_build_or_a_sum():
    s = load("casino", hands=[["QH"], ["7C", "2C"]],
             table={"loose": ["5H", "7S"], "builds": [{"value": 7, "owner": 1,
                                                        "groups": [["3H", "4S"]]}]}, to_play=0)
    assert legal(s) == expect("trail QH")


def test_d02_royal_a_king_takes_one_or_both_loose_kings_with_sums_besides():
    s = load("royal_casino", hands=[["KD"], ["2C"]], table={"loose": ["KC", "KH", "6H", "7S"]},
             to_play=0)
    assert legal(s) == expect(
        "capture KD: KC", "capture KD: KH", "capture KD: 6H 7S",
        "capture KD: KC KH", "capture KD: KC 6H 7S", "capture KD: KH 6H 7S",
        "capture KD: KC KH 6H 7S")  # no trail: the king matches a loose king (D11)


def test_d02_every_loose_card_of_the_value_is_its_own_group_in_a_build_too(game_id):
    # 3 on 5 builds 8 and may take in one loose 8, the other, or both
    s = load(game_id, hands=[["3D", "8S"], ["KD"]], table={"loose": ["5C", "8C", "8H"]},
             to_play=0)
    builds = {a for a in legal(s) if a.startswith("build")}
    assert builds == expect("build 3D=8: 5C", "build 3D=8: 5C 8C", "build 3D=8: 5C 8H",
                            "build 3D=8: 5C 8C 8H")


def test_d03_royal_loose_ace_counts_1_in_a_sum_the_played_ace_14():
    # the played ace takes A+K (1 + 13) as 14, or the loose ace alone as 1
    s = load("royal_casino", hands=[["AS"], ["2C"]], table={"loose": ["AH", "KC"]}, to_play=0)
    assert legal(s) == expect("capture AS: AH", "capture AS: AH KC")
    assert {a.label for a in s.legal_actions()} == {"Capture A♥ with A♠",
                                                    "Capture A♥ K♣ with A♠ as 14"}


def test_d03_royal_an_ace_raises_by_1_never_by_14():
    s = load("royal_casino", hands=[["AS", "AD"], ["KD", "2C"]],
             table={"builds": [{"value": 13, "owner": 1, "groups": [["6H", "7S"]]}]}, to_play=0)
    assert legal(s) == expect("build AS=14: 6H 7S", "build AD=14: 6H 7S", "trail AS", "trail AD")
    raise_ = next(a for a in s.legal_actions() if a.to_json()["type"] == "build")
    assert raise_.label == "Raise to 14: A♠ on 6♥ 7♠"


def test_d03_royal_a_court_card_builds_with_its_value():
    # J (11) on 3 builds 14, taken by a held ace; Q (12) on 2 too
    s = load("royal_casino", hands=[["JS", "AD"], ["2C"]], table={"loose": ["3H"]}, to_play=0)
    assert legal(s) == expect("build JS=14: 3H", "trail JS", "trail AD")


def test_d03_casino_a_multiple_build_of_ten_is_the_highest():
    s = load("casino", hands=[["5H", "10S"], ["2C"]], table={"loose": ["5D", "10C"]}, to_play=0)
    assert legal(s) == expect("capture 5H: 5D", "build 5H=10: 5D", "build 5H=10: 5D 10C",
                              "capture 10S: 10C", "trail 5H", "trail 10S")


def test_d11_royal_an_ace_may_not_be_trailed_beside_a_loose_ace():
    # the ace in the hand counts 1 like the loose ace; the king (13) may be trailed
    s = load("royal_casino", hands=[["AS", "KD"], ["2C"]], table={"loose": ["AH"]}, to_play=0)
    assert legal(s) == expect("capture AS: AH", "build KD=14: AH", "trail KD")


def test_d11_royal_an_ace_may_be_trailed_when_only_its_14_would_match():
    # no loose card counts 14: the loose ace is 1, the loose cards 13 and 1 make 14 only
    # as a sum; trailing the ace is barred by a loose ace alone
    s = load("royal_casino", hands=[["AS"], ["2C"]], table={"loose": ["KH", "3C"]}, to_play=0)
    assert legal(s) == expect("trail AS")
    s = load("royal_casino", hands=[["AS"], ["2C"]], table={"loose": ["KH", "AC"]}, to_play=0)
    assert legal(s) == expect("capture AS: AC", "capture AS: AC KH")


def test_d11_royal_a_card_matching_a_loose_card_may_still_build_instead():
    s = load("royal_casino", hands=[["4S", "9D"], ["2C"]], table={"loose": ["4H", "5C"]},
             to_play=0)
    assert legal(s) == expect("capture 4S: 4H", "build 4S=9: 5C", "capture 9D: 4H 5C",
                              "trail 9D")


def test_d12_an_owner_of_two_builds_keeps_a_card_for_the_one_left(game_id):
    # seat 0 owns 8 and 9: the 8 may take the 8 build (the 9 stays backed) but not the
    # loose 8 alone, which would leave the 8 build without a card
    s = load(game_id, hands=[["8D", "9C"], ["KD"]],
             table={"loose": ["8C"], "builds": [
                 {"value": 8, "owner": 0, "groups": [["2H", "6S"]]},
                 {"value": 9, "owner": 0, "groups": [["4H", "5S"]]}]}, to_play=0)
    assert legal(s) == expect("capture 8D: 2H 6S", "capture 8D: 2H 6S 8C", "capture 9C: 4H 5S")


def test_d12_one_card_backs_two_own_builds_of_its_value_and_must_take_both(game_id):
    s = load(game_id, hands=[["8D", "4C"], ["KD"]],
             table={"loose": ["8C"], "builds": [
                 {"value": 8, "owner": 0, "groups": [["2H", "6S"]]},
                 {"value": 8, "owner": 0, "groups": [["3H", "5S"]]}]}, to_play=0)
    # the 4 has no move: an owner may not trail
    assert legal(s) == expect("capture 8D: 2H 3H 5S 6S", "capture 8D: 2H 3H 5S 6S 8C")


def test_d12_a_build_needs_a_second_card_of_its_value_when_the_played_card_is_one(game_id):
    # 5 on a loose 5 builds fives only while another 5 stays in the hand
    s = load(game_id, hands=[["5H", "9D"], ["KD"]], table={"loose": ["5C", "4S"]}, to_play=0)
    assert legal(s) == expect("capture 5H: 5C", "build 5H=9: 4S", "capture 9D: 4S 5C",
                              "trail 9D", *(["trail 5H"] if game_id == "casino" else []))


def test_d12_an_opponent_raising_your_build_frees_you_and_binds_them(game_id):
    s = load(game_id, hands=[["2C", "8D"], ["6H", "5S"]],
             table={"builds": [{"value": 6, "owner": 1, "groups": [["2H", "4S"]]}]}, to_play=0)
    play(s, "build 2C=8: 2H 4S")
    assert legal(s) == expect("trail 6H", "trail 5S")
    play(s, "trail 6H")
    assert legal(s) == expect("capture 8D: 2C 2H 4S")


def test_d14_a_raise_takes_in_loose_groups_of_the_new_value(game_id):
    s = load(game_id, hands=[["3D", "9H"], ["6C", "KD"]],
             table={"loose": ["9S", "4C", "5D"], "builds": [{"value": 6, "owner": 1,
                                                             "groups": [["2H", "4S"]]}]},
             to_play=0)
    raises = {a for a in legal(s) if "2H" in a and a.startswith("build")}
    assert raises == expect("build 3D=9: 2H 4S", "build 3D=9: 2H 4S 9S",
                            "build 3D=9: 2H 4S 4C 5D", "build 3D=9: 2H 4S 9S 4C 5D")


def test_d14_a_multiple_build_is_never_raised(game_id):
    s = load(game_id, hands=[["2C", "8D"], ["6H", "KD"]],
             table={"builds": [{"value": 6, "owner": 1, "groups": [["2H", "4S"], ["6C"]]}]},
             to_play=0)
    assert legal(s) == expect("trail 2C", "trail 8D")


def test_d14_three_players_each_other_player_is_an_opponent():
    s = load("royal_casino", hands=[["2C", "8D"], ["KD"], ["6H", "QD"]],
             table={"builds": [{"value": 6, "owner": 2, "groups": [["2H", "4S"]]}]}, to_play=0)
    assert legal(s) == expect("build 2C=8: 2H 4S", "trail 2C", "trail 8D")


def test_d15_a_new_build_may_be_multiple_at_once(game_id):
    s = load(game_id, hands=[["3D", "8S"], ["KD"]], table={"loose": ["5C", "6H", "2S"]},
             to_play=0)
    play(s, "build 3D=8: 5C 6H 2S")
    (build,) = s.export()["table"]["builds"]
    assert build["value"] == 8 and build["owner"] == 0
    assert sorted(map(sorted, build["groups"])) == [["2S", "6H"], ["3D", "5C"]]


def test_d15_a_card_with_loose_cards_joins_a_single_build_which_becomes_multiple(game_id):
    s = load(game_id, hands=[["3D", "8S"], ["8C", "KD"]],
             table={"loose": ["5C"], "builds": [{"value": 8, "owner": 1,
                                                  "groups": [["2H", "6S"]]}]}, to_play=0)
    play(s, "build 3D=8: 2H 6S 5C")
    assert s.export()["table"]["builds"] == [
        {"value": 8, "owner": 0, "groups": [["2H", "6S"], ["5C", "3D"]]}]


def test_d15_builds_never_merge_even_when_two_builds_make_the_value(game_id):
    # builds of 3 and 5 beside a played 8: the 8 takes neither (a build is no part of a sum),
    # and no build of 8 joins them
    s = load(game_id, hands=[["8C", "AD"], ["5C", "3S", "KD"]],
             table={"builds": [{"value": 5, "owner": 1, "groups": [["2H", "3H"]]},
                               {"value": 3, "owner": 1, "groups": [["AS", "2D"]]}]},
             to_play=0)
    assert legal(s) == expect("trail 8C", "trail AD")


# --- the generator's shortcut: which sums the loose values make ---------------------


def test_a_tables_sums_are_the_sums_its_values_make_up_to_fourteen():
    rng = random.Random(5)
    for _ in range(200):
        vals = tuple(sorted(rng.randint(1, 13) for _ in range(rng.randint(0, 7))))
        made = {sum(c) for k in range(1, len(vals) + 1) for c in combinations(vals, k)}
        assert Table(vals).sums == sum(1 << s for s in made if s <= 14), vals
