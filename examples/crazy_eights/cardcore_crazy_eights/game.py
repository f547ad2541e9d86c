"""Crazy Eights, each for themselves, 2 to 4 players.

Play a card of the top card's suit or rank, or any eight (naming the suit to
follow). With no card to play, draw one; with nothing to draw, pass. The first
to empty their hand scores the cards left in the other hands (eights 50, court
cards 10, aces 1, others their pips). When everybody passes in a row the hand is
blocked: the lowest hand alone scores the others' cards less its own, each.
"""

from __future__ import annotations

import bisect
import random
from typing import Any

import pydantic

from cardcore import GameOptions, IllegalAction, SimpleAction, StateError
from cardcore.engine.cards import SUITS, Suit, glyph, standard_deck
from cardcore.engine.deal import deal, one_at_a_time, shuffled
from cardcore.engine.game import Action, Group, ScoreRow, Zone
from cardcore.engine.kit import HIDDEN, OWNER, CardGame, CardGameState, Cards, Choice, Count, Scores
from cardcore.engine.seating import Seating

SUIT_NAMES = {s.value: s.name.lower() for s in Suit}


class CrazyEightsOptions(GameOptions):
    target: int = pydantic.Field(100, ge=1, description="points that win the match")
    hand_size: int = pydantic.Field(0, ge=0, le=10,
                                    description="cards dealt each (0: 7 for two players, else 5)")


def penalty(card: str) -> int:
    rank = card[:-1]
    if rank == "8":
        return 50
    if rank in ("J", "Q", "K", "10"):
        return 10
    return 1 if rank == "A" else int(rank)


class CrazyEightsState(CardGameState):
    game_id = "crazy_eights"
    parts = {"hands": Cards(per="seat", shown=OWNER), "stock": Cards(shown=HIDDEN),
             "discard": Cards(), "suit": Choice(SUITS), "passes": Count(most=4)}
    hands: list[list[str]]
    stock: list[str]
    discard: list[str]
    suit: str
    passes: int

    # --- the rules -------------------------------------------------------------

    def playable(self, card: str) -> bool:
        return card[:-1] == "8" or card[-1] == self.suit or card[:-1] == self.discard[-1][:-1]

    def legal_actions(self) -> list[Action]:
        if self.to_play is None:
            return []
        actions: list[Action] = []
        top = self.discard[-1]
        for card in sorted(set(self.hands[self.to_play]), key=ORDER.__getitem__):
            if self.playable(card):
                actions += ([_play(card, top, s) for s in SUITS] if card[:-1] == "8"
                            else [_play(card, top)])
        if actions:
            return actions
        if self.stock:
            return [SimpleAction({"type": "draw"}, "Draw", targets=("stock",), step="draw")]
        return [SimpleAction({"type": "pass"}, "Pass", step="pass")]

    def apply(self, action: Action) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"not a legal move now: {action.to_json()}")
        data, seat = action.to_json(), self.to_play
        assert seat is not None
        if data["type"] == "draw":
            bisect.insort(self.hands[seat], self.stock.pop(0), key=ORDER.__getitem__)
            self.passes = 0
        elif data["type"] == "pass":
            self.passes += 1
            self.to_play = None if self.passes >= self.players else self.seating.next(seat)
        else:
            self.hands[seat].remove(data["card"])
            self.discard.append(data["card"])
            self.suit = data.get("suit") or data["card"][-1]
            self.passes = 0
            self.to_play = self.seating.next(seat) if self.hands[seat] else None

    def score(self) -> ScoreRow:
        left = [sum(map(penalty, h)) for h in self.hands]
        points = [0] * self.players
        out = [s for s in range(self.players) if not self.hands[s]]
        if out:
            points[out[0]] = sum(left)
        elif left.count(min(left)) == 1:
            low = left.index(min(left))
            points[low] = sum(left) - self.players * left[low]
        return Scores(self.seating).add("cards_left", points).row(end="out" if out else "blocked")

    def check(self, strict: bool) -> None:
        if not self.discard:
            raise StateError("discard: the starter is always there")
        if self.passes > self.players:
            raise StateError(f"passes: {self.passes} passes at a table of {self.players}")

    # --- the table: the discard shows its top card and the suit to follow ----------

    def zones(self, seat: int | None) -> list[Zone]:
        zones = [z for z in super().zones(seat) if z.id != "discard"]
        return zones + [Zone("discard", "pile", "Discard", cards=[*self.discard[-1:]],
                             groups=[Group("suit", [], [f"play {SUIT_NAMES[self.suit]}"])],
                             badges=[f"{len(self.discard)} cards"])]


ORDER = {c: i for i, c in enumerate(standard_deck())}


def _play(card: str, top: str, suit: str | None = None) -> SimpleAction:
    """Play ``card`` on the discard's ``top``: the table card it follows (marked at the table)."""
    on_top = ((top, "discard"),)
    if suit is None:
        return SimpleAction({"type": "play", "card": card}, f"Play {glyph(card)}",
                            (card,), ("discard",), table_cards=on_top)
    return SimpleAction({"type": "play", "card": card, "suit": suit},
                        f"Play {glyph(card)}, call {SUIT_NAMES[suit]}", (card,), ("discard",),
                        table_cards=on_top)


class CrazyEights(CardGame):
    id = "crazy_eights"
    name = "Crazy Eights"
    description = "Shed your hand: follow suit or rank, eights are wild. (example plugin)"
    player_counts = (2, 3, 4)
    partnerships = False
    Options = CrazyEightsOptions
    State = CrazyEightsState

    def rules(self, options: Any) -> str:
        size = options.hand_size or "7 (two players) or 5"
        return (__doc__ or "") + f"\nCards dealt each: {size}. Target: {options.target}.\n"

    def new_hand(self, seating: Seating, options: Any, rng: random.Random,
                 totals: list[int]) -> CardGameState:
        stock = shuffled(standard_deck(), rng)
        size = options.hand_size or (7 if seating.players == 2 else 5)
        hands, _ = deal(stock, one_at_a_time(seating.deal_order(), size), seating.players)
        hands = [sorted(h, key=ORDER.__getitem__) for h in hands]  # hands kept in deck order
        while stock[0][:-1] == "8":  # an eight is never the starter: it goes to the bottom
            stock.append(stock.pop(0))
        starter = stock.pop(0)
        return self.State(seating, options, seating.leader, hands=hands, stock=stock,
                          discard=[starter], suit=starter[-1])

    def heuristic(self, state: Any, seat: int) -> float:
        """Expected hand points for the seat's side, roughly: fewer cards and fewer penalty
        points are better; eights are worth keeping for later."""
        hand: list[str] = state.hands[seat]
        return -len(hand) * 10 - sum(map(penalty, hand)) / 10 + 5 * sum(c[:-1] == "8" for c in hand)
