"""Cards, suits, ranks, the text notation and the decks.

Files name cards by notation only (``AS``, ``10D``, ``QH``, ``JK``). The two
copies of a card in the 108-card deck are the same string, so they are
interchangeable everywhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from enum import Enum
from typing import NamedTuple

from cardcore.language import N_, _


class CardError(ValueError):
    """A card string that is not in the notation."""


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def glyph(self) -> str:
        return _GLYPHS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def word(self) -> str:
        """The suit's name for people, in the language in use ("spades", "sekop")."""
        return _(_SUIT_WORDS[self])


_GLYPHS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_WORDS = {Suit.SPADES: N_("spades"), Suit.HEARTS: N_("hearts"),
               Suit.DIAMONDS: N_("diamonds"), Suit.CLUBS: N_("clubs")}

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
JOKER = "JK"


class Card(NamedTuple):
    """A parsed card: rank 1 (ace) to 13 (king), or 0 with suit None for a joker."""

    rank: int
    suit: Suit | None

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def rank_text(self) -> str:
        return "JK" if self.suit is None else RANKS[self.rank - 1]

    def __str__(self) -> str:
        return JOKER if self.suit is None else RANKS[self.rank - 1] + self.suit.value

    @property
    def glyph(self) -> str:
        """``A♠``, ``10♦``, ``🃏``-free joker text for the screen."""
        return "Jkr" if self.suit is None else RANKS[self.rank - 1] + self.suit.glyph


#: The ranks people name in words; the others by their number. The short forms (A, J, Q,
#: K, the notation's) are the same in every language cardcore speaks (docs/glossary.md).
_RANK_WORDS = {"A": N_("ace"), "J": N_("jack"), "Q": N_("queen"), "K": N_("king"),
               JOKER: N_("joker")}


def rank_name(rank: str) -> str:
    """One card of ``rank`` (``A``, ``7``, ``K``, ``JK``) named for people, in the language
    in use: "ace", "7", "king" ("As", "7", "King" in Indonesian)."""
    word = _RANK_WORDS.get(rank)
    return rank if word is None else _(word)


def card_name(text: str) -> str:
    """A card in notation named in words: ``AS`` -> "ace of spades" ("As sekop")."""
    parsed = card(text)
    if parsed.suit is None:
        return rank_name(JOKER)
    return _("{rank} of {suit}").format(rank=rank_name(parsed.rank_text),
                                          suit=parsed.suit.word)


def parse_card(text: str) -> str:
    """The canonical notation of ``text`` (any case, ``T`` for 10), or CardError."""
    if type(text) is str and text in _CANONICAL:  # the usual case: a card as exported
        return _CANONICAL[text]
    if not isinstance(text, str):
        raise CardError(f"not a card: {text!r}")
    key = text.strip().upper()
    card = _CANONICAL.get(key)
    if card is None:
        raise CardError(f"not a card: {text!r} (write rank then suit, e.g. AS, 10D, QH, JK)")
    return card


def card(text: str) -> Card:
    """Parse ``text`` into a Card."""
    return _PARSED[parse_card(text)]


def parse_cards(texts: Iterable[str]) -> list[str]:
    return [parse_card(t) for t in texts]


def glyph(text: str) -> str:
    """Display text of a card in notation: ``10D`` -> ``10♦``."""
    return _GLYPH_OF.get(text, text)


def glyphs(texts: Iterable[str]) -> str:
    return " ".join(glyph(t) for t in texts)


def deck(ranks: Iterable[str] = RANKS, *, without_ranks: Iterable[str] = (),
         suits: Iterable[str] = SUITS, jokers: int = 0, copies: int = 1) -> list[str]:
    """A deck by spec, suit by suit (spades to clubs) in rank order, ``copies`` times over,
    then the jokers: ``deck(without_ranks="8 9 10".split())`` is the 40-card deck."""
    ranks, suits, dropped = list(ranks), list(suits), set(without_ranks)
    unknown = [r for r in [*ranks, *dropped] if r not in RANKS] + [s for s in suits if s not in SUITS]
    if unknown:
        raise CardError(f"deck: no rank or suit {unknown[0]!r} (ranks {' '.join(RANKS)}, "
                        f"suits {' '.join(SUITS)})")
    if copies < 1 or jokers < 0:
        raise ValueError("deck: copies is 1 or more, jokers 0 or more")
    one = [r + s for s in suits for r in ranks if r not in dropped]
    return one * copies + [JOKER] * jokers


def standard_deck() -> list[str]:
    """The 52 cards, spades to clubs, ace to king."""
    return deck()


def forty_card_deck() -> list[str]:
    """The Italian and Spanish 40 cards: no 8, 9 or 10 (A 2..7 J Q K in each suit)."""
    return deck(without_ranks=("8", "9", "10"))


def double_deck(jokers: int = 0) -> list[str]:
    """Two standard decks (104 cards) and ``jokers``."""
    return deck(copies=2, jokers=jokers)


def canasta_deck() -> list[str]:
    """108 cards: two standard decks and four jokers."""
    return double_deck(jokers=4)


def check_cards(cards: Iterable[str], deck: Iterable[str], what: str = "cards") -> None:
    """CardError unless every card is in ``deck`` and none more often than the deck has it."""
    have = Counter(cards)
    allowed = Counter(deck)
    for c, n in have.items():
        if c not in allowed:
            raise CardError(f"{what}: {c!r} is not a card of this deck")
        if n > allowed[c]:
            raise CardError(f"{what}: {c} appears {n} times, the deck has {allowed[c]}")


def _canonical_table() -> dict[str, str]:
    table = {JOKER: JOKER}
    for s in SUITS:
        for r in RANKS:
            table[r + s] = r + s
        table["T" + s] = "10" + s
    return table


_CANONICAL = _canonical_table()
_PARSED: dict[str, Card] = {JOKER: Card(0, None)}
for _s in Suit:
    for _i, _r in enumerate(RANKS, start=1):
        _PARSED[_r + _s.value] = Card(_i, _s)
#: Each card's display text (``glyph`` is read for every action a table labels).
_GLYPH_OF: dict[str, str] = {text: c.glyph for text, c in _PARSED.items()}
