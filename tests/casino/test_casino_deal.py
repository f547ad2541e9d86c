"""The deal as played (D4-D8, D22, D23)."""

import random

import pytest

from cardcore.engine.cards import standard_deck
from cardcore.engine.deal import shuffled
from cardcore.engine.seating import Seating

from .helpers import CASINO, ROYAL, expect, legal, load, play


def deal(game, players, dealer, seed=7, **options):
    opts = game.Options(**options)
    seating = Seating(players, dealer=dealer, direction=game.direction(opts),
                      partnerships=players == 4)
    sides = 2 if players == 4 else players
    state = game.new_hand(seating, opts, random.Random(seed), [0] * sides)
    deck = shuffled(standard_deck(), random.Random(seed))
    return state.export(), deck


def test_d04_casino_plays_clockwise_royal_counter_clockwise():
    assert CASINO.direction(CASINO.Options()) == 1
    assert ROYAL.direction(ROYAL.Options()) == -1
    assert CASINO.direction(CASINO.Options(direction="counter_clockwise")) == -1
    assert ROYAL.direction(ROYAL.Options(direction="clockwise")) == 1
    hands = [["5C", "6C"], ["7D", "8D"], ["9H", "10H"]]
    s = load("casino", hands=hands, to_play=0)
    play(s, "trail 5C")
    assert s.to_play == 1
    s = load("royal_casino", hands=hands, to_play=0)
    play(s, "trail 5C")
    assert s.to_play == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_d05_the_dealers_neighbour_in_the_direction_of_play_leads(players):
    for dealer in range(players):
        data, _ = deal(CASINO, players, dealer)
        assert data["to_play"] == (dealer + 1) % players
        data, _ = deal(ROYAL, players, dealer)
        assert data["to_play"] == (dealer - 1) % players


def test_d06_casino_deals_packets_of_two_non_dealers_table_dealer_twice():
    data, d = deal(CASINO, 3, dealer=0)
    # order: seat 1, seat 2, table, dealer 0; twice
    assert data["hands"][1] == d[0:2] + d[8:10]
    assert data["hands"][2] == d[2:4] + d[10:12]
    assert data["table"]["loose"] == d[4:6] + d[12:14]
    assert data["hands"][0] == d[6:8] + d[14:16]
    assert data["stock"] == d[16:]
    assert data["table"]["builds"] == [] and data["dealer"] == 0


def test_d06_casino_one_card_at_a_time_option():
    data, d = deal(CASINO, 2, dealer=1, deal_in_twos=False)
    # order: seat 0, table, dealer 1; four rounds
    assert data["hands"][0] == d[0:12:3]
    assert data["table"]["loose"] == d[1:12:3]
    assert data["hands"][1] == d[2:12:3]
    assert data["stock"] == d[12:]


def test_d06_royal_deals_packets_of_four_counter_clockwise_table_before_dealer():
    data, d = deal(ROYAL, 4, dealer=1)
    # counter-clockwise from the dealer's neighbour: seats 0, 3, 2, table, dealer 1
    assert data["hands"][0] == d[0:4]
    assert data["hands"][3] == d[4:8]
    assert data["hands"][2] == d[8:12]
    assert data["table"]["loose"] == d[12:16]
    assert data["hands"][1] == d[16:20]
    assert data["stock"] == d[20:]


@pytest.mark.parametrize("players,deals", [(2, 6), (3, 4), (4, 3)])
def test_d07_redeal_when_every_hand_is_empty_until_the_stock_is_gone(players, deals):
    for game in (CASINO, ROYAL):
        state = game.new_hand(Seating(players, dealer=0, direction=game.direction(game.Options()),
                                      partnerships=players == 4),
                              game.Options(), random.Random(3), [0] * (2 if players == 4 else players))
        rng = random.Random(5)
        seen_deals = 1
        while not state.is_over:
            before = sum(map(len, state.hands))
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])
            after = sum(map(len, state.hands))
            if after > before:
                seen_deals += 1
                assert all(len(h) == 4 for h in state.hands)
                assert state.to_play == state.deal_order()[0]
        assert seen_deals == deals


def test_d06_later_deals_give_four_each_in_the_same_packets_none_to_the_table():
    stock = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"]
    s = load("casino", hands=[["9D"], ["9C"]], table={"loose": ["KH"]}, stock=stock, dealer=1,
             to_play=0)
    play(s, "trail 9D")
    play(s, "trail 9C")
    data = s.export()
    # casino, dealer 1: seat 0 two, dealer two, twice
    assert data["hands"] == [["AS", "2S", "5S", "6S"], ["3S", "4S", "7S", "8S"]]
    assert data["table"]["loose"] == ["KH", "9D", "9C"]
    assert data["to_play"] == 0
    s = load("royal_casino", hands=[["9D"], ["10C"]], stock=stock, dealer=1, to_play=0)
    play(s, "trail 9D")
    play(s, "trail 10C")
    assert s.export()["hands"] == [["AS", "2S", "3S", "4S"], ["5S", "6S", "7S", "8S"]]


def test_d07_the_last_deal_is_announced():
    stock = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"]
    s = load("casino", hands=[["9D"], ["9C"]], table={"loose": ["KH"]}, stock=stock, dealer=1,
             to_play=0)
    assert not s.last_deal
    assert "last" not in next(z for z in s.zones(None) if z.id == "table").badges
    play(s, "trail 9D")
    action = s.legal_actions()[0]
    assert '"last"' in s.log_line(action)
    s.apply(action)
    assert s.last_deal
    assert "last" in next(z for z in s.zones(0) if z.id == "table").badges
    assert "last" in next(z for z in s.zones(0) if z.id == "stock").badges


