"""Crazy Eights, each for themselves, 2 to 4 players.

Play a card of the top card's suit or rank, or any eight (naming the suit to
follow). With no card to play, draw one; with nothing to draw, pass. The first
to empty their hand scores the cards left in the other hands (eights 50, court
cards 10, aces 1, others their pips). When everybody passes in a row the hand is
blocked: the lowest hand alone scores the others' cards less its own, each.
"""

from __future__ import annotations

import random
from typing import Any

import pydantic

from cardcore import Game, GameOptions, GameState, Group, IllegalAction, SimpleAction, StateError, Zone
from cardcore.cards import SUITS, Suit, check_cards, glyph, parse_cards, standard_deck
from cardcore.deal import deal, one_at_a_time, shuffled

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


class CrazyEightsState(GameState):
    def __init__(self, players: int, dealer: int, to_play: int | None, hands: list[list[str]],
                 stock: list[str], discard: list[str], suit: str, passes: int,
                 options: CrazyEightsOptions):
        self.players = players
        self.dealer = dealer
        self.to_play = to_play
        self.hands = hands
        self.stock = stock
        self.discard = discard
        self.suit = suit
        self.passes = passes
        self.options = options

    # --- the rules -------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.to_play is None

    def playable(self, card: str) -> bool:
        top = self.discard[-1]
        return card[:-1] == "8" or card[-1] == self.suit or card[:-1] == top[:-1]

    def legal_actions(self) -> list[SimpleAction]:
        if self.to_play is None:
            return []
        seat = self.to_play
        actions = []
        for card in sorted(set(self.hands[seat]), key=standard_deck().index):
            if not self.playable(card):
                continue
            if card[:-1] == "8":
                actions += [_play(card, s) for s in SUITS]
            else:
                actions.append(_play(card, None))
        if actions:
            return actions
        if self.stock:
            return [SimpleAction({"type": "draw"}, "Draw", targets=("stock",), step="draw")]
        return [SimpleAction({"type": "pass"}, "Pass", step="pass")]

    def apply(self, action: Any) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"not a legal move now: {action.to_json()}")
        data = action.to_json()
        seat = self.to_play
        if data["type"] == "draw":
            self.hands[seat].append(self.stock.pop(0))
            self.passes = 0
            return
        if data["type"] == "pass":
            self.passes += 1
            self.to_play = None if self.passes >= self.players else (seat + 1) % self.players
            return
        self.hands[seat].remove(data["card"])
        self.discard.append(data["card"])
        self.suit = data.get("suit") or data["card"][-1]
        self.passes = 0
        self.to_play = None if not self.hands[seat] else (seat + 1) % self.players

    def clone(self) -> CrazyEightsState:
        return CrazyEightsState(self.players, self.dealer, self.to_play,
                                [h[:] for h in self.hands], self.stock[:], self.discard[:],
                                self.suit, self.passes, self.options)

    def score(self) -> dict:
        left = [sum(map(penalty, h)) for h in self.hands]
        points = [0] * self.players
        out = [s for s in range(self.players) if not self.hands[s]]
        if out:
            points[out[0]] = sum(left)
        elif left.count(min(left)) == 1:
            low = left.index(min(left))
            points[low] = sum(left) - self.players * left[low]
        return {"sides": [{"seats": [s], "items": {"cards_left": points[s]}, "total": points[s]}
                          for s in range(self.players)]}

    # --- what is shown -------------------------------------------------------------

    def export(self) -> dict:
        return {"game": "crazy_eights", "players": self.players, "dealer": self.dealer,
                "to_play": self.to_play, "hands": [sorted(h, key=_order) for h in self.hands],
                "stock": self.stock[:], "discard": self.discard[:], "suit": self.suit,
                "passes": self.passes, "options": self.options.model_dump(mode="json")}

    def view(self, seat: int | None) -> dict:
        data = self.export()
        data["hands"] = [h if s == seat else [None] * len(h) for s, h in enumerate(data["hands"])]
        data["stock"] = [None] * len(self.stock)
        return data

    def determinize(self, seat: int, rng: random.Random) -> CrazyEightsState:
        twin = self.clone()
        unseen = twin.stock + [c for s, h in enumerate(twin.hands) if s != seat for c in h]
        rng.shuffle(unseen)
        for s, hand in enumerate(twin.hands):
            if s != seat:
                twin.hands[s] = [unseen.pop() for _ in hand]
        twin.stock = unseen
        return twin

    def zones(self, seat: int | None) -> list[Zone]:
        data = self.export() if seat is None else self.view(seat)
        zones = [Zone(f"hand-{s}", "hand", f"Seat {s}", seat=s, side=s, cards=h,
                      badges=[f"{len(h)} cards"]) for s, h in enumerate(data["hands"])]
        zones.append(Zone("stock", "stock", "Stock", cards=[None] * min(len(self.stock), 1),
                          badges=[f"stock {len(self.stock)}"]))
        top = data["discard"][-1:]
        zones.append(Zone("discard", "pile", "Discard", cards=top,
                          groups=[Group("suit", [], [f"play {SUIT_NAMES[self.suit]}"])],
                          badges=[f"{len(data['discard'])} cards"]))
        return zones


