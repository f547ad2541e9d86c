"""A slow, obviously-correct reading of D1-D3 and D11-D16, to check the engine against.

It tries every subset of the table for every hand card and every value and keeps
what the decisions allow. Written from the text, independent of the engine's
enumeration: no shared code but the card values.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations

from cardcore.engine.cards import card as parse

COURT = {"J": 11, "Q": 12, "K": 13}


def value(game_id: str, name: str) -> int:
    """Table value: casino courts 0 (none), royal J Q K 11 12 13, ace 1."""
    rank = parse(name).rank
    if game_id == "casino" and rank > 10:
        return 0
    return rank


def capture_values(game_id: str, options: dict, name: str) -> tuple[int, ...]:
    v = value(game_id, name)
    if game_id == "royal_casino" and v == 1 and options.get("ace_fourteen", True):
        return (1, 14)
    return (v,) if v else ()


def holds(game_id: str, options: dict, hand: list[str], need: set[int]) -> bool:
    """Can distinct cards of ``hand`` capture each value in ``need``?"""
    need = sorted(need)
    if len(need) > len(hand):
        return False
    for chosen in permutations(hand, len(need)):
        if all(v in capture_values(game_id, options, c) for c, v in zip(chosen, need,
                                                                         strict=True)):
            return True
    return False


def reference_legal(state) -> set[str]:
    data = state.export()
    gid, options = data["game"], data["options"]
    seat = data["to_play"]
    n = data["players"]
    partner = (seat + 2) % 4 if n == 4 else None
    hand = data["hands"][seat]
    loose = data["table"]["loose"]
    builds = data["table"]["builds"]
    max_build = 10 if gid == "casino" else (14 if options.get("ace_fourteen", True) else 13)
    vals = [value(gid, c) for c in loose]
    k = len(loose)

    def cards_of(mask: int) -> list[int]:
        return [i for i in range(k) if mask >> i & 1]

    @cache
    def groups_of(mask: int, v: int) -> bool:
        """The loose cards of ``mask`` split into groups each adding up to v."""
        if mask == 0:
            return True
        idx = cards_of(mask)
        if any(vals[i] == 0 for i in idx):
            return False
        first = idx[0]
        rest = mask & ~(1 << first)
        sub = rest
        while True:
            if vals[first] + sum(vals[i] for i in cards_of(sub)) == v and groups_of(rest & ~sub, v):
                return True
            if sub == 0:
                return False
            sub = (sub - 1) & rest

    @cache
    def part_and_groups(mask: int, r: int, v: int) -> bool:
        """``mask`` = a part adding up to r (empty iff r = 0) + groups of v."""
        sub = mask
        while True:
            part = [vals[i] for i in cards_of(sub)]
            if all(part) and sum(part) == r and groups_of(mask & ~sub, v):
                return True  # values are positive: r = 0 only with the empty part
            if sub == 0:
                return False
            sub = (sub - 1) & mask

    own = [b["value"] for b in builds if b["owner"] == seat]
    out: set[str] = set()
    for ci, c in enumerate(hand):
        after = hand[:ci] + hand[ci + 1:]
        h = value(gid, c)
        could_capture = False
        # captures: any non-empty choice of disjoint groups of the value
        for mask in range(1 << k):
            for bmask in range(1 << len(builds)):
                if not mask and not bmask:
                    continue
                chosen = [b for j, b in enumerate(builds) if bmask >> j & 1]
                ok = False
                if h == 0:  # casino court: loose cards of its rank, one unless take-all
                    idx = cards_of(mask)
                    ok = (not chosen and all(loose[i][:-1] == c[:-1] for i in idx)
                          and (len(idx) == 1 or options.get("court_cards_take_all", False)))
                else:
                    for v in capture_values(gid, options, c):
                        if all(b["value"] == v for b in chosen) and groups_of(mask, v):
                            ok = True
                if not ok:
                    continue
                could_capture = True
                left = {b["value"] for j, b in enumerate(builds)
                        if b["owner"] == seat and not bmask >> j & 1}
                if holds(gid, options, after, left):
                    taken = [loose[i] for i in cards_of(mask)]
                    taken += [x for b in chosen for g in b["groups"] for x in g]
                    out.add(f"capture {c}: " + " ".join(sorted(taken)))
        # builds: new, add (single or multiple), raise (single)
        if h:
            for v in range(1, max_build + 1):
                for mask in range(1 << k):
                    used_loose = [loose[i] for i in cards_of(mask)]
                    for j in [None, *range(len(builds))]:
                        b = builds[j] if j is not None else None
                        if b is None:
                            if not mask or not part_and_groups(mask, v - h, v) or v < h:
                                continue
                            need = set(own) | {v}
                        else:
                            if b["owner"] == partner:
                                continue
                            if b["value"] == v and v >= h and part_and_groups(mask, v - h, v):
                                need = set(own) | {v}
                            elif (b["value"] + h == v and len(b["groups"]) == 1
                                  and groups_of(mask, v)):
                                if b["owner"] == seat and gid == "royal_casino":
                                    continue
                                rest = list(own)
                                if b["owner"] == seat:
                                    rest.remove(b["value"])
                                need = set(rest) | {v}
                            else:
                                continue
                        if not holds(gid, options, after, need):
                            continue
                        used = used_loose + ([x for g in b["groups"] for x in g] if b else [])
                        out.add(f"build {c}={v}: " + " ".join(sorted(used)))
        # trail
        if own:
            continue
        if gid == "royal_casino" and h in vals:
            continue
        if (gid == "casino" and not options.get("may_trail_capturing_card", True)
                and could_capture):
            continue
        out.add(f"trail {c}")
    return out
