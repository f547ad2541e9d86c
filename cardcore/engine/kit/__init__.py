"""The plugin author's kit: a state declared by its parts, score rows, match rules, subset sums,
tricks.

See docs/authors.md. Decks are in ``cardcore.engine.cards`` (``deck``, ``forty_card_deck``,
``double_deck``), deals in ``cardcore.engine.deal`` (``deal``, ``deal_again``).
"""

from cardcore.engine.kit.declared import DeclaredState
from cardcore.engine.kit.matches import POINTS_TARGET, FirstToHands, MatchRule
from cardcore.engine.kit.parts import (
    HIDDEN,
    OWNER,
    PUBLIC,
    Cards,
    Choice,
    Count,
    Flag,
    Part,
    SeatNo,
    StateCardError,
)
from cardcore.engine.kit.scores import Scores, counts_from_items, item_label, least, most
from cardcore.engine.kit.state import CardGame, CardGameState
from cardcore.engine.kit.subsets import disjoint_groups, smallest_subsets, subsets_summing_to
from cardcore.engine.kit.tricks import ACE_HIGH, Trick, Tricks, follow, winner

__all__ = ["ACE_HIGH", "HIDDEN", "OWNER", "POINTS_TARGET", "PUBLIC", "CardGame", "CardGameState",
           "Cards", "Choice", "Count", "DeclaredState", "FirstToHands", "Flag", "MatchRule", "Part",
           "Scores", "SeatNo", "StateCardError", "Trick", "Tricks", "counts_from_items",
           "disjoint_groups", "follow", "item_label", "least", "most", "smallest_subsets",
           "subsets_summing_to", "winner"]
