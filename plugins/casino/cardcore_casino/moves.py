"""Legal actions of the fishing games: trails, captures, builds (new, raise, add).

D11-D18. A build on the table is a tuple ``(value, owner, groups, bits)``:
``groups`` a tuple of card-id tuples (two or more: a multiple build), ``bits``
the mask of its cards.
"""

from __future__ import annotations

from functools import cache

from cardcore.cards import glyph
from cardcore.game import Action
from cardcore_casino.combos import TABLES, table
from cardcore_casino.rules import BIT, NAMES, RANK, ids_of

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
        on = " ".join(glyph(NAMES[c]) for c in _display_order(self.key[-1]))
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

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_json()}>"


def _display_order(bits: int) -> list[int]:
    return sorted(ids_of(bits), key=lambda c: (RANK[c], NAMES[c][-1]))


def generate(state) -> list[FishingAction]:
    """Every legal action of the seat to play, in a fixed order (by hand card: captures,
    builds, trail)."""
    R = state.rules
    seat = state.to_play
    hand = state.hands[seat]
    VAL = R.value
    CAPV = R.capture_values
    builds = state.builds

    loose = state.loose
    SK = R.sort_key
    keys = sorted([SK[c] for c in loose if VAL[c]])  # casino court cards never sum
    vals = tuple([k >> 6 for k in keys])
    pos = [1 << (k & 63) for k in keys]
    T = TABLES.get(vals) or table(vals)
    fam_cache = T._fam
    loose_total = T._cum[-1]
    family = T.family

    def mb(m: int) -> int:
        """A mask over the sorted loose values as a mask of card ids."""
        b = 0
        while m:
            low = m & -m
            b |= pos[low.bit_length() - 1]
            m ^= low
        return b

    if len(pos) > 8:  # a crowded table offers the same masks to many hand cards
        mb = cache(mb)

    have = [0] * 15
    held = []  # the values the hand holds a card of, ascending
    for c in hand:
        for v in CAPV[c]:
            if not have[v]:
                held.append(v)
            have[v] += 1
    held.sort()

    own_vals: list[int] = []
    if builds:  # (partner and backed() are used only when there are builds)
        partner = (seat + 2) % 4 if state.players == 4 else -1
        by_value: dict[int, list[int]] = {}
        for i, b in enumerate(builds):
            by_value.setdefault(b[0], []).append(i)
            if b[1] == seat:
                own_vals.append(b[0])
        dual = R.ace_dual

        def backed(c: int, req) -> bool:
            """After playing c, does the hand still hold a card for every value in req?"""
            cv = CAPV[c]
            for v in req:
                if have[v] - (v in cv) < 1:
                    return False
            if dual and 1 in req and 14 in req:
                return have[1] - (1 in cv) >= 2
            return True
    else:
        by_value = _EMPTY
    owns = bool(own_vals)

    acts: list[FishingAction] = []
    add = acts.append
    rule = R.trail_rule
    max_build = R.max_build
    Act = FishingAction

    for c in hand:
        can_capture = False
        # --- captures (D1, D2, D16) ---------------------------------
        cvs = CAPV[c]
        if not cvs:  # a casino court card pairs by rank only
            rank = RANK[c]
            same = [BIT[x] for x in loose if RANK[x] == rank]
            if same:
                can_capture = True
                if R.court_take_all:
                    choices = [0]
                    for b in same:
                        choices += [u | b for u in choices]
                    choices = sorted(choices[1:])
                else:
                    choices = sorted(same)
                if not owns or backed(c, own_vals):
                    for taken in choices:
                        add(Act((CAPTURE, c, taken), CAPTURE, 0, LOOSE))
        for v in cvs:
            unions = fam_cache.get(v << 6)
            if unions is None:
                unions = family(v, 0)
            bi = by_value.get(v)
            if not bi:
                if len(unions) > 1:
                    can_capture = True
                    if owns and not backed(c, own_vals):
                        continue
                    for u in unions[1:]:
                        add(Act((CAPTURE, c, mb(u)), CAPTURE, v, LOOSE))
                continue
            can_capture = True
            subsets: list[tuple[int, tuple[int, ...]]] = [(0, ())]
            for i in bi:
                bb = builds[i][3]
                subsets += [(s | bb, t + (i,)) for s, t in subsets]
            if owns:  # what the owner still owns must stay backed
                subsets = [(sb, t) for sb, t in subsets
                           if backed(c, [b[0] for i, b in enumerate(builds)
                                         if b[1] == seat and i not in t])]
            with_loose = [(sb, (-1, *t)) for sb, t in subsets]
            alone = [(sb, t) for sb, t in subsets if t]
            for u in unions:
                lb = mb(u)
                for sb, touched in (with_loose if u else alone):
                    add(Act((CAPTURE, c, lb | sb), CAPTURE, v, touched))

        # --- builds (D12-D15) ----------------------------------------
        h = VAL[c]
        if h:
            for v in held:
                if v < h or v > max_build or have[v] - (v in cvs) < 1:
                    continue
                if v - h > loose_total:  # no loose cards can make up the difference
                    if not builds:
                        continue
                    fam = ()
                else:
                    fam = fam_cache.get((v << 6) + v - h)
                    if fam is None:
                        fam = family(v, v - h)
                # a new build: the card, loose cards making v with it, more loose groups
                if fam and fam[-1] and (not owns or backed(c, own_vals + [v])):
                    for u in fam:
                        if u:
                            add(Act((NEW, c, v, mb(u)), NEW, v, LOOSE))
                if not builds:
                    continue
                for i, b in enumerate(builds):
                    owner = b[1]
                    if owner == partner:
                        continue
                    bv = b[0]
                    if bv == v:  # add to it (it becomes or stays multiple)
                        if not backed(c, own_vals if owner == seat else own_vals + [v]):
                            continue
                        for u in fam:
                            add(Act((NEW, c, v, b[3] | mb(u)), ADD, v, (-1, i) if u else (i,)))
                    elif bv + h == v and len(b[2]) == 1:  # raise a single build
                        if owner == seat:
                            if not R.raise_own_build:
                                continue
                            req = list(own_vals)
                            req.remove(bv)
                            req.append(v)
                        else:
                            req = own_vals + [v]
                        if not backed(c, req):
                            continue
                        for u in family(v, 0):
                            add(Act((NEW, c, v, b[3] | mb(u)), RAISE, v, (-1, i) if u else (i,)))

        # --- trail (D11, D12) -----------------------------------------
        if owns:
            continue
        if rule == "no_match":
            # a loose card of the same value (vals holds every valued loose card;
            # a card without value matches a loose one without value)
            if h in vals if h else len(vals) < len(loose):
                continue
        elif rule == "no_capture" and can_capture:
            continue
        add(Act((TRAIL, c), TRAIL, 0, LOOSE))
    return acts


_EMPTY: dict = {}


def required_values(state, seat: int) -> list[int]:
    """The build values ``seat`` must hold a card of (each once), as owner."""
    return sorted({b[0] for b in state.builds if b[1] == seat})
