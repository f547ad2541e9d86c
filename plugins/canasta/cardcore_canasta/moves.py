"""Legal steps of a Canasta position (D24-D35), never a dead end.

Every step is checked for what it leaves: a player to act must keep a legal step,
so a step may leave the mover with no card only when the side then has the canastas
going out needs (one; two with two players: D34, D43), and with one card only when
it then has them (discard it) or lacks one that the card completes (it joins a
six-card meld of the side: going out by melding every card). The checks speak of
``missing``: the canastas the side still lacks to go out (0 or less: it may go out).
Cards of a rank are interchangeable; each step names the lowest cards of the hand
(canonical order).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .actions import (
    ADD,
    DECLINE_ACTION,
    DISCARDS,
    DISCARDS_OUT,
    DRAW_ACTION,
    MELD,
    ONTO,
    ONTOS,
    TAKE,
    CanastaAction,
    interned,
    interned_first,
)
from .melds import Spec, first_meld_sets, going_out_sets
from .rules import (
    CANASTA,
    DEUCE,
    FIRST_WILD,
    IS_RED_THREE,
    JK,
    JOKER,
    NATURALS,
    RANK_OF,
    SLOT_VALUE,
    THREE,
    THREE_OF_DIAMONDS,
    THREE_OF_HEARTS,
    VALID,
    Meld,
)

if TYPE_CHECKING:
    from .state import CanastaState

DRAW_PHASE, PLAY_PHASE, OVER = 0, 1, 2
#: A meld one card short of a canasta.
ONE_SHORT = CANASTA - 1
#: The hand as one add: wild cards only; or not possible (more than one rank, threes).
_ONLY_WILD, _NOT_WHOLE = -1, -2

#: VALID[classic]: naturals x wilds -> the meld rule holds (D24).
Valid = tuple[tuple[bool, ...], ...]
#: A meld as the dead-end checks see it: (slot, naturals, wilds).
Counts = tuple[int, int, int]


def legal_actions(st: CanastaState) -> list[CanastaAction]:
    if st.phase == PLAY_PHASE:
        return play_actions(st)
    if st.phase == DRAW_PHASE:
        assert st.to_play is not None
        takes = take_actions(st, st.to_play)
        if st.stock:
            return [DRAW_ACTION, *takes] if takes else [DRAW_ACTION]
        if any(a.kind == ONTO for a in takes):  # the top card goes on a meld of the side: must take (D33)
            return takes
        return [*takes, DECLINE_ACTION]
    return []


def _cards(hand: list[int], slot: int, k: int) -> tuple[int, ...]:
    """The ``k`` lowest cards of ``slot`` in the hand."""
    rank_of = RANK_OF
    return tuple(sorted(c for c in hand if rank_of[c] == slot)[:k])


def _by_slot(hand: list[int]) -> list[tuple[int, ...]]:
    """The cards of the hand by slot, each slot's ascending: read once for many specs."""
    out: list[list[int]] = [[] for _ in range(JOKER + 1)]
    rank_of = RANK_OF
    for c in sorted(hand):
        out[rank_of[c]].append(c)
    return [tuple(cards) for cards in out]


def _specs_cards(slots: list[tuple[int, ...]], specs: Sequence[Spec]) -> tuple[tuple[int, ...], ...]:
    """Cards for each meld spec (``slots``: the hand by ``_by_slot``); the deuces are
    shared out lowest first."""
    deuces = slots[DEUCE]
    at = 0
    out = []
    for slot, k, j, d in specs:
        cards = slots[slot][:k]
        if d:
            cards += deuces[at:at + d]
            at += d
        if j:
            cards += (JK,) * j
        out.append(cards)
    return tuple(out)


def _ok(left: int, missing: int) -> bool:
    """A step leaving ``left`` cards and ``missing`` canastas to go out is no dead end
    (one card and one canasta missing: see ``_lone_ok``)."""
    return left >= 2 or missing <= 0


