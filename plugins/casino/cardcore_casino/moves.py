"""Legal actions of the fishing games: trails, captures, builds (new, raise, add).

D11-D18. A build on the table is a ``Build``: its value, owner, groups (card-id
tuples; two or more: a multiple build) and the bit mask of its cards.

generate() reads the position once (``_Turn``), then asks each hand card for its
captures, builds and trail in turn.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, NamedTuple

from cardcore.engine.cards import glyph
from cardcore.engine.game import Action
from cardcore_casino.combos import TABLES, table
from cardcore_casino.rules import BIT, NAMES, RANK, ids_of

if TYPE_CHECKING:
    from cardcore_casino.state import FishingState

TRAIL, CAPTURE, NEW, RAISE, ADD = 0, 1, 2, 3, 4
LOOSE = (-1,)


class FishingAction(Action):
    """One play of a hand card. ``key``: (0, card) | (1, card, taken) | (2, card, value, used),
    cards as ids and card sets as bit masks, so equal keys are equal JSON."""

    __slots__ = ("kind", "value", "touch")

    def __init__(self, key: tuple, kind: int, value: int, touch: tuple[int, ...]):
        self.key = key
        self.kind = kind
        #: capture: the value the card took with (royal aces: 1 or 14); build: its value
        self.value = value
        #: what it touches: -1 the loose cards, i >= 0 build i
        self.touch = touch

    def to_json(self) -> dict:
        card = NAMES[self.key[1]]
        kind = self.kind
        if kind == TRAIL:
            return {"type": "trail", "card": card}
        if kind == CAPTURE:
            return {"type": "capture", "card": card, "taken": [NAMES[c] for c in ids_of(self.key[2])]}
        return {"type": "build", "card": card, "value": self.value,
                "used": [NAMES[c] for c in ids_of(self.key[3])]}

    @property
    def label(self) -> str:
        card = glyph(NAMES[self.key[1]])
        kind = self.kind
        if kind == TRAIL:
            return f"Trail {card}"
        on = _glyphs(self.key[-1])
        if kind == CAPTURE:
            how = " as 14" if self.value == 14 else ""
            return f"Capture {on} with {card}{how}"
        if kind == NEW:
            return f"Build {self.value}: {card} on {on}"
        if kind == RAISE:
            return f"Raise to {self.value}: {card} on {on}"
        return f"Add to {self.value}: {card} on {on}"

    @property
    def hand_cards(self) -> tuple[str, ...]:
        return (NAMES[self.key[1]],)

    @property
    def targets(self) -> tuple[str, ...]:
        return tuple("table" if i < 0 else f"build-{i}" for i in self.touch)

    @property
    def table_cards(self) -> tuple[tuple[str | None, str], ...]:
        """The table's cards it captures or builds with (loose or in the builds it touches:
        the zone "table" holds both); a trail uses none."""
        if self.kind == TRAIL:
            return ()
        return tuple((name, "table") for name in _names(self.key[-1]))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_json()}>"


#: The trail of each card: actions are immutable, so every state shares these.
_TRAILS: tuple[FishingAction, ...] = tuple(FishingAction((TRAIL, c), TRAIL, 0, LOOSE) for c in range(52))


def trail(card: int) -> FishingAction:
    """The trail of card id ``card`` (one shared object)."""
    return _TRAILS[card]


@functools.lru_cache(maxsize=4096)
def _names(bits: int) -> tuple[str, ...]:
    """The cards of a mask as shown (by rank, then suit): a label's, a table_cards'."""
    return tuple(NAMES[c] for c in sorted(ids_of(bits), key=lambda c: (RANK[c], NAMES[c][-1])))


@functools.lru_cache(maxsize=4096)
def _glyphs(bits: int) -> str:
    return " ".join(glyph(name) for name in _names(bits))


class Build(NamedTuple):
    """One build on the table (D13-D15): its value, its owner, its groups of card
    ids (two or more: a multiple build) and the bit mask of its cards."""

    value: int
    owner: int
    groups: tuple[tuple[int, ...], ...]
    bits: int


class _Turn:
    """What the seat to play faces, read once per generate() call by every hand card's
    captures, builds and trail: the loose values as a combination table, the values the
    hand holds, the builds by value, the seat's own builds and its partner."""

    __slots__ = ("rules", "seat", "capv", "builds", "loose", "vals", "by_value", "have", "held",
                 "own_vals", "owns", "partner", "top", "families", "find_family", "loose_total", "pos",
                 "mb", "luts", "cards")

    def __init__(self, state: FishingState):
        R = self.rules = state.rules
        seat = state.to_play
        assert seat is not None  # the hand is not over
        self.seat = seat
        self.capv = CAPV = R.capture_values
        builds = self.builds = state.builds
        loose = self.loose = state.loose
        VAL = R.value
        SK = R.sort_key
        keys = sorted([SK[c] for c in loose if VAL[c]])  # casino court cards never sum
        vals = self.vals = tuple([k >> 6 for k in keys])
        pos = [1 << (k & 63) for k in keys]
        T = TABLES.get(vals) or table(vals)
        self.families = T.families
        self.find_family = T.find_family
        self.loose_total = T.total

        self.pos = pos

        def mb(m: int) -> int:
            """A mask over the sorted loose values as a mask of card ids."""
            b = 0
            while m:
                low = m & -m
                b |= pos[low.bit_length() - 1]
                m ^= low
            return b

        #: a few loose values: each mask converted as used (``ids`` when None: crowded)
        self.mb = mb if len(pos) <= 8 else None
        self.luts: list[list[int]] | None = None  # made by the first ids() call
        #: families as masks of card ids, by family key: converted once per turn (a crowded
        #: table offers the same ones to every hand card)
        self.cards: dict[int, tuple[int, ...]] = {}

        have = self.have = [0] * 15
        held: list[int] = []
        self.held = held  # the values the hand holds a card of, ascending
        for c in state.hands[seat]:
            for v in CAPV[c]:
                if not have[v]:
                    held.append(v)
                have[v] += 1
        held.sort()
        #: the highest value the hand holds (0: none): no build goes above it
        self.top = held[-1] if held else 0

        own_vals: list[int] = []
        self.own_vals = own_vals
        if builds:
            self.partner = state.seats.partner[seat]
            by_value: dict[int, list[int]] = {}
            for i, (value, owner, _, _) in enumerate(builds):
                by_value.setdefault(value, []).append(i)
                if owner == seat:
                    own_vals.append(value)
            self.by_value = by_value
        else:
            self.partner = -1
            self.by_value = _EMPTY
        self.owns = bool(own_vals)

    def ids(self, key: int, fam: tuple[int, ...]) -> tuple[int, ...]:
        """On a crowded table, the family ``fam`` (``Table.families[key]``) as masks of card
        ids, in its order (0 stays 0): converted once per turn through byte tables, as every
        hand card is offered the same families. (A few loose values: ``map(t.mb, fam)``.)"""
        got = self.cards.get(key)
        if got is None:
            luts = self.luts
            if luts is None:
                luts = self.luts = _luts(self.pos)
            if len(luts) == 2:
                lo, hi = luts
                got = tuple([lo[m & 255] | hi[m >> 8] for m in fam])
            else:
                got = tuple([_convert(luts, m) for m in fam])
            self.cards[key] = got
        return got

    def backed(self, c: int, req: list[int]) -> bool:
        """After playing c, does the hand still hold a card for every value in req?"""
        cv = self.capv[c]
        have = self.have
        for v in req:
            if have[v] - (v in cv) < 1:
                return False
        if self.rules.ace_dual and 1 in req and 14 in req:
            return have[1] - (1 in cv) >= 2
        return True


