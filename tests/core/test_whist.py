"""The Whist example's rules as positions: follow suit, trumps, the lead passing to the
taker, odd tricks scored; loading refuses what play cannot reach; check_game passes."""

import random

import pytest

from cardcore import IllegalAction, StateError
from cardcore.engine.kit import Trick
from cardcore.engine.testing import check_game
from cardcore_whist.game import Play

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def taken(moves: str, leader: int = 0) -> tuple[list[dict], int]:
    """Tricks taken, one per letter, each of one rank (2, 3, ...), trumps spades: ``k`` the
    leader leads the spade and keeps the lead, ``p`` the next seat trumps the heart led and
    takes it. The tricks (as exported) and the seat that leads next."""
    done = []
    for rank, move in zip(RANKS, moves, strict=False):
        suits = "SHDC" if move == "k" else "HSDC"
        seats = [(leader + i) % 4 for i in range(4)]
        leader = leader if move == "k" else (leader + 1) % 4
        done.append({"winner": leader, "plays": [[s, rank + suit] for s, suit in zip(seats, suits,
                                                                                      strict=True)]})
    return done, leader


def position(hands, plays=(), done=(), to_play=0, trump="S"):
    """Dealer East (3): South (0) leads first."""
    return {"game": "whist", "players": 4, "dealer": 3, "to_play": to_play, "hands": hands,
            "trick": {"plays": [list(p) for p in plays], "done": list(done), "trump": trump}}


def labels(state):
    return [a.label for a in state.legal_actions()]


def test_the_lead_is_any_card(whist):
    state = whist.state_from_json(position([["2H", "KS", "AD"], ["3C"], ["4C"], ["5C"]]))
    assert labels(state) == ["Play 2♥", "Play K♠", "Play A♦"]


def test_a_player_follows_suit_when_they_can(whist):
    state = whist.state_from_json(position([["2C"], ["3H", "AS", "KH"], ["4D"], ["5D"]],
                                           plays=[(0, "QH")], to_play=1))
    assert labels(state) == ["Play 3♥", "Play K♥"]
    before = state.export()
    with pytest.raises(IllegalAction):
        state.apply(Play("AS"))  # a revoke: refused, nothing changed
    assert state.export() == before


def test_a_player_void_in_the_suit_led_plays_any_card(whist):
    state = whist.state_from_json(position([["2C"], ["3D", "AS"], ["4D"], ["5D"]],
                                           plays=[(0, "QH")], to_play=1))
    assert labels(state) == ["Play 3♦", "Play A♠"]


def test_the_highest_trump_takes_the_trick_and_its_taker_leads(whist):
    state = whist.state_from_json(position([["2C"], ["3C"], ["4D"], ["2S", "KD"]],
                                           plays=[(0, "QH"), (1, "AH"), (2, "3S")], to_play=3))
    assert labels(state) == ["Play 2♠", "Play K♦"]
    assert state.log_line(Play("KD")) == "Play K♦ · North takes the trick"
    state.apply(Play("KD"))  # no better trump: North's three of trumps takes it
    assert state.trick.done == [(2, ((0, "QH"), (1, "AH"), (2, "3S"), (3, "KD")))]
    assert state.to_play == 2 and labels(state) == ["Play 4♦"]


def test_without_a_trump_the_highest_of_the_suit_led_takes_it(whist):
    state = whist.state_from_json(position([["2C"], ["3C"], ["4D"], ["AD", "KC"]],
                                           plays=[(0, "QH"), (1, "AH"), (2, "KH")], to_play=3))
    state.apply(Play("AD"))  # the ace of diamonds is off suit: West's ace of hearts takes it
    assert state.trick.last[0] == 1 and state.to_play == 1


def test_odd_tricks_over_six_score_for_the_side_that_took_them(whist):
    done, leader = taken("kkkkkkkkpkkk")  # South takes 8, then West 4 and the lead
    assert leader == 1
    state = whist.state_from_json(position([["AC"], [], [], []], done=done, to_play=0,
                                           plays=[(1, "AH"), (2, "AS"), (3, "AD")]))
    assert labels(state) == ["Play A♣"]
    state.apply(Play("AC"))  # North trumps the last trick: South & North 9 tricks
    assert state.is_over and state.legal_actions() == []
    assert whist.heuristic(state, 2) == 3 and whist.heuristic(state, 3) == -3  # the margin
    assert state.score() == {"sides": [
        {"seats": [0, 2], "items": {"odd_tricks": 3}, "total": 3, "counts": {"tricks_taken": 9}},
        {"seats": [1, 3], "items": {"odd_tricks": 0}, "total": 0, "counts": {"tricks_taken": 4}}]}


def test_six_tricks_each_side_scores_nothing_and_seven_score_one(whist):
    done, leader = taken("kkkkkkpkkkkkk")  # South 6, West 7
    state = whist.state_from_json(position([[], [], [], []], done=done, to_play=None))
    assert state.is_over and [s["total"] for s in state.score()["sides"]] == [0, 1]


@pytest.mark.parametrize(("change", "words", "path"), [
    ({"trump": None}, "trick.trump: whist always has trumps", ("trick", "trump")),
    ({"to_play": 2}, "to_play: 2 is not the seat to play", ("to_play",)),
    ({"plays": [(1, "QH")]}, r"trick.plays: not played in turn from seat 0", ("trick", "plays")),
])
def test_loading_refuses_what_play_cannot_reach(whist, change, words, path):
    data = position([["2C"], ["3H"], ["4D"], ["5D"]], plays=[(0, "QH")], to_play=1)
    trump = change.pop("trump", "S")
    data = {**data, **{k: v for k, v in change.items() if k == "to_play"}}
    data["trick"] = {**data["trick"], "trump": trump}
    if "plays" in change:
        data["trick"]["plays"] = [list(p) for p in change["plays"]]
    with pytest.raises(StateError, match=words) as caught:
        whist.state_from_json(data)
    assert caught.value.path == path


def test_a_trick_taken_by_the_wrong_seat_or_hands_of_the_wrong_size_do_not_load(whist):
    done, _ = taken("k")
    done[0]["winner"] = 1
    with pytest.raises(StateError, match=r"trick.done\[0\].winner: seat 1 did not take it"):
        whist.state_from_json(position([["3C"], [], [], []], done=done, to_play=1))
    state = whist.new_hand(whist.seating(4, whist.Options(), dealer=3), whist.Options(),
                           random.Random(2), [0, 0])
    data = state.export()
    data["hands"][0], data["hands"][1] = data["hands"][0][:-1], data["hands"][1] + data["hands"][0][-1:]
    with pytest.raises(StateError, match=r"hands\[0\]: 12 cards") as caught:
        whist.state_from_json(data, strict=True)
    assert caught.value.path == ("hands", 0)


def test_a_new_hand_turns_the_dealers_last_card_for_trumps(whist):
    seating = whist.seating(4, whist.Options(), dealer=2)
    state = whist.new_hand(seating, whist.Options(), random.Random(9), [0, 0])
    from cardcore.engine.cards import standard_deck
    from cardcore.engine.deal import deal, one_at_a_time, shuffled

    hands, _ = deal(shuffled(standard_deck(), random.Random(9)), one_at_a_time(seating.deal_order(), 13), 4)
    assert state.trick == Trick(trump=hands[2][-1][-1]) and state.to_play == 3
    assert [len(h) for h in state.hands] == [13] * 4 and hands[2][-1] in state.hands[2]


@pytest.mark.slow
def test_whist_passes_check_game(whist):
    report = check_game(whist)
    assert report.hands == 14 and report.matches == 3