def _lone_ok(card: int, groups: Iterable[Counts], valid: Valid) -> bool:
    """One card left and one canasta missing: no dead end when the card completes one.

    ``groups`` are the side's melds after the step as ``(slot, naturals, wilds)``;
    the card joins a six-card natural meld of its rank, or (a wild card) one the
    meld rule lets it join. Black threes never take more cards this way.
    """
    if card >= FIRST_WILD:
        return any(slot and nat + w == ONE_SHORT and valid[nat][w + 1] for slot, nat, w in groups)
    rank = RANK_OF[card]
    return any(slot == rank and rank and nat + w == ONE_SHORT for slot, nat, w in groups)


def _groups(melds: dict[int, Meld], slot: int = -1, dn: int = 0, dw: int = 0) -> list[Counts]:
    """The side's melds as ``(slot, naturals, wilds)``, ``slot`` grown by ``dn``/``dw``."""
    out = [(s, m[1], m[2]) for s, m in melds.items() if s != slot]
    if slot >= 0:
        old = melds.get(slot)
        out.append((slot, (old[1] if old else 0) + dn, (old[2] if old else 0) + dw))
    return out


def _left_over(hand: list[int], used: Iterable[int]) -> int:
    """The one card of ``hand`` that ``used`` leaves."""
    rest = list(hand)
    for c in used:
        rest.remove(c)
    return rest[0]


def _pile_card(pile: list[int]) -> int:
    """The one card under the top that goes into the hand (red threes are laid out)."""
    return next(c for c in pile[:-1] if not IS_RED_THREE[c])


def take_actions(st: CanastaState, p: int) -> list[CanastaAction]:
    """The ways seat ``p`` may take the discard pile now (D29-D31, D34)."""
    pile = st.pile
    if not pile:
        return []
    top = RANK_OF[pile[-1]]
    if top == THREE or top >= DEUCE:  # a three or a wild card on top: never (D31)
        return []
    if len(st.hands[p]) == 1 and len(pile) == 1:  # D34
        return []
    side = st.side_of[p]
    # the cards under the top that go into the hand (red threes in it are laid out)
    rest = len(pile) - 1
    if rest:
        rest -= pile.count(THREE_OF_HEARTS) + pile.count(THREE_OF_DIAMONDS)
    if not st.initial_meld_done[side]:
        return _take_first_meld(st, p, side, top, rest)
    if top in st.melds[side]:
        return _take_onto_meld(st, p, side, top, rest)
    return _take_new_meld(st, p, side, top, rest)


def _take_onto_meld(st: CanastaState, p: int, side: int, top: int, rest: int) -> list[CanastaAction]:
    """The top card goes onto the side's meld of its rank: alone (unfrozen), or with a
    natural pair (frozen) (D30, D31)."""
    hand = st.hands[p]
    melds = st.melds[side]
    missing = st.setup.canastas_to_go_out - st.canastas[side]
    size = len(melds[top][0])
    valid = VALID[st.setup.classic]
    if not st.freezers:
        after = missing - (size < CANASTA <= size + 1)
        if _take_ok(hand, st.pile, rest, (), after, melds, top, 1, 0, valid):
            return [ONTOS[side][top]]
    elif st.rank_counts[p][top] >= 2:
        pair = _cards(hand, top, 2)
        after = missing - (size < CANASTA <= size + 3)
        if _take_ok(hand, st.pile, rest, pair, after, melds, top, 3, 0, valid):
            return [interned(TAKE, (pair, ()), side, len(hand) - 2 + rest == 0)]
    return []


def _take_new_meld(st: CanastaState, p: int, side: int, top: int, rest: int) -> list[CanastaAction]:
    """The top card starts a new meld: with a natural pair, or (unfrozen) a natural and
    a wild card (D30, D31)."""
    hand = st.hands[p]
    counts = st.rank_counts[p]
    melds = st.melds[side]
    missing = st.setup.canastas_to_go_out - st.canastas[side]
    valid = VALID[st.setup.classic]
    is_out = len(hand) - 2 + rest == 0
    out: list[CanastaAction] = []
    n = counts[top]
    if n >= 2:
        pair = _cards(hand, top, 2)
        if _take_ok(hand, st.pile, rest, pair, missing, melds, top, 3, 0, valid):
            out.append(interned(TAKE, (pair, ()), side, is_out))
    if not st.freezers and n >= 1 and valid[2][1]:
        natural = _cards(hand, top, 1)
        wilds = []
        if counts[DEUCE]:
            wilds.append(_cards(hand, DEUCE, 1))
        if counts[JOKER]:
            wilds.append((JK,))
        for wild in wilds:
            used = natural + wild
            if _take_ok(hand, st.pile, rest, used, missing, melds, top, 2, 1, valid):
                out.append(interned(TAKE, (used, ()), side, is_out))
    return out


