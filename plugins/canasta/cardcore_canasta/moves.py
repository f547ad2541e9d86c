"""Legal steps of a Canasta position (DECISIONS 24-35), never a dead end.

Every step is checked for what it leaves: a player to act must keep a legal step,
so a step may leave the mover with one card or none only when the side then has a
canasta (the last card can only go by going out). Cards of a rank are
interchangeable; each step names the lowest cards of the hand (canonical order).
"""

from __future__ import annotations

from .actions import (
    ADD,
    DECLINE_ACTION,
    DISCARDS,
    DISCARDS_OUT,
    DRAW_ACTION,
    MELD,
    ONTOS,
    TAKE,
    interned,
)
from .melds import first_meld_sets, going_out_sets
from .rules import DEUCE, JK, JOKER, SLOT_VALUE, VALID

DRAW_PHASE, PLAY_PHASE, OVER = 0, 1, 2


def legal_actions(st) -> list:
    if st.phase == PLAY_PHASE:
        return play_actions(st)
    if st.phase == DRAW_PHASE:
        takes = take_actions(st, st.to_play)
        if st.stock:
            return [DRAW_ACTION, *takes] if takes else [DRAW_ACTION]
        if any(a.kind == 2 for a in takes):  # the top card goes on a meld of the side: must take
            return takes
        return [*takes, DECLINE_ACTION]
    return []


def _cards(hand: list[int], slot: int, k: int) -> tuple[int, ...]:
    """The ``k`` lowest cards of ``slot`` in the hand."""
    return tuple(sorted(c for c in hand if c >> 2 == slot)[:k])


def _specs_cards(hand: list[int], specs) -> tuple[tuple[int, ...], ...]:
    """Cards for each meld spec; the deuces are shared out lowest first."""
    deuces = _cards(hand, DEUCE, 8)
    at = 0
    out = []
    for slot, k, j, d in specs:
        cards = _cards(hand, slot, k)
        if d:
            cards += deuces[at:at + d]
            at += d
        if j:
            cards += (JK,) * j
        out.append(cards)
    return tuple(out)


def _ok(left: int, canastas: int) -> bool:
    """A step leaving ``left`` cards is no dead end."""
    return left >= 2 or canastas > 0


def take_actions(st, p: int) -> list:
    """The ways seat ``p`` may take the discard pile now (D29-D31, D34)."""
    pile = st.pile
    if not pile:
        return []
    top = pile[-1]
    ts = top >> 2
    if ts < 1 or ts > 11:  # a three or a wild card on top: never
        return []
    hand = st.hands[p]
    h = len(hand)
    if h == 1 and len(pile) == 1:
        return []
    rc = st.rc[p]
    side = p & 1
    melds = st.melds[side]
    cn = st.canastas[side]
    rest = len(pile) - 1
    if rest:
        rest -= pile.count(1) + pile.count(2)  # red threes in it are laid out
    frozen = st.frz > 0
    out: list = []
    if st.imd[side]:
        valid = VALID[st.classic]
        meld = melds.get(ts)
        if meld is not None:
            size = len(meld[0])
            if not frozen:
                grown = cn + (size < 7 <= size + 1)
                if _ok(h + rest, grown):
                    out.append(ONTOS[side][ts])
            elif rc[ts] >= 2:
                left = h - 2 + rest
                grown = cn + (size < 7 <= size + 3)
                if _ok(left, grown):
                    out.append(interned(TAKE, (_cards(hand, ts, 2), ()), side, left == 0))
            return out
        left2 = h - 2 + rest
        if not _ok(left2, cn):
            return out
        n = rc[ts]
        if n >= 2:
            out.append(interned(TAKE, (_cards(hand, ts, 2), ()), side, left2 == 0))
        if not frozen and n >= 1 and valid[2][1]:
            nat = _cards(hand, ts, 1)
            if rc[DEUCE]:
                out.append(interned(TAKE, (nat + _cards(hand, DEUCE, 1), ()), side, left2 == 0))
            if rc[JOKER]:
                out.append(interned(TAKE, (nat + (JK,), ()), side, left2 == 0))
        return out
    # before the side's first meld: a natural pair, the minimum with the top card (D29)
    if rc[ts] < 2:
        return out
    need = st.need[side]
    found: dict = {}
    for specs in first_meld_sets(rc, need, st.classic, ts):
        used = sum(sp[1] + sp[2] + sp[3] for sp in specs)
        left = h - used + rest
        if left >= 2:
            found[_take_data(hand, specs)] = False
        elif any(sp[1] + sp[2] + sp[3] + (sp[0] == ts) >= 7 for sp in specs):
            found[_take_data(hand, specs)] = left == 0
    if rest <= 1:
        sv = 0
        for specs, _left in going_out_sets(rc, st.classic, ts, 1 - rest):
            if not any(sp[1] + sp[2] + sp[3] + (sp[0] == ts) >= 7 for sp in specs):
                continue
            sv = _value(specs, ts)
            if sv >= need:
                found[_take_data(hand, specs)] = _left < 0 and rest == 0
    for data, is_out in found.items():
        out.append(interned(TAKE, data, side, is_out))
    return out


