"""Legal actions of the fishing games: trails, captures, builds (new, raise, add).

D11-D18. A build on the table is a ``Build``: its value, owner, groups (card-id
tuples; two or more: a multiple build) and the bit mask of its cards.

generate() reads the position once (``_Turn``), then asks each hand card for its
captures, builds and trail in turn.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from mypy_extensions import mypyc_attr

from cardcore.engine.cards import glyph
from cardcore.engine.game import Action
from cardcore_casino.combos import TABLES, table
from cardcore_casino.rules import BIT, NAMES, RANK, ids_of
from cardcore_casino.words import _

if TYPE_CHECKING:
    from cardcore_casino.state import FishingState

TRAIL, CAPTURE, NEW, RAISE, ADD = 0, 1, 2, 3, 4
LOOSE = (-1,)


# An interpreted class when mypyc compiles this module (docs/design.md, Engine speed): its
# base, the core's Action, is interpreted and has __slots__, which a native class may not.
@mypyc_attr(native_class=False)
class FishingAction(Action):
    """One play of a hand card. ``key``: (0, card) | (1, card, taken) | (2, card, value, used),
    cards as ids and card sets as bit masks, so equal keys are equal JSON."""

    __slots__ = ("how", "mask")

    # Made inline where thousands are made (``_action`` elsewhere): no __init__, so
    # FishingAction() is a call the interpreter makes in C, then two stores. ``how`` =
    # (kind, value, touch, head, base, luts) is shared by every action of one family;
    # ``mask`` is the action's own, an int its family already holds: on a crowded table
    # (``luts`` set) a mask over the sorted loose cards, turned into card ids when read
    # (``bits``). The key tuple too is made when read. A listing of 15,000 actions is
    # bound by making them and by the collector's passes over them: one tracked object
    # each and no new int is what is left.
    how: tuple[int, int, tuple[int, ...], tuple[int, ...], int, Luts | None]
    mask: int

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        """Pickled (a search's worker process) as its two slots: ``key`` is read, not kept."""
        return None, {"how": self.how, "mask": self.mask}

    @property  # Action's slot left unset: the key is made when read
    def key(self) -> tuple:  # type: ignore[override]
        how = self.how
        return (*how[3], self.bits) if how[0] else how[3]

    @property
    def bits(self) -> int:
        """The cards it takes or uses, as a mask of card ids (a trail: 0)."""
        _, _, _, _, base, luts = self.how
        m = self.mask
        if luts is None:
            return base | m
        for t in luts:  # _convert inline: a listing's keys are read by the thousand
            base |= t[m & 255]
            m >>= 8
        return base

    @property
    def kind(self) -> int:
        return self.how[0]

    @property
    def value(self) -> int:
        """capture: the value the card took with (royal aces: 1 or 14); build: its value"""
        return self.how[1]

    @property
    def touch(self) -> tuple[int, ...]:
        """What it touches: -1 the loose cards, i >= 0 build i."""
        return self.how[2]

    @property
    def card(self) -> int:
        """The hand card's id."""
        return self.how[3][1]

    @property
    def shown_key(self) -> tuple:
        """(kind, value, touch, card, bits): all its JSON, label, targets and cards read."""
        how = self.how
        return (how[0], how[1], how[2], how[3][1], self.bits)

    def to_json(self) -> dict:
        card = NAMES[self.card]
        kind = self.kind
        if kind == TRAIL:
            return {"type": "trail", "card": card}
        if kind == CAPTURE:
            return {"type": "capture", "card": card, "taken": [NAMES[c] for c in ids_of(self.bits)]}
        return {"type": "build", "card": card, "value": self.value,
                "used": [NAMES[c] for c in ids_of(self.bits)]}

    @property
    def label(self) -> str:
        card = glyph(NAMES[self.card])
        kind = self.kind
        if kind == TRAIL:
            return _("Trail {card}").format(card=card)
        on = _glyphs(self.bits)
        if kind == CAPTURE:
            if self.value == 14:
                return _("Capture {cards} with {card} as 14").format(cards=on, card=card)
            return _("Capture {cards} with {card}").format(cards=on, card=card)
        if kind == NEW:
            text = _("Build {value}: {card} on {cards}")
        elif kind == RAISE:
            text = _("Raise to {value}: {card} on {cards}")
        else:
            text = _("Add to {value}: {card} on {cards}")
        return text.format(value=self.value, card=card, cards=on)

    @property
    def hand_cards(self) -> tuple[str, ...]:
        return (NAMES[self.card],)

    @property
    def targets(self) -> tuple[str, ...]:
        return tuple("table" if i < 0 else f"build-{i}" for i in self.touch)

    @property
    def table_cards(self) -> tuple[tuple[str | None, str], ...]:
        """The table's cards it captures or builds with (loose or in the builds it touches:
        the zone "table" holds both); a trail uses none."""
        if self.kind == TRAIL:
            return ()
        return tuple((name, "table") for name in _names(self.bits))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_json()}>"


