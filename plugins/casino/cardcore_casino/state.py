"""One hand of a fishing game: apply, the deal as played, zones; export, view, determinize
and loading follow from its declared parts (``parts.PARTS``, the kit's DeclaredState).

Cards are ints (rules.NAMES), hands and the loose cards are lists in the order
they were dealt or laid, builds are ``moves.Build`` tuples. Who sits where, who
partners whom and who plays next is the core's ``Seating``, asked once (``Seats``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from cardcore.engine.cards import glyph
from cardcore.engine.deal import deal
from cardcore.engine.game import Action, Game, GameOptions, Group, IllegalAction, ScoreRow, Zone
from cardcore.engine.kit import DeclaredState
from cardcore.engine.kit.declared import CardTest
from cardcore.engine.seating import Seating
from cardcore.language import current
from cardcore_casino import load, moves, scoring
from cardcore_casino.combos import split
from cardcore_casino.moves import ADD, CAPTURE, NEW, RAISE, TRAIL, Build, FishingAction
from cardcore_casino.parts import PARTS
from cardcore_casino.rules import BIT, ID, NAMES, Rules
from cardcore_casino.words import _

if TYPE_CHECKING:
    from cardcore_casino.game import FishingGame

#: A listing longer than this gets an index of its actions (apply would scan it otherwise).
KEYED = 48


def _captures(backs: tuple[tuple[int, ...], ...], value: int) -> CardTest:
    """A test of a card: it captures ``value`` (``backs``: the values each card captures)."""
    return lambda c: value in backs[c]


class Seats:
    """A hand's ``Seating`` and what the engine asks of it, as small tuples by seat: read on
    the hot path, made once per seating and shared by every state and clone that sits so."""

    __slots__ = ("seating", "players", "dealer", "partner", "side", "next", "order",
                 "sides", "side_seats")

    def __init__(self, seating: Seating):
        self.seating = seating
        n = self.players = seating.players
        self.dealer = seating.dealer
        #: each seat's partner, -1 for none
        self.partner: tuple[int, ...] = tuple(
            -1 if (p := seating.partner(s)) is None else p for s in range(n))
        #: each seat's side
        self.side: tuple[int, ...] = tuple(seating.side_of(s) for s in range(n))
        #: the seat that plays after each seat
        self.next: tuple[int, ...] = tuple(seating.next(s) for s in range(n))
        #: play order from the dealer's neighbour, the dealer last (D5, D6)
        self.order: tuple[int, ...] = tuple(seating.deal_order())
        self.sides = seating.sides
        #: the seats of each side
        self.side_seats: tuple[tuple[int, ...], ...] = tuple(
            tuple(seating.seats_of(side)) for side in range(seating.sides))


#: One dict operation at a time: safe from any thread (docs/design.md).
_SEATS: dict[Seating, Seats] = {}


def seats_of(seating: Seating) -> Seats:
    """The shared ``Seats`` of ``seating`` (seatings are frozen: equal ones share one)."""
    got = _SEATS.get(seating)
    if got is None:
        if len(_SEATS) >= 1000:
            _SEATS.clear()
        got = _SEATS[seating] = Seats(seating)
    return got


class FishingState(DeclaredState):
    parts = PARTS
    cache_public = True
    __slots__ = ("rules", "seats", "to_play", "hands", "loose", "builds",
                 "captured", "sweeps", "stock", "last_capture", "totals_before",
                 "_legal", "_ids", "_shown", "_public")

    def __init__(self, rules: Rules, seating: Seating, to_play: int | None,
                 hands: list[list[int]], loose: list[int], builds: list[Build],
                 captured: list[list[int]], sweeps: list[int], stock: list[int],
                 last_capture: int | None, totals_before: list[int]):
        self.rules = rules
        self.seats = seats_of(seating)
        self.to_play = to_play
        self.hands = hands
        self.loose = loose
        self.builds = builds
        self.captured = captured
        self.sweeps = sweeps
        self.stock = stock
        self.last_capture = last_capture
        self.totals_before = totals_before
        self._legal: list[FishingAction] | None = None
        #: A long listing's index: the ids of its actions (they are alive: the listing holds
        #: them), made by the first apply and shared by clones, in a box of one.
        self._ids: list[frozenset[int] | None] | None = None
        #: The zones every seat sees alike (stock face down, table, captures), made at the
        #: first ``zones`` call after a change: a server draws the table for every seat.
        #: Kept with the language they are in.
        self._shown: tuple[str, tuple[Zone, Zone, list[Zone], list[Zone], list[Zone]]] | None = None
        #: The same for ``export`` and ``view``: all but the hands and the stock, as JSON
        #: (DeclaredState.cache_public).
        self._public: dict[str, Any] | None = None

    @property
    def seating(self) -> Seating:
        return self.seats.seating

    @property
    def players(self) -> int:
        return self.seats.players

    @property
    def dealer(self) -> int:
        return self.seats.dealer

    # --- the deal (D5-D7) ----------------------------------------------

    def deal_order(self) -> list[int]:
        """Play order from the dealer's neighbour, the dealer last."""
        return list(self.seats.order)

    def _deal(self, first: bool) -> None:
        order = list(self.seats.order)
        plan = (self.rules.first_plan if first else self.rules.later_plan)(order)
        hands, table = deal(self.stock, plan, self.players)
        for hand, packet in zip(self.hands, hands, strict=True):
            hand.extend(packet)
        self.loose.extend(table)
        self.to_play = next((s for s in order if self.hands[s]), None)

    @property
    def last_deal(self) -> bool:
        """The cards in play are the last deal ("last" was announced)."""
        return not self.stock and self.to_play is not None

    # --- play --------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.to_play is None

    def legal_actions(self) -> list[Action]:
        """Cached until the next apply; callers get their own copy of the list."""
        legal = self._legal
        if legal is None:
            if self.to_play is None:
                return []
            legal = self._legal = moves.generate(self)
            if len(legal) > KEYED:
                self._ids = [None]
        return [*legal]

    def apply(self, action: Action) -> None:
        act = self._listed(action)
        seat = self.to_play
        assert seat is not None  # there was a legal action
        kind, _, touch, head, _, _ = act.how
        c = head[1]
        self.hands[seat].remove(c)
        if kind == TRAIL:
            self.loose.append(c)
        elif kind == CAPTURE:
            taken = act.bits
            pile = self.captured[seat]
            keep = []
            for x in self.loose:
                if taken >> x & 1:
                    pile.append(x)
                else:
                    keep.append(x)
            self.loose = keep
            builds = self.builds
            if len(touch) > 1 or touch[0] >= 0:
                for i in sorted((i for i in touch if i >= 0), reverse=True):
                    for g in builds[i].groups:
                        pile.extend(g)
                    del builds[i]
            pile.append(c)
            self.last_capture = seat
            if not keep and not builds:
                self.sweeps[seat] += 1
        else:
            self._build(act, seat, c)
        self._legal = self._ids = self._shown = self._public = None
        self._advance()

    def _listed(self, action: Action) -> FishingAction:
        """The listed action ``action`` is: the caller usually hands back one of the listed
        objects, found by identity; else by key (or IllegalAction, nothing changed)."""
        legal = self._legal
        if legal is not None:
            box = self._ids
            if box is None:  # a short listing: scanned
                for a in legal:
                    if a is action:
                        return a
            else:
                ids = box[0]
                if ids is None:  # made whole, then stored: clones on threads may share it
                    ids = box[0] = frozenset(map(id, legal))
                if id(action) in ids:
                    return cast(FishingAction, action)
        return self._by_key(action)

    def _by_key(self, action: Action) -> FishingAction:
        """The listed action with the key of ``action``, or IllegalAction (nothing changed)."""
        legal = self._legal
        if legal is None:
            self.legal_actions()
            legal = self._legal or []
        act = moves.find(legal, getattr(action, "key", None))
        if act is None:
            raise IllegalAction(self.why_illegal(action))
        return act

    def _build(self, act: FishingAction, seat: int, c: int) -> None:
        used = act.bits
        v = act.value
        values = self.rules.value
        joined: list[int] = []
        keep: list[int] = []
        for x in self.loose:
            (joined if used >> x & 1 else keep).append(x)
        self.loose = keep
        kind = act.kind
        if kind == RAISE:
            i = act.touch[-1]
            old = self.builds[i]
            got = split(joined, values, v, 0)
            assert got is not None  # the action is legal
            rest = got[1]
            groups = (old.groups[0] + (c,), *map(tuple, rest))
            bits = old.bits
        else:
            got = split(joined, values, v, v - values[c])
            assert got is not None  # the action is legal
            part, rest = got
            mine = (*part, c)
            if kind == ADD:
                i = act.touch[-1]
                old = self.builds[i]
                groups = (*old.groups, mine, *map(tuple, rest))
                bits = old.bits
            else:
                groups = (mine, *map(tuple, rest))
                bits = 0
        for x in joined:
            bits |= BIT[x]
        build = Build(v, seat, groups, bits | BIT[c])
        if kind == NEW:
            self.builds.append(build)
        else:
            self.builds[i] = build

    def _advance(self) -> None:
        nxt = self.seats.next
        s = self.to_play
        assert s is not None  # a seat has just played
        hands = self.hands
        for _step in nxt:
            s = nxt[s]
            if hands[s]:
                self.to_play = s
                return
        if self.stock:
            self._deal(first=False)
            return
        # the end of the hand: leftovers to the last capturer, never a sweep (D8)
        if self.last_capture is not None:
            pile = self.captured[self.last_capture]
            pile.extend(self.loose)
            for b in self.builds:
                for g in b.groups:
                    pile.extend(g)
            self.loose = []
            self.builds = []
        self.to_play = None

    def why_illegal(self, action: Action) -> str:
        """A reason for refusing ``action`` (it is not among the legal actions)."""
        try:
            data = action.to_json()
        except Exception:
            return f"not an action of this game: {action!r}"
        if self.to_play is None:
            return "the hand is over"
        card = ID.get(str(data.get("card"))) if isinstance(data, dict) else None
        hand = self.hands[self.to_play]
        if card not in hand:
            return f"{data.get('card')} is not in the hand of seat {self.to_play}"
        if data.get("type") == "trail":
            return self._no_trail(card)
        return f"not a legal action here: {data}"

    def why_not(self, card: str) -> str | None:
        """Why ``card`` (from the hand of the seat to play) may not be trailed now (D11,
        D12), or None when it may: the front end says it when the player picks the card."""
        c = ID.get(card)
        seat = self.to_play
        if c is None or seat is None or c not in self.hands[seat]:
            return None
        trail = moves.trail(c)  # listed as itself: no key compared
        if any(a is trail for a in self.legal_actions()):
            return None
        return self._no_trail(c)

    def _no_trail(self, c: int) -> str:
        """Why card ``c`` may not be trailed (it is in the hand and its trail is not legal),
        short enough for the message line at 80 columns, in words (D11, D12: the decision
        numbers stay in the docs)."""
        own = sorted({b.value for b in self.builds if b.owner == self.to_play})
        if own:
            builds = _(" and ").join(map(str, own))
            return _("the owner of a build may not trail: you own the {builds}").format(
                builds=builds)
        rules = self.rules
        if rules.trail_rule == "no_match":
            value = rules.value[c]
            same = next((x for x in self.loose if rules.value[x] == value), None)
            if same is not None:
                return _("a card of a loose card's value may not be trailed: {card} is "
                         "loose").format(card=glyph(NAMES[same]))
        if rules.trail_rule == "no_capture":
            return _("a card that could capture may not be trailed")
        return _("{card} may not be trailed here").format(card=glyph(NAMES[c]))

    def log_line(self, action: Action) -> str:
        text = action.label
        if self.to_play is None:
            return text
        key = getattr(action, "key", None)
        if key and key[0] == CAPTURE and self.builds_bits() | self.loose_bits() == key[2]:
            text += " — " + _("sweep")
        hands = self.hands
        if sum(len(h) for h in hands) == 1:
            n = self.players
            if not self.stock:
                text += " — " + _("the hand is over")
            elif len(self.stock) == 4 * n:
                text += " — " + _("the dealer deals the last cards: \"last\"")
            else:
                text += " — " + _("new deal")
        return text

    def loose_bits(self) -> int:
        b = 0
        for x in self.loose:
            b |= BIT[x]
        return b

    def builds_bits(self) -> int:
        b = 0
        for x in self.builds:
            b |= x.bits
        return b

    def clone(self) -> FishingState:
        s = FishingState.__new__(FishingState)
        s.rules = self.rules
        s.seats = self.seats
        s.to_play = self.to_play
        s.hands = [h[:] for h in self.hands]
        s.loose = self.loose[:]
        s.builds = self.builds[:]
        s.captured = [p[:] for p in self.captured]
        s.sweeps = self.sweeps[:]
        s.stock = self.stock[:]
        s.last_capture = self.last_capture
        s.totals_before = self.totals_before
        s._legal = self._legal
        s._ids = self._ids
        s._shown = s._public = None
        return s

    # --- the outside world ---------------------------------------------------------

    # --- the outside world: export, view, determinize and loading follow from ``parts`` ---

    def header(self) -> dict[str, Any]:
        seats = self.seats
        return {"game": self.rules.game_id, "players": seats.players, "dealer": seats.dealer,
                "to_play": self.to_play}

    def options_json(self) -> dict[str, Any]:
        return dict(self.rules.options_json)

    def must_hold(self) -> dict[tuple[str, int | None], Sequence[CardTest]]:
        """Every owner of a build keeps a card of its value (D12)."""
        if not self.builds:
            return {}
        backs = self.rules.capture_values
        return {("hands", s): [_captures(backs, v) for v in moves.required_values(self, s)]
                for s in sorted({b.owner for b in self.builds})}

    def determinize(self, seat: int, rng: random.Random) -> FishingState:
        """The hidden cards (other hands, the stock) dealt again at random, every
        owner of a build still holding a card of its value."""
        s = super().determinize(seat, rng)
        assert isinstance(s, FishingState)
        if s.to_play != seat:  # the listing of the seat to play is kept only for its own seat
            s._legal = s._ids = None
        return s

    @classmethod
    def made(cls, game: Game, seating: Seating, options: GameOptions, to_play: int | None,
             values: dict[str, Any]) -> FishingState:
        n = seating.players
        rules = cast("FishingGame", game).rules_for(options)
        loose, builds = values.get("table", ([], []))
        return cls(rules, seating, to_play, values["hands"], loose, builds,
                   values.get("captured") or [[] for _ in range(n)],
                   values.get("sweeps") or [0] * n, values.get("stock", []),
                   values.get("last_capture"), values.get("totals_before") or [0] * seating.sides)

    @classmethod
    def load_options(cls, game: Game, data: dict, strict: bool) -> GameOptions:
        return load.load_options(game, data)

    @classmethod
    def first_to_play(cls, seating: Seating, values: dict[str, Any]) -> int | None:
        return load.first_to_play(seating, values["hands"])

    def check(self, strict: bool) -> None:
        load.check(self, strict)

    def match_totals(self) -> list[int]:
        return list(self.totals_before)

    def score(self) -> ScoreRow:
        return scoring.score_row(self)

    def _captured_zone(self, seats: tuple[int, ...]) -> Zone:
        """What a side captured: partners pool their captures (D19), so a side of two has
        one zone ("captured-side-N": both piles, the counts that score); a player alone,
        "captured-S"."""
        names = [NAMES[c] for p in seats for c in self.captured[p]]
        sweeps = sum(self.sweeps[p] for p in seats)
        spades = sum(1 for c in names if c.endswith("S"))
        badges = [_("cards {n}").format(n=len(names)), _("spades {n}").format(n=spades),
                  _("sweeps {n}").format(n=sweeps)]
        pile: list[str | None] = [*names]
        if self.last_capture in seats:
            badges.append(_("last capture"))
        side = self.seats.side[seats[0]]
        if len(seats) > 1:
            return Zone(f"captured-side-{side}", "pile", _("Captured"), side=side, cards=pile,
                        badges=badges)
        return Zone(f"captured-{seats[0]}", "pile", _("Captured"), seat=seats[0], side=side,
                    cards=pile, badges=badges)

    def zones(self, seat: int | None) -> list[Zone]:
        """The table as ``seat`` sees it; ``None``: the open table (every card shown)."""
        # kept per language: a server draws the table in each language its clients speak
        language = current()
        kept = self._shown
        if kept is None or kept[0] != language:
            kept = self._shown = (language, self._shared_zones())
        stock, table, open_hands, hidden_hands, captured = kept[1]
        if seat is None:
            stock = replace(stock, cards=[NAMES[c] for c in self.stock])
            hands = open_hands
        else:
            hands = [*hidden_hands]
            hands[seat] = open_hands[seat]
        return [stock, table, *hands, *captured]

    def _shared_zones(self) -> tuple[Zone, Zone, list[Zone], list[Zone], list[Zone]]:
        """The stock (face down), the table, the hands face up and face down, the
        captures: what ``zones`` puts together for a seat."""
        last = self.last_deal
        said_last = [_("last")] if last else []
        stock = Zone("stock", "pile", _("Stock"), cards=[None] * len(self.stock),
                     badges=[_("stock {n}").format(n=len(self.stock)), *said_last])
        groups = []
        for i, b in enumerate(self.builds):
            badges = [str(b.value), _("multiple") if len(b.groups) > 1 else _("single")]
            parts = [len(g) for g in b.groups] if len(b.groups) > 1 else []
            groups.append(Group(f"build-{i}", [NAMES[c] for g in b.groups for c in g], badges,
                                seat=b.owner, parts=parts))
        table_badges = [*said_last]
        if self.to_play is None:
            table_badges.append(_("hand over"))
        table = Zone("table", "row", _("Table"), cards=[NAMES[c] for c in self.loose], groups=groups,
                     badges=table_badges)
        open_hands, hidden_hands = [], []
        for s, hand in enumerate(self.hands):
            badges = []
            if self.dealer == s:
                badges.append(_("dealer"))
            if self.to_play == s:
                badges.append(_("to play"))
            zone_id, title = f"hand-{s}", _("Seat {seat}").format(seat=s)
            side = self.seats.side[s]
            open_hands.append(Zone(zone_id, "hand", title, s, side, [NAMES[c] for c in hand],
                                   badges=badges))
            hidden_hands.append(Zone(zone_id, "hand", title, s, side, [None] * len(hand),
                                     badges=badges))
        return (stock, table, open_hands, hidden_hands,
                [self._captured_zone(seats) for seats in self.seats.side_seats])
