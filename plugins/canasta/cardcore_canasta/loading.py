"""Loading a position: the JSON shape (a strict pydantic model), then the rule checks.

Every key may be left out (a partial position: an empty table, seat 0 dealing, the
draw); whatever is given must be of its type (integers are integers, not floats,
booleans or strings) and possible under the rules. Every error is a ``StateError``
that names the field. ``strict`` asks more: the whole deck on the table, and
sizes and counters a hand of play can reach.
"""

from __future__ import annotations

import reprlib
from collections import Counter
from typing import Any, Literal

import pydantic

from cardcore.engine.cards import CardError, canasta_deck, check_cards, parse_card
from cardcore.engine.game import StateError
from cardcore.engine.kit.known import load_marks
from cardcore.engine.kit.loading import require_every_field

from .moves import OVER, PLAY_PHASE, legal_actions
from .rules import (
    BLACK_THREES,
    CANASTA,
    FREEZES,
    HAND_SIZE,
    ID_TEXT,
    PLAYER_COUNTS,
    RANK_OF,
    RED_THREES,
    SLOT_NAMES,
    SLOT_OF_RANK,
    TEXT_ID,
    THREE,
    VALID,
    CanastaOptions,
    canasta_seating,
    is_wild,
)
from .state import PHASES, CanastaState

# --- the shape ---------------------------------------------------------------------


