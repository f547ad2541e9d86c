"""Legal steps of a Canasta position (D24-D35), never a dead end.

Every step is checked for what it leaves: a player to act must keep a legal step,
so a step may leave the mover with no card only when the side then has a canasta
(going out), and with one card only when the side then has a canasta (discard it)
or that card completes one (it joins a six-card meld of the side: going out by
melding every card, D34). Cards of a rank are interchangeable; each step names the
lowest cards of the hand (canonical order).
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
    """A step leaving ``left`` cards is no dead end (one card: see ``_lone_ok``)."""
    return left >= 2 or canastas > 0


def _lone_ok(card: int, groups, valid) -> bool:
    """One card left and no canasta: no dead end when the card completes a canasta.

    ``groups`` are the side's melds after the step as ``(slot, naturals, wilds)``;
    the card joins a six-card natural meld of its rank, or (a wild card) one the
    meld rule lets it join. Black threes never take more cards this way.
    """
    if card >= 48:
        return any(slot and nat + w == 6 and valid[nat][w + 1] for slot, nat, w in groups)
    cs = card >> 2
    return any(slot == cs and cs and nat + w == 6 for slot, nat, w in groups)


def _groups(melds: dict, slot: int = -1, dn: int = 0, dw: int = 0) -> list:
    """The side's melds as ``(slot, naturals, wilds)``, ``slot`` grown by ``dn``/``dw``."""
    out = [(s, m[1], m[2]) for s, m in melds.items() if s != slot]
    if slot >= 0:
        old = melds.get(slot)
        out.append((slot, (old[1] if old else 0) + dn, (old[2] if old else 0) + dw))
    return out


def _left_over(hand: list[int], used) -> int:
    """The one card of ``hand`` that ``used`` leaves."""
    rest = list(hand)
    for c in used:
        rest.remove(c)
    return rest[0]


def _pile_card(pile: list[int]) -> int:
    """The one card under the top that goes into the hand (red threes are laid out)."""
    return next(c for c in pile[:-1] if c != 1 and c != 2)


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
    valid = VALID[st.classic]
    if st.imd[side]:
        meld = melds.get(ts)
        if meld is not None:
            size = len(meld[0])
            if not frozen:
                grown = cn + (size < 7 <= size + 1)
                if _take_ok(hand, pile, rest, (), grown, melds, ts, 1, 0, valid):
                    out.append(ONTOS[side][ts])
            elif rc[ts] >= 2:
                pair = _cards(hand, ts, 2)
                grown = cn + (size < 7 <= size + 3)
                if _take_ok(hand, pile, rest, pair, grown, melds, ts, 3, 0, valid):
                    out.append(interned(TAKE, (pair, ()), side, h - 2 + rest == 0))
            return out
        n = rc[ts]
        is_out = h - 2 + rest == 0
        if n >= 2:
            pair = _cards(hand, ts, 2)
            if _take_ok(hand, pile, rest, pair, cn, melds, ts, 3, 0, valid):
                out.append(interned(TAKE, (pair, ()), side, is_out))
        if not frozen and n >= 1 and valid[2][1]:
            nat = _cards(hand, ts, 1)
            for wild in ((_cards(hand, DEUCE, 1),) if rc[DEUCE] else ()) + (
                    ((JK,),) if rc[JOKER] else ()):
                used = nat + wild
                if _take_ok(hand, pile, rest, used, cn, melds, ts, 2, 1, valid):
                    out.append(interned(TAKE, (used, ()), side, is_out))
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
        elif left == 1 and _first_lone_ok(hand, pile, rest, specs, ts, valid):
            found[_take_data(hand, specs)] = False
    if rest <= 1:
        for specs, _left in going_out_sets(rc, st.classic, ts, 1 - rest):
            if _value(specs, ts) < need:
                continue
            if any(sp[1] + sp[2] + sp[3] + (sp[0] == ts) >= 7 for sp in specs):
                found[_take_data(hand, specs)] = _left < 0 and rest == 0
            elif (_left >= 0) + rest == 1 and _first_lone_ok(hand, pile, rest, specs, ts, valid):
                found[_take_data(hand, specs)] = False  # its one card left completes a canasta
    for data, is_out in found.items():
        out.append(interned(TAKE, data, side, is_out))
    return out


def _take_ok(hand, pile, rest, used, canastas, melds, slot, dn, dw, valid) -> bool:
    """Taking the pile with ``used`` (the top card's meld of ``slot`` grows by
    ``dn`` naturals and ``dw`` wild cards) is no dead end."""
    left = len(hand) - len(used) + rest
    if left >= 2 or canastas:
        return True
    if left == 0:
        return False
    card = _pile_card(pile) if rest else _left_over(hand, used)
    return _lone_ok(card, _groups(melds, slot, dn, dw), valid)