def test_d08_leftovers_go_to_the_last_capturer_never_a_sweep():
    s = load("casino", hands=[["5D"], ["KC"]], table={"loose": ["5H", "3C"]}, to_play=0)
    play(s, "capture 5D: 5H")
    play(s, "trail KC")
    data = s.export()
    assert data["to_play"] is None
    assert data["captured"] == [["5H", "5D", "3C", "KC"], []]
    assert data["sweeps"] == [0, 0]
    assert data["table"] == {"loose": [], "builds": []}


def test_d08_with_no_capture_the_leftovers_go_to_nobody():
    s = load("casino", hands=[["5D"], ["KC"]], table={"loose": ["3C"]}, to_play=0)
    play(s, "trail 5D")
    play(s, "trail KC")
    data = s.export()
    assert data["captured"] == [[], []]
    assert data["table"]["loose"] == ["3C", "5D", "KC"]
    assert data["last_capture"] is None


def test_d08_a_last_card_capture_that_empties_the_table_is_a_sweep(game_id):
    s = load(game_id, hands=[["2D"], ["9C"]], table={"loose": ["4H", "5S", "2C"]}, to_play=0)
    play(s, "capture 2D: 2C")
    play(s, "capture 9C: 4H 5S")
    data = s.export()
    assert data["to_play"] is None
    assert data["sweeps"] == [0, 1]
    assert data["captured"] == [["2C", "2D"], ["4H", "5S", "9C"]]


def test_d08_a_last_card_capture_that_leaves_cards_is_no_sweep_and_takes_them():
    s = load("casino", hands=[["9C"], []], table={"loose": ["4H", "5S", "QD"]}, to_play=0)
    play(s, "capture 9C: 4H 5S")
    assert s.export()["captured"][0] == ["4H", "5S", "9C", "QD"]
    assert s.sweeps == [0, 0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_d22_two_three_or_four_players_four_in_partnerships(players):
    assert CASINO.player_counts == ROYAL.player_counts == (2, 3, 4)
    data, _ = deal(CASINO, players, 0)
    assert len(data["hands"]) == players
    s = CASINO.state_from_json(data)
    sides = s.score()["sides"]
    assert [side["seats"] for side in sides] == (
        [[0, 2], [1, 3]] if players == 4 else [[i] for i in range(players)])


def test_d23_the_first_dealer_is_random_and_seeded():
    seating = Seating(3)
    picks = {CASINO.first_dealer(seating, CASINO.Options(), random.Random(i)) for i in range(40)}
    assert picks == {0, 1, 2}
    assert CASINO.first_dealer(seating, CASINO.Options(), random.Random(9)) == \
        CASINO.first_dealer(seating, CASINO.Options(), random.Random(9))
    assert Seating(3, dealer=2).rotated().dealer == 0


def test_d18_sweep_then_trail_only_even_with_cards_that_could_capture_later(game_id):
    s = load(game_id, hands=[["7H", "2D"], ["3C", "3D"]], table={"loose": ["7C"]}, to_play=0)
    play(s, "capture 7H: 7C")
    assert s.sweeps == [1, 0]
    assert legal(s) == expect("trail 3C", "trail 3D")


def test_d06_casino_four_players_two_by_two_dealer_last():
    data, d = deal(CASINO, 4, dealer=2)
    # clockwise from the dealer's left: seats 3, 0, 1, the table, dealer 2; twice
    assert data["hands"][3] == d[0:2] + d[10:12]
    assert data["hands"][0] == d[2:4] + d[12:14]
    assert data["hands"][1] == d[4:6] + d[14:16]
    assert data["table"]["loose"] == d[6:8] + d[16:18]
    assert data["hands"][2] == d[8:10] + d[18:20]
    assert data["stock"] == d[20:] and data["to_play"] == 3


def test_d06_casino_one_at_a_time_later_deals_too():
    stock = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"]
    s = load("casino", hands=[["9D"], ["9C"]], stock=stock, dealer=0, to_play=1,
             options={"deal_in_twos": False})
    play(s, "trail 9C")
    play(s, "trail 9D")
    assert s.export()["hands"] == [["2S", "4S", "6S", "8S"], ["AS", "3S", "5S", "7S"]]
    assert s.to_play == 1


def test_d06_royal_two_players_packets_of_four_then_four_each():
    data, d = deal(ROYAL, 2, dealer=0)
    # counter-clockwise, two players: seat 1, the table, dealer 0
    assert data["hands"][1] == d[0:4]
    assert data["table"]["loose"] == d[4:8]
    assert data["hands"][0] == d[8:12]
    assert data["stock"] == d[12:] and data["to_play"] == 1


def test_d05_the_leader_after_a_later_deal_is_the_dealers_neighbour_not_the_last_player():
    stock = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS"]
    s = load("royal_casino", hands=[["9D"], ["10C"], ["8H"]], stock=stock, dealer=0, to_play=2)
    play(s, "trail 8H")
    play(s, "trail 10C")
    play(s, "trail 9D")
    assert s.to_play == 2 and s.export()["hands"][2] == ["AS", "2S", "3S", "4S"]


def test_d08_with_three_players_the_leftovers_go_to_the_last_capturer_not_the_last_player():
    s = load("casino", hands=[["5D"], ["KC"], ["QC"]], table={"loose": ["5H", "3C"]},
             to_play=0)
    play(s, "capture 5D: 5H")
    play(s, "trail KC")
    play(s, "trail QC")
    data = s.export()
    assert data["captured"] == [["5H", "5D", "3C", "KC", "QC"], [], []]
    assert data["sweeps"] == [0, 0, 0] and data["last_capture"] == 0
