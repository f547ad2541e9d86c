"""A Canasta hand: the position, applying steps, export / view / zones / determinize."""

from __future__ import annotations

import random

from cardcore.cards import CardError, canasta_deck, check_cards, parse_card
from cardcore.game import GameState, Group, IllegalAction, StateError, Zone

from .actions import ADD, DECLINE, DISCARD, DRAW, MELD, ONTO, TAKE
from .moves import DRAW_PHASE, OVER, PLAY_PHASE, legal_actions, take_actions
from .rules import (
    ID_TEXT,
    RED_THREES,
    SLOT_NAMES,
    SLOT_OF_RANK,
    TEXT_ID,
    VALID,
    CanastaOptions,
    minimum,
)
from .scoring import score_row

PHASES = ("draw", "play", "over")


def freezes(card: int, black_three_freezes: bool) -> bool:
    """A card that freezes the pile while it is in it (D31)."""
    if card >= 48 or card in RED_THREES:
        return True
    return black_three_freezes and card in (0, 3)


class CanastaState(GameState):
    """One hand. Hands are lists of card ids with rank counts beside them; the stock
    is kept top last; melds per side map a slot to ``(cards, naturals, wilds)``."""

    __slots__ = (
        "options", "classic", "b3", "conc_min", "dealer", "to_play", "phase",
        "hands", "rc", "stock", "pile", "frz", "melds", "canastas", "red3",
        "imd", "hm", "t_new", "t_added", "totals", "need", "went_out", "concealed",
        "_legal",
    )

    def __init__(self, options: CanastaOptions):
        self.options = options
        self.classic = options.wild_rule == "classic"
        self.b3 = options.black_three_freezes
        self.conc_min = options.concealed_needs_minimum
        self.dealer = 0
        self.to_play: int | None = 1
        self.phase = DRAW_PHASE
        self.hands: list[list[int]] = [[], [], [], []]
        self.rc: list[list[int]] = [[0] * 14 for _ in range(4)]
        self.stock: list[int] = []
        self.pile: list[int] = []
        self.frz = 0
        self.melds: list[dict] = [{}, {}]
        self.canastas = [0, 0]
        self.red3: list[tuple[int, ...]] = [(), ()]
        self.imd = [False, False]
        self.hm = [False] * 4
        self.t_new: tuple[int, ...] = ()
        self.t_added = False
        self.totals = (0, 0)
        self.need = (50, 50)
        self.went_out: int | None = None
        self.concealed = False
        self._legal = None

    # --- the interface ---------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list:
        acts = self._legal
        if acts is None:
            acts = self._legal = legal_actions(self)
        return acts

    def clone(self) -> CanastaState:
        new = CanastaState.__new__(CanastaState)
        new.options = self.options
        new.classic = self.classic
        new.b3 = self.b3
        new.conc_min = self.conc_min
        new.dealer = self.dealer
        new.to_play = self.to_play
        new.phase = self.phase
        h = self.hands
        new.hands = [h[0][:], h[1][:], h[2][:], h[3][:]]
        r = self.rc
        new.rc = [r[0][:], r[1][:], r[2][:], r[3][:]]
        new.stock = self.stock[:]
        new.pile = self.pile[:]
        new.frz = self.frz
        m = self.melds
        new.melds = [m[0].copy(), m[1].copy()]
        new.canastas = self.canastas[:]
        new.red3 = self.red3[:]
        new.imd = self.imd[:]
        new.hm = self.hm[:]
        new.t_new = self.t_new
        new.t_added = self.t_added
        new.totals = self.totals
        new.need = self.need
        new.went_out = self.went_out
        new.concealed = self.concealed
        new._legal = self._legal
        return new

    def apply(self, action) -> None:
        acts = self._legal
        if acts is None:
            acts = self._legal = legal_actions(self)
        for a in acts:
            if a is action:
                break
        else:
            key = getattr(action, "key", None)
            for a in acts:
                if a.key == key:
                    action = a
                    break
            else:
                if self.phase == OVER:
                    raise IllegalAction("the hand is over")
                raise IllegalAction(f"not a legal step here: {_json(action)}")
        self._legal = None
        kind = action.kind
        p = self.to_play
        side = p & 1
        if kind == DISCARD:
            self._remove(p, (action.data,))
            self.pile.append(action.data)
            if freezes(action.data, self.b3):
                self.frz += 1
            if self.hands[p]:
                self._end_turn(p)
            else:
                self._go_out(p)
        elif kind == DRAW:
            self._draw(p, side)
        elif kind == MELD:
            for cards in action.data:
                self._remove(p, cards)
                self._lay(side, cards)
            self.imd[side] = True
            if not self.hands[p]:
                self._go_out(p)
        elif kind == ADD:
            slot, cards = action.data
            self._remove(p, cards)
            self._lay(side, cards, slot)
            if not self.hands[p]:
                self._go_out(p)
        elif kind in (TAKE, ONTO):
            self._take(p, side, action)
        elif kind == DECLINE:
            self._end_hand()

    # --- steps -----------------------------------------------------------------

    def _remove(self, p: int, cards) -> None:
        hand = self.hands[p]
        rc = self.rc[p]
        for c in cards:
            hand.remove(c)
            rc[c >> 2] -= 1

    def _lay(self, side: int, cards: tuple, slot: int = -1) -> None:
        """Put ``cards`` on the side's meld of ``slot`` (a new meld when it has none)."""
        if slot < 0:
            slot = cards[0] >> 2
        melds = self.melds[side]
        nat = sum(1 for c in cards if c < 48)
        w = len(cards) - nat
        old = melds.get(slot)
        if old is None:
            melds[slot] = (cards, nat, w)
            self.t_new += (slot,)
            if len(cards) >= 7:
                self.canastas[side] += 1
            return
        ids, n0, w0 = old
        melds[slot] = (tuple(sorted(ids + cards)), n0 + nat, w0 + w)
        if len(ids) < 7 <= len(ids) + len(cards):
            self.canastas[side] += 1
        if slot not in self.t_new:
            self.t_added = True

    def _draw(self, p: int, side: int) -> None:
        stock = self.stock
        while True:
            c = stock.pop()
            if c == 1 or c == 2:  # a red three: laid out, replaced
                self.red3[side] += (c,)
                if not stock:
                    self._end_hand()
                    return
                continue
            self.hands[p].append(c)
            self.rc[p][c >> 2] += 1
            break
        self.phase = PLAY_PHASE

    def _take(self, p: int, side: int, action) -> None:
        pile = self.pile
        top = pile.pop()
        if action.kind == ONTO:
            self._lay(side, (top,), top >> 2)
        else:
            with_cards, others = action.data
            self._remove(p, with_cards)
            self._lay(side, tuple(sorted(with_cards + (top,))), top >> 2)
            for cards in others:
                self._remove(p, cards)
                self._lay(side, cards)
        self.imd[side] = True
        hand = self.hands[p]
        rc = self.rc[p]
        for c in pile:
            if c == 1 or c == 2:
                self.red3[side] += (c,)
            else:
                hand.append(c)
                rc[c >> 2] += 1
        pile.clear()
        self.frz = 0
        self.phase = PLAY_PHASE
        if not hand:
            self._go_out(p)

    def _end_turn(self, p: int) -> None:
        if self.t_new or self.t_added:
            self.hm[p] = True
        self.t_new = ()
        self.t_added = False
        nxt = (p + 1) & 3
        self.to_play = nxt
        self.phase = DRAW_PHASE
        if not self.stock and not take_actions(self, nxt):
            self._end_hand()

    def _go_out(self, p: int) -> None:
        melds = self.melds[p & 1]
        self.went_out = p
        self.concealed = (not self.hm[p] and not self.t_added
                          and any(len(melds[s][0]) >= 7 for s in self.t_new))
        self._end_hand()

    def _end_hand(self) -> None:
        self.phase = OVER
        self.to_play = None
        self._legal = []

    # --- export and friends ------------------------------------------------------

    def export(self) -> dict:
        text = ID_TEXT
        return {
            "game": "canasta",
            "players": 4,
            "dealer": self.dealer,
            "to_play": self.to_play,
            "phase": PHASES[self.phase],
            "hands": [[text[c] for c in sorted(h)] for h in self.hands],
            "stock": [text[c] for c in reversed(self.stock)],
            "discard": [text[c] for c in self.pile],
            "frozen": self.frz > 0,
            "melds": [[{"rank": SLOT_NAMES[s], "cards": [text[c] for c in m[s][0]]}
                       for s in sorted(m)] for m in self.melds],
            "red_threes": [[text[c] for c in sorted(r)] for r in self.red3],
            "initial_meld_done": list(self.imd),
            "has_melded": list(self.hm),
            "turn": {"new_ranks": [SLOT_NAMES[s] for s in sorted(self.t_new)],
                     "added_to_earlier": self.t_added},
            "totals_before": list(self.totals),
            "went_out": self.went_out,
            "concealed": self.concealed,
            "options": self.options.model_dump(mode="json"),
        }

    def view(self, seat: int) -> dict:
        data = self.export()
        data["hands"] = [h if s == seat else [None] * len(h) for s, h in enumerate(data["hands"])]
        data["stock"] = [None] * len(data["stock"])
        return data

    def determinize(self, seat: int, rng: random.Random) -> CanastaState:
        new = self.clone()
        others = [s for s in range(4) if s != seat]
        pool = [c for s in others for c in self.hands[s]] + self.stock
        threes = [c for c in pool if c in RED_THREES]  # never in a hand: they stay in the stock
        rest = [c for c in pool if c not in RED_THREES]
        rng.shuffle(rest)
        cut = len(self.stock) - len(threes)
        stock = rest[:cut] + threes
        rng.shuffle(stock)
        new.stock = stock
        at = cut
        for s in others:
            n = len(self.hands[s])
            hand = rest[at:at + n]
            at += n
            new.hands[s] = hand
            rc = [0] * 14
            for c in hand:
                rc[c >> 2] += 1
            new.rc[s] = rc
        new._legal = None
        return new

    def score(self) -> dict:
        return score_row(self)

    def zones(self, seat: int | None) -> list[Zone]:
        data = self.export() if seat is None else self.view(seat)
        zones = []
        for s, hand in enumerate(data["hands"]):
            badges = [f"{len(hand)} cards"]
            if data["went_out"] == s:
                badges.append("went out concealed" if data["concealed"] else "went out")
            zones.append(Zone(f"hand-{s}", "hand", "Hand", seat=s, side=s % 2,
                              cards=list(hand), badges=badges))
        n = len(data["stock"])
        zones.append(Zone("stock", "stock", "Stock", cards=[None] if n else [],
                          badges=[f"stock {n}"]))
        pile = data["discard"]
        badges = ["frozen"] if data["frozen"] else []
        badges.append(f"{len(pile)} cards")
        zones.append(Zone("discard", "pile", "Discard pile", cards=list(pile), badges=badges))
        for side in range(2):
            groups = []
            for meld in data["melds"][side]:
                cards = meld["cards"]
                gb = [meld["rank"]]
                if len(cards) >= 7:
                    wild = any(c == "JK" or c.startswith("2") for c in cards)
                    gb.append("mixed canasta" if wild else "natural canasta")
                groups.append(Group(f"meld-{side}-{meld['rank']}", list(cards), gb))
            if data["initial_meld_done"][side]:
                badges = [f"canastas {sum(1 for g in groups if len(g.cards) >= 7)}"]
            else:
                badges = [f"first meld {minimum(data['totals_before'][side])}"]
            zones.append(Zone(f"melds-{side}", "melds", "Melds", side=side, groups=groups,
                              badges=badges))
        for side in range(2):
            red = data["red_threes"][side]
            zones.append(Zone(f"red-threes-{side}", "row", "Red threes", side=side,
                              cards=list(red), badges=[f"red threes {len(red)}"] if red else []))
        return zones