def _luts(pos: list[int]) -> list[list[int]]:
    """Tables turning a mask over the sorted loose values into a mask of card ids, eight
    positions at a time: ``luts[k][byte k of the mask]``."""
    out = []
    for k in range(0, len(pos), 8):
        t = [0]
        for b in pos[k:k + 8]:
            t += [x | b for x in t]
        out.append(t)
    return out or [[0]]


def _convert(luts: list[list[int]], m: int) -> int:
    b = 0
    for t in luts:
        b |= t[m & 255]
        m >>= 8
    return b


def generate(state: FishingState) -> list[FishingAction]:
    """Every legal action of the seat to play, in a fixed order (by hand card: captures,
    builds, trail)."""
    t = _Turn(state)
    acts: list[FishingAction] = []
    add = acts.append
    R = t.rules
    VAL = R.value
    capv = t.capv
    top = t.top
    # trail (D11, D12): never by an owner of a build; "no_capture": not a card that
    # could capture; "no_match": not onto a loose card of the same value (vals holds every
    # valued loose card; a card without value matches a loose one without value)
    no_trail = t.owns
    no_capture = R.trail_rule == "no_capture"
    no_match = R.trail_rule == "no_match"
    vals = t.vals
    valueless_loose = len(vals) < len(t.loose)
    for c in state.hands[t.seat]:
        cvs = capv[c]
        can_capture = _captures(t, c, cvs, add) if cvs else _court_captures(t, c, add)
        h = VAL[c]
        if h and h <= top:  # a build needs a held value at least the card's
            _builds(t, c, h, cvs, add)
        if no_trail or (no_capture and can_capture) or (
                no_match and (h in vals if h else valueless_loose)):
            continue
        add(_TRAILS[c])
    return acts


# --- captures (D1, D2, D16) ---------------------------------------------------------


def _court_captures(t: _Turn, c: int, add: Callable[[FishingAction], None]) -> bool:
    """A casino court card pairs by rank only; whether it could capture."""
    rank = RANK[c]
    same = [BIT[x] for x in t.loose if RANK[x] == rank]
    if not same:
        return False
    if t.rules.court_take_all:
        choices = [0]
        for b in same:
            choices += [u | b for u in choices]
        choices = sorted(choices[1:])
    else:
        choices = sorted(same)
    if not t.owns or t.backed(c, t.own_vals):
        for taken in choices:
            add(FishingAction((CAPTURE, c, taken), CAPTURE, 0, LOOSE))
    return True