def _action(head: tuple[int, ...], kind: int, value: int, touch: tuple[int, ...],
            bits: int) -> FishingAction:
    """The action of key ``(*head, bits)`` (a trail: ``head``)."""
    a = FishingAction()
    a.how = (kind, value, touch, head, 0, None)
    a.mask = bits
    return a


#: The trail of each card: actions are immutable, so every state shares these.
_TRAILS: tuple[FishingAction, ...] = tuple(_action((TRAIL, c), TRAIL, 0, LOOSE, 0)
                                           for c in range(52))


def trail(card: int) -> FishingAction:
    """The trail of card id ``card`` (one shared object)."""
    return _TRAILS[card]


def find(actions: Sequence[FishingAction], key: object) -> FishingAction | None:
    """The action of ``key`` in a listing, or None. Only the actions of its hand card and
    kind (the key's ``head``) make their key: a crowded listing's keys cost a conversion."""
    if not isinstance(key, tuple) or len(key) < 2:
        return None
    head = key if key[0] == TRAIL else key[:-1]
    for a in actions:
        if a.how[3] == head and a.key == key:
            return a
    return None


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


class _Builds:
    """The builds on the table as the seat to play faces them: by value, the values of its
    own (each must stay backed by a held card: D12), its partner (whose builds it leaves
    alone: D14) and how many cards of the hand capture each value (``backed``)."""

    __slots__ = ("rules", "seat", "builds", "by_value", "own_vals", "partner", "have")

    def __init__(self, state: FishingState, seat: int):
        self.rules = R = state.rules
        self.seat = seat
        builds = self.builds = state.builds
        self.partner = state.seats.partner[seat]
        by_value: dict[int, list[int]] = {}
        own_vals: list[int] = []
        for i, (value, owner, _groups, _bits) in enumerate(builds):
            by_value.setdefault(value, []).append(i)
            if owner == seat:
                own_vals.append(value)
        self.by_value = by_value
        self.own_vals = own_vals
        have = self.have = [0] * 15
        capv = R.capture_values
        for c in state.hands[seat]:
            for v in capv[c]:
                have[v] += 1

    def backed(self, c: int, req: list[int]) -> bool:
        """After playing c, does the hand still hold a card for every value in req?"""
        cv = self.rules.capture_values[c]
        have = self.have
        for v in req:
            if have[v] - (v in cv) < 1:
                return False
        if self.rules.ace_dual and 1 in req and 14 in req:
            return have[1] - (1 in cv) >= 2
        return True


#: A family's masks (ints), typed Any so that compiled code keeps each as the object the
#: family holds rather than unboxing it and boxing a new int into each action (_SHARED).
Masks = Sequence[Any]

#: Byte tables turning a mask over the sorted loose cards into card ids (``_luts``).
Luts = tuple[tuple[int, ...], ...]


