"""CanastaGame: what the plugin registers (the common interface of cardcore.game)."""

from __future__ import annotations

import random

from cardcore.cards import canasta_deck
from cardcore.deal import cut, deal, one_at_a_time, shuffled
from cardcore.game import Game
from cardcore.seating import Seating, partnership_draw

from .rules import RED_THREES, TEXT_ID, CanastaOptions, minimum, rules_text
from .scoring import heuristic
from .state import CanastaState, freezes, state_from_json


class CanastaGame(Game):
    id = "canasta"
    name = "Canasta"
    description = "Partnership rummy with two decks and jokers: melds, canastas, a frozen pile."
    player_counts = (4,)
    partnerships = True
    has_partnership_draw = True
    Options = CanastaOptions

    def rules(self, options=None) -> str:
        return rules_text(options if options is not None else CanastaOptions())

    def first_dealer(self, seating: Seating, options, rng: random.Random) -> int:
        """The dealer sits at the right of the high drawer, who plays first (D37)."""
        ranking = seating.draw or partnership_draw(4, rng).ranking
        return (ranking[0] - 1) % 4

    def new_hand(self, seating: Seating, options, rng: random.Random, totals) -> CanastaState:
        st = CanastaState(options)
        st.dealer = dealer = seating.dealer
        order = [(dealer + i) % 4 for i in range(1, 5)]  # clockwise from the dealer's left
        stock = cut(shuffled(canasta_deck(), rng), rng)
        hands, _ = deal(stock, one_at_a_time(order, 11), 4)
        ids = [TEXT_ID[c] for c in stock]
        ids.reverse()  # top last
        for s in range(4):
            st.hands[s] = [TEXT_ID[c] for c in hands[s]]
        # the upcard: covered while a joker, deuce or three (D27)
        while True:
            c = ids.pop()
            st.pile.append(c)
            if freezes(c, options.black_three_freezes):
                st.frz += 1
            if not (c >= 48 or c >> 2 == 0):
                break
        # dealt red threes: laid out and replaced, in play order from the first player (D28)
        for s in order:
            hand = st.hands[s]
            while True:
                reds = [c for c in hand if c in RED_THREES]
                if not reds:
                    break
                for c in reds:
                    hand.remove(c)
                    st.red3[s & 1] += (c,)
                    hand.append(ids.pop())
        for s in range(4):
            rc = st.rc[s]
            for c in st.hands[s]:
                rc[c >> 2] += 1
        st.stock = ids
        st.to_play = (dealer + 1) % 4
        st.totals = (totals[0], totals[1])
        st.need = (minimum(totals[0]), minimum(totals[1]))
        return st

    def state_from_json(self, data: dict) -> CanastaState:
        return state_from_json(data)

    def action_from_json(self, state, data: dict):
        return super().action_from_json(state, data)

    def card_key(self, card: str) -> str:
        """Suits matter only to threes (red or black): any other card is known by its rank."""
        if card[:-1] == "3":
            return "3-red" if card[-1] in "HD" else "3-black"
        return card if card == "JK" else card[:-1]

    def heuristic(self, state, seat: int) -> float:
        return heuristic(state, seat)
