import random

import pytest

from cardcore.engine.cards import standard_deck
from cardcore.engine.deal import TABLE, cut, deal, one_at_a_time, packets, shuffle, shuffled


def test_same_seed_same_deck():
    a = shuffled(standard_deck(), random.Random("7:1"))
    b = shuffled(standard_deck(), random.Random("7:1"))
    c = shuffled(standard_deck(), random.Random("7:2"))
    assert a == b and a != c
    assert sorted(a) == sorted(standard_deck())
    # a fixed seed gives a fixed deck everywhere (Python's Mersenne Twister is portable)
    assert shuffled(standard_deck(), random.Random(1))[:3] == ["JC", "10S", "QD"]
    # string seeds (the match's "seed:hand") hash with SHA-512, not PYTHONHASHSEED
    assert a[:3] == ["8H", "3H", "AD"]


def test_cut_moves_a_packet_from_top_to_bottom():
    deck = standard_deck()
    after = cut(deck, random.Random(3))
    at = after.index(deck[0])
    assert 4 <= len(deck) - at <= 48
    assert after == deck[len(deck) - at:] + deck[:len(deck) - at]


def test_two_by_two_with_table_packet_before_the_dealer():
    # two players, dealer 0: opponent 2, table 2, dealer 2, twice
    plan = packets([1, 0], 2, table=2, rounds=2)
    assert plan == [(1, 2), (TABLE, 2), (0, 2), (1, 2), (TABLE, 2), (0, 2)]
    stock = [f"{r}S" for r in "A23456789"] + ["10S", "JS", "QS", "KS"]
    hands, table = deal(stock, plan, 2)
    assert hands[1] == ["AS", "2S", "7S", "8S"]
    assert table == ["3S", "4S", "9S", "10S"]
    assert hands[0] == ["5S", "6S", "JS", "QS"]
    assert stock == ["KS"]


def test_one_at_a_time_and_whole_packets():
    stock = standard_deck()
    hands, table = deal(stock, one_at_a_time([1, 2, 0], 2), 3)
    assert hands == [["3S", "6S"], ["AS", "4S"], ["2S", "5S"]] and table == []
    stock = standard_deck()
    hands, table = deal(stock, packets([1, 0], 4, table=4), 2)
    assert hands[1] == standard_deck()[:4] and table == standard_deck()[4:8]
    assert hands[0] == standard_deck()[8:12] and len(stock) == 40


def test_deal_refuses_a_plan_bigger_than_the_stock():
    stock = ["AS", "2S"]
    with pytest.raises(ValueError, match="needs 3 cards"):
        deal(stock, [(0, 3)], 1)
    assert stock == ["AS", "2S"]


def test_shuffle_is_the_standard_librarys_order_from_the_same_stream():
    for n in (0, 1, 2, 7, 52, 108, 300):
        for seed in range(5):
            ours, theirs = list(range(n)), list(range(n))
            a, b = random.Random(seed), random.Random(seed)
            shuffle(ours, a)
            b.shuffle(theirs)
            assert ours == theirs and a.random() == b.random()  # the streams stay in step


def test_shuffle_leaves_a_generator_of_another_kind_to_its_own_shuffle():
    class Counting(random.Random):
        calls = 0

        def shuffle(self, x):  # type: ignore[override]
            Counting.calls += 1
            super().shuffle(x)

    cards = list(range(10))
    shuffle(cards, Counting(3))
    assert Counting.calls == 1 and sorted(cards) == list(range(10))
