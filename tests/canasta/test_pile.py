"""The start, red threes and the discard pile: D27-D32 and the one-card rule."""

import random

import pytest

from cardcore.engine.seating import Seating

from .helpers import GAME, play, position, steps

SEVENS = [{"rank": "7", "cards": ["7S", "7H", "7D"]}]
KINGS = [{"rank": "K", "cards": ["KS", "KH", "KD"]}]


def draw_position(hand, discard, **fields):
    fields.setdefault("melds", [KINGS, []])
    return position(phase="draw", hands=[hand, [], [], []], discard=discard, **fields)


@pytest.mark.parametrize("seed", range(40))
def test_d27_d28_the_deal_upcard_and_dealt_red_threes(seed):
    dealer = seed % 4
    st = GAME.new_hand(Seating(4, dealer=dealer, partnerships=True), GAME.Options(),
                       random.Random(seed), [0, 0])
    data = st.export()
    assert data["to_play"] == (dealer + 1) % 4 and data["phase"] == "draw"
    assert [len(h) for h in data["hands"]] == [11] * 4
    assert not any(c in ("3H", "3D") for h in data["hands"] for c in h)
    *under, top = data["discard"]
    assert top[:-1] not in ("2", "3") and top != "JK"
    assert all(c == "JK" or c[:-1] in ("2", "3") for c in under)
    assert data["frozen"] == bool(under)  # every covered card is a wild card or a three
    laid = sum(len(r) for r in data["red_threes"])
    assert len(data["stock"]) == 108 - 44 - len(data["discard"]) - laid


def test_d27_upcard_covered_and_frozen_in_a_known_deal(monkeypatch):
    # stack the deck: 44 cards dealt, then the stock 2C 3S 9H ... (2C turned first)
    import cardcore_canasta.game as game_module

    deck = [f"{r}{s}" for r in ("4", "5", "6", "7", "8", "10", "J", "Q", "K", "A", "9")
            for s in "SHDC"] * 2 + ["JK"] * 4
    top = ["2C", "3S", "9H"]
    rest = [c for c in deck]
    for c in top + ["3H"]:
        if c in rest:
            rest.remove(c)
    order = rest[:43] + ["3H"] + top + rest[43:]

    monkeypatch.setattr(game_module, "shuffled", lambda d, rng: list(order))
    monkeypatch.setattr(game_module, "cut", lambda s, rng: s)
    monkeypatch.setattr(game_module, "canasta_deck", lambda: list(order))
    st = GAME.new_hand(Seating(4, dealer=3, partnerships=True), GAME.Options(),
                       random.Random(0), [0, 0])
    data = st.export()
    assert data["discard"] == ["2C", "3S", "9H"] and data["frozen"]
    # the 44th card (to the dealer, seat 3) was 3H: laid out for side 1 and replaced
    assert data["red_threes"] == [[], ["3H"]]
    assert len(data["hands"][3]) == 11


def test_d28_a_red_three_drawn_is_laid_out_and_replaced():
    st = draw_position(["9C", "9D"], ["5H"], stock=["3D", "3H", "QC", "4C"])
    play(st, "draw")
    data = st.export()
    assert data["red_threes"] == [["3H", "3D"], []]
    assert data["hands"][0] == ["9D", "9C", "QC"] and data["stock"] == ["4C"]
    assert data["phase"] == "play"


def test_d28_a_red_three_taken_with_the_pile_is_laid_out_not_replaced():
    st = draw_position(["9C", "9D", "4H"], ["3H", "5D", "9S"])
    assert steps(st) == {"draw", "take 9D 9C"}
    play(st, "take 9D 9C")
    data = st.export()
    assert data["red_threes"] == [["3H"], []]
    assert data["hands"][0] == ["5D", "4H"]  # the card taken first: known to all (D47)
    assert data["known"]["hands"][0] == [{"card": "5D", "to": None}]
    assert data["melds"][0][0] == {"rank": "9", "cards": ["9S", "9D", "9C"]}
    assert data["discard"] == [] and not data["frozen"] and data["turn"]["new_ranks"] == ["9"]


def test_d29_before_the_first_meld_a_natural_pair_and_the_minimum():
    # side total 0: 50 needed; 8 8 8 (top 8) is 30, with the aces 90
    hand = ["8S", "8H", "AS", "AH", "AD", "8D", "2C", "5C"]
    st = draw_position(hand, ["QC", "8C"], melds=[[], []])
    # minimal sets only: 8 8 8 8 + A A A (100) is 8 8 8 + A A A (90) and an add after
    assert steps(st) == {
        "draw",
        "take 8S 8H 2C",  # 8 8 8 2 = 50
        "take 8S 8H | AS AH AD",  # 30 + 60
        "take 8S 8H | AS AH 2C",  # 30 + 60
    }
    # one natural and a wild card is not enough before the first meld
    st = draw_position(["8S", "2C", "AS", "AH", "AD", "5C"], ["8C"], melds=[[], []])
    assert steps(st) == {"draw"}