class _Shape(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(strict=True, frozen=True)


class MeldData(_Shape):
    rank: str | None = None
    cards: list[str]


class TurnData(_Shape):
    new_ranks: list[str] | None = None
    added_to_earlier: bool = False


class PositionData(_Shape):
    """A position as ``CanastaState.export()`` writes it; absent keys take defaults."""

    game: str = "canasta"
    players: int = 4
    dealer: int = 0
    to_play: int | None = None  # absent: the dealer's left, unless the hand is over
    phase: Literal["draw", "play", "over"] = "draw"
    hands: list[list[str]] | None = None
    stock: list[str] | None = None  # top first
    discard: list[str] | None = None  # top last
    frozen: bool | None = None
    melds: list[list[MeldData]] | None = None
    red_threes: list[list[str]] | None = None
    initial_meld_done: list[bool] | None = None
    has_melded: list[bool] | None = None
    turn: TurnData | None = None
    totals_before: list[int] | None = None
    went_out: int | None = None
    concealed: bool = False
    known: Any = None  # checked by the kit's known cards (cardcore/engine/kit/known.py)
    options: dict[str, Any] | None = None


class CardStateError(StateError, CardError):
    """A card that is not in the notation, in a position (both kinds of error)."""


def _shape(data: object) -> PositionData:
    if not isinstance(data, dict):
        raise StateError("a canasta position is a JSON object")
    try:
        return PositionData.model_validate(data)
    except pydantic.ValidationError as exc:
        raise _state_error(exc) from None


def _state_error(exc: pydantic.ValidationError, prefix: tuple[str, ...] = ()) -> StateError:
    """The first error pydantic found, naming its field (``hands.0.3``)."""
    err = exc.errors()[0]
    where = ".".join(str(part) for part in prefix + tuple(err["loc"])) or "position"
    return StateError(f"{where}: {err['msg']} (got {reprlib.repr(err['input'])})")


# --- the checks ---------------------------------------------------------------------


def state_from_json(data: object, strict: bool = False) -> CanastaState:
    """The position ``data`` (``CanastaState.export()``'s format), or StateError."""
    pos = _shape(data)
    if strict:
        require_every_field(pos)
    if pos.game != "canasta":
        raise StateError(f"game: not a canasta position ({pos.game!r})")
    if pos.players not in PLAYER_COUNTS:
        raise StateError(f"players: canasta is played by 2, 3 or 4 players, not "
                         f"{pos.players!r} (D42-D44)")
    if pos.dealer not in range(pos.players):
        raise StateError(f"dealer: no seat {pos.dealer!r}")
    seating = canasta_seating(pos.dealer, pos.players)
    st = CanastaState(_options(pos), seating, _totals(pos, seating.sides))
    _place_turn(st, pos)
    cards = _place_hands(st, pos) + _place_piles(st, pos, strict) + _place_melds(st, pos)
    _place_known(st, pos.known, strict)
    cards += _place_red_threes(st, pos)
    try:
        check_cards([ID_TEXT[c] for c in cards], canasta_deck(), "position")
    except CardError as exc:
        raise StateError(str(exc)) from None
    _place_progress(st, pos)
    _check_playable(st)
    if strict:
        _check_strict(st, cards)
    return st


def _options(pos: PositionData) -> CanastaOptions:
    try:
        return CanastaOptions.model_validate(pos.options or {}, strict=True)
    except pydantic.ValidationError as exc:
        raise _state_error(exc, ("options",)) from None


def _totals(pos: PositionData, sides: int) -> tuple[int, ...]:
    totals = pos.totals_before or [0] * sides
    if len(totals) != sides:
        raise StateError(f"totals_before: expected {sides} integers, got {totals!r}")
    return tuple(totals)


def _place_turn(st: CanastaState, pos: PositionData) -> None:
    st.phase = PHASES.index(pos.phase)
    to_play = pos.to_play
    if "to_play" not in pos.model_fields_set and pos.phase != "over":
        to_play = st.seating.leader
    if pos.phase == "over":
        if to_play is not None:
            raise StateError("to_play: must be null when the hand is over")
    elif to_play not in range(st.seating.players):
        raise StateError(f"to_play: no seat {to_play!r}")
    st.to_play = to_play


def _card(text: str, what: str) -> int:
    try:
        return TEXT_ID[parse_card(text)]
    except CardError as exc:
        raise CardStateError(f"{what}: {exc}") from None


def _cards(texts: list[str], what: str) -> list[int]:
    return [_card(t, what) for t in texts]


def _per(items: list[Any] | None, n: int, what: str) -> list[Any]:
    """``n`` entries (per seat or per side); absent or empty: all empty."""
    if not items:
        return [[] for _ in range(n)]
    if len(items) != n:
        raise StateError(f"{what}: expected {n} entries, got {len(items)}")
    return items


def _place_hands(st: CanastaState, pos: PositionData) -> list[int]:
    placed: list[int] = []
    for s, texts in enumerate(_per(pos.hands, st.seating.players, "hands")):
        hand = _cards(texts, f"hands.{s}")
        if any(c in RED_THREES for c in hand):
            raise StateError(f"hands.{s}: a red three is never held (it is laid out at once)",
                             ("hands", s))
        st.hands[s] = hand
        counts = st.rank_counts[s]
        for c in hand:
            counts[RANK_OF[c]] += 1
        placed += hand
    return placed


def _place_known(st: CanastaState, raw: Any, strict: bool) -> None:
    """The cards each hand took with the pile, known to all; absent (a save made before
    known cards): none. The export's shape is the kit's (cardcore/engine/kit/known.py)."""
    if raw is None:
        return
    if not isinstance(raw, dict) or set(raw) - {"hands"} or (strict and "hands" not in raw):
        raise StateError(f"known: {{\"hands\": ...}}, the cards taken with the pile, not "
                         f"{reprlib.repr(raw)}", ("known",))
    hands = raw.get("hands", [])
    players = st.seating.players
    if not isinstance(hands, list) or len(hands) not in (0, players):
        raise StateError(f"known.hands: a list of {players} (one per seat), not "
                         f"{reprlib.repr(hands)}", ("known", "hands"))
    known = []
    for s, value in enumerate(hands):
        path = ("known", "hands", s)
        marks = load_marks(path, value, [ID_TEXT[c] for c in st.hands[s]], players, strict)
        if any(to is not None for _, to in marks):
            raise StateError(f"known.hands[{s}]: the cards taken with the pile are known to "
                             "all (to: null)", path)
        known.append(tuple(sorted(TEXT_ID[c] for c, _ in marks)))
    if known:
        st.known = tuple(known)


def _place_piles(st: CanastaState, pos: PositionData, strict: bool) -> list[int]:
    """The stock and the pile. ``frozen`` must agree with the pile's cards, except that a
    squared pile's (D47) is what the table shows: a position filled in from a view (a
    bot's sample: its hidden cards placed anyhow) keeps it, unless ``strict``."""
    st.stock = _cards(pos.stock or [], "stock")[::-1]
    st.pile = _cards(pos.discard or [], "discard")
    freezes = FREEZES[st.setup.black_three_freezes]
    st.freezers = sum(1 for c in st.pile if freezes[c])
    if pos.frozen is not None and pos.frozen != (st.freezers > 0):
        if strict or st.setup.browse_pile or len(st.pile) < 2:
            raise StateError(f"frozen: {pos.frozen} but the discard pile says {st.freezers > 0}")
        st.freezers = int(pos.frozen)
    return st.stock + st.pile


def _place_melds(st: CanastaState, pos: PositionData) -> list[int]:
    placed: list[int] = []
    for side, melds in enumerate(_per(pos.melds, st.setup.sides, "melds")):
        for i, meld in enumerate(melds):
            placed += _place_meld(st, side, meld, f"melds.{side}.{i}")
    return placed


def _place_meld(st: CanastaState, side: int, meld: MeldData, what: str) -> list[int]:
    ids = sorted(_cards(meld.cards, what))
    rank = (meld.rank or (SLOT_NAMES[RANK_OF[ids[0]]] if ids else "?")).upper()
    slot = SLOT_OF_RANK.get(rank)
    if slot is None:
        raise StateError(f"{what}: {rank!r} is not a rank that melds")
    if slot in st.melds[side]:
        raise StateError(f"{what}: side {side} has two melds of {rank}")
    nat = sum(1 for c in ids if RANK_OF[c] == slot)
    wild = sum(1 for c in ids if is_wild(c))
    if nat + wild != len(ids):
        raise StateError(f"{what}: the meld of {rank} holds other cards: {meld.cards}")
    if slot == THREE:
        if wild or any(c not in BLACK_THREES for c in ids) or len(ids) not in (3, 4):
            raise StateError(f"{what}: black threes meld as 3 or 4, no wild cards (D35)")
    elif not VALID[st.setup.classic][nat][wild]:
        raise StateError(f"{what}: the meld of {rank} breaks the meld rule "
                         f"({nat} natural, {wild} wild, {st.options.wild_rule})")
    st.melds[side][slot] = (tuple(ids), nat, wild)
    if len(ids) >= CANASTA:
        st.canastas[side] += 1
    return ids


def _place_red_threes(st: CanastaState, pos: PositionData) -> list[int]:
    placed: list[int] = []
    for side, texts in enumerate(_per(pos.red_threes, st.setup.sides, "red_threes")):
        ids = _cards(texts, f"red_threes.{side}")
        if any(c not in RED_THREES for c in ids):
            raise StateError(f"red_threes.{side}: only 3H and 3D")
        st.red_threes[side] = tuple(sorted(ids))
        placed += ids
    return placed


def _flags(value: list[bool] | None, n: int, what: str, default: list[bool]) -> list[bool]:
    if value is None:
        return list(default)
    if len(value) != n:
        raise StateError(f"{what}: expected {n} booleans, got {value!r}")
    return list(value)


def _place_progress(st: CanastaState, pos: PositionData) -> None:
    sides, players = st.setup.sides, st.seating.players
    st.initial_meld_done = _flags(pos.initial_meld_done, sides, "initial_meld_done",
                                  [bool(m) for m in st.melds])
    for side in range(sides):
        if st.melds[side] and not st.initial_meld_done[side]:
            raise StateError(f"initial_meld_done: side {side} has melds but it is false")
    st.has_melded = _flags(pos.has_melded, players, "has_melded", [False] * players)
    turn = pos.turn or TurnData()
    new_ranks = []
    for rank in turn.new_ranks or []:
        slot = SLOT_OF_RANK.get(rank.upper())
        if slot is None:
            raise StateError(f"turn.new_ranks: {rank!r} is not a rank")
        new_ranks.append(slot)
    st.turn_new_ranks = tuple(sorted(new_ranks))
    st.turn_added_to_earlier = turn.added_to_earlier
    if pos.went_out is not None and (pos.went_out not in range(players) or st.phase != OVER):
        raise StateError(f"went_out: {pos.went_out!r} (a seat, once the hand is over)")
    st.went_out = pos.went_out
    st.concealed = pos.concealed


def _check_playable(st: CanastaState) -> None:
    """The player to act has a legal step, and this turn's record fits the phase."""
    if st.to_play is None:
        st._legal = []
        return
    mover = st.melds[st.side_of[st.to_play]]
    if any(s not in mover for s in st.turn_new_ranks):
        raise StateError("turn.new_ranks: names a rank the side has no meld of")
    if st.phase != PLAY_PHASE and (st.turn_new_ranks or st.turn_added_to_earlier):
        raise StateError("turn: not empty before the draw")
    if not legal_actions(st):
        raise StateError("to_play: the player to act has no legal step in this position "
                         "(e.g. one card left and no canasta to go out with)")


# --- strict -------------------------------------------------------------------------

def _check_strict(st: CanastaState, cards: list[int]) -> None:
    """What a hand of play can reach, beyond what any partial position may leave out."""
    missing = Counter(canasta_deck()) - Counter(ID_TEXT[c] for c in cards)
    if missing:
        raise StateError(f"position: strict needs the whole deck; missing {sorted(missing.elements())}")
    # every red three took a card from the stock besides the deal and the upcard: its
    # replacement when dealt, itself when drawn, or it was an upcard covered by another
    reds = sum(map(len, st.red_threes)) + sum(1 for c in st.pile if c in RED_THREES)
    players = st.seating.players
    dealt = HAND_SIZE[players] * players + 1  # the hands and the upcard (D37, D27, D43, D44)
    most = len(canasta_deck()) - dealt - reds
    if len(st.stock) > most:
        raise StateError(f"stock: {len(st.stock)} cards; at most {most} after the deal "
                         f"and {reds} red threes")
    if st.phase != OVER:
        for s, hand in enumerate(st.hands):
            if not hand:
                raise StateError(f"hands.{s}: empty while the hand goes on (going out ends it)",
                                 ("hands", s))
    for s, melded in enumerate(st.has_melded):
        if melded and not st.initial_meld_done[st.side_of[s]]:
            raise StateError(f"has_melded: seat {s} melded but its side has no initial meld")
    for side in range(st.setup.sides):
        _check_strict_melder(st, side)
    _check_strict_end(st)


def _check_strict_melder(st: CanastaState, side: int) -> None:
    """A side's melds were laid by one of its seats: before this turn, or in it."""
    if not st.melds[side]:
        return
    seats = st.seating.seats_of(side)
    this_turn = (st.phase == PLAY_PHASE and st.side_of[st.to_play or 0] == side
                 and (st.turn_new_ranks or st.turn_added_to_earlier))
    if not this_turn and not any(st.has_melded[s] for s in seats):
        raise StateError(f"has_melded: side {side} has melds but none of {seats} has melded")


def _check_strict_end(st: CanastaState) -> None:
    if st.concealed and st.went_out is None:
        raise StateError("concealed: only a player who went out goes out concealed")
    if st.phase != OVER:
        return
    if st.went_out is None:
        if st.stock:
            raise StateError("went_out: null, but the stock is not empty (the hand ends by "
                             "going out or with the stock, D33)")
        return
    if st.hands[st.went_out]:
        raise StateError(f"went_out: seat {st.went_out} still holds cards")
    need = st.setup.canastas_to_go_out
    if st.canastas[st.side_of[st.went_out]] < need:
        raise StateError(f"went_out: seat {st.went_out}'s side has fewer than {need} "
                         f"canasta(s) (D34, D43)")
