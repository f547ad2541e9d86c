"""Scoring and the end of a match (D9, D10, D17, D19, D20, D21)."""

import random

import pytest

from cardcore.engine.bots import GreedyBot, RandomBot
from cardcore.engine.bots.play import play_bots
from cardcore.engine.match import Match

from .helpers import CASINO, ROYAL, load, row, sheet_of


def over(game_id, captured, swept=None, totals=None, **options):
    """A finished hand: the capture piles, the sweeps per seat, the totals before it."""
    n = len(captured)
    return load(game_id, hands=[[] for _ in range(n)], captured=captured,
                sweeps=swept or [0] * n, to_play=None,
                totals_before=totals or [0] * (2 if n == 4 else n), options=options)


def items(state):
    return [side["items"] for side in state.score()["sides"]]


def totals(state):
    return [side["total"] for side in state.score()["sides"]]


PILES = [["10D", "2S", "AS", "AH", "5S", "6C"], ["3H", "4H"]]


def test_items_and_their_points_as_design_names_them(game_id):
    s = over(game_id, PILES, swept=[2, 1])
    score = s.score()
    assert score["sides"][0]["seats"] == [0] and score["sides"][1]["seats"] == [1]
    assert items(s)[0] == {"cards": 3, "spades": 1, "big_casino": 2, "little_casino": 1,
                           "aces": 2, "sweeps": 2 if game_id == "casino" else 1}
    assert items(s)[1] == {"cards": 0, "spades": 0, "big_casino": 0, "little_casino": 0,
                           "aces": 0, "sweeps": 1 if game_id == "casino" else 0}
    assert totals(s) == ([11, 1] if game_id == "casino" else [10, 0])


def test_d17_sweeps_option_off_scores_none(game_id):
    s = over(game_id, PILES, [2, 1], sweeps=False)
    assert [i["sweeps"] for i in items(s)] == [0, 0]


def test_d17_casino_sweeps_never_cancel():
    s = over("casino", [["3H"], ["4H"], ["5H"]], swept=[3, 2, 1])
    assert [i["sweeps"] for i in items(s)] == [3, 2, 1]


def test_d17_royal_opposing_sweeps_cancel_one_for_one():
    s = over("royal_casino", [["3H"], ["4H"]], swept=[3, 1])
    assert [i["sweeps"] for i in items(s)] == [2, 0]


def test_d17_royal_three_players_sweeps_less_the_most_of_any_other():
    s = over("royal_casino", [["3H"], ["4H"], ["5H"]], swept=[3, 1, 2])
    assert [i["sweeps"] for i in items(s)] == [1, 0, 0]
    s = over("royal_casino", [["3H"], ["4H"], ["5H"]], swept=[2, 2, 0])
    assert [i["sweeps"] for i in items(s)] == [0, 0, 0]


def test_d17_royal_partners_pool_sweeps_before_cancelling():
    s = over("royal_casino", [["3H"], ["4H"], ["5H"], ["6H"]], swept=[1, 1, 2, 0])
    # side 0+2: 1 + 2 = 3, side 1+3: 1 + 0 = 1
    assert [i["sweeps"] for i in items(s)] == [2, 0]


def test_d17_royal_a_side_on_18_or_more_scores_no_sweeps_but_they_still_cancel():
    s = over("royal_casino", [["3H"], ["4H"]], swept=[1, 3], totals=[5, 18])
    assert [i["sweeps"] for i in items(s)] == [0, 0]
    s = over("royal_casino", [["3H"], ["4H"]], swept=[1, 3], totals=[18, 5])
    assert [i["sweeps"] for i in items(s)] == [0, 2]


def test_d19_most_cards_and_most_spades_ties_score_nobody(game_id):
    s = over(game_id, [["3S", "4H", "10D"], ["5S", "6H", "7H"]])
    assert [(i["cards"], i["spades"]) for i in items(s)] == [(0, 0), (0, 0)]
    assert totals(s) == [2, 0]


def test_d19_three_players_each_for_themselves_a_tie_for_most_scores_nobody():
    s = over("casino", [["3S", "4H"], ["5S", "6H"], ["7S"]])
    assert [(i["cards"], i["spades"]) for i in items(s)] == [(0, 0), (0, 0), (0, 0)]
    s = over("casino", [["3S", "4S", "5S"], ["6H", "7H"], ["8H"]])
    assert [(i["cards"], i["spades"]) for i in items(s)] == [(3, 1), (0, 0), (0, 0)]


