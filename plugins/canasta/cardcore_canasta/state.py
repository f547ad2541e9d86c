"""A Canasta hand: the position and applying steps (the hot path, its own), zones; export,
view, determinize and loading follow from its declared parts (``parts.PARTS``, the kit's
DeclaredState), with the rules loading checks in loading.py."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardcore.engine.cards import canasta_deck
from cardcore.engine.game import (
    Action,
    Game,
    GameOptions,
    Group,
    IllegalAction,
    ScoreRow,
    StateError,
    Zone,
)
from cardcore.engine.kit import DeclaredState
from cardcore.engine.kit import known as k
from cardcore.engine.kit.declared import CardTest
from cardcore.engine.seating import Seating

from . import loading
from .actions import ADD, DECLINE, DISCARD, DRAW, MELD, ONTO, TAKE, CanastaAction, Kind
from .explain import draw_line, first_meld_badge, frozen_badge, why_not
from .moves import DRAW_PHASE, OVER, PLAY_PHASE, legal_actions, take_actions
from .parts import PARTS, PHASES
from .rules import (
    CANASTA,
    CANASTAS_TO_GO_OUT,
    CARD_VALUE,
    DRAW_COUNT,
    FIRST_WILD,
    FREEZES,
    IS_RED_THREE,
    RANK_OF,
    TEXT_ID,
    CanastaOptions,
    Meld,
    canasta_seating,
    is_wild,
    minimum,
)
from .scoring import score_row
from .words import _

__all__ = ["PHASES", "STEPS", "CanastaState", "HandSetup"]


class HandSetup:
    """What stays the same through a hand, shared by a state and all its clones: the
    options, the seating, the sides' totals before the hand and so their minimum first
    meld (D36), and what the number of players decides: the cards a draw takes and the
    canastas going out needs (D43, D44)."""

    __slots__ = ("options", "classic", "black_three_freezes", "concealed_needs_minimum",
                 "browse_pile", "seating", "sides", "side_seats", "totals_before", "minimums",
                 "draw_count", "canastas_to_go_out")

    def __init__(self, options: CanastaOptions, seating: Seating,
                 totals_before: tuple[int, ...] | None = None) -> None:
        self.options = options
        self.classic = options.wild_rule == "classic"
        self.black_three_freezes = options.black_three_freezes
        self.concealed_needs_minimum = options.concealed_needs_minimum
        self.browse_pile = options.browse_pile
        self.seating = seating
        self.sides = seating.sides
        #: The seats of each side, in seat order.
        self.side_seats = tuple(tuple(seating.seats_of(side)) for side in range(self.sides))
        if totals_before is None:
            totals_before = (0,) * self.sides
        self.totals_before = totals_before
        self.minimums = tuple(minimum(t) for t in totals_before)
        self.draw_count = DRAW_COUNT[seating.players]
        self.canastas_to_go_out = CANASTAS_TO_GO_OUT[seating.players]


class CanastaState(DeclaredState):
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
        "turn_added_to_earlier", "went_out", "concealed", "known", "_legal", "_public",
    )
    game_id = "canasta"
    deck = tuple(canasta_deck())
    parts = PARTS
    cache_public = True

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
        #: The spectator's view, made once per change (DeclaredState.cache_public).
        self._public: dict[str, Any] | None = None

    @property
    def options(self) -> CanastaOptions:  # type: ignore[override]  # 0.1's, read-only
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
        new._public = None
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
        self._legal = self._public = None
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

    # --- the outside world: export, view, determinize and loading follow from ``parts`` ---

    @property
    def players(self) -> int:
        return self.setup.seating.players

    @property
    def frozen(self) -> bool:
        return self.freezers > 0

    def marks_of(self, name: str) -> list[tuple[tuple[int, None], ...]]:
        """The cards each hand took with the open pile, as the kit's marks: known to all."""
        known, marks = _MARKS[0]
        if known is not self.known:  # a change of known cards replaces the tuple
            known = self.known
            marks = [tuple([(c, None) for c in held]) if held else () for held in known]
            _MARKS[0] = known, marks
        return list(marks)

    def set_marks(self, name: str, marks: list[tuple[tuple[int, Any], ...]]) -> None:
        for s, held in enumerate(marks):
            if any(to is not None for _, to in held):
                raise StateError(f"known.hands[{s}]: the cards taken with the pile are known "
                                 "to all (to: null)", ("known", "hands", s))
        self.known = tuple(tuple(sorted(c for c, _ in held)) for held in marks)

    def must_hold(self) -> dict[tuple[str, int | None], Sequence[CardTest]]:
        """A squared pile (D47) frozen under a top that freezes nothing keeps a card that
        freezes it."""
        pile, setup = self.pile, self.setup
        if self.freezers and not setup.browse_pile and len(pile) > 1 \
                and not FREEZES[setup.black_three_freezes][pile[-1]]:
            return _FREEZER[setup.black_three_freezes]
        return {}

    def may_not_hold(self) -> dict[tuple[str, int | None], CardTest]:
        """Red threes are never held (D28); a squared pile (D47) that is not frozen gets no
        card that would freeze it."""
        if self.freezers or self.setup.browse_pile or len(self.pile) < 2:
            return _NO_RED_THREES
        return _NO_FREEZERS[self.setup.black_three_freezes]

    def determinize(self, seat: int, rng: random.Random) -> CanastaState:
        """The other hands and the stock dealt again, and the pile under its top card when
        it is squared (D47); red threes never into a hand, the pile frozen or not as now;
        the cards a hand took with the open pile stay in it (known to all)."""
        new = super().determinize(seat, rng)
        assert isinstance(new, CanastaState)
        for s, hand in enumerate(new.hands):
            if s != seat:
                counts = [0] * 14
                for c in hand:
                    counts[RANK_OF[c]] += 1
                new.rank_counts[s] = counts
        # the seat to play knows its own legal actions: they stay (a search reuses them)
        if self.to_play != seat:
            new._legal = None
        return new

    @classmethod
    def made(cls, game: Game, seating: Seating, options: GameOptions, to_play: int | None,
             values: dict[str, Any]) -> CanastaState:
        return loading.made(cls, seating, options, to_play, values)

    @classmethod
    def load_options(cls, game: Game, data: dict, strict: bool) -> GameOptions:
        return loading.load_options(game, data)

    @classmethod
    def load_seating(cls, game: Game, data: dict, options: GameOptions, strict: bool) -> Seating:
        if not strict:  # a partial position: four players, seat 0 dealing, as in 0.1
            data = {"players": 4, "dealer": 0, **data}
        return super().load_seating(game, data, options, strict)

    @classmethod
    def first_to_play(cls, seating: Seating, values: dict[str, Any]) -> int | None:
        return None if values.get("phase") == "over" else seating.leader

    def known_from_json(self, raw: Any, strict: bool) -> None:
        loading.check_known_shape(raw, strict)
        super().known_from_json(raw, strict)

    def check(self, strict: bool) -> None:
        loading.check(self, strict)

    def match_totals(self) -> list[int]:
        return list(self.setup.totals_before)

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
            badges = [_("{n} cards").format(n=len(hand))]
            if data["went_out"] == s:
                badges.append(_("went out concealed") if data["concealed"] else _("went out"))
            zones.append(Zone(f"hand-{s}", "hand", _("Hand"), seat=s, side=self.side_of[s],
                              cards=list(hand), badges=badges))
        n = len(data["stock"])
        zones.append(Zone("stock", "stock", _("Stock"), cards=[None] if n else [],
                          badges=[_("stock {n}").format(n=n)]))
        pile = data["discard"]
        badges = [frozen_badge(pile, self.setup.black_three_freezes)] if data["frozen"] else []
        badges.append(_("{n} cards").format(n=len(pile)))
        if len(pile) > 1 and pile[0] is None:  # squared (D47): one face-down card stands for the rest
            pile = [None, pile[-1]]
        zones.append(Zone("discard", "pile", _("Discard pile"), cards=list(pile), badges=badges))
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
                badges.append(_("mixed canasta") if wild else _("natural canasta"))
            groups.append(Group(f"meld-{side}-{meld['rank']}", list(cards), badges))
        red = data["red_threes"][side]
        if red:  # laid out in front of the side, beside its melds (a line less at 80x24)
            groups.append(Group(f"red-threes-{side}", list(red),
                                [_("red three") if len(red) == 1 else _("red threes")]))
        if data["initial_meld_done"][side]:
            melded = sum(CARD_VALUE[TEXT_ID[c]] for m in melds for c in m["cards"])
            canastas = sum(1 for m in melds if len(m["cards"]) >= CANASTA)
            badges = [_("melded {n}").format(n=melded)]
            if canastas:
                badges.append(_("canastas {n}").format(n=canastas))
        else:
            badges = [first_meld_badge(minimum(data['totals_before'][side]))]
        return Zone(f"melds-{side}", "melds", _("Melds"), side=side, groups=groups, badges=badges)