def _canastas_in(specs: Sequence[Spec], top: int) -> int:
    """How many melds of ``specs`` (the top card counted with its meld) are canastas."""
    return sum(1 for sp in specs if sp[1] + sp[2] + sp[3] + (sp[0] == top) >= CANASTA)


def _take_first_meld(st: CanastaState, p: int, side: int, top: int, rest: int) -> list[CanastaAction]:
    """Before the side's first meld: a natural pair, the minimum with the top card (D29)."""
    counts = st.rank_counts[p]
    if counts[top] < 2:
        return []
    hand = st.hands[p]
    h = len(hand)
    valid = VALID[st.setup.classic]
    need = st.setup.canastas_to_go_out
    found: dict[tuple, bool] = {}
    for specs in first_meld_sets(counts, st.setup.minimums[side], st.setup.classic, top):
        used = sum(sp[1] + sp[2] + sp[3] for sp in specs)
        left = h - used + rest
        if left >= 2:
            found[_take_data(hand, specs)] = False
            continue
        made = _canastas_in(specs, top)
        if made >= need:
            found[_take_data(hand, specs)] = left == 0
        elif (left == 1 and made == need - 1
              and _first_lone_ok(hand, st.pile, rest, specs, top, valid)):
            found[_take_data(hand, specs)] = False
    if rest <= 1:
        _take_first_going_out(st, p, side, top, rest, found)
    need = st.setup.minimums[side]
    return [interned_first(TAKE, data, side, is_out, need) for data, is_out in found.items()]


def _take_first_going_out(st: CanastaState, p: int, side: int, top: int, rest: int,
                          found: dict[tuple, bool]) -> None:
    """Taking the pile before the first meld and melding all but at most one card."""
    hand = st.hands[p]
    valid = VALID[st.setup.classic]
    need = st.setup.minimums[side]
    canastas_needed = st.setup.canastas_to_go_out
    for specs, left in going_out_sets(st.rank_counts[p], st.setup.classic, top, 1 - rest):
        if _value(specs, top) < need:
            continue
        made = _canastas_in(specs, top)
        if made >= canastas_needed:
            found[_take_data(hand, specs)] = left < 0 and rest == 0
        elif ((left >= 0) + rest == 1 and made == canastas_needed - 1
              and _first_lone_ok(hand, st.pile, rest, specs, top, valid)):
            found[_take_data(hand, specs)] = False  # its one card left completes a canasta


def _take_ok(hand: list[int], pile: list[int], rest: int, used: tuple[int, ...], missing: int,
             melds: dict[int, Meld], slot: int, dn: int, dw: int, valid: Valid) -> bool:
    """Taking the pile with ``used`` (the top card's meld of ``slot`` grows by
    ``dn`` naturals and ``dw`` wild cards; ``missing`` canastas after it) is no dead end."""
    left = len(hand) - len(used) + rest
    if left >= 2 or missing <= 0:
        return True
    if left == 0 or missing > 1:
        return False
    card = _pile_card(pile) if rest else _left_over(hand, used)
    return _lone_ok(card, _groups(melds, slot, dn, dw), valid)


def _first_lone_ok(hand: list[int], pile: list[int], rest: int, specs: Sequence[Spec], top: int,
                   valid: Valid) -> bool:
    """First melds ``specs`` (with ``top``: taking the pile) leave one card and no
    canasta: no dead end when that card (from the hand, or the pile's one card
    under the top) completes one of them."""
    card = _pile_card(pile) if rest else _left_over(
        hand, [c for m in _specs_cards(_by_slot(hand), specs) for c in m])
    return _lone_ok(card, [(slot, k + (slot == top), j + d) for slot, k, j, d in specs], valid)


def _value(specs: Sequence[Spec], top: int) -> int:
    total = SLOT_VALUE[top] if top >= 0 else 0
    for slot, k, j, d in specs:
        total += k * SLOT_VALUE[slot] + 50 * j + 20 * d
    return total


