"""The plugin author's kit: a state declared by its parts, score rows, subset sums.

See docs/authors.md. Decks are in ``cardcore.engine.cards`` (``deck``, ``forty_card_deck``,
``double_deck``), deals in ``cardcore.engine.deal`` (``deal``, ``deal_again``).
"""

from cardcore.engine.kit.declared import DeclaredState
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

__all__ = ["HIDDEN", "OWNER", "PUBLIC", "CardGame", "CardGameState", "Cards", "Choice", "Count",
           "DeclaredState", "Flag", "Part", "Scores", "SeatNo", "StateCardError",
           "counts_from_items", "disjoint_groups", "item_label", "least", "most",
           "smallest_subsets", "subsets_summing_to"]
