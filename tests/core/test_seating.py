import random

import pytest

from cardcore.engine.seating import (
    COUNTER_CLOCKWISE,
    Seating,
    draw_strength,
    partnership_draw,
    seats_from_draw,
)


def test_clockwise_play_order_and_leader():
    s = Seating(4, dealer=3)
    assert s.next(3) == 0 and s.leader == 0
    assert s.order_from(1) == [1, 2, 3, 0]
    assert s.deal_order() == [0, 1, 2, 3]


def test_counter_clockwise_order():
    s = Seating(3, dealer=0, direction=COUNTER_CLOCKWISE)
    assert s.leader == 2
    assert s.deal_order() == [2, 1, 0]


def test_dealer_rotates_to_the_left():
    s = Seating(3, dealer=2)
    assert s.rotated().dealer == 0 and s.rotated().rotated().dealer == 1


def test_partnerships_side_is_seat_mod_two():
    s = Seating(4, partnerships=True)
    assert [s.side_of(i) for i in range(4)] == [0, 1, 0, 1]
    assert s.sides == 2 and s.seats_of(1) == [1, 3] and s.partner(1) == 3
    assert s.side_names == ("South & North", "West & East")
    solo = Seating(3)
    assert solo.sides == 3 and [solo.side_of(i) for i in range(3)] == [0, 1, 2]


def test_core_is_not_limited_to_four_seats():
    s = Seating(6, partnerships=True)
    assert s.sides == 2 and s.seats_of(0) == [0, 2, 4]


def test_bad_seating_is_refused():
    with pytest.raises(ValueError):
        Seating(1)
    with pytest.raises(ValueError):
        Seating(3, partnerships=True)
    with pytest.raises(ValueError):
        Seating(2, dealer=2)


def test_draw_ranks_by_rank_then_suit():
    assert draw_strength("AS") > draw_strength("KS") > draw_strength("2S")
    assert draw_strength("7S") > draw_strength("7H") > draw_strength("7D") > draw_strength("7C")
    assert draw_strength("3C") > draw_strength("2S")


def test_only_tied_players_draw_again_on_identical_card_or_joker():
    # the draw deck is popped from the end: give player 0 a joker, 1 and 2 the same card
    deck = ["4H", "9C", "QD", "5S", "KD", "7H", "7H", "JK"]
    draw = partnership_draw(4, random.Random(0), deck=list(deck))
    first = draw.rounds[0]
    tied = sorted(p for p, c in first.items() if c == "JK" or list(first.values()).count(c) > 1)
    assert sorted(draw.rounds[1]) == tied
    assert len(draw.ranking) == 4 and sorted(draw.ranking) == [0, 1, 2, 3]


def test_draw_is_seeded_and_ranking_follows_the_cards():
    a = partnership_draw(4, random.Random(5))
    assert a == partnership_draw(4, random.Random(5))
    final = {}
    for r in a.rounds:
        final.update(r)
    assert list(a.ranking) == sorted(range(4), key=lambda p: draw_strength(final[p]), reverse=True)


def test_the_two_highest_sit_together():
    draw = partnership_draw(4, random.Random(11))
    where = seats_from_draw(draw)
    hi, second = draw.ranking[0], draw.ranking[1]
    assert where[hi] % 2 == where[second] % 2
    assert sorted(where) == [0, 1, 2, 3]
