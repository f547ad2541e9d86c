"""state_from_json for Canasta: the kit loads what ``parts.PARTS`` declares (types, cards,
seats, known cards, every key and the whole deck when strict); here are the rules it cannot
say. Every refusal is a ``StateError`` naming its place (``path``); a bad card is also a
``CardError``. Partial positions: four players, seat 0 dealing, the draw.
"""

from __future__ import annotations

import reprlib
from typing import TYPE_CHECKING, Any

from cardcore.engine.game import Game, GameOptions, StateError
from cardcore.engine.kit import StateCardError
from cardcore.engine.kit import loading as kit
from cardcore.engine.kit.parts import Path, where
from cardcore.engine.seating import Seating

from .moves import OVER, PLAY_PHASE, legal_actions
from .parts import PHASES
from .rules import (
    BLACK_THREES,
    CANASTA,
    FIRST_WILD,
    FREEZES,
    HAND_SIZE,
    RANK_OF,
    RED_THREES,
    SLOT_NAMES,
    THREE,
    VALID,
)

if TYPE_CHECKING:
    from .state import CanastaState

#: 0.1's name for a bad card in a position (both a StateError and a CardError).
CardStateError = StateCardError

__all__ = ["CardStateError", "check", "state_from_json"]


def state_from_json(data: object, strict: bool = False) -> CanastaState:
    """The position ``data`` (``CanastaState.export()``'s format), or StateError."""
    from .game import CanastaGame
    from .state import CanastaState

    try:
        return CanastaState.from_json(CanastaGame(), data, strict)
    except StateError as exc:
        raise _dotted(exc) from None


def _dotted(exc: StateError) -> StateError:
    """The error with its place written as 0.1 wrote it (``hands.0.1``, not ``hands[0][1]``)."""
    path, text = exc.path, str(exc)
    if path and text.startswith(where(path) + ":"):
        text = ".".join(map(str, path)) + text[len(where(path)):]
        exc = type(exc)(text, path)
    return exc


def load_options(game: Game, data: dict) -> GameOptions:
    """The options as given (strict types: "5000" is no target), presets filled in (D46)."""
    return kit.load_options(game, data.get("options") or {}, True)


def made(cls: type[CanastaState], seating: Seating, options: GameOptions, to_play: int | None,
         values: dict[str, Any]) -> CanastaState:
    """The state of loaded ``values``, absent parts as a new hand has them; the melds
    counted, ``frozen`` read from the pile unless it disagrees (``check`` judges that)."""
    totals = values.get("totals_before")
    st = cls(options, seating, tuple(totals) if totals else None)  # type: ignore[arg-type]
    st.phase = PHASES.index(values.get("phase", "draw"))
    st.to_play = to_play
    for s, hand in enumerate(values.get("hands") or ()):
        st.hands[s] = hand
        counts = st.rank_counts[s]
        for c in hand:
            counts[RANK_OF[c]] += 1
    st.stock = values.get("stock", [])
    st.pile = values.get("discard", [])
    freezes = FREEZES[st.setup.black_three_freezes]
    st.freezers = sum(1 for c in st.pile if freezes[c])
    frozen = values.get("frozen")
    if frozen is not None and frozen != (st.freezers > 0):
        st.freezers = int(frozen)  # what a squared pile shows (D47): check judges it
    for side, melds in enumerate(values.get("melds") or ()):
        for slot, (cards, _, _) in melds.items():
            nat = len([c for c in cards if c >> 2 == slot])  # rules.rank_of
            st.melds[side][slot] = (cards, nat, len([c for c in cards if c >= FIRST_WILD]))
            st.canastas[side] += len(cards) >= CANASTA
    if "red_threes" in values:
        st.red_threes = [tuple(sorted(r)) for r in values["red_threes"]]
    st.initial_meld_done = values.get("initial_meld_done") or [bool(m) for m in st.melds]
    st.has_melded = values.get("has_melded") or [False] * seating.players
    st.turn_new_ranks, st.turn_added_to_earlier = values.get("turn", ((), False))
    st.went_out = values.get("went_out")
    st.concealed = values.get("concealed", False)
    return st


def check_known_shape(raw: Any, strict: bool) -> None:
    """``known`` holds the cards taken with the pile, ``{"hands": ...}``, and nothing else."""
    if raw is not None and (not isinstance(raw, dict) or set(raw) - {"hands"}):
        raise StateError(f"known: {{\"hands\": ...}}, the cards taken with the pile, not "
                         f"{reprlib.repr(raw)}", ("known",))


# --- the rules ---------------------------------------------------------------------------

def check(st: CanastaState, strict: bool) -> None:
    """What the declaration cannot say: the seat to play and the phase, melds that follow
    the meld rule, ``frozen`` agreeing with the pile, the turn's record; a seat to play with a
    legal step; ``strict``: what play can reach (red threes never held: ``parts.Hands``)."""
    _check_turn(st)
    for side, melds in enumerate(st.melds):
        for i, (slot, meld) in enumerate(melds.items()):
            _check_meld(st, slot, meld, ("melds", side, i))
    for side, reds in enumerate(st.red_threes):
        if any(c not in RED_THREES for c in reds):
            _refuse(("red_threes", side), "only 3H and 3D")
    _check_frozen(st, strict)
    _check_progress(st)
    _check_playable(st)
    if strict:
        _check_strict(st)