def _take_data(hand: list[int], specs: Sequence[Spec]) -> tuple:
    cards = _specs_cards(_by_slot(hand), specs)
    return (cards[0], cards[1:])


def play_actions(st: CanastaState) -> list[CanastaAction]:
    p = st.to_play
    assert p is not None
    side = st.side_of[p]
    hand = st.hands[p]
    h = len(hand)
    out: list[CanastaAction] = []
    if st.initial_meld_done[side]:
        _after_first_meld(st, hand, st.rank_counts[p], side, out)
    else:
        _first_meld(st, hand, st.rank_counts[p], side, out)
    if h == 1:
        if st.canastas[side] >= st.setup.canastas_to_go_out:
            out.append(DISCARDS_OUT[hand[0]])
    else:
        out.extend([DISCARDS[c] for c in sorted(set(hand))])
    return out


def _after_first_meld(st: CanastaState, hand: list[int], counts: list[int], side: int,
                      out: list[CanastaAction]) -> None:
    h = len(hand)
    missing = st.setup.canastas_to_go_out - st.canastas[side]
    melds = st.melds[side]
    valid = VALID[st.setup.classic]
    _new_melds_of_three(hand, counts, side, missing, melds, valid, out)
    naturals = [s for s in NATURALS if counts[s]]
    # the whole hand as one new meld: going out
    if h > 3 and counts[THREE] == 0 and len(naturals) == 1:
        s = naturals[0]
        if (s not in melds and valid[counts[s]][counts[JOKER] + counts[DEUCE]]
                and (missing <= 0 or (missing == 1 and h >= CANASTA))):
            out.append(interned(MELD, (tuple(sorted(hand)),), side, True))
    if counts[THREE] >= 3:
        _black_threes(hand, counts, side, missing, melds, valid, out)
    # black threes (laid when going out): a fourth one only, going out
    if counts[THREE] and THREE in melds and len(melds[THREE][0]) < 4 and h == 1 and missing <= 0:
        out.append(interned(ADD, (THREE, _cards(hand, THREE, 1)), side, True))
    if melds:
        # the whole hand onto a meld: only when it holds one natural rank or none
        whole = _NOT_WHOLE
        if h >= 2 and counts[THREE] == 0 and len(naturals) <= 1:
            whole = naturals[0] if naturals else _ONLY_WILD
        _adds(hand, counts, side, missing, melds, valid, out, whole)


def _new_melds_of_three(hand: list[int], counts: list[int], side: int, missing: int,
                        melds: dict[int, Meld], valid: Valid, out: list[CanastaAction]) -> None:
    """New melds of three cards (more cards: add them after, or the whole hand at once);
    with four cards and one canasta missing, only when the last card completes one."""
    h = len(hand)
    three_ok = h >= 5 or (missing <= 0 and h >= 3)
    if not (three_ok or (h == 4 and missing == 1)):
        return
    out_flag = h == 3
    wilds = []
    if counts[DEUCE] and valid[2][1]:
        wilds.append(_cards(hand, DEUCE, 1))
    if counts[JOKER] and valid[2][1]:
        wilds.append((JK,))
    for s in NATURALS:
        n = counts[s]
        if n < 2 or s in melds:
            continue
        choices = [_cards(hand, s, 3)] if n >= 3 else []
        if wilds:
            pair = _cards(hand, s, 2)
            choices += [pair + wild for wild in wilds]
        for cards in choices:
            if three_ok or _lone_ok(_left_over(hand, cards), _groups(melds), valid):
                out.append(interned(MELD, (cards,), side, out_flag))


def _black_threes(hand: list[int], counts: list[int], side: int, missing: int,
                  melds: dict[int, Meld], valid: Valid, out: list[CanastaAction]) -> None:
    """Black threes: 3 or 4, only when going out -- at most one card left: the final
    discard, or a card that completes a canasta (D35)."""
    h = len(hand)
    for k in range(3, min(counts[THREE], 4) + 1):
        cards = _cards(hand, THREE, k)
        if h == k:
            if missing <= 0:
                out.append(interned(MELD, (cards,), side, True))
        elif h - k == 1 and (missing <= 0 or (
                missing == 1 and _lone_ok(_left_over(hand, cards), _groups(melds), valid))):
            out.append(interned(MELD, (cards,), side, False))