class _Loose:
    """The loose cards with value, as generate() reads them: their values' ``Table``, and
    how its masks (over the sorted values) become masks of card ids: at once on a short
    table (``pos``: the id bit of each sorted position), when read on a crowded one
    (``luts``, which the actions keep)."""

    __slots__ = ("table", "pos", "luts")

    def __init__(self, state: FishingState):
        R = state.rules
        cards = sorted(state.loose, key=R.sort_key.__getitem__)  # maps, not comprehensions:
        vals = tuple(map(R.value.__getitem__, cards))  # the interpreter loops in C
        if vals and not vals[0]:  # casino court cards (value 0, sorted first) never sum
            n = vals.count(0)
            vals = vals[n:]
            cards = cards[n:]
        self.table = TABLES.get(vals) or table(vals)
        pos = self.pos = list(map(BIT.__getitem__, cards))
        self.luts = _luts(pos) if len(pos) > 8 else None

    def family(self, v: int, r: int) -> Masks:
        """``Table.family(v, r)``: as masks of card ids on a short table (0 stays 0), as
        they are on a crowded one (``luts`` turn them into card ids)."""
        key = (v << 6) + r  # family_key(v, r)
        T = self.table
        fam = T.families.get(key) or T.find_family(v, r)
        if self.luts is not None:
            return fam
        pos = self.pos
        out = []
        for m in fam:
            b = 0
            while m:
                low = m & -m
                b |= pos[low.bit_length() - 1]
                m ^= low
            out.append(b)
        return out


def _luts(pos: list[int]) -> Luts:
    """Tables turning a mask over the sorted loose values into a mask of card ids, eight
    positions at a time: ``luts[k][byte k of the mask]``."""
    out = []
    for k in range(0, len(pos), 8):
        t = [0]
        for b in pos[k:k + 8]:
            t += [x | b for x in t]
        out.append(tuple(t))
    return tuple(out)


def _convert(luts: Luts, m: int) -> int:
    b = 0
    for t in luts:
        b |= t[m & 255]
        m >>= 8
    return b


def generate(state: FishingState) -> list[FishingAction]:
    """Every legal action of the seat to play, in a fixed order (by hand card: captures,
    builds, trail).

    The loose values' ``Table`` says at once which sums some loose cards make
    (``sums``), so only families that hold a move are looked up; the values the hand
    holds are bit masks, and a card's new build values one expression of them."""
    R = state.rules
    seat = state.to_play
    assert seat is not None  # the hand is not over
    L = _Loose(state)
    sums = L.table.sums
    hand = state.hands[seat]
    capb = R.capture_bits
    held = twice = 0  # the values the hand holds a card of; two cards or more of
    for c in hand:
        b = capb[c]
        twice |= held & b
        held |= b
    t = _Builds(state, seat) if state.builds else None
    # trail (D11, D12): never by an owner of a build; "no_capture": not a card that
    # could capture; "no_match": not onto a loose card of the same value (vals holds every
    # valued loose card; a card without value matches a loose one without value)
    no_trail = t is not None and bool(t.own_vals)
    no_capture = R.trail_rule == "no_capture"
    no_match = R.trail_rule == "no_match"
    vals = L.table.vals
    valueless_loose = len(vals) < len(state.loose)
    capv = R.capture_values
    VAL = R.value
    build_bits = R.build_bits
    acts: list[FishingAction] = []
    for c in hand:
        cvs = capv[c]
        if not cvs:
            can_capture = _court_captures(state, t, c, acts)
        elif t is not None:
            can_capture = _captures_by_builds(t, L, c, cvs, acts)
        else:
            can_capture = False
            for v in cvs:
                if sums >> v & 1:  # some loose cards make v (D16)
                    can_capture = True
                    _take(L, c, v, acts)
        h = VAL[c]
        if h:
            # the values v >= h, up to the highest build, that the hand still holds a card
            # of after c and that loose cards make with c (v - h, or groups of v beside it)
            others = twice | held & ~capb[c]
            if t is not None:
                _builds(t, L, c, h, others, acts)
            else:
                new_values = others & build_bits & (sums << h | sums & 1 << h)
                while new_values:
                    low = new_values & -new_values
                    new_values ^= low
                    v = low.bit_length() - 1
                    _new_builds(L, c, v, L.family(v, v - h), acts)
        if no_trail or (no_capture and can_capture) or (
                no_match and (h in vals if h else valueless_loose)):
            continue
        acts.append(_TRAILS[c])
    return acts


