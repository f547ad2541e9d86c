from collections import Counter

import pytest

from cardcore.engine.cards import (
    Card,
    CardError,
    Suit,
    canasta_deck,
    card,
    check_cards,
    glyph,
    parse_card,
    standard_deck,
)


@pytest.mark.parametrize("text, expected", [
    ("AS", "AS"), ("as", "AS"), ("10d", "10D"), ("TD", "10D"), ("td", "10D"),
    ("qh", "QH"), (" 7c ", "7C"), ("jk", "JK"), ("JK", "JK"),
])
def test_parse_accepts_any_case_and_t_for_ten(text, expected):
    assert parse_card(text) == expected


@pytest.mark.parametrize("bad", ["", "1S", "11H", "AX", "S", "10", "JKR", "ZZ", "A S"])
def test_parse_rejects_anything_else_naming_the_text(bad):
    with pytest.raises(CardError) as exc:
        parse_card(bad)
    assert repr(bad) in str(exc.value)


def test_parse_rejects_non_strings():
    with pytest.raises(CardError):
        parse_card(10)  # type: ignore[arg-type]


def test_card_fields_and_glyphs():
    assert card("10D") == Card(10, Suit.DIAMONDS)
    assert card("KS").rank == 13 and card("AS").rank == 1
    assert card("JK").is_joker and str(card("JK")) == "JK"
    assert glyph("10D") == "10♦" and glyph("AS") == "A♠"
    assert Suit.HEARTS.is_red and not Suit.CLUBS.is_red


def test_standard_deck_has_52_distinct_cards():
    deck = standard_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    assert all(parse_card(c) == c for c in deck)


def test_canasta_deck_is_two_decks_and_four_jokers():
    deck = canasta_deck()
    counts = Counter(deck)
    assert len(deck) == 108
    assert counts["JK"] == 4
    assert all(counts[c] == 2 for c in standard_deck())


def test_check_cards_refuses_unknown_and_extra_copies():
    check_cards(["AS", "AS"], canasta_deck())
    with pytest.raises(CardError, match="AS appears 2 times, the deck has 1"):
        check_cards(["AS", "AS"], standard_deck())
    with pytest.raises(CardError, match="JK"):
        check_cards(["JK"], standard_deck())


def test_cards_named_in_words_in_english_and_indonesian():
    from cardcore.engine.cards import Suit, card_name, glyph, rank_name
    from cardcore.language import speaking

    assert [card_name(c) for c in ("AS", "10H", "KD", "JC", "JK")] == [
        "ace of spades", "10 of hearts", "king of diamonds", "jack of clubs", "joker"]
    with speaking("id"):
        assert [card_name(c) for c in ("AS", "10H", "KD", "JC", "QS", "JK")] == [
            "As sekop", "10 hati", "King wajik", "Jack keriting", "Queen sekop", "Joker"]
        assert [s.word for s in Suit] == ["sekop", "hati", "wajik", "keriting"]
        assert rank_name("7") == "7" and rank_name("A") == "As"
        assert glyph("10D") == "10♦" and glyph("JK") == "Jkr"  # the short forms are the same
    assert rank_name("A") == "ace"