def _value(specs, top: int) -> int:
    total = SLOT_VALUE[top] if top >= 0 else 0
    for slot, k, j, d in specs:
        total += k * SLOT_VALUE[slot] + 50 * j + 20 * d
    return total


def _take_data(hand: list[int], specs) -> tuple:
    cards = _specs_cards(hand, specs)
    return (cards[0], cards[1:])


def play_actions(st) -> list:
    p = st.to_play
    side = p & 1
    hand = st.hands[p]
    rc = st.rc[p]
    h = len(hand)
    cn = st.canastas[side]
    out: list = []
    if st.imd[side]:
        _after_first_meld(st, hand, rc, h, side, cn, out)
    else:
        _first_meld(st, hand, rc, h, side, out)
    if h == 1:
        if cn:
            out.append(DISCARDS_OUT[hand[0]])
    else:
        out.extend([DISCARDS[c] for c in sorted(set(hand))])
    return out


def _after_first_meld(st, hand, rc, h, side, cn, out) -> None:
    melds = st.melds[side]
    valid = VALID[st.classic]
    jk, du = rc[JOKER], rc[DEUCE]
    three_ok = _ok(h - 3, cn)
    # new melds of three cards (more cards: add them after, or the whole hand below)
    for s in range(1, 12):
        n = rc[s]
        if n < 2 or s in melds:
            continue
        if three_ok:
            out_flag = h == 3
            if n >= 3:
                out.append(interned(MELD, (_cards(hand, s, 3),), side, out_flag))
            if du and valid[2][1]:
                out.append(interned(MELD, (_cards(hand, s, 2) + _cards(hand, DEUCE, 1),), side,
                                     out_flag))
            if jk and valid[2][1]:
                out.append(interned(MELD, (_cards(hand, s, 2) + (JK,),), side, out_flag))
    naturals = [s for s in range(1, 12) if rc[s]]
    wild = jk + du
    # the whole hand as one new meld: going out
    if h > 3 and rc[0] == 0 and len(naturals) == 1:
        s = naturals[0]
        if s not in melds and valid[rc[s]][wild] and (cn or h >= 7):
            out.append(interned(MELD, (tuple(sorted(hand)),), side, True))
    # black threes: only when going out (leaving at most the last discard)
    if rc[0] >= 3 and cn:
        for k in range(3, rc[0] + 1):
            if h - k <= 1:
                out.append(interned(MELD, (_cards(hand, 0, k),), side, h == k))
    # adds: one card at a time (naturals before wild cards keeps every step legal) ...
    for s in sorted(melds):
        ids, nat, w = melds[s]
        size = nat + w
        if rc[s] and _ok(h - 1, cn + (size == 6)):
            out.append(interned(ADD, (s, _cards(hand, s, 1)), side, h == 1))
        if wild and valid[nat][w + 1] and _ok(h - 1, cn + (size == 6)):
            if du:
                out.append(interned(ADD, (s, _cards(hand, DEUCE, 1)), side, h == 1))
            if jk:
                out.append(interned(ADD, (s, (JK,)), side, h == 1))
        # ... or the whole hand at once: going out
        if (h >= 2 and rc[0] == 0 and (not naturals or naturals == [s])
                and valid[nat + rc[s]][w + wild] and (cn or size + h >= 7)):
            out.append(interned(ADD, (s, tuple(sorted(hand))), side, True))


def _first_meld(st, hand, rc, h, side, out) -> None:
    need = st.need[side]
    found: dict = {}
    for specs in first_meld_sets(rc, need, st.classic):
        used = sum(sp[1] + sp[2] + sp[3] for sp in specs)
        if h - used >= 2 or any(sp[1] + sp[2] + sp[3] >= 7 for sp in specs):
            found[_specs_cards(hand, specs)] = h == used
    below_ok = not st.conc_min
    for specs, left in going_out_sets(rc, st.classic):
        if not any(sp[1] + sp[2] + sp[3] >= 7 for sp in specs):
            continue
        if below_ok or _value(specs, -1) >= need:
            found[_specs_cards(hand, specs)] = left < 0
    for data, is_out in found.items():
        out.append(interned(MELD, data, side, is_out))
