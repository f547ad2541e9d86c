"""state_from_json for the fishing games: the kit loads what ``parts.PARTS`` declares (types,
cards, seats, a whole deck when strict); here are the rules it cannot say. Every refusal is a
``StateError`` naming its place (``path``); a bad card is also a ``CardError``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pydantic

from cardcore.engine.game import Game, GameOptions, StateError
from cardcore.engine.kit import StateCardError
from cardcore.engine.kit.parts import Path, where
from cardcore.engine.seating import Seating
from cardcore_casino.moves import Build, required_values
from cardcore_casino.rules import Rules

if TYPE_CHECKING:
    from cardcore_casino.state import FishingState

__all__ = ["StateCardError", "check", "first_to_play", "load_options"]


def load_options(game: Game, data: dict) -> GameOptions:
    """The options (absent or null: the defaults), checked as the game's Options."""
    raw = data.get("options")
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise StateError(f"options: an object, not {type(raw).__name__}", ("options",))
    try:
        return game.Options.model_validate(raw)
    except pydantic.ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(map(str, err["loc"]))
        raise StateError(f"options: {loc}: {err['msg']}", ("options", *err["loc"])) from None


def first_to_play(seating: Seating, hands: list[list[int]]) -> int | None:
    """The leader, or the next in deal order with cards; None when no one holds any."""
    return next((s for s in seating.deal_order() if hands[s]), None)


def check(state: FishingState, strict: bool) -> None:
    """What the declaration cannot say: builds that follow the rules, whole deals in the
    stock, a seat to play that can play; ``strict``: hand sizes that play can reach."""
    for i, b in enumerate(state.builds):
        _check_build(state, b, ("table", "builds", i))
    if len(state.stock) % (4 * state.players):
        raise StateError(f"stock: {len(state.stock)} cards do not make whole deals of 4 each",
                         ("stock",))
    _check_play(state)
    if strict:
        _check_hand_sizes(state)


def _check_build(state: FishingState, b: Build, path: Path) -> None:
    """One build: its value in range, its owner a seat, its groups adding up (D13-D15)."""
    rules, at = state.rules, where(path)
    if not 1 <= b.value <= rules.max_build:
        raise StateError(f"{at}.value: {b.value!r} is not a build value (1 to {rules.max_build})",
                         (*path, "value"))
    if not 0 <= b.owner < state.players:
        raise StateError(f"{at}.owner: {b.owner!r} is not a seat of a {state.players}-player "
                         "table", (*path, "owner"))
    if not b.groups:
        raise StateError(f"{at}.groups: a build holds one group of cards or more", (*path, "groups"))
    for j, g in enumerate(b.groups):
        problem = _group_problem(rules.value, g, b.value)
        if problem:
            raise StateError(f"{at}.groups[{j}]: {problem}", (*path, "groups", j))
    if len(b.groups) == 1 and len(b.groups[0]) < 2:
        raise StateError(f"{at}.groups: a build holds at least two cards", (*path, "groups"))


def _group_problem(values: tuple[int, ...], group: tuple[int, ...], value: int) -> str:
    if not group:
        return "an empty group"
    if not all(values[c] for c in group):
        return "court cards never build (they have no value)"
    total = sum(values[c] for c in group)
    return f"adds up to {total}, not {value}" if total != value else ""


def _check_play(state: FishingState) -> None:
    """A seat to play that holds cards, or a hand over with nothing in play; every owner of
    a build holding a card that captures it (D12)."""
    hands = state.hands
    if state.to_play is None:
        if any(hands) or state.stock or state.builds:
            raise StateError("to_play: null (the hand is over) but cards are still in play",
                             ("to_play",))
        return
    if not hands[state.to_play]:
        raise StateError(f"to_play: seat {state.to_play} is to play but holds no cards",
                         ("to_play",))
    for s in range(state.players):
        need = required_values(state, s)
        if need and not _holds(state.rules, hands[s], need):
            raise StateError(
                f"hands[{s}]: seat {s} owns a build of {', '.join(map(str, need))} but holds "
                "no card to capture it (D12)", ("hands", s))


def _holds(rules: Rules, hand: list[int], need: list[int]) -> bool:
    have = [0] * 15
    for c in hand:
        for v in rules.capture_values[c]:
            have[v] += 1
    if any(have[v] < 1 for v in need):
        return False
    return not (rules.ace_dual and 1 in need and 14 in need and have[1] < 2)


def _check_hand_sizes(state: FishingState) -> None:
    """Every deal gives four each, and the seats play in turn from the leader: in deal order
    the hands hold m - 1 cards up to the seat to play, m from it on (1 <= m <= 4)."""
    if state.to_play is None:
        return
    order = state.deal_order()
    sizes = [len(state.hands[s]) for s in order]
    at = order.index(state.to_play)
    m = sizes[at]
    if not (m <= 4 and all(x == m - 1 for x in sizes[:at]) and all(x == m for x in sizes[at:])):
        raise StateError(f"hands: {[len(h) for h in state.hands]} cards with seat "
                         f"{state.to_play} to play cannot happen in play", ("hands",))
