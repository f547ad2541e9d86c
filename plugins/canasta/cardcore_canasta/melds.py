"""Which melds a hand can lay, at rank level (cards of a rank are interchangeable).

A meld spec is ``(slot, k, j, d)``: ``k`` natural cards of ``slot`` from the hand,
``j`` jokers and ``d`` deuces. For the pile's top card meld, ``k`` counts the hand's
naturals only (the top card is one more).

How the choices are bounded (DESIGN: one meld or one add per step after the first
meld): a side's first-meld step lists the *minimal* sets that meet the minimum --
no meld and no card can be left out while the rest still counts enough. Everything
more reaches the same position by further steps in the same turn (new melds of
three cards, adds of one card), so nothing distinct is lost. Steps that leave the
player with at most one card cannot be split that way (the split would strand the
player on one card without a canasta), so those -- going out, or leaving only the
last discard -- are listed in full.
"""

from __future__ import annotations

from .rules import DEUCE, JOKER, NATURALS, SLOT_VALUE, THREE, VALID

Spec = tuple[int, int, int, int]

#: One dict operation at a time: safe from any thread (docs/design.md).
_OPTIONS: dict[tuple, tuple] = {}


def options(slot: int, n: int, jokers: int, deuces: int, classic: bool, top: bool) -> tuple:
    """Every valid ``(k, j, d, value, removable)`` for a meld of ``slot``.

    ``removable`` is the smallest value that can be taken out of the meld with the
    meld (or the set without it) still legal: the whole meld, one natural, one wild.
    The top card's meld is never removed whole and keeps its natural pair.
    """
    key = (slot, n, min(jokers, 3), min(deuces, 3), classic, top)
    found = _OPTIONS.get(key)
    if found is not None:
        return found
    valid = VALID[classic]
    sv = SLOT_VALUE[slot]
    base = 1 if top else 0
    out = []
    for k in range(2, n + 1):
        nat = k + base
        for j in range(min(jokers, 3) + 1):
            for d in range(min(deuces, 3 - j) + 1):
                w = j + d
                if not valid[nat][w]:
                    continue
                value = (k + base) * sv + 50 * j + 20 * d
                rem = 10_000 if top else value
                if valid[nat - 1][w] and (not top or k > 2) and sv < rem:
                    rem = sv
                if d and valid[nat][w - 1] and rem > 20:
                    rem = 20
                if j and valid[nat][w - 1] and rem > 50:
                    rem = 50
                out.append((k, j, d, value, rem))
    out.sort(key=lambda o: o[3])
    found = _OPTIONS[key] = tuple(out)
    return found


def first_meld_sets(rank_counts: list[int], need: int, classic: bool,
                    top: int = -1) -> list[tuple[Spec, ...]]:
    """Minimal sets of melds from a hand (its ``rank_counts``) that count ``need`` or more.

    With ``top`` (a natural slot), the set starts with the pile's top card meld.
    Black threes never count here (they meld only when going out: ``going_out_sets``).
    """
    jokers, deuces = rank_counts[JOKER], rank_counts[DEUCE]
    slots = [s for s in NATURALS if rank_counts[s] >= 2 and s != top]
    found: list[tuple[Spec, ...]] = []
    if top < 0:
        _extend(slots, rank_counts, need, classic, found, 0, 0, 10_000, jokers, deuces, ())
        return found
    if rank_counts[top] < 2:
        return found
    for k, j, d, value, r in options(top, rank_counts[top], jokers, deuces, classic, True):
        spec = ((top, k, j, d),)
        if value >= need:
            if value - r < need:
                found.append(spec)
        else:
            _extend(slots, rank_counts, need, classic, found, 0, value, r, jokers - j, deuces - d,
                    spec)
    return found


def _extend(slots: list[int], rank_counts: list[int], need: int, classic: bool,
            found: list[tuple[Spec, ...]], i: int, total: int, rem: int, jk: int, du: int,
            chosen: tuple[Spec, ...]) -> None:
    """first_meld_sets' search: melds of ``slots[i:]`` added to ``chosen`` (worth ``total``,
    ``rem`` the least that can be taken out of it), ``jk`` jokers and ``du`` deuces left.
    A module function, not a closure: no cycle to free, and mypyc compiles it."""
    for idx in range(i, len(slots)):
        slot = slots[idx]
        for k, j, d, value, r in options(slot, rank_counts[slot], jk, du, classic, False):
            if j > jk or d > du:
                continue
            t = total + value
            r2 = r if r < rem else rem
            if t >= need:
                if t - r2 < need:
                    found.append((*chosen, (slot, k, j, d)))
            else:
                _extend(slots, rank_counts, need, classic, found, idx + 1, t, r2, jk - j, du - d,
                        (*chosen, (slot, k, j, d)))