def test_d29_first_meld_by_the_pile_then_the_pile_is_open():
    st = draw_position(["8S", "8H", "AS", "AH", "AD", "5C"], ["QC", "8C"], melds=[[], []])
    play(st, "take 8S 8H | AS AH AD")
    data = st.export()
    assert data["initial_meld_done"] == [True, False]
    assert data["melds"][0] == [{"rank": "8", "cards": ["8S", "8H", "8C"]},
                                {"rank": "A", "cards": ["AS", "AH", "AD"]}]
    assert data["hands"][0] == ["QC", "5C"] and data["turn"]["new_ranks"] == ["8", "A"]


def test_d30_unfrozen_pile_pair_natural_and_wild():
    st = draw_position(["9S", "9H", "2C", "JK", "5C"], ["4D", "9C"])
    assert steps(st) == {"draw", "take 9S 9H", "take 9S 2C", "take 9S JK"}


def test_d30_d32_onto_a_meld_of_the_side():
    # the partner's meld of kings is the side's: the top king goes onto it
    st = draw_position(["4H", "5H"], ["8D", "KC"])
    assert steps(st) == {"draw", "onto K"}
    play(st, "onto K")
    data = st.export()
    assert data["melds"][0] == [{"rank": "K", "cards": ["KS", "KH", "KD", "KC"]}]
    assert data["hands"][0] == ["8D", "4H", "5H"] and data["turn"]["added_to_earlier"]
    # not onto the opponents' meld
    st = draw_position(["4H", "5H"], ["8D", "KC"], melds=[SEVENS, KINGS])
    assert steps(st) == {"draw"}


def test_d31_frozen_pile_needs_natural_pair():
    st = draw_position(["9S", "9H", "2C", "JK", "5C"], ["JK", "4D", "9C"])
    assert st.export()["frozen"]
    assert steps(st) == {"draw", "take 9S 9H"}
    st = draw_position(["9S", "2C", "JK", "5C"], ["2D", "4D", "9C"])
    assert steps(st) == {"draw"}


def test_d31_frozen_pile_and_a_meld_of_that_rank_the_pair_goes_onto_it():
    st = draw_position(["KC", "KS", "5C"], ["JK", "4D", "KH"])
    assert steps(st) == {"draw", "take KS KC"}
    play(st, "take KS KC")
    assert st.export()["melds"][0] == [
        {"rank": "K", "cards": ["KS", "KS", "KH", "KH", "KD", "KC"]}]


def test_d31_a_wild_card_or_black_three_on_top_is_never_taken():
    for top in ("JK", "2S", "3C"):
        st = draw_position(["KC", "KS", "9C", "9D", "JK"], ["9H", top])
        assert steps(st) == {"draw"}, top


def test_d31_black_three_freezes_by_option():
    st = draw_position(["9S", "2C", "5C"], ["3S", "4D", "9C"])
    assert st.export()["frozen"] and steps(st) == {"draw"}
    st = draw_position(["9S", "2C", "5C"], ["3S", "4D", "9C"],
                       options={"black_three_freezes": False})
    assert not st.export()["frozen"] and steps(st) == {"draw", "take 9S 2C"}
    # without the option, a black three on top still stops the next player
    st = draw_position(["3C", "3S", "5C"], ["3S"], options={"black_three_freezes": False})
    assert steps(st) == {"draw"}


def test_d31_the_freeze_ends_when_the_pile_is_taken():
    st = draw_position(["9S", "9H", "5C", "6C", "JD"], ["JK", "4D", "9C"])
    play(st, "take 9S 9H")
    play(st, "discard JD")
    assert not st.export()["frozen"] and st.export()["discard"] == ["JD"]


def test_d34_one_card_may_not_take_a_pile_of_one_card():
    st = draw_position(["KC"], ["KH"])
    assert steps(st) == {"draw"}
    st = draw_position(["KC"], ["4S", "KH"])
    assert steps(st) == {"draw", "onto K"}


def test_taking_never_strands_the_taker_on_one_card_without_a_canasta():
    # 9 9 with a pile of one 9: nothing left in hand, and no canasta to go out with
    st = draw_position(["9S", "9H"], ["9C"])
    assert steps(st) == {"draw"}
    canasta = [{"rank": "K", "cards": ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]}]
    st = draw_position(["9S", "9H"], ["9C"], melds=[canasta, []])
    assert steps(st) == {"draw", "take 9S 9H"}
    play(st, "take 9S 9H")
    assert st.is_over and st.export()["went_out"] == 0