def _refuse(path: Path, words: str) -> None:
    raise StateError(f"{where(path)}: {words}", path)


def _check_turn(st: CanastaState) -> None:
    if st.phase == OVER and st.to_play is not None:
        _refuse(("to_play",), "must be null when the hand is over")
    if st.phase != OVER and st.to_play is None:
        _refuse(("to_play",), "null, but the hand is not over")


def _check_meld(st: CanastaState, slot: int, meld: tuple, path: Path) -> None:
    ids, nat, wild = meld
    rank = SLOT_NAMES[slot]
    if nat + wild != len(ids):
        _refuse(path, f"the meld of {rank} holds other cards")
    if slot == THREE:
        if wild or any(c not in BLACK_THREES for c in ids) or len(ids) not in (3, 4):
            _refuse(path, "black threes meld as 3 or 4, no wild cards (D35)")
    elif not VALID[st.setup.classic][nat][wild]:
        _refuse(path, f"the meld of {rank} breaks the meld rule ({nat} natural, {wild} wild, "
                      f"{st.options.wild_rule})")


def _check_frozen(st: CanastaState, strict: bool) -> None:
    """``frozen`` agrees with the pile's cards, except that a squared pile's (D47) is what
    the table shows: a position filled in from a view (a bot's sample: its hidden cards
    placed anyhow) keeps it, unless ``strict``."""
    freezes = FREEZES[st.setup.black_three_freezes]
    says = any(freezes[c] for c in st.pile)
    if (st.freezers > 0) != says and (strict or st.setup.browse_pile or len(st.pile) < 2):
        _refuse(("frozen",), f"{st.freezers > 0} but the discard pile says {says}")


def _check_progress(st: CanastaState) -> None:
    for side, melds in enumerate(st.melds):
        if melds and not st.initial_meld_done[side]:
            _refuse(("initial_meld_done", side), f"side {side} has melds but it is false")
    if st.went_out is not None and st.phase != OVER:
        _refuse(("went_out",), f"{st.went_out!r} (a seat, once the hand is over)")


def _check_playable(st: CanastaState) -> None:
    """The player to act has a legal step, and this turn's record fits the phase."""
    if st.to_play is None:
        st._legal = []
        return
    mover = st.melds[st.side_of[st.to_play]]
    if any(s not in mover for s in st.turn_new_ranks):
        _refuse(("turn", "new_ranks"), "names a rank the side has no meld of")
    if st.phase != PLAY_PHASE and (st.turn_new_ranks or st.turn_added_to_earlier):
        _refuse(("turn",), "not empty before the draw")
    if not legal_actions(st):
        _refuse(("to_play",), "the player to act has no legal step in this position (e.g. "
                              "one card left and no canasta to go out with)")


# --- strict -------------------------------------------------------------------------

def _check_strict(st: CanastaState) -> None:
    """What a hand of play can reach, beyond what any partial position may leave out (the
    whole deck: the kit's)."""
    # every red three took a card from the stock besides the deal and the upcard: its
    # replacement when dealt, itself when drawn, or it was an upcard covered by another
    reds = sum(map(len, st.red_threes)) + sum(1 for c in st.pile if c in RED_THREES)
    players = st.seating.players
    dealt = HAND_SIZE[players] * players + 1  # the hands and the upcard (D37, D27, D43, D44)
    most = len(st.deck) - dealt - reds
    if len(st.stock) > most:
        _refuse(("stock",), f"{len(st.stock)} cards; at most {most} after the deal and {reds} "
                            "red threes")
    if st.phase != OVER:
        for s, hand in enumerate(st.hands):
            if not hand:
                _refuse(("hands", s), "empty while the hand goes on (going out ends it)")
    for s, melded in enumerate(st.has_melded):
        if melded and not st.initial_meld_done[st.side_of[s]]:
            _refuse(("has_melded", s), f"seat {s} melded but its side has no initial meld")
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
        _refuse(("has_melded",), f"side {side} has melds but none of {seats} has melded")


def _check_strict_end(st: CanastaState) -> None:
    if st.concealed and st.went_out is None:
        _refuse(("concealed",), "only a player who went out goes out concealed")
    if st.phase != OVER:
        return
    if st.went_out is None:
        if st.stock:
            _refuse(("went_out",), "null, but the stock is not empty (the hand ends by going "
                                   "out or with the stock, D33)")
        return
    if st.hands[st.went_out]:
        _refuse(("went_out",), f"seat {st.went_out} still holds cards")
    need = st.setup.canastas_to_go_out
    if st.canastas[st.side_of[st.went_out]] < need:
        _refuse(("went_out",), f"seat {st.went_out}'s side has fewer than {need} canasta(s) "
                               "(D34, D43)")