def test_d19_partners_pool_their_captures():
    s = over("casino", [["3S", "4H"], ["5S", "6S", "7S"], ["8S", "9H"], ["AC"]])
    # side 0: 4 cards, 2 spades; side 1: 4 cards, 3 spades and an ace
    assert items(s) == [
        {"cards": 0, "spades": 0, "big_casino": 0, "little_casino": 0, "aces": 0, "sweeps": 0},
        {"cards": 0, "spades": 1, "big_casino": 0, "little_casino": 0, "aces": 1, "sweeps": 0}]
    assert s.score()["sides"][0]["seats"] == [0, 2]


def test_d20_royal_aces_score_one_each():
    s = over("royal_casino", [["AS", "AC", "AH", "AD"], ["2H", "3H", "4H", "5H", "6H"]])
    assert [i["aces"] for i in items(s)] == [4, 0]


# --- D21: royal near 21 ------------------------------------------------------------

WIN_ALL = [["10D", "2S", "AS", "AH", "5S", "6C", "7S"], ["3H"]]


@pytest.mark.parametrize("before,item,points", [(18, "cards", 3), (19, "big_casino", 2),
                                                 (20, "little_casino", 1)])
def test_d21_royal_near_21_scores_only_its_item_and_wins_outright(before, item, points):
    s = over("royal_casino", WIN_ALL, swept=[1, 0], totals=[before, 0])
    score = s.score()
    mine = score["sides"][0]
    assert mine["items"] == {k: (points if k == item else 0) for k in mine["items"]}
    assert mine["total"] == points and before + points == 21
    assert score["outright"] == [0]


@pytest.mark.parametrize("before", [18, 19, 20])
def test_d21_royal_near_21_without_its_item_scores_nothing(before):
    s = over("royal_casino", list(reversed(WIN_ALL)), totals=[before, 0])
    score = s.score()
    assert score["sides"][0]["total"] == 0 and score["outright"] == []
    assert score["sides"][1]["total"] == 9


def test_d21_outright_win_beats_a_side_that_passed_21_by_normal_scoring():
    s = over("royal_casino", [["10D", "3H"], ["2S", "AS", "AH", "5S", "6C", "7S"]],
             totals=[19, 17])
    row_ = s.score()
    assert [side["total"] for side in row_["sides"]] == [2, 7]
    sheet = sheet_of([row(19, 17), row_])
    assert sheet.totals == [21, 24]
    assert ROYAL.match_winner(sheet, ROYAL.Options()) == 0


def test_d21_two_sides_landing_on_21_play_another_hand():
    s = over("royal_casino", [["10D", "3H", "4H", "5H"], ["2S"]], totals=[18, 20])
    row_ = s.score()
    assert row_["outright"] == [0, 1]
    sheet = sheet_of([row(18, 20), row_])
    assert sheet.totals == [21, 21]
    assert ROYAL.match_winner(sheet, ROYAL.Options()) is None


def test_d21_sides_on_21_or_more_after_a_tie_score_everything_but_sweeps():
    s = over("royal_casino", WIN_ALL, swept=[2, 0], totals=[21, 21])
    mine = s.score()["sides"][0]["items"]
    assert mine == {"cards": 3, "spades": 1, "big_casino": 2, "little_casino": 1, "aces": 2,
                    "sweeps": 0}
    assert s.score()["outright"] == []


def test_d21_sides_on_17_or_less_score_normally():
    s = over("royal_casino", WIN_ALL, swept=[1, 0], totals=[17, 0])
    assert s.score()["sides"][0]["total"] == 10


# --- D9, D10: target and match end ----------------------------------------------------


def test_d09_target_is_21_by_default_and_an_option():
    assert CASINO.Options().target == 21 and ROYAL.Options().target == 21
    assert CASINO.Options(target=11).target == 11


@pytest.mark.parametrize("game", [CASINO, ROYAL], ids=["casino", "royal_casino"])
def test_d10_the_highest_total_at_or_above_the_target_wins(game):
    opts = game.Options()
    assert game.match_winner(sheet_of([row(20, 19)]), opts) is None
    assert game.match_winner(sheet_of([row(21, 19)]), opts) == 0
    assert game.match_winner(sheet_of([row(22, 24)]), opts) == 1
    assert game.match_winner(sheet_of([row(23, 25, 10)]), opts) == 1
    assert game.match_winner(sheet_of([row(10, 21, 21)]), opts) is None  # tie: another hand
    assert game.match_winner(sheet_of([row(22, 22)]), opts) is None
    assert game.match_winner(sheet_of([row(22, 22), row(1, 0)]), opts) == 0
    assert game.match_winner(sheet_of([row(8, 12)], target=11), game.Options(target=11)) == 1


