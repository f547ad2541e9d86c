"""CanastaGame: what the plugin registers (the common interface of cardcore.engine.game).

The state, its loading and the heuristic are imported when a hand is dealt or read (the
methods below): ``cardcore plugins`` lists the game without them (docs/design.md, Start-up)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from cardcore.engine.cards import canasta_deck
from cardcore.engine.deal import cut, deal, one_at_a_time, shuffled
from cardcore.engine.game import Action, Game, GameOptions, GameState, ScoreExtra
from cardcore.engine.kit.scores import counts_from_items
from cardcore.engine.seating import Seating, partnership_draw
from cardcore.language import N_

from .rules import (
    FREEZES,
    HAND_SIZE,
    PLAYER_COUNTS,
    RANK_OF,
    RED_THREES,
    TEXT_ID,
    THREE,
    CanastaOptions,
    is_wild,
    rules_text,
    variant,
)
from .scoring import OLDER_COUNTS, older_counts
from .words import DOMAIN

if TYPE_CHECKING:
    from .state import CanastaState


def _options(options: GameOptions | None) -> CanastaOptions:
    if options is None:
        return CanastaOptions()
    if isinstance(options, CanastaOptions):
        return options
    return CanastaOptions(**options.model_dump())  # the base options: canasta's defaults besides


#: Playouts to the seat's second turn from now, at most 64 steps (a turn of many melds).
TWO_ROUNDS = {"rollout_rounds": 2, "rollout_depth": 64}


class CanastaGame(Game):
    id = "canasta"
    name = "Canasta"
    description = N_("Rummy with two decks and jokers: melds, canastas, a frozen pile; "
                     "four in partnerships, or two or three each for themselves.")
    domain = DOMAIN
    #: Four first: the default table (D42); two and three play alone (D43, D44).
    player_counts = PLAYER_COUNTS
    partnerships = True
    has_partnership_draw = True
    Options = CanastaOptions
    #: The search levels in Canasta (docs/bots.md, "Canasta's levels: whole turns"): a turn
    #: is a draw, melds and a discard, so a leaf is weighed after 16 steps of greedy play
    #: (three to five turns), and the root's candidates are compared on the same samples.
    #: Hard and the expert play on until the turn has come back to the seat twice, so every
    #: candidate's leaf is the seat about to draw ("Canasta's hard: two rounds of the table").
    search_settings = {
        level: {"root": "paired", "rollout_policy": "greedy", "rollout_depth": 16, **budget}
        for level, budget in {
            "medium": {"iterations": 10_000, "work_budget": 2_400_000, "root_width": 16,
                       "prior_cap": 3000},
            "hard": {"iterations": 10_000, "work_budget": 6_000_000, **TWO_ROUNDS},
            "expert": {"work_budget": 6_000_000, **TWO_ROUNDS},
        }.items()
    }

    def rules(self, options: GameOptions | None = None) -> str:
        return rules_text(_options(options))

    def variant(self, options: GameOptions) -> str:
        """The preset and every option that differs from it (D46)."""
        return variant(_options(options))

    def score_extras(self, options: GameOptions) -> list[ScoreExtra]:
        """The canastas, red threes and going out of rows stored before the rows had ``counts``."""
        return counts_from_items(OLDER_COUNTS, older_counts)

    def first_dealer(self, seating: Seating, options: GameOptions, rng: random.Random) -> int:
        """The dealer sits at the right of the high drawer, who plays first (D37); with
        two or three players the draw chooses only that (D45)."""
        ranking = seating.draw or partnership_draw(seating.players, rng).ranking
        return (ranking[0] - seating.direction) % seating.players

    def new_hand(self, seating: Seating, options: GameOptions, rng: random.Random,
                 totals: list[int]) -> CanastaState:
        from .state import CanastaState

        st = CanastaState(_options(options), seating, tuple(totals))
        order = seating.deal_order()  # clockwise from the dealer's left, the dealer last
        stock = cut(shuffled(canasta_deck(), rng), rng)
        hands, _ = deal(stock, one_at_a_time(order, HAND_SIZE[seating.players]), seating.players)
        ids = [TEXT_ID[c] for c in stock]
        ids.reverse()  # top last
        for s in range(seating.players):
            st.hands[s] = [TEXT_ID[c] for c in hands[s]]
        _turn_upcard(st, ids)
        _lay_dealt_red_threes(st, order, ids)
        for s, hand in enumerate(st.hands):
            counts = st.rank_counts[s]
            for c in hand:
                counts[RANK_OF[c]] += 1
        st.stock = ids
        st.to_play = seating.leader
        return st

    def state_from_json(self, data: dict, strict: bool = False) -> CanastaState:
        """The position ``data``; ``strict``: also the whole deck, and sizes and counters
        that play can reach."""
        from .loading import state_from_json

        return state_from_json(data, strict)

    def action_from_json(self, state: GameState, data: dict) -> Action:
        return super().action_from_json(state, data)

    def card_key(self, card: str) -> str:
        """Suits matter only to threes (red or black): any other card is known by its rank."""
        if card[:-1] == "3":
            return "3-red" if card[-1] in "HD" else "3-black"
        return card if card == "JK" else card[:-1]

    def heuristic(self, state: GameState, seat: int) -> float:
        """The heuristic, imported at the first position weighed. Then the game's own
        attribute: it hides this method, so a search (which weighs thousands of positions
        a second) calls the compiled function with no Python call between."""
        from .heuristic import heuristic

        weigh = cast(Callable[[GameState, int], float], heuristic)
        self.heuristic = weigh  # type: ignore[method-assign,assignment]
        return weigh(state, seat)


def _turn_upcard(st: CanastaState, stock: list[int]) -> None:
    """The upcard: covered while a joker, deuce or three (D27)."""
    freezes = FREEZES[st.setup.black_three_freezes]
    while True:
        card = stock.pop()
        st.pile.append(card)
        if freezes[card]:
            st.freezers += 1
        if not (is_wild(card) or RANK_OF[card] == THREE):
            break


def _lay_dealt_red_threes(st: CanastaState, order: list[int], stock: list[int]) -> None:
    """Dealt red threes: laid out and replaced, in play order from the first player (D28)."""
    for s in order:
        hand = st.hands[s]
        while True:
            reds = [c for c in hand if c in RED_THREES]
            if not reds:
                break
            for c in reds:
                hand.remove(c)
                st.red_threes[st.side_of[s]] += (c,)
                hand.append(stock.pop())
