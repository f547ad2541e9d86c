"""A Canasta hand: the position, applying steps, export / view / zones / determinize."""

from __future__ import annotations

import random
from typing import Any

from cardcore.engine.deal import shuffle
from cardcore.engine.game import Action, GameState, Group, IllegalAction, ScoreRow, Zone
from cardcore.engine.kit import known as k
from cardcore.engine.seating import Seating

from .actions import ADD, DECLINE, DISCARD, DRAW, MELD, ONTO, TAKE, CanastaAction, Kind
from .explain import draw_line, first_meld_badge, frozen_badge, why_not
from .moves import DRAW_PHASE, OVER, PLAY_PHASE, legal_actions, take_actions
from .rules import (
    CANASTA,
    CANASTAS_TO_GO_OUT,
    CARD_VALUE,
    DRAW_COUNT,
    FIRST_WILD,
    FREEZES,
    ID_TEXT,
    IS_RED_THREE,
    RANK_OF,
    RED_THREES,
    SLOT_NAMES,
    TEXT_ID,
    CanastaOptions,
    Meld,
    canasta_seating,
    is_wild,
    minimum,
)
from .scoring import score_row

PHASES = ("draw", "play", "over")


class HandSetup:
    """What stays the same through a hand, shared by a state and all its clones: the
    options, the seating, the sides' totals before the hand and so their minimum first
    meld (D36), and what the number of players decides: the cards a draw takes and the
    canastas going out needs (D43, D44)."""

    __slots__ = ("options", "classic", "black_three_freezes", "concealed_needs_minimum",
                 "browse_pile", "seating", "sides", "totals_before", "minimums", "draw_count",
                 "canastas_to_go_out")

    def __init__(self, options: CanastaOptions, seating: Seating,
                 totals_before: tuple[int, ...] | None = None) -> None:
        self.options = options
        self.classic = options.wild_rule == "classic"
        self.black_three_freezes = options.black_three_freezes
        self.concealed_needs_minimum = options.concealed_needs_minimum
        self.browse_pile = options.browse_pile
        self.seating = seating
        self.sides = seating.sides
        if totals_before is None:
            totals_before = (0,) * self.sides
        self.totals_before = totals_before
        self.minimums = tuple(minimum(t) for t in totals_before)
        self.draw_count = DRAW_COUNT[seating.players]
        self.canastas_to_go_out = CANASTAS_TO_GO_OUT[seating.players]