# _SHARED: the actions of one family share one ``how`` tuple. A local typed as the tuple it
# is would be, compiled, a C struct boxed anew into each action it is stored in (a tuple an
# action, and the collector running over a crowded listing's thousands: 7x slower there),
# so those locals are typed Any: one Python object, as the interpreter keeps it. So are the
# masks read from a family: typed int, each would be unboxed, then boxed anew (a new int an
# action). And actions go in with ``acts.append``, which compiled is a direct list append
# and interpreted a specialised call; a bound ``add`` passed around was a generic call
# compiled. Both made the compiled crowded listing twice the pure one's time; now they take
# the same instructions (benches/RESULTS.md).


def _take(L: _Loose, c: int, v: int, acts: list[FishingAction]) -> None:
    """Card c captures loose cards only, of value v: every non-empty choice of groups."""
    new = FishingAction
    how: Any = (CAPTURE, v, LOOSE, (CAPTURE, c), 0, L.luts)  # Any: one object (_SHARED)
    for b in L.family(v, 0):
        if b:
            a = new()  # inline _action: the hot path
            a.how = how
            a.mask = b
            acts.append(a)


def _new_builds(L: _Loose, c: int, v: int, fam: Masks,
                acts: list[FishingAction]) -> None:
    """New builds of value v by card c (value h): ``fam``, the loose cards making v - h
    with it and any loose groups of v beside (``L.family(v, v - h)``)."""
    new = FishingAction
    how: Any = (NEW, v, LOOSE, (NEW, c, v), 0, L.luts)  # Any: one object (_SHARED)
    for b in fam:
        if b:
            a = new()  # inline _action: the hot path
            a.how = how
            a.mask = b
            acts.append(a)


# --- captures (D1, D2, D16) ---------------------------------------------------------


def _court_captures(state: FishingState, t: _Builds | None, c: int,
                    acts: list[FishingAction]) -> bool:
    """A casino court card pairs by rank only; whether it could capture."""
    rank = RANK[c]
    same = [BIT[x] for x in state.loose if RANK[x] == rank]
    if not same:
        return False
    if state.rules.court_take_all:
        choices = [0]
        for b in same:
            choices += [u | b for u in choices]
        choices = sorted(choices[1:])
    else:
        choices = sorted(same)
    if t is None or not t.own_vals or t.backed(c, t.own_vals):
        for taken in choices:
            acts.append(_action((CAPTURE, c), CAPTURE, 0, LOOSE, taken))
    return True


def _captures_by_builds(t: _Builds, L: _Loose, c: int, cvs: tuple[int, ...],
                        acts: list[FishingAction]) -> bool:
    """The captures of card c, which captures the values cvs (royal aces: 1 or 14), when
    builds stand; whether it could capture."""
    can_capture = False
    sums = L.table.sums
    own_vals = t.own_vals
    for v in cvs:
        bi = t.by_value.get(v)
        if bi:
            can_capture = True
            _captures_with_builds(t, L, c, v, bi, acts)
        elif sums >> v & 1:
            can_capture = True
            if not own_vals or t.backed(c, own_vals):
                _take(L, c, v, acts)
    return can_capture