def _captures(t: _Turn, c: int, cvs: tuple[int, ...],
              add: Callable[[FishingAction], None]) -> bool:
    """The captures of card c, which captures the values cvs (royal aces: 1 or 14); whether
    it could capture."""
    can_capture = False
    for v in cvs:
        unions = t.families.get(v << 6)  # family_key(v, 0)
        if unions is None:
            unions = t.find_family(v, 0)
        bi = t.by_value.get(v)
        if bi:
            can_capture = True
            mb = t.mb
            _captures_with_builds(t, c, v, map(mb, unions) if mb else t.ids(v << 6, unions),
                                  bi, add)
        elif len(unions) > 1:
            can_capture = True
            if t.owns and not t.backed(c, t.own_vals):
                continue
            mb = t.mb
            for b in map(mb, unions[1:]) if mb else t.ids(v << 6, unions)[1:]:
                add(FishingAction((CAPTURE, c, b), CAPTURE, v, LOOSE))
    return can_capture


def _captures_with_builds(t: _Turn, c: int, v: int, unions: Iterable[int], bi: list[int],
                          add: Callable[[FishingAction], None]) -> None:
    """Captures of value v when builds of v stand: any choice of them, with or without
    loose groups of v."""
    builds = t.builds
    subsets: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    for i in bi:
        bb = builds[i].bits
        subsets += [(s | bb, k + (i,)) for s, k in subsets]
    if t.owns:  # what the owner still owns must stay backed
        seat = t.seat
        subsets = [(sb, k) for sb, k in subsets
                   if t.backed(c, [value for i, (value, owner, _, _) in enumerate(builds)
                                   if owner == seat and i not in k])]
    with_loose = [(sb, (-1, *k)) for sb, k in subsets]
    alone = [(sb, k) for sb, k in subsets if k]
    for lb in unions:
        for sb, touched in (with_loose if lb else alone):
            add(FishingAction((CAPTURE, c, lb | sb), CAPTURE, v, touched))


# --- builds (D12-D15) ----------------------------------------------------------------


def _builds(t: _Turn, c: int, h: int, cvs: tuple[int, ...],
            add: Callable[[FishingAction], None]) -> None:
    """The builds card c of value h (capturing cvs) makes: new ones, and onto the builds on
    the table."""
    max_build = t.rules.max_build
    have = t.have
    builds = t.builds
    owns = t.owns
    loose_total = t.loose_total
    families = t.families
    for v in t.held:
        if v < h or v > max_build or have[v] - (v in cvs) < 1:
            continue
        fam: tuple[int, ...]
        key = (v << 6) + v - h  # family_key(v, v - h)
        if v - h > loose_total:  # no loose cards can make up the difference
            if not builds:
                continue
            fam = ()
        else:
            got = families.get(key)
            fam = t.find_family(v, v - h) if got is None else got
        # a new build: the card, loose cards making v with it, more loose groups
        if fam and fam[-1] and (not owns or t.backed(c, [*t.own_vals, v])):
            mb = t.mb
            for b in map(mb, fam) if mb else t.ids(key, fam):
                if b:
                    add(FishingAction((NEW, c, v, b), NEW, v, LOOSE))
        if builds:
            _onto_builds(t, c, h, v, key, fam, add)


def _onto_builds(t: _Turn, c: int, h: int, v: int, key: int, fam: tuple[int, ...],
                 add: Callable[[FishingAction], None]) -> None:
    """Card c (value h) added to a build of v, or raising a single build to v; never a
    partner's build (D14)."""
    seat = t.seat
    own_vals = t.own_vals
    partner = t.partner
    mb = t.mb
    for i, (bv, owner, groups, bits) in enumerate(t.builds):
        if owner == partner:
            continue
        if bv == v:  # add to it (it becomes or stays multiple)
            if not t.backed(c, own_vals if owner == seat else [*own_vals, v]):
                continue
            with_loose, alone = (-1, i), (i,)
            for b in map(mb, fam) if mb else t.ids(key, fam):
                add(FishingAction((NEW, c, v, bits | b), ADD, v, with_loose if b else alone))
        elif bv + h == v and len(groups) == 1:  # raise a single build
            if owner == seat:
                if not t.rules.raise_own_build:
                    continue
                req = list(own_vals)
                req.remove(bv)
                req.append(v)
            else:
                req = [*own_vals, v]
            if not t.backed(c, req):
                continue
            got = t.families.get(v << 6)  # family_key(v, 0)
            with_loose, alone = (-1, i), (i,)
            fam0 = t.find_family(v, 0) if got is None else got
            for b in map(mb, fam0) if mb else t.ids(v << 6, fam0):
                add(FishingAction((NEW, c, v, bits | b), RAISE, v, with_loose if b else alone))


_EMPTY: dict[int, list[int]] = {}


def required_values(state: FishingState, seat: int) -> list[int]:
    """The build values ``seat`` must hold a card of (each once), as owner."""
    return sorted({b.value for b in state.builds if b.owner == seat})