def _stacked_hand(monkeypatch, order, options=None, dealer=3):
    """Deal ``order`` as it stands (first card to the dealer's left, one at a time)."""
    import cardcore_canasta.game as game_module

    monkeypatch.setattr(game_module, "shuffled", lambda d, rng: list(order))
    monkeypatch.setattr(game_module, "cut", lambda s, rng: s)
    return GAME.new_hand(Seating(4, dealer=dealer, partnerships=True),
                         options or GAME.Options(), random.Random(0), [0, 0])


def _deck_with(front: list[str]) -> list[str]:
    """The 108 cards with ``front`` first (the rest in a fixed order, no threes or wilds
    among the first cards after it)."""
    from cardcore.engine.cards import canasta_deck

    rest = canasta_deck()
    for c in front:
        rest.remove(c)
    # naturals first so that nothing after ``front`` is covered or replaced by chance
    rest.sort(key=lambda c: (c == "JK" or c[:-1] in ("2", "3"), c))
    return front + rest


def test_d28_dealt_red_threes_replaced_in_play_order_from_the_first_player(monkeypatch):
    # dealer 3: seat 0 plays first. Seat 0 is dealt 3H (card 1), seat 2 is dealt 3D
    # (card 3). Card 45 is the upcard (9H); then seat 0 replaces first: 3H (laid out
    # too), then KS; seat 2 then gets QD.
    filler = [c for c in _deck_with([]) if c[:-1] in ("4", "5", "6", "7", "8", "10")][:42]
    front = ["3H"] + filler[:1] + ["3D"] + filler[1:42] + ["9H", "3H", "KS", "QD"]
    st = _stacked_hand(monkeypatch, _deck_with(front))
    data = st.export()
    assert data["discard"] == ["9H"] and not data["frozen"]
    assert data["red_threes"] == [["3H", "3H", "3D"], []]
    assert "KS" in data["hands"][0] and "QD" not in data["hands"][0]
    assert "QD" in data["hands"][2]
    assert [len(h) for h in data["hands"]] == [11] * 4
    assert data["to_play"] == 0 and data["phase"] == "draw"


@pytest.mark.parametrize("b3", [True, False])
def test_d27_a_black_three_turned_up_is_covered_and_freezes_by_option(monkeypatch, b3):
    filler = [c for c in _deck_with([]) if c[:-1] in ("4", "5", "6", "7", "8", "10")][:44]
    st = _stacked_hand(monkeypatch, _deck_with(filler + ["3C", "9H"]),
                       GAME.Options(black_three_freezes=b3))
    data = st.export()
    assert data["discard"] == ["3C", "9H"] and data["frozen"] is b3
    for upcard in ("JK", "2D", "3H"):  # wild cards and red threes always freeze
        st = _stacked_hand(monkeypatch, _deck_with(filler + [upcard, "9H"]),
                           GAME.Options(black_three_freezes=b3))
        assert st.export()["discard"] == [upcard, "9H"] and st.export()["frozen"], upcard


def test_d29_d31_a_frozen_pile_before_the_first_meld_pair_and_minimum():
    # frozen by a joker, the side has not melded: a natural pair and 50 with the top card
    st = draw_position(["KS", "KH", "2C", "AS", "AH", "AD", "5C"], ["JK", "4D", "KC"],
                       melds=[[], []])
    assert steps(st) == {"draw", "take KS KH 2C", "take KS KH | AS AH AD",
                         "take KS KH | AS AH 2C"}
    # one king and a wild card: not before the first meld, frozen or not
    st = draw_position(["KS", "2C", "JK", "AS", "AH", "AD", "5C"], ["JK", "4D", "KC"],
                       melds=[[], []])
    assert steps(st) == {"draw"}
    st = draw_position(["KS", "2C", "JK", "AS", "AH", "AD", "5C"], ["4D", "KC"],
                       melds=[[], []])
    assert steps(st) == {"draw"}


def test_d30_the_side_that_has_melded_and_the_side_that_has_not():
    # one unfrozen pile, 9 on top: side 0 (melded) may take with 9 + wild card; side 1
    # (no meld yet) needs a natural pair and the minimum
    st = position(phase="draw", to_play=0, hands=[["9S", "2C", "5C"], [], [], []],
                  discard=["4D", "9C"], melds=[KINGS, []])
    assert steps(st) == {"draw", "take 9S 2C"}
    st = position(phase="draw", to_play=1, hands=[[], ["9S", "2C", "5C"], [], []],
                  discard=["4D", "9C"], melds=[KINGS, []])
    assert steps(st) == {"draw"}


def test_d33_empty_stock_frozen_pile_the_pair_onto_a_meld_is_not_forced():
    # frozen: the top king cannot go onto the kings alone, only with a natural pair;
    # taking is then allowed, not compulsory (the hand may end)
    st = position(phase="draw", stock=[], hands=[["KS", "KH", "5H", "6H"], [], [], []],
                  discard=["2C", "KC"], melds=[KINGS, []])
    assert steps(st) == {"take KS KH", "decline"}