def _captures_with_builds(t: _Builds, L: _Loose, c: int, v: int, bi: list[int],
                          acts: list[FishingAction]) -> None:
    """Captures of value v when builds of v stand: any choice of them, with or without
    loose groups of v (``L.family(v, 0)``)."""
    builds = t.builds
    subsets: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    for i in bi:
        bb = builds[i].bits
        subsets += [(s | bb, k + (i,)) for s, k in subsets]
    if t.own_vals:  # what the owner still owns must stay backed
        seat = t.seat
        subsets = [(sb, k) for sb, k in subsets
                   if t.backed(c, [value for i, (value, owner, _groups, _bits) in enumerate(builds)
                                   if owner == seat and i not in k])]
    head = (CAPTURE, c)
    luts = L.luts
    with_loose: list[Any] = [(CAPTURE, v, (-1, *k), head, sb, luts) for sb, k in subsets]
    alone: list[Any] = [(CAPTURE, v, k, head, sb, luts) for sb, k in subsets if k]
    new = FishingAction
    for lb in L.family(v, 0):
        how: Any  # one object (_SHARED)
        for how in (with_loose if lb else alone):
            a = new()  # inline _action: a crowded table makes thousands
            a.how = how
            a.mask = lb
            acts.append(a)


# --- builds (D12-D15) ----------------------------------------------------------------


def _builds(t: _Builds, L: _Loose, c: int, h: int, others: int,
            acts: list[FishingAction]) -> None:
    """The builds card c of value h makes when builds stand, by value v (``others``: the
    values the hand holds a card of besides c): a new one, then onto the builds of v."""
    sums = L.table.sums
    own_vals = t.own_vals
    values = others & t.rules.build_bits & -(1 << h)  # v >= h
    while values:
        low = values & -values
        values ^= low
        v = low.bit_length() - 1
        r = v - h
        if sums >> v & 1 if r == 0 else sums >> r & 1:  # loose cards to build v with
            fam = L.family(v, r)
            if not own_vals or t.backed(c, [*own_vals, v]):
                _new_builds(L, c, v, fam, acts)
        else:  # adding c alone (r = 0), or nothing
            fam = (0,) if r == 0 else ()
        _onto_builds(t, L, c, h, v, fam, acts)


def _onto_builds(t: _Builds, L: _Loose, c: int, h: int, v: int, fam: Masks,
                 acts: list[FishingAction]) -> None:
    """Card c (value h) added to a build of v, with ``fam`` (loose cards making v - h with
    it, and groups of v), or raising a single build to v; never a partner's build (D14)."""
    seat = t.seat
    own_vals = t.own_vals
    partner = t.partner
    for i, (bv, owner, groups, bits) in enumerate(t.builds):
        if owner == partner:
            continue
        if bv == v:  # add to it (it becomes or stays multiple)
            if not t.backed(c, own_vals if owner == seat else [*own_vals, v]):
                continue
            _joins(L, c, v, bits, fam, ADD, (-1, i), (i,), acts)
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
            _joins(L, c, v, bits, L.family(v, 0), RAISE, (-1, i), (i,), acts)


def _joins(L: _Loose, c: int, v: int, bits: int, fam: Masks, kind: int,
           with_loose: tuple[int, ...], alone: tuple[int, ...],
           acts: list[FishingAction]) -> None:
    """Card c joins the build of ``bits`` (``kind`` ADD or RAISE, to value v) with each
    choice of loose cards in ``fam`` (0: none)."""
    new = FishingAction
    head = (NEW, c, v)
    how_loose: Any = (kind, v, with_loose, head, bits, L.luts)  # Any: one object (_SHARED)
    how_alone: Any = (kind, v, alone, head, bits, L.luts)
    for b in fam:
        a = new()  # inline _action: a crowded table makes thousands
        a.how = how_loose if b else how_alone
        a.mask = b
        acts.append(a)




def required_values(state: FishingState, seat: int) -> list[int]:
    """The build values ``seat`` must hold a card of (each once), as owner."""
    return sorted({b.value for b in state.builds if b.owner == seat})
