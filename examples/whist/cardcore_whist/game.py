"""Whist: four players in two partnerships, partners sitting opposite each other.

The 52 cards are dealt one at a time, thirteen each, from the dealer's left. The
dealer's last card is turned face up: its suit is trumps for the hand, and the card
stays in the dealer's hand, known to all until it is played. The player on the
dealer's left leads to the first trick. Each player in turn, to the left, plays one
card: one of the suit led if they have one, else any card. The highest trump takes
the trick, or, with no trump in it, the highest card of the suit led (aces high).
Whoever takes a trick leads to the next. After thirteen tricks the side that took
more than six scores one point for each trick over six (the odd tricks); the other
side scores nothing. Honours do not score. The deal passes to the left after each
hand; the first side to reach the target wins the match.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pydantic

from cardcore import GameOptions, IllegalAction, StateError
from cardcore.engine.cards import deck, glyph, standard_deck
from cardcore.engine.deal import deal, one_at_a_time, shuffled
from cardcore.engine.game import Action, ScoreRow
from cardcore.engine.kit import OWNER, CardGame, CardGameState, Cards, MatchRule, Scores, Trick, Tricks
from cardcore.engine.kit.tricks import ACE_HIGH, Played, follow, winner
from cardcore.engine.seating import Seating


class WhistOptions(GameOptions):
    target: int = pydantic.Field(5, ge=1, description="points that win the match")


class Play(Action):
    """Play one card to the trick."""

    __slots__ = ("card",)

    def __init__(self, card: str) -> None:
        self.card = card
        self.key = ("play", card)

    @property
    def label(self) -> str:
        return f"Play {glyph(self.card)}"

    @property
    def hand_cards(self) -> tuple[str, ...]:
        return (self.card,)

    @property
    def targets(self) -> tuple[str, ...]:
        return ("trick",)

    def to_json(self) -> dict[str, str]:
        return {"type": "play", "card": self.card}


class WhistState(CardGameState):
    game_id = "whist"
    #: The turned trump stays known to all in the dealer's hand until it is played.
    parts = {"hands": Cards(per="seat", shown=OWNER, known=True), "trick": Tricks()}
    hands: list[list[str]]
    trick: Trick

    # --- the rules -------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        if self.to_play is None:
            return []
        return [Play(c) for c in follow(self.hands[self.to_play], self.trick.led)]

    def apply(self, action: Action) -> None:
        seat = self.to_play
        if (seat is None or not isinstance(action, Play)
                or action.card not in follow(self.hands[seat], self.trick.led)):
            raise IllegalAction(f"not a legal play now: {action.to_json()}")
        self.hands[seat].remove(action.card)
        self.trick.play(seat, action.card)
        if len(self.trick.plays) < self.players:
            self.to_play = self.seating.next(seat)
            return
        taker = winner(self.trick.plays, self.trick.trump)
        self.trick.close(taker)
        self.to_play = taker if self.hands[taker] else None

    def score(self) -> ScoreRow:
        tricks = self.trick.taken_by_side(self.seating)
        return (Scores(self.seating).add("odd_tricks", [max(0, t - 6) for t in tricks])
                .count("tricks_taken", tricks).row())

    def check(self, strict: bool) -> None:
        """Trumps named; each trick led by the last taker and played in turn; the turn
        where it is; in ``strict``, thirteen cards a seat less those played."""
        if self.trick.trump is None:
            raise StateError("trick.trump: whist always has trumps", ("trick", "trump"))
        leader = self.seating.leader
        for i, (taker, taken) in enumerate(self.trick.done):
            self._in_turn(taken, leader, ("trick", "done", i))
            if taker != winner(taken, self.trick.trump):
                raise StateError(f"trick.done[{i}].winner: seat {taker} did not take it",
                                 ("trick", "done", i, "winner"))
            leader = taker
        plays = self.trick.plays
        self._in_turn(plays, leader, ("trick", "plays"))
        turn = self.seating.next(plays[-1][0]) if plays else leader
        if self.to_play != (turn if any(self.hands) else None):
            raise StateError(f"to_play: {self.to_play} is not the seat to play", ("to_play",))
        for seat, hand in enumerate(self.hands):
            if strict and len(hand) != 13 - len(self.trick.done) - any(s == seat for s, _ in plays):
                raise StateError(f"hands[{seat}]: {len(hand)} cards is not what play leaves",
                                 ("hands", seat))

    def _in_turn(self, plays: Sequence[Played], leader: int, path: tuple[str | int, ...]) -> None:
        if [s for s, _ in plays] != self.seating.order_from(leader)[:len(plays)]:
            raise StateError(f"{'.'.join(map(str, path))}: not played in turn from seat {leader}",
                             path)

    # --- the move log: who took the trick (public: everybody saw the cards) --------

    def log_line(self, action: Action) -> str:
        seat = self.to_play
        if len(self.trick.plays) < self.players - 1 or seat is None or not isinstance(action, Play):
            return action.label
        taker = winner([*self.trick.plays, (seat, action.card)], self.trick.trump)
        return f"{action.label} · {self.seating.names[taker]} takes the trick"


ORDER = {c: i for i, c in enumerate(deck(ACE_HIGH))}  # a hand sorted by suit, aces high


class Whist(CardGame):
    id = "whist"
    name = "Whist"
    description = "Partners take tricks; trumps turned by the dealer. (example plugin)"
    player_counts = (4,)
    deck_dealt_out = True
    match_rule = MatchRule(shown=("tricks_taken",))  # the tricks beside the odd tricks
    Options = WhistOptions
    State = WhistState

    def rules(self, options: Any) -> str:
        return (__doc__ or "") + f"\nTarget: {options.target} points.\n"

    def new_hand(self, seating: Seating, options: Any, rng: random.Random,
                 totals: list[int]) -> CardGameState:
        hands, _ = deal(shuffled(standard_deck(), rng), one_at_a_time(seating.deal_order(), 13), 4)
        turned = hands[seating.dealer][-1]  # the dealer's last card: its suit is trumps
        hands = [sorted(h, key=ORDER.__getitem__) for h in hands]
        state = self.State(seating, options, seating.leader, hands=hands,
                           trick=Trick(trump=turned[-1]))
        state.make_known("hands", seating.dealer, turned)
        return state

    def heuristic(self, state: Any, seat: int) -> float:
        """The margin of odd tricks, roughly: the tricks the seat's side took over the
        other's, a third of a trick more for each ace or trump in the seat's hand; exact
        once the hand is over (9 tricks to 4: 3 points to none, a margin of 3)."""
        tricks: list[int] = state.trick.taken_by_side(state.seating)
        side: int = state.seating.side_of(seat)
        hand: list[str] = state.hands[seat]
        trump: str | None = state.trick.trump
        strong = sum(c[0] == "A" or c[-1] == trump for c in hand)
        lead = 2 * tricks[side] - sum(tricks) + strong / 3
        return (lead + (1 if lead > 0 else -1)) / 2