def going_out_sets(rank_counts: list[int], classic: bool, top: int = -1,
                   max_left: int = 1) -> list[tuple[tuple[Spec, ...], int]]:
    """Every way to meld the whole hand but at most ``max_left`` card(s) in new melds.

    Returns ``(specs, left)`` with ``left`` the slot of the card kept (-1: none).
    Black threes (3 or 4, no wild cards) may be among the melds; every wild card
    goes into a natural meld. With ``top``, the top card's meld holds a natural
    pair from the hand.
    """
    if max_left < 0:
        return []
    # a natural rank of one card melds nowhere (a meld holds two naturals or more): it can
    # only be the card kept, so two such ranks, or one with none to keep, go out no way
    singles = [s for s in NATURALS if rank_counts[s] == 1]
    if len(singles) > 1 or (singles and max_left < 1):
        return []
    valid = VALID[classic]
    results: list[tuple[tuple[Spec, ...], int]] = []
    if singles:
        lefts = singles
    else:
        lefts = [-1] + ([s for s in range(len(rank_counts)) if rank_counts[s]] if max_left >= 1 else [])
    for left in lefts:
        cnt = list(rank_counts)
        if left >= 0:
            cnt[left] -= 1
        threes = cnt[THREE]
        if threes not in (0, 3, 4):
            continue
        nat = [s for s in NATURALS if cnt[s]]
        if top >= 0 and cnt[top] < 2:
            continue
        if top >= 0 and top not in nat:
            continue
        if any(cnt[s] < 2 for s in nat):
            continue
        if not nat and (cnt[JOKER] or cnt[DEUCE]):
            continue
        head = ((THREE, threes, 0, 0),) if threes else ()
        for wilds in _spread(nat, cnt, top, cnt[JOKER], cnt[DEUCE], valid):
            specs = head + tuple((s, cnt[s], j, d) for s, (j, d) in zip(nat, wilds, strict=True))
            if top >= 0:  # the top card's meld first, as take_pile's "with"
                specs = tuple(sp for sp in specs if sp[0] == top) + tuple(
                    sp for sp in specs if sp[0] != top)
            results.append((specs, left))
    return results


def _spread(nat: list[int], cnt: list[int], top: int, jokers: int, deuces: int,
            valid: tuple[tuple[bool, ...], ...]) -> list[list[tuple[int, int]]]:
    """Ways to put all the wild cards into the natural melds ``nat``, each meld legal."""
    out: list[list[tuple[int, int]]] = []
    _go(nat, cnt, top, valid, out, 0, jokers, deuces, [])
    return out


def _go(nat: list[int], cnt: list[int], top: int, valid: tuple[tuple[bool, ...], ...],
        out: list[list[tuple[int, int]]], i: int, jk: int, du: int,
        acc: list[tuple[int, int]]) -> None:
    """_spread's search: the wild cards ``jk`` and ``du`` left spread over ``nat[i:]``."""
    if i == len(nat):
        if jk == 0 and du == 0:
            out.append(list(acc))
        return
    n = cnt[nat[i]] + (1 if nat[i] == top else 0)
    for j in range(min(jk, 3) + 1):
        for d in range(min(du, 3 - j) + 1):
            if valid[n][j + d]:
                acc.append((j, d))
                _go(nat, cnt, top, valid, out, i + 1, jk - j, du - d, acc)
                acc.pop()


def best_first_meld(rank_counts: list[int], classic: bool, top: int = -1) -> int:
    """The most a first meld from this hand can count (0: no meld at all): every natural
    rank melded with as many wild cards as the meld rule lets in. With ``top`` (taking
    the pile), the top card's meld holds a natural pair from the hand and the top card.
    Black threes never count (D35, D36). For explanations, off the hot path."""
    jokers, deuces = rank_counts[JOKER], rank_counts[DEUCE]
    slots = [s for s in NATURALS if rank_counts[s] >= 2 and s != top]
    memo: dict[tuple[int, int, int], int] = {}
    if top < 0:
        return _best(slots, rank_counts, classic, memo, 0, jokers, deuces)
    if rank_counts[top] < 2:
        return 0
    return max((value + _best(slots, rank_counts, classic, memo, 0, jokers - j, deuces - d)
                for _k, j, d, value, _r in options(top, rank_counts[top], jokers, deuces, classic,
                                                  True) if j <= jokers and d <= deuces), default=0)


def _best(slots: list[int], rank_counts: list[int], classic: bool,
          memo: dict[tuple[int, int, int], int], i: int, jk: int, du: int) -> int:
    """best_first_meld's search: the most the melds of ``slots[i:]`` count with ``jk``
    jokers and ``du`` deuces left."""
    key = (i, jk, du)
    if key in memo:
        return memo[key]
    found = _best(slots, rank_counts, classic, memo, i + 1, jk, du) if i < len(slots) else 0
    if i < len(slots):
        for _k, j, d, value, _r in options(slots[i], rank_counts[slots[i]], jk, du, classic, False):
            if j <= jk and d <= du:
                found = max(found, value + _best(slots, rank_counts, classic, memo, i + 1, jk - j,
                                                 du - d))
    memo[key] = found
    return found