def _first_lone_ok(hand, pile, rest, specs, top, valid) -> bool:
    """First melds ``specs`` (with ``top``: taking the pile) leave one card and no
    canasta: no dead end when that card (from the hand, or the pile's one card
    under the top) completes one of them."""
    card = _pile_card(pile) if rest else _left_over(hand, [c for m in _specs_cards(hand, specs) for c in m])
    return _lone_ok(card, [(slot, k + (slot == top), j + d) for slot, k, j, d in specs], valid)


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
    # new melds of three cards (more cards: add them after, or the whole hand below);
    # with four cards and no canasta, only when the last card completes one
    three_ok = h >= 5 or (cn and h >= 3)
    if three_ok or (h == 4 and not cn):
        out_flag = h == 3
        for s in range(1, 12):
            n = rc[s]
            if n < 2 or s in melds:
                continue
            if n >= 3:
                cards = _cards(hand, s, 3)
                if three_ok or _lone_ok(_left_over(hand, cards), _groups(melds), valid):
                    out.append(interned(MELD, (cards,), side, out_flag))
            if du and valid[2][1]:
                cards = _cards(hand, s, 2) + _cards(hand, DEUCE, 1)
                if three_ok or _lone_ok(_left_over(hand, cards), _groups(melds), valid):
                    out.append(interned(MELD, (cards,), side, out_flag))
            if jk and valid[2][1]:
                cards = _cards(hand, s, 2) + (JK,)
                if three_ok or _lone_ok(_left_over(hand, cards), _groups(melds), valid):
                    out.append(interned(MELD, (cards,), side, out_flag))
    naturals = [s for s in range(1, 12) if rc[s]]
    wild = jk + du
    # the whole hand as one new meld: going out
    if h > 3 and rc[0] == 0 and len(naturals) == 1:
        s = naturals[0]
        if s not in melds and valid[rc[s]][wild] and (cn or h >= 7):
            out.append(interned(MELD, (tuple(sorted(hand)),), side, True))
    # black threes: 3 or 4, only when going out (at most one card left: the final
    # discard, or a card that completes a canasta) (D35)
    if rc[0] >= 3:
        for k in range(3, min(rc[0], 4) + 1):
            if h == k:
                if cn:
                    out.append(interned(MELD, (_cards(hand, 0, k),), side, True))
            elif h - k == 1:
                cards = _cards(hand, 0, k)
                if cn or _lone_ok(_left_over(hand, cards), _groups(melds), valid):
                    out.append(interned(MELD, (cards,), side, False))
    # adds: one card at a time (naturals before wild cards keeps every step legal) ...
    for s in sorted(melds):
        ids, nat, w = melds[s]
        size = nat + w
        if not s:  # black threes (laid when going out): a fourth one only, going out
            if rc[0] and size < 4 and h == 1 and cn:
                out.append(interned(ADD, (0, _cards(hand, 0, 1)), side, True))
            continue
        grown = cn + (size == 6)
        if rc[s]:
            cards = _cards(hand, s, 1)
            if _ok(h - 1, grown) or (h == 2 and _lone_ok(
                    _left_over(hand, cards), _groups(melds, s, 1, 0), valid)):
                out.append(interned(ADD, (s, cards), side, h == 1))
        if wild and valid[nat][w + 1]:
            if du:
                cards = _cards(hand, DEUCE, 1)
                if _ok(h - 1, grown) or (h == 2 and _lone_ok(
                        _left_over(hand, cards), _groups(melds, s, 0, 1), valid)):
                    out.append(interned(ADD, (s, cards), side, h == 1))
            if jk and (_ok(h - 1, grown) or (h == 2 and _lone_ok(
                    _left_over(hand, (JK,)), _groups(melds, s, 0, 1), valid))):
                out.append(interned(ADD, (s, (JK,)), side, h == 1))
        # ... or the whole hand at once: going out
        if (h >= 2 and rc[0] == 0 and (not naturals or naturals == [s])
                and valid[nat + rc[s]][w + wild] and (cn or size + h >= 7)):
            out.append(interned(ADD, (s, tuple(sorted(hand))), side, True))


def _first_meld(st, hand, rc, h, side, out) -> None:
    need = st.need[side]
    found: dict = {}
    valid = VALID[st.classic]
    pile = st.pile
    for specs in first_meld_sets(rc, need, st.classic):
        used = sum(sp[1] + sp[2] + sp[3] for sp in specs)
        if h - used >= 2 or any(sp[1] + sp[2] + sp[3] >= 7 for sp in specs):
            found[_specs_cards(hand, specs)] = h == used
        elif h - used == 1 and _first_lone_ok(hand, pile, 0, specs, -1, valid):
            found[_specs_cards(hand, specs)] = False
    below_ok = not st.conc_min
    for specs, left in going_out_sets(rc, st.classic):
        if not (below_ok or _value(specs, -1) >= need):
            continue
        if any(sp[1] + sp[2] + sp[3] >= 7 for sp in specs):
            found[_specs_cards(hand, specs)] = left < 0
        elif left >= 0 and _first_lone_ok(hand, pile, 0, specs, -1, valid):
            found[_specs_cards(hand, specs)] = False
    for data, is_out in found.items():
        out.append(interned(MELD, data, side, is_out))