#: The step of each kind, by ``Kind`` (apply dispatches on it).
_STEP_OF_KIND = {
    DRAW: CanastaState._draw, TAKE: CanastaState._take, ONTO: CanastaState._take,
    MELD: CanastaState._meld, ADD: CanastaState._add, DISCARD: CanastaState._discard,
    DECLINE: CanastaState._decline,
}
STEPS = tuple(_STEP_OF_KIND[kind] for kind in Kind)


#: The last known cards turned into marks, and the marks (views ask for every seat).
_MARKS: list[tuple[Any, list[tuple[tuple[int, None], ...]]]] = [((), [])]
#: What determinize's deals say (may_not_hold, must_hold), by black_three_freezes. The tests
#: are lists' ``__getitem__``: a list's is a direct C method, a tuple's a slot wrapper that
#: packs its argument for each card tested (twice the time; a deal tests every card).
_NO_RED_THREES: dict[tuple[str, int | None], CardTest] = {("hands", None): list(IS_RED_THREE).__getitem__}
_NO_FREEZERS = tuple({**_NO_RED_THREES, ("discard", None): list(f).__getitem__} for f in FREEZES)
_FREEZER: tuple[dict[tuple[str, int | None], Sequence[CardTest]], ...] = tuple(
    {("discard", None): (list(f).__getitem__,)} for f in FREEZES)


def _json(action: object) -> str:
    to_json = getattr(action, "to_json", None)
    try:
        return str(to_json()) if callable(to_json) else repr(action)
    except Exception:  # an object that is no action at all
        return repr(action)