def _adds(hand: list[int], counts: list[int], side: int, missing: int, melds: dict[int, Meld],
          valid: Valid, out: list[CanastaAction], whole: int) -> None:
    """Adds to the side's melds: one card at a time (naturals before wild cards keeps
    every step legal; with two cards and no canasta, only when the last card completes
    one), or the whole hand at once, going out. ``whole``: the one natural rank in the
    hand, ``_ONLY_WILD`` or ``_NOT_WHOLE``."""
    h = len(hand)
    wild = counts[JOKER] + counts[DEUCE]
    for s in sorted(melds):
        if s == THREE:
            continue
        _ids, nat, w = melds[s]
        after = missing - (nat + w == ONE_SHORT)  # one card more
        fits = _ok(h - 1, after)
        lone = h == 2 and after == 1  # then the last card must complete a canasta
        if counts[s]:
            cards = _cards(hand, s, 1)
            if fits or (lone and _lone_ok(_left_over(hand, cards), _groups(melds, s, 1, 0), valid)):
                out.append(interned(ADD, (s, cards), side, h == 1))
        if wild and valid[nat][w + 1]:
            _add_wild(hand, counts, side, melds, valid, out, s, fits, lone)
        if whole in (s, _ONLY_WILD) and valid[nat + counts[s]][w + wild] and (
                missing <= 0 or (missing == 1 and nat + w < CANASTA <= nat + w + h)):
            out.append(interned(ADD, (s, tuple(sorted(hand))), side, True))


def _add_wild(hand: list[int], counts: list[int], side: int, melds: dict[int, Meld], valid: Valid,
              out: list[CanastaAction], s: int, fits: bool, lone: bool) -> None:
    """A deuce or a joker onto the side's meld of ``s`` (the meld rule lets one more in)."""
    h = len(hand)
    if counts[DEUCE]:
        cards = _cards(hand, DEUCE, 1)
        if fits or (lone and _lone_ok(_left_over(hand, cards), _groups(melds, s, 0, 1), valid)):
            out.append(interned(ADD, (s, cards), side, h == 1))
    if counts[JOKER] and (fits or (lone and _lone_ok(
            _left_over(hand, (JK,)), _groups(melds, s, 0, 1), valid))):
        out.append(interned(ADD, (s, (JK,)), side, h == 1))


def _first_meld(st: CanastaState, hand: list[int], counts: list[int], side: int,
                out: list[CanastaAction]) -> None:
    """The side's first meld: minimal sets that meet the minimum, or going out (D36, D34)."""
    h = len(hand)
    need = st.setup.minimums[side]
    found: dict[tuple[tuple[int, ...], ...], bool] = {}
    valid = VALID[st.setup.classic]
    pile = st.pile
    canastas_needed = st.setup.canastas_to_go_out
    slots = _by_slot(hand)
    for specs in first_meld_sets(counts, need, st.setup.classic):
        used = sum(sp[1] + sp[2] + sp[3] for sp in specs)
        if h - used >= 2:
            found[_specs_cards(slots, specs)] = False
            continue
        made = _canastas_in(specs, -1)
        if made >= canastas_needed:
            found[_specs_cards(slots, specs)] = h == used
        elif (h - used == 1 and made == canastas_needed - 1
              and _first_lone_ok(hand, pile, 0, specs, -1, valid)):
            found[_specs_cards(slots, specs)] = False
    below_ok = not st.setup.concealed_needs_minimum
    for specs, left in going_out_sets(counts, st.setup.classic):
        if not (below_ok or _value(specs, -1) >= need):
            continue
        made = _canastas_in(specs, -1)
        if made >= canastas_needed:
            found[_specs_cards(slots, specs)] = left < 0
        elif (left >= 0 and made == canastas_needed - 1
              and _first_lone_ok(hand, pile, 0, specs, -1, valid)):
            found[_specs_cards(slots, specs)] = False
    for data, is_out in found.items():
        out.append(interned_first(MELD, data, side, is_out, need))