class CanastaState(GameState):
    """One hand. Hands are lists of card ids with rank counts beside them; the stock
    is kept top last; melds per side map a rank slot to ``(cards, naturals, wilds)``.

    The seating (who sits where, sides, who plays next) is the core's ``Seating``, in
    the hand's ``setup``; ``side_of`` and ``next_seat`` are its answers per seat,
    computed once and shared by every clone.
    """

    __slots__ = (
        "setup", "side_of", "next_seat", "to_play", "phase",
        "hands", "rank_counts", "stock", "pile", "freezers", "melds", "canastas",
        "red_threes", "initial_meld_done", "has_melded", "turn_new_ranks",
        "turn_added_to_earlier", "went_out", "concealed", "known", "_legal",
    )

    def __init__(self, options: CanastaOptions, seating: Seating | None = None,
                 totals_before: tuple[int, ...] | None = None) -> None:
        if seating is None:
            seating = canasta_seating()
        self.setup = HandSetup(options, seating, totals_before)
        seats = range(seating.players)
        self.side_of = tuple(seating.side_of(s) for s in seats)
        self.next_seat = tuple(seating.next(s) for s in seats)
        self.to_play: int | None = seating.leader
        self.phase = DRAW_PHASE
        self.hands: list[list[int]] = [[] for _ in seats]
        #: Per seat, how many cards of each rank slot the hand holds.
        self.rank_counts: list[list[int]] = [[0] * 14 for _ in seats]
        self.stock: list[int] = []
        self.pile: list[int] = []
        #: How many cards in the pile freeze it (D31): frozen while any.
        self.freezers = 0
        sides = self.setup.sides
        self.melds: list[dict[int, Meld]] = [{} for _ in range(sides)]
        self.canastas = [0] * sides
        self.red_threes: list[tuple[int, ...]] = [()] * sides
        self.initial_meld_done = [False] * sides
        self.has_melded = [False for _ in seats]
        #: This turn: the ranks of the mover's side's new melds, and whether the
        #: mover added to the side's earlier melds (going out concealed, D34).
        self.turn_new_ranks: tuple[int, ...] = ()
        self.turn_added_to_earlier = False
        self.went_out: int | None = None
        self.concealed = False
        #: Per seat, the cards it took with the open pile and still holds: known to all
        #: (D47). Tuples, replaced when they change: a clone shares them.
        self.known: tuple[tuple[int, ...], ...] = ((),) * seating.players
        self._legal: list[CanastaAction] | None = None

    @property
    def options(self) -> CanastaOptions:
        return self.setup.options

    @property
    def seating(self) -> Seating:
        return self.setup.seating

    @property
    def dealer(self) -> int:
        return self.setup.seating.dealer

    @property
    def totals_before(self) -> tuple[int, ...]:
        return self.setup.totals_before

    # --- the interface ---------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[Action]:
        acts = self._legal
        if acts is None:
            acts = self._legal = legal_actions(self)
        return acts  # type: ignore[return-value]  # list is invariant; callers only read it

    def clone(self) -> CanastaState:
        new = CanastaState.__new__(CanastaState)
        new.setup = self.setup
        new.side_of = self.side_of
        new.next_seat = self.next_seat
        new.to_play = self.to_play
        new.phase = self.phase
        h = self.hands
        c = self.rank_counts
        m = self.melds
        if len(h) == 4:  # four seats and two sides (D42), spelled out: faster than any loop
            new.hands = [h[0][:], h[1][:], h[2][:], h[3][:]]
            new.rank_counts = [c[0][:], c[1][:], c[2][:], c[3][:]]
            new.melds = [m[0].copy(), m[1].copy()]
        else:  # each player a side (D43, D44)
            new.hands = [hand[:] for hand in h]
            new.rank_counts = [counts[:] for counts in c]
            new.melds = [melds.copy() for melds in m]
        new.stock = self.stock[:]
        new.pile = self.pile[:]
        new.freezers = self.freezers
        new.canastas = self.canastas[:]
        new.red_threes = self.red_threes[:]
        new.initial_meld_done = self.initial_meld_done[:]
        new.has_melded = self.has_melded[:]
        new.turn_new_ranks = self.turn_new_ranks
        new.turn_added_to_earlier = self.turn_added_to_earlier
        new.went_out = self.went_out
        new.concealed = self.concealed
        new.known = self.known
        new._legal = self._legal
        return new

    def apply(self, action: Action) -> None:
        acts = self._legal
        if acts is None:
            acts = self._legal = legal_actions(self)
        for step in acts:
            if step is action:
                break
        else:
            step = self._step_like(acts, action)
        self._legal = None
        p = self.to_play
        assert p is not None  # a legal step has a player to make it
        STEPS[step.kind](self, p, step)

    def _step_like(self, acts: list[CanastaAction], action: Action) -> CanastaAction:
        """The legal step with the key of ``action`` (an equal copy), or IllegalAction."""
        key = getattr(action, "key", None)
        for a in acts:
            if a.key == key:
                return a
        if self.phase == OVER:
            raise IllegalAction("the hand is over")
        raise IllegalAction(f"not a legal step here: {_json(action)}")

    # --- steps -----------------------------------------------------------------

    def _discard(self, p: int, action: CanastaAction) -> None:
        card = action.data
        self._remove(p, (card,))
        self.pile.append(card)
        if FREEZES[self.setup.black_three_freezes][card]:
            self.freezers += 1
        if self.hands[p]:
            self._end_turn(p)
        else:
            self._go_out(p)

    def _meld(self, p: int, action: CanastaAction) -> None:
        side = self.side_of[p]
        for cards in action.data:
            self._remove(p, cards)
            self._lay(side, cards)
        self.initial_meld_done[side] = True
        if not self.hands[p]:
            self._go_out(p)

    def _add(self, p: int, action: CanastaAction) -> None:
        slot, cards = action.data
        self._remove(p, cards)
        self._lay(self.side_of[p], cards, slot)
        if not self.hands[p]:
            self._go_out(p)

    def _decline(self, p: int, action: CanastaAction) -> None:
        self._end_hand()

    def _remove(self, p: int, cards: tuple[int, ...]) -> None:
        hand = self.hands[p]
        counts = self.rank_counts[p]
        for c in cards:
            hand.remove(c)
            counts[RANK_OF[c]] -= 1
        known = self.known[p]
        if known:
            for c in cards:
                if c in known:  # a mark follows its card out
                    left = tuple(k.without(known, cards))
                    self.known = (*self.known[:p], left, *self.known[p + 1:])
                    break

    def _lay(self, side: int, cards: tuple[int, ...], slot: int = -1) -> None:
        """Put ``cards`` on the side's meld of ``slot`` (a new meld when it has none)."""
        if slot < 0:
            slot = RANK_OF[cards[0]]
        melds = self.melds[side]
        nat = sum(1 for c in cards if c < FIRST_WILD)
        w = len(cards) - nat
        old = melds.get(slot)
        if old is None:
            melds[slot] = (cards, nat, w)
            self.turn_new_ranks += (slot,)
            if len(cards) >= CANASTA:
                self.canastas[side] += 1
            return
        ids, n0, w0 = old
        melds[slot] = (tuple(sorted(ids + cards)), n0 + nat, w0 + w)
        if len(ids) < CANASTA <= len(ids) + len(cards):
            self.canastas[side] += 1
        if slot not in self.turn_new_ranks:
            self.turn_added_to_earlier = True

    def _draw(self, p: int, action: CanastaAction) -> None:
        """The top card of the stock; with two players the top two, or the last one (D43)."""
        stock = self.stock
        hand = self.hands[p]
        counts = self.rank_counts[p]
        wanted = self.setup.draw_count
        while wanted and stock:
            card = stock.pop()
            if IS_RED_THREE[card]:  # laid out and replaced (D28)
                self.red_threes[self.side_of[p]] += (card,)
                if not stock:  # the last stock card: the hand ends (D33)
                    self._end_hand()
                    return
                continue
            hand.append(card)
            counts[RANK_OF[card]] += 1
            wanted -= 1
        self.phase = PLAY_PHASE

    def _take(self, p: int, action: CanastaAction) -> None:
        pile = self.pile
        side = self.side_of[p]
        top = pile.pop()
        if action.kind == ONTO:
            self._lay(side, (top,), RANK_OF[top])
        else:
            with_cards, others = action.data
            self._remove(p, with_cards)
            self._lay(side, tuple(sorted(with_cards + (top,))), RANK_OF[top])
            for cards in others:
                self._remove(p, cards)
                self._lay(side, cards)
        self.initial_meld_done[side] = True
        hand = self.hands[p]
        counts = self.rank_counts[p]
        taken = len(hand)
        for c in pile:
            if IS_RED_THREE[c]:  # laid out, not replaced (D28)
                self.red_threes[side] += (c,)
            else:
                hand.append(c)
                counts[RANK_OF[c]] += 1
        pile.clear()
        if self.setup.browse_pile:  # everyone saw the open pile: known while held (D47)
            known = self.known[p] + tuple(hand[taken:])
            self.known = (*self.known[:p], known, *self.known[p + 1:])
        self.freezers = 0
        self.phase = PLAY_PHASE
        if not hand:
            self._go_out(p)

    def _end_turn(self, p: int) -> None:
        if self.turn_new_ranks or self.turn_added_to_earlier:
            self.has_melded[p] = True
        self.turn_new_ranks = ()
        self.turn_added_to_earlier = False
        nxt = self.next_seat[p]
        self.to_play = nxt
        self.phase = DRAW_PHASE
        if not self.stock and not take_actions(self, nxt):
            self._end_hand()

    def _go_out(self, p: int) -> None:
        melds = self.melds[self.side_of[p]]
        self.went_out = p
        new_canastas = sum(1 for s in self.turn_new_ranks if len(melds[s][0]) >= CANASTA)
        self.concealed = (not self.has_melded[p] and not self.turn_added_to_earlier
                          and new_canastas >= self.setup.canastas_to_go_out)
        self._end_hand()

    def _end_hand(self) -> None:
        self.phase = OVER
        self.to_play = None
        self._legal = []

    # --- export and friends ------------------------------------------------------

    def export(self) -> dict[str, Any]:
        text = ID_TEXT
        hands = [self._hand_text(s) for s in range(len(self.hands))]
        return {
            "game": "canasta",
            "players": self.seating.players,
            "dealer": self.dealer,
            "to_play": self.to_play,
            "phase": PHASES[self.phase],
            "hands": hands,
            "stock": [text[c] for c in reversed(self.stock)],
            "discard": [text[c] for c in self.pile],
            "frozen": self.freezers > 0,
            "melds": [[{"rank": SLOT_NAMES[s], "cards": [text[c] for c in m[s][0]]}
                       for s in sorted(m)] for m in self.melds],
            "red_threes": [[text[c] for c in sorted(r)] for r in self.red_threes],
            "initial_meld_done": list(self.initial_meld_done),
            "has_melded": list(self.has_melded),
            "turn": {"new_ranks": [SLOT_NAMES[s] for s in sorted(self.turn_new_ranks)],
                     "added_to_earlier": self.turn_added_to_earlier},
            "totals_before": list(self.totals_before),
            "went_out": self.went_out,
            "concealed": self.concealed,
            "known": {"hands": [k.export_marks(h, self._marks(s)) for s, h in enumerate(hands)]},
            "options": self.options.model_dump(mode="json"),
        }

    def _hand_text(self, seat: int) -> list[str]:
        """A hand in notation, sorted: the cards known to all first (kit/known.py: where a
        known card lies tells nothing of the others), then the rest."""
        text, known = ID_TEXT, self.known[seat]
        if not known:
            return [text[c] for c in sorted(self.hands[seat])]
        rest = k.without(self.hands[seat], known)
        return [text[c] for c in sorted(known)] + [text[c] for c in sorted(rest)]

    def _marks(self, seat: int) -> list[tuple[str, None]]:
        """The seat's known cards as the kit's marks, in notation (sorted): known to all."""
        return [(ID_TEXT[c], None) for c in sorted(self.known[seat])]

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees (None: a spectator): the other hands and the stock hidden,
        their lengths kept, but for the cards taken with the open pile (known to all, D47);
        melds, red threes and whether the pile is frozen are public; of the discard pile
        its top card, or all of it with ``browse_pile`` (D47)."""
        data = self.export()
        data["hands"] = [h if s == seat else k.mask(h, self._marks(s), seat)
                         for s, h in enumerate(data["hands"])]
        data["stock"] = [None] * len(data["stock"])
        pile = data["discard"]
        if not self.setup.browse_pile and len(pile) > 1:
            data["discard"] = [None] * (len(pile) - 1) + pile[-1:]
        return data

    def determinize(self, seat: int, rng: random.Random) -> CanastaState:
        """The other hands and the stock dealt again, and the pile under its top card when
        it is squared (D47); red threes never into a hand, the pile frozen or not as now;
        the cards a hand took with the open pile stay in it (known to all)."""
        new = self.clone()
        others = [s for s in range(self.seating.players) if s != seat]
        under = len(self.pile) - 1 if not self.setup.browse_pile and len(self.pile) > 1 else 0
        known = self.known
        pool = [c for s in others for c in (k.without(self.hands[s], known[s]) if known[s]
                                            else self.hands[s])]
        pool += self.stock + self.pile[:under]
        threes = [c for c in pool if c in RED_THREES]  # never in a hand: the stock or the pile
        rest = [c for c in pool if c not in RED_THREES]
        shuffle(rest, rng)
        if under:
            hands = self._deal_under(new, rest, threes, under, rng)
        else:
            cut = len(self.stock) - len(threes)
            stock = rest[:cut] + threes
            shuffle(stock, rng)
            new.stock = stock
            hands = rest[cut:]
        at = 0
        for s in others:
            n = len(self.hands[s]) - len(known[s])
            hand = [*known[s], *hands[at:at + n]]
            at += n
            new.hands[s] = hand
            counts = [0] * 14
            for c in hand:
                counts[RANK_OF[c]] += 1
            new.rank_counts[s] = counts
        # the seat to play knows its own legal actions: they stay (a search reuses them)
        new._legal = self._legal if self.to_play == seat else None
        return new

    def _deal_under(self, new: CanastaState, rest: list[int], threes: list[int], under: int,
                    rng: random.Random) -> list[int]:
        """The squared pile's hidden cards and the stock dealt into ``new`` from ``rest``
        (shuffled) and the red threes; returns the cards for the hands. An unfrozen pile
        gets no card that freezes; a frozen one whose top does not freeze gets one at least."""
        freezes = FREEZES[self.setup.black_three_freezes]
        top = self.pile[-1]
        if not self.freezers:
            pile: list[int] = []
            others: list[int] = []
            for c in rest:  # the pile takes the first cards that freeze nothing
                (pile if not freezes[c] and len(pile) < under else others).append(c)
            n_hands = len(others) + len(threes) - len(self.stock)
            hands, loose = others[:n_hands], others[n_hands:] + threes
        else:
            n_hands = len(rest) + len(threes) - len(self.stock) - under
            hands = rest[:n_hands]
            loose = rest[n_hands:] + threes
            shuffle(loose, rng)
            pile, loose = loose[:under], loose[under:]
            if not freezes[top] and not any(freezes[c] for c in pile):
                _swap_in_a_freezer(pile, loose, hands, freezes, rng)
        shuffle(loose, rng)
        new.stock = loose
        new.pile = pile + [top]
        return hands

    def score(self) -> ScoreRow:
        return score_row(self)

    def why_not(self, card: str) -> str | None:
        """Why ``card`` melds, adds or takes the pile in no step now (the rule and the
        numbers: "your best first meld counts 70; a first meld needs 90 points")."""
        return why_not(self, card)

    def log_line(self, action: Action) -> str:
        """The label; a draw or a taken pile also names the red threes it lays out."""
        return draw_line(self, action) if isinstance(action, CanastaAction) else action.label

    def zones(self, seat: int | None) -> list[Zone]:
        data = self.export() if seat is None else self.view(seat)
        zones = []
        for s, hand in enumerate(data["hands"]):
            badges = [f"{len(hand)} cards"]
            if data["went_out"] == s:
                badges.append("went out concealed" if data["concealed"] else "went out")
            zones.append(Zone(f"hand-{s}", "hand", "Hand", seat=s, side=self.side_of[s],
                              cards=list(hand), badges=badges))
        n = len(data["stock"])
        zones.append(Zone("stock", "stock", "Stock", cards=[None] if n else [],
                          badges=[f"stock {n}"]))
        pile = data["discard"]
        badges = [frozen_badge(pile, self.setup.black_three_freezes)] if data["frozen"] else []
        badges.append(f"{len(pile)} cards")
        if len(pile) > 1 and pile[0] is None:  # squared (D47): one face-down card stands for the rest
            pile = [None, pile[-1]]
        zones.append(Zone("discard", "pile", "Discard pile", cards=list(pile), badges=badges))
        sides = range(self.setup.sides)
        for side in sides:
            zones.append(self._melds_zone(side, data))
        return zones

    def _melds_zone(self, side: int, data: dict[str, Any]) -> Zone:
        """The side's melds, its red threes beside them, and what it has melded (the count
        of its cards, its canastas once it has one) or the minimum its first meld must
        meet (D36)."""
        melds = data["melds"][side]
        groups = []
        for meld in melds:
            cards = meld["cards"]
            badges = [meld["rank"]]
            if len(cards) >= CANASTA:
                wild = any(is_wild(TEXT_ID[c]) for c in cards)
                badges.append("mixed canasta" if wild else "natural canasta")
            groups.append(Group(f"meld-{side}-{meld['rank']}", list(cards), badges))
        red = data["red_threes"][side]
        if red:  # laid out in front of the side, beside its melds (a line less at 80x24)
            groups.append(Group(f"red-threes-{side}", list(red),
                                ["red three" if len(red) == 1 else "red threes"]))
        if data["initial_meld_done"][side]:
            melded = sum(CARD_VALUE[TEXT_ID[c]] for m in melds for c in m["cards"])
            canastas = sum(1 for m in melds if len(m["cards"]) >= CANASTA)
            badges = [f"melded {melded}"] + ([f"canastas {canastas}"] if canastas else [])
        else:
            badges = [first_meld_badge(minimum(data['totals_before'][side]))]
        return Zone(f"melds-{side}", "melds", "Melds", side=side, groups=groups, badges=badges)


#: The step of each kind, by ``Kind`` (apply dispatches on it).
_STEP_OF_KIND = {
    DRAW: CanastaState._draw, TAKE: CanastaState._take, ONTO: CanastaState._take,
    MELD: CanastaState._meld, ADD: CanastaState._add, DISCARD: CanastaState._discard,
    DECLINE: CanastaState._decline,
}
STEPS = tuple(_STEP_OF_KIND[kind] for kind in Kind)


def _swap_in_a_freezer(pile: list[int], loose: list[int], hands: list[int],
                       freezes: tuple[bool, ...], rng: random.Random) -> None:
    """A card that freezes, from the stock's cards or the hands', for a card of the pile
    (which freezes nothing, so it may go to a hand)."""
    places = [(cards, i) for cards in (loose, hands) for i, c in enumerate(cards) if freezes[c]]
    cards, i = places[rng.randrange(len(places))]
    j = rng.randrange(len(pile))
    pile[j], cards[i] = cards[i], pile[j]


def _json(action: object) -> str:
    to_json = getattr(action, "to_json", None)
    try:
        return str(to_json()) if callable(to_json) else repr(action)
    except Exception:  # an object that is no action at all
        return repr(action)