def _order(card: str) -> int:
    return standard_deck().index(card)


def _play(card: str, suit: str | None) -> SimpleAction:
    if suit is None:
        return SimpleAction({"type": "play", "card": card}, f"Play {glyph(card)}",
                            (card,), ("discard",))
    return SimpleAction({"type": "play", "card": card, "suit": suit},
                        f"Play {glyph(card)}, call {SUIT_NAMES[suit]}", (card,), ("discard",))


class CrazyEights(Game):
    id = "crazy_eights"
    name = "Crazy Eights"
    description = "Shed your hand: follow suit or rank, eights are wild. (example plugin)"
    player_counts = (2, 3, 4)
    partnerships = False
    Options = CrazyEightsOptions

    def rules(self, options: Any) -> str:
        size = options.hand_size or "7 (two players) or 5"
        return (__doc__ or "") + f"\nCards dealt each: {size}. Target: {options.target}.\n"

    def new_hand(self, seating, options, rng, totals) -> CrazyEightsState:
        stock = shuffled(standard_deck(), rng)
        n = seating.players
        size = options.hand_size or (7 if n == 2 else 5)
        hands, _ = deal(stock, one_at_a_time(seating.deal_order(), size), n)
        while stock[0][:-1] == "8":  # an eight is never the starter: it goes to the bottom
            stock.append(stock.pop(0))
        starter = stock.pop(0)
        return CrazyEightsState(n, seating.dealer, seating.leader, hands, stock, [starter],
                                starter[-1], 0, options)

    def state_from_json(self, data: dict) -> CrazyEightsState:
        try:
            players = int(data["players"])
            hands = [parse_cards(h) for h in data["hands"]]
            stock = parse_cards(data.get("stock", []))
            discard = parse_cards(data["discard"])
            options = CrazyEightsOptions(**data.get("options", {}))
        except (KeyError, TypeError) as exc:
            raise StateError(f"not a crazy_eights position: missing or bad {exc}") from None
        if len(hands) != players or not discard:
            raise StateError("need one hand per player and a discard pile")
        check_cards([c for h in hands for c in h] + stock + discard, standard_deck())
        suit = data.get("suit") or discard[-1][-1]
        if suit not in SUITS:
            raise StateError(f"bad suit {suit!r}")
        return CrazyEightsState(players, int(data.get("dealer", 0)), data.get("to_play"),
                                hands, stock, discard, suit, int(data.get("passes", 0)), options)

    def heuristic(self, state: CrazyEightsState, seat: int) -> float:
        """Fewer cards, and fewer penalty points, are better; keep eights for later."""
        hand = state.hands[seat]
        return -len(hand) * 10 - sum(map(penalty, hand)) / 10 + 5 * sum(c[:-1] == "8" for c in hand)