def _json(action) -> str:
    try:
        return str(action.to_json())
    except Exception:  # an object that is no action at all
        return repr(action)


# --- state_from_json -------------------------------------------------------------


def _card(text) -> int:
    return TEXT_ID[parse_card(text)]


def _cards(items, what: str) -> list[int]:
    if not isinstance(items, list):
        raise StateError(f"{what}: expected a list of cards, got {items!r}")
    return [_card(t) for t in items]


def _bools(value, n: int, what: str, default: list[bool]) -> list[bool]:
    if value is None:
        return list(default)
    if not isinstance(value, list) or len(value) != n or not all(isinstance(v, bool) for v in value):
        raise StateError(f"{what}: expected {n} booleans, got {value!r}")
    return list(value)


def state_from_json(data: dict) -> CanastaState:
    if not isinstance(data, dict):
        raise StateError("a canasta position is a JSON object")
    if data.get("game", "canasta") != "canasta":
        raise StateError(f"not a canasta position: game {data.get('game')!r}")
    if data.get("players", 4) != 4:
        raise StateError("canasta is played by 4 players")
    try:
        options = CanastaOptions(**(data.get("options") or {}))
    except Exception as exc:  # pydantic's ValidationError
        raise StateError(f"options: {exc}") from None
    st = CanastaState(options)
    dealer = data.get("dealer", 0)
    if dealer not in range(4):
        raise StateError(f"dealer: no seat {dealer!r}")
    st.dealer = dealer
    phase = data.get("phase", "draw")
    if phase not in PHASES:
        raise StateError(f"phase: {phase!r} is not one of draw, play, over")
    st.phase = PHASES.index(phase)
    to_play = data.get("to_play", None if phase == "over" else (dealer + 1) % 4)
    if phase == "over":
        if to_play is not None:
            raise StateError("to_play must be null when the hand is over")
    elif to_play not in range(4):
        raise StateError(f"to_play: no seat {to_play!r}")
    st.to_play = to_play
    hands = data.get("hands") or [[], [], [], []]
    if not isinstance(hands, list) or len(hands) != 4:
        raise StateError("hands: expected 4 hands")
    everything: list[int] = []
    for s, hand in enumerate(hands):
        ids = _cards(hand, f"hand {s}")
        if any(c in RED_THREES for c in ids):
            raise StateError(f"hand {s}: a red three is never held (it is laid out at once)")
        st.hands[s] = ids
        for c in ids:
            st.rc[s][c >> 2] += 1
        everything += ids
    st.stock = _cards(data.get("stock") or [], "stock")[::-1]
    st.pile = _cards(data.get("discard") or [], "discard")
    everything += st.stock + st.pile
    st.frz = sum(1 for c in st.pile if freezes(c, st.b3))
    if "frozen" in data and data["frozen"] != (st.frz > 0):
        raise StateError(f"frozen is {data['frozen']} but the discard pile says {st.frz > 0}")
    melds = data.get("melds") or [[], []]
    if not isinstance(melds, list) or len(melds) != 2:
        raise StateError("melds: expected a list per side")
    valid = VALID[st.classic]
    for side, side_melds in enumerate(melds):
        for meld in side_melds:
            if not isinstance(meld, dict) or "cards" not in meld:
                raise StateError(f"melds of side {side}: {meld!r} has no cards")
            ids = sorted(_cards(meld["cards"], f"meld of side {side}"))
            rank = str(meld.get("rank", ID_TEXT[ids[0]][:-1] if ids else "?")).upper()
            slot = SLOT_OF_RANK.get(rank)
            if slot is None:
                raise StateError(f"melds of side {side}: {rank!r} is not a rank that melds")
            if slot in st.melds[side]:
                raise StateError(f"melds of side {side}: two melds of {rank}")
            nat = sum(1 for c in ids if c >> 2 == slot)
            w = sum(1 for c in ids if c >= 48)
            if nat + w != len(ids):
                raise StateError(f"meld of {rank} (side {side}) holds other cards: {meld['cards']}")
            if slot == 0:
                if w or any(c in RED_THREES for c in ids) or len(ids) not in (3, 4):
                    raise StateError(f"side {side}: black threes meld as 3 or 4, no wild cards")
            elif not valid[nat][w]:
                raise StateError(f"meld of {rank} (side {side}) breaks the meld rule "
                                 f"({nat} natural, {w} wild, {options.wild_rule})")
            st.melds[side][slot] = (tuple(ids), nat, w)
            if len(ids) >= 7:
                st.canastas[side] += 1
            everything += ids
    reds = data.get("red_threes") or [[], []]
    if not isinstance(reds, list) or len(reds) != 2:
        raise StateError("red_threes: expected a list per side")
    for side, r in enumerate(reds):
        ids = _cards(r, f"red threes of side {side}")
        if any(c not in RED_THREES for c in ids):
            raise StateError(f"red threes of side {side}: only 3H and 3D")
        st.red3[side] = tuple(sorted(ids))
        everything += ids
    try:
        check_cards([ID_TEXT[c] for c in everything], canasta_deck(), "position")
    except CardError as exc:
        raise StateError(str(exc)) from None
    st.imd = _bools(data.get("initial_meld_done"), 2, "initial_meld_done",
                    [bool(m) for m in st.melds])
    for side in range(2):
        if st.melds[side] and not st.imd[side]:
            raise StateError(f"side {side} has melds but initial_meld_done is false")
    st.hm = _bools(data.get("has_melded"), 4, "has_melded", [False] * 4)
    turn = data.get("turn") or {}
    new_ranks = turn.get("new_ranks") or []
    t_new = []
    for rank in new_ranks:
        slot = SLOT_OF_RANK.get(str(rank).upper())
        if slot is None:
            raise StateError(f"turn: {rank!r} is not a rank")
        t_new.append(slot)
    st.t_new = tuple(sorted(t_new))
    st.t_added = bool(turn.get("added_to_earlier", False))
    totals = data.get("totals_before") or [0, 0]
    if len(totals) != 2 or not all(isinstance(t, int) for t in totals):
        raise StateError("totals_before: expected two integers")
    st.totals = (totals[0], totals[1])
    st.need = (minimum(totals[0]), minimum(totals[1]))
    went_out = data.get("went_out")
    if went_out is not None and (went_out not in range(4) or phase != "over"):
        raise StateError(f"went_out: {went_out!r} (a seat, once the hand is over)")
    st.went_out = went_out
    st.concealed = bool(data.get("concealed", False))
    if phase == "over":
        st._legal = []
    else:
        mover = st.melds[to_play & 1]
        if any(s not in mover for s in st.t_new):
            raise StateError("turn.new_ranks names a rank the side has no meld of")
        if phase == "draw" and (st.t_new or st.t_added):
            raise StateError("turn is not empty before the draw")
        if not legal_actions(st):
            raise StateError("the player to act has no legal step in this position "
                             "(e.g. one card left and no canasta to go out with)")
    return st
