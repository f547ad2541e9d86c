"""Whole turns against an independent reading of the rules (D24, D34-D36, D39).

For a position in the play phase, the engine's legal steps are followed (depth
first, every branch) to the end of the turn: a discard, or going out. The set of
turn outcomes reached (the side's melds by rank as naturals / jokers / deuces, the
cards left in hand, the card discarded, going out, concealed) must equal the set an
oracle lists straight from the rules: any cards of each rank to the side's meld of
that rank (new or old), any wild cards to any of them, black threes (3 or 4, no
wild card) only when going out, every meld legal by the wild rule, a first meld
counting the minimum, going out only with a canasta on the side (two with two
players, D43), then one card discarded (any card) unless the hand is empty. Two,
three and four players (D43, D44). Suits are not part of an outcome:
cards of a rank are interchangeable (threes here are black: red ones are never held).

So this proves at once that the engine hides no turn the rules allow (the
canonical, minimal first-meld sets and one-card steps lose nothing), offers no
turn they forbid, and never leads into a dead end.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from cardcore_canasta.rules import SLOT_NAMES

from .helpers import GAME

DEUCE, JOKER = 12, 13
RANKS = [1, 4, 10, 11]  # 4, 7, K, A: values 5, 5, 10, 20
SUITS = "SHDC"


def _text(slot: int, i: int) -> str:
    if slot == JOKER:
        return "JK"
    if slot == 0:
        return "3" + "SC"[i % 2]
    return SLOT_NAMES[slot] + SUITS[i % 4]


# --- the oracle (its own meld rule, values and minimum, nothing from the engine) ----

#: D26 by slot: black 3, then 4 5 6 7 = 5, 8 9 10 J Q K = 10, A = 20
VALUE = {0: 5, **{s: 5 for s in range(1, 5)}, **{s: 10 for s in range(5, 11)}, 11: 20}


def meld_ok(classic: bool, naturals: int, wilds: int) -> bool:
    """D24: 3+ cards, at most three wild cards, two naturals (classic: two at least)
    for each wild card."""
    if naturals + wilds < 3 or wilds > 3:
        return False
    return naturals >= 2 if classic else naturals >= 2 * wilds


def need_for(total: int) -> int:
    """D36."""
    return 15 if total < 0 else 50 if total <= 1495 else 90 if total <= 2995 else 120


def oracle(hand: list[int], melds: dict, side_melded: bool, has_melded: bool, need: int,
           classic: bool, conc_min: bool, canastas_needed: int = 1) -> set:
    """Every turn outcome the rules allow. ``hand``: counts by slot (14);
    ``melds``: slot -> (naturals, jokers, deuces) of the side; ``canastas_needed``
    to go out (D34; two with two players, D43)."""
    nat_slots = [s for s in range(1, 12) if hand[s] or s in melds]
    outcomes = set()
    # naturals of each rank played: 0..count
    for played in product(*[range(hand[s] + 1) for s in nat_slots]):
        for threes in sorted({0} | ({3, 4} & set(range(hand[0] + 1)))):
            # wild cards: jokers and deuces shared among the ranks (the last place: kept)
            for jk_split in _splits(hand[JOKER], len(nat_slots) + 1):
                for du_split in _splits(hand[DEUCE], len(nat_slots) + 1):
                    final = {}
                    ok = True
                    added_old = False
                    laid_value = 0
                    for i, s in enumerate(nat_slots):
                        a, j, d = played[i], jk_split[i], du_split[i]
                        old = melds.get(s)
                        if old is None:
                            if a + j + d == 0:
                                continue
                            if not meld_ok(classic, a, j + d):
                                ok = False
                                break
                            final[s] = (a, j, d)
                        else:
                            n0, j0, d0 = old
                            if not meld_ok(classic, n0 + a, j0 + j + d0 + d):
                                ok = False
                                break
                            if a + j + d:
                                added_old = True
                            final[s] = (n0 + a, j0 + j, d0 + d)
                        laid_value += a * VALUE[s] + 50 * j + 20 * d
                    if not ok:
                        continue
                    if threes:
                        final[0] = (threes, 0, 0)
                        laid_value += 5 * threes
                    left = list(hand)
                    for i, s in enumerate(nat_slots):
                        left[s] -= played[i]
                    left[0] -= threes
                    left[JOKER] = jk_split[-1]
                    left[DEUCE] = du_split[-1]
                    canasta = sum(sum(m) >= 7 for m in final.values()) >= canastas_needed
                    new = [s for s in final if s not in melds]
                    concealed = (not has_melded and not added_old
                                 and sum(sum(final[s]) >= 7 for s in new) >= canastas_needed)
                    laid_any = bool(new) or added_old
                    ends = []
                    if sum(left) == 0:
                        ends.append((None, tuple(left)))
                    for c in range(14):
                        if left[c]:
                            rest = list(left)
                            rest[c] -= 1
                            ends.append((c, tuple(rest)))
                    for discard, rest in ends:
                        out = sum(rest) == 0
                        if out and not canasta:
                            continue
                        if threes and not out:
                            continue
                        if not side_melded and laid_any and laid_value < need and not (
                                out and concealed and not conc_min):
                            continue
                        key = tuple(sorted(final.items()))
                        outcomes.add((key, rest, discard, out, out and concealed))
    return outcomes


def _splits(n: int, k: int):
    """Ways to share ``n`` identical cards among ``k`` places."""
    if k == 0:
        if n == 0:
            yield ()
        return
    for first in range(n + 1):
        for rest in _splits(n - first, k - 1):
            yield (first, *rest)


# --- the engine, followed to the end of the turn -------------------------------------


def _melds_key(st, side):
    key = []
    for slot, (ids, _nat, _w) in st.melds[side].items():
        jk = sum(1 for c in ids if c >> 2 == JOKER)
        du = sum(1 for c in ids if c >> 2 == DEUCE)
        key.append((slot, (len(ids) - jk - du, jk, du)))
    return tuple(sorted(key))


def engine_outcomes(st) -> set:
    p = st.to_play
    side = st.side_of[p]
    seen = set()
    outcomes = set()

    def hand_counts(s):
        counts = [0] * 14
        for c in s.hands[p]:
            counts[c >> 2] += 1
        return tuple(counts)

    def go(s):
        key = (_melds_key(s, side), hand_counts(s))
        if key in seen:
            return
        seen.add(key)
        acts = s.legal_actions()
        assert acts, "a dead end"
        for a in acts:
            t = s.clone()
            t.apply(a)
            j = a.to_json()
            if j["type"] == "discard" or t.is_over:
                discard = (t.pile[-1] >> 2) if j["type"] == "discard" else None
                out = t.is_over and t.went_out == p
                outcomes.add((_melds_key(t, side), hand_counts(t), discard, out,
                              out and t.concealed))
            else:
                go(t)

    go(st)
    return outcomes


# --- random positions ---------------------------------------------------------------------


def random_position(rng: random.Random, players: int = 4):
    classic = rng.random() < 0.4
    side_melded = rng.random() < 0.7
    used = {}

    def take(slot):
        limit = 4 if slot == JOKER else (4 if slot == 0 else 8)
        if used.get(slot, 0) >= limit:
            return None
        used[slot] = used.get(slot, 0) + 1
        return _text(slot, used[slot] - 1)

    melds = []
    if side_melded:
        for slot in rng.sample(RANKS, rng.randint(1, 3)):
            while True:
                n = rng.randint(2, 7)
                w = rng.choice([0, 0, 0, 1, 1, 2, 3])
                if meld_ok(classic, n, w) and n + w <= 8:
                    break
            cards = [take(slot) for _ in range(n)]
            for _ in range(w):
                cards.append(take(rng.choice([JOKER, DEUCE])))
            if None in cards:
                continue
            melds.append({"rank": SLOT_NAMES[slot], "cards": cards})
    size = rng.randint(2, 8)
    pool = RANKS + RANKS + [DEUCE, JOKER, 0, 0, 0]
    hand = []
    if not side_melded and rng.random() < 0.4:  # a canasta in hand: going out concealed
        for slot in rng.sample(RANKS, 2 if players == 2 else 1):
            hand += [take(slot) for _ in range(rng.randint(5, 7))]
        size = len(hand) + rng.randint(1, 3)
    while len(hand) < size:
        c = take(rng.choice(pool))
        if c is not None:
            hand.append(c)
    total = rng.choice([-100, 0, 1500, 3000])
    has_melded = side_melded and rng.random() < 0.5
    options = {"wild_rule": "classic" if classic else "two_per_wild",
               "concealed_needs_minimum": rng.random() < 0.5}
    sides = 2 if players == 4 else players
    data = {"players": players, "dealer": players - 1, "to_play": 0, "phase": "play",
            "hands": [hand] + [[] for _ in range(players - 1)],
            "stock": ["5S", "6S"], "discard": ["9D"], "melds": [melds] + [[]] * (sides - 1),
            "initial_meld_done": [side_melded] + [False] * (sides - 1),
            "has_melded": [has_melded] + [False] * (players - 1),
            "totals_before": [total] + [0] * (sides - 1), "options": options}
    return data


def _oracle_for(st):
    p = st.to_play
    players = len(st.hands)
    side = p % 2 if players == 4 else p  # partners across with four (D42), alone otherwise
    counts = [0] * 14
    for c in st.hands[p]:
        counts[c >> 2] += 1
    melds = dict(_melds_key(st, side))
    return oracle(counts, melds, st.initial_meld_done[side], st.has_melded[p],
                  need_for(st.totals_before[side]), st.setup.classic, st.setup.concealed_needs_minimum,
                  2 if players == 2 else 1)


@pytest.mark.parametrize("players", [4, 2, 3])
@pytest.mark.parametrize("seed", range(4))
def test_d24_d34_d35_d36_d43_d44_whole_turns_match_the_rules(seed, players):
    rng = random.Random(f"oracle:{seed}" if players == 4 else f"oracle:{players}:{seed}")
    checked = 0
    while checked < 150:
        data = random_position(rng, players)
        try:
            st = GAME.state_from_json(data)
        except ValueError:  # e.g. one card left and no canasta: not a position of play
            continue
        assert engine_outcomes(st) == _oracle_for(st), data
        checked += 1


@pytest.mark.parametrize("players", [4, 2, pytest.param(3, marks=pytest.mark.slow)])
def test_positions_reached_in_play_match_the_rules(players):
    # mid-hand positions of random hands: play phase, hands of up to 7 cards
    checked = 0
    for h in range(60):
        rng = random.Random(f"played:{h}" if players == 4 else f"played:{players}:{h}")
        options = GAME.Options(wild_rule="classic" if h % 2 else "two_per_wild",
                               concealed_needs_minimum=h % 3 != 0)
        seating = GAME.seating(players, options, dealer=h % players)
        st = GAME.new_hand(seating, options, random.Random(h),
                           [rng.choice([-50, 0, 1500, 3000]) for _ in range(seating.sides)])
        while not st.is_over:
            if st.phase == 1 and len(st.hands[st.to_play]) <= 7 and rng.random() < 0.3:
                assert engine_outcomes(st) == _oracle_for(st), st.export()
                checked += 1
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
    assert checked > 50