def test_d10_the_winner_is_decided_from_the_rows_a_whole_match():
    for game in (CASINO, ROYAL):
        for seed in range(3):
            match = Match(game, game.Options(), seed=seed, players=2, seats=["greedy", "random"])
            match.start()
            play_bots(match, {0: GreedyBot(), 1: RandomBot()})
            assert match.winner is not None
            t = match.sheet.totals
            if not (match.sheet.hands[-1].get("outright")):
                assert t[match.winner] == max(t) >= 21 and t.count(max(t)) == 1


def test_heuristic_prefers_the_sweep():
    s = load("casino", hands=[["10H", "4C"], ["KD"]], table={"loose": ["AC", "2D", "3S", "4H"]},
             to_play=0)
    best = GreedyBot().choose(_info(s), random.Random(1))
    assert best.to_json() == {"type": "capture", "card": "10H", "taken": ["2D", "3S", "4H", "AC"]}


def _info(state):
    from cardcore.engine.bots import InfoSet

    return InfoSet.of(CASINO, state, state.to_play)


# --- review: more clauses as exact scores ---------------------------------------------------------


def test_d20_royal_score_row_lists_the_aces_spades_clubs_hearts_diamonds():
    s = over("royal_casino", [["AD", "AH", "5C"], ["AC", "AS", "3H"]])
    sides = s.score()["sides"]
    assert [side["ace_cards"] for side in sides] == [["AH", "AD"], ["AS", "AC"]]
    assert [side["items"]["aces"] for side in sides] == [2, 2]
    assert [side["counts"]["aces"] for side in sides] == [["AH", "AD"], ["AS", "AC"]]
    s = over("royal_casino", [["AD", "AH", "AC", "AS"], ["3H"]])
    assert s.score()["sides"][0]["ace_cards"] == ["AS", "AC", "AH", "AD"]


def test_d20_aces_a_near_21_side_does_not_score_are_not_listed():
    s = over("royal_casino", [["AS", "5C", "6C"], ["3H"]], totals=[18, 0])
    side = s.score()["sides"][0]
    assert side["items"]["aces"] == 0 and side["ace_cards"] == [] and side["total"] == 3


def test_d19_most_cards_and_spades_exact_row_with_three_players():
    s = over("royal_casino", [["3S", "4S", "5H", "6H"], ["7S", "8S", "9S"], ["10H", "JH", "QH",
                                                                          "KH"]])
    assert [(i["cards"], i["spades"]) for i in items(s)] == [(0, 0), (0, 1), (0, 0)]


def test_d17_royal_sweeps_cancel_within_a_near_21_hand_too():
    # side 0 on 19 swept twice: it scores none, yet cancels two of side 1's three
    s = over("royal_casino", [["10D", "3H"], ["4H"]], swept=[2, 3], totals=[19, 0])
    assert [i["sweeps"] for i in items(s)] == [0, 1]
    assert totals(s) == [2, 1] and s.score()["outright"] == [0]


def test_d21_royal_three_players_one_lands_on_21_and_wins_before_the_others():
    s = over("royal_casino", [["2S", "4H"], ["10D", "AS", "AH", "AC", "5S", "6S", "7S"], ["3H"]],
             totals=[20, 15, 19])
    row_ = s.score()
    assert [side["total"] for side in row_["sides"]] == [1, 9, 0]
    assert row_["outright"] == [0]
    sheet = sheet_of([row(20, 15, 19), row_])
    assert sheet.totals == [21, 24, 19]
    assert ROYAL.match_winner(sheet, ROYAL.Options()) == 0


def test_d21_royal_partners_near_21_pool_their_captures():
    s = over("royal_casino", [["3H"], ["10D"], ["4H"], ["5H"]], totals=[0, 19])
    row_ = s.score()
    assert [side["items"] for side in row_["sides"]][1] == {
        "cards": 0, "spades": 0, "big_casino": 2, "little_casino": 0, "aces": 0, "sweeps": 0}
    assert row_["outright"] == [1]


def test_d21_a_side_on_18_with_a_tie_for_most_cards_scores_nothing():
    s = over("royal_casino", [["3H", "10D"], ["4H", "2S"]], totals=[18, 0])
    row_ = s.score()
    assert [side["total"] for side in row_["sides"]] == [0, 2] and row_["outright"] == []


def test_d10_casino_two_sides_past_the_target_the_higher_wins_a_tie_plays_on():
    assert CASINO.match_winner(sheet_of([row(18, 17), row(4, 6)]), CASINO.Options()) == 1
    assert CASINO.match_winner(sheet_of([row(18, 17), row(4, 6), row(1, 0)]),
                               CASINO.Options()) is None
