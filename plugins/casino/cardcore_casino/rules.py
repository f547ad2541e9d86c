"""Cards as ints, the two games' card values, the Options and the engine's configuration.

Card ids follow the sorted notation (``10C`` = 0 ... ``QS`` = 51), so ascending
ids are the sorted card lists of docs/design.md (``taken``, ``used``) and a set of
cards is an int bit mask.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

import pydantic

from cardcore.engine.cards import RANKS, standard_deck
from cardcore.engine.game import GameOptions, ScoreRow
from cardcore.language import N_

if TYPE_CHECKING:
    from cardcore_casino.state import FishingState

NAMES: tuple[str, ...] = tuple(sorted(standard_deck()))
ID: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
BIT: tuple[int, ...] = tuple(1 << i for i in range(52))
RANK: tuple[int, ...] = tuple(RANKS.index(n[:-1]) + 1 for n in NAMES)  # ace 1 .. king 13
SUIT: tuple[str, ...] = tuple(n[-1] for n in NAMES)
ACE, JACK = 1, 11

BIG_CASINO = ID["10D"]
LITTLE_CASINO = ID["2S"]
SPADES_BITS = sum(BIT[c] for c in range(52) if SUIT[c] == "S")
ACES_BITS = sum(BIT[c] for c in range(52) if RANK[c] == ACE)

#: Casino: ace 1, pips 2-10; court cards 0 (no value: they never sum or build).
CASINO_VALUES: tuple[int, ...] = tuple(r if r < JACK else 0 for r in RANK)
#: Royal Casino: ace 1 (on the table and in builds), J 11, Q 12, K 13.
ROYAL_VALUES: tuple[int, ...] = RANK

Direction = Literal["clockwise", "counter_clockwise"]


def ids_of(bits: int) -> list[int]:
    """Card ids of a mask, ascending (= sorted notation)."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


class CasinoOptions(GameOptions):
    """Rule variants of Casino (D1, D4, D6, D9, D11, D17)."""

    court_cards_take_all: bool = pydantic.Field(
        False, description=N_("a court card pairs every loose card of its rank, not just one"))
    direction: Direction = pydantic.Field(
        "clockwise", description=N_("direction of play (the deal always passes to the left)"))
    deal_in_twos: bool = pydantic.Field(
        True, description=N_("deal in packets of two (false: one card at a time)"))
    may_trail_capturing_card: bool = pydantic.Field(
        True, description=N_("a card that could capture may still be trailed"))
    sweeps: bool = pydantic.Field(True, description=N_("sweeps score 1 point each"))


class Rules:
    """Everything the engine needs to know about one game under one set of options.

    Casino and Royal Casino build one each; the engine reads nothing else. The
    hooks a variant may set: ``sweep_points(raw_per_side) -> points_per_side`` and
    ``score_hook(state, row)`` (edits the score row in place).
    """

    __slots__ = (
        "game_id", "options", "options_json", "value", "capture_values", "max_build",
        "court_take_all", "trail_rule", "raise_own_build", "direction",
        "first_plan", "later_plan", "sweeps_score", "sweep_points", "score_hook",
        "ace_dual", "sort_key", "capture_bits", "build_bits",
    )

    def __init__(
        self,
        game_id: str,
        options: GameOptions,
        *,
        value: tuple[int, ...],
        ace_fourteen: bool = False,
        max_build: int,
        court_take_all: bool = False,
        trail_rule: Literal["free", "no_capture", "no_match"] = "free",
        raise_own_build: bool = True,
        direction: int = 1,
        first_plan: Callable[[list[int]], list[tuple[int, int]]],
        later_plan: Callable[[list[int]], list[tuple[int, int]]],
        sweeps_score: bool = True,
        sweep_points: Callable[[list[int]], list[int]] | None = None,
        score_hook: Callable[[FishingState, ScoreRow], None] | None = None,
    ):
        self.game_id = game_id
        self.options = options
        self.options_json = options.model_dump(mode="json")
        self.value = value
        caps: list[tuple[int, ...]] = []
        for c in range(52):
            v = value[c]
            if RANK[c] == ACE and ace_fourteen:
                caps.append((1, 14))
            elif v:
                caps.append((v,))
            else:
                caps.append(())
        #: The values a card played from the hand captures (royal aces: 1 or 14).
        self.capture_values: tuple[tuple[int, ...], ...] = tuple(caps)
        #: The same as bit masks (bit v: captures v): a hand's held values are their union.
        self.capture_bits: tuple[int, ...] = tuple(sum(1 << v for v in vs) for vs in caps)
        self.ace_dual = ace_fourteen
        self.max_build = max_build
        #: The build values as a bit mask (bits 1 to max_build).
        self.build_bits = (1 << (max_build + 1)) - 2
        self.court_take_all = court_take_all
        self.trail_rule = trail_rule
        self.raise_own_build = raise_own_build
        self.direction = direction
        self.first_plan = first_plan
        self.later_plan = later_plan
        self.sweeps_score = sweeps_score
        self.sweep_points = sweep_points
        self.score_hook = score_hook
        #: value * 64 + id: sorting these sorts loose cards by value
        self.sort_key = tuple(value[c] * 64 + c for c in range(52))


def direction_sign(direction: str) -> int:
    return 1 if direction == "clockwise" else -1
