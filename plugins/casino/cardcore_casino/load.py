"""state_from_json for the fishing games: the JSON's shape as a pydantic model (strict:
integers are integers), then the rules' checks. Every refusal is a ``StateError`` naming
the field (a bad card is also a ``CardError``). Absent keys take their defaults, so a
partial position loads: the hands are the only key required.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pydantic

from cardcore.engine.cards import CardError, check_cards, parse_card, standard_deck
from cardcore.engine.game import StateError
from cardcore.engine.kit.loading import require_every_field
from cardcore.engine.seating import Seating
from cardcore_casino.moves import Build, required_values
from cardcore_casino.rules import ID, NAMES, Rules
from cardcore_casino.state import FishingState

if TYPE_CHECKING:
    from cardcore_casino.game import FishingGame


class StateCardError(StateError, CardError):
    """A card that is not a card of the deck, or one too many, in a state."""


class _Shape(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(strict=True, extra="ignore", frozen=True)


class BuildData(_Shape):
    value: int
    owner: int
    groups: list[list[str]]


class TableData(_Shape):
    loose: list[str] = []
    builds: list[BuildData] | None = None


class StateData(_Shape):
    """The shape of ``FishingState.export()``; every key but ``hands`` may be left out."""

    game: str | None = None
    players: int | None = None
    dealer: int | None = None
    to_play: int | None = None  # absent: the leader; null: the hand is over
    hands: list[list[str]]
    table: TableData | None = None
    captured: list[list[str]] | None = None
    sweeps: list[int] | None = None
    stock: list[str] | None = None
    last_capture: int | None = None
    totals_before: list[int] | None = None
    options: dict[str, Any] | None = None


def load_state(game: FishingGame, data: Any, strict: bool = False) -> FishingState:
    """The state ``data`` describes, or StateError. ``strict``: also a whole deck (each card
    exactly once) and hand sizes that play can reach."""
    if not isinstance(data, dict):
        raise StateError(f"a state is a JSON object, not {type(data).__name__}")
    try:
        shape = StateData.model_validate(data)
    except pydantic.ValidationError as exc:
        raise StateError(_first_error(exc)) from None
    if strict:
        require_every_field(shape)
    return _check(game, shape, "to_play" in data, strict)


def _first_error(exc: pydantic.ValidationError) -> str:
    err = exc.errors()[0]
    where = ""
    for part in err["loc"]:
        where += f"[{part}]" if isinstance(part, int) else f".{part}" if where else str(part)
    return f"{where or 'state'}: {err['msg']} (got {err.get('input')!r})"


def _check(game: FishingGame, d: StateData, has_to_play: bool, strict: bool) -> FishingState:
    """The rules' checks over data of the right shape."""
    if d.game is not None and d.game != game.id:
        raise StateError(f"game: a state of {d.game!r}, not of {game.id!r}")
    try:
        options = game.Options(**(d.options or {}))
    except pydantic.ValidationError as exc:
        raise StateError(f"options: {exc}") from None
    rules = game.rules_for(options)
    n = len(d.hands) if d.players is None else d.players
    if n not in game.player_counts:
        raise StateError(f"players: {game.name} is for 2, 3 or 4 players, not {n!r}")
    if len(d.hands) != n:
        raise StateError(f"hands: {len(d.hands)} hands for {n} players")
    hands = [_card_ids(h, f"hands[{s}]") for s, h in enumerate(d.hands)]
    table = d.table or TableData()
    loose = _card_ids(table.loose, "table.loose")
    builds = [_build(game, rules, b, n, f"table.builds[{i}]")
              for i, b in enumerate(table.builds or [])]
    captured = _captured(d.captured, n)
    stock = _card_ids(d.stock or [], "stock")
    every = [c for h in hands for c in h] + loose + [c for b in builds for g in b.groups for c in g]
    every += [c for p in captured for c in p] + stock
    _check_cards(every, strict)
    sweeps, totals = _counts(d, n, game.seating(n, options).sides)
    last_capture = _seat(d.last_capture, n, "last_capture")
    if len(stock) % (4 * n):
        raise StateError(f"stock: {len(stock)} cards do not make whole deals of 4 each")
    seating, to_play = _seating(game, options, d, n, hands, has_to_play)
    state = FishingState(rules, seating, to_play, hands, loose, builds, captured, sweeps, stock,
                         last_capture, totals)
    _check_play(state)
    if strict:
        _check_hand_sizes(state)
    return state


def _card_ids(cards: list[str], what: str) -> list[int]:
    out = []
    for c in cards:
        try:
            name = parse_card(c)
        except CardError as exc:
            raise StateCardError(f"{what}: {exc}") from None
        if name not in ID:
            raise StateCardError(f"{what}: {c!r} is not a card of the 52-card deck")
        out.append(ID[name])
    return out


def _seat(value: int | None, n: int, what: str) -> int | None:
    if value is not None and not 0 <= value < n:
        raise StateError(f"{what}: {value!r} is not a seat of a {n}-player table")
    return value


def _build(game: FishingGame, rules: Rules, b: BuildData, n: int, what: str) -> Build:
    """One build of the table: its value in range, its owner a seat, its groups adding up."""
    v = b.value
    if not 1 <= v <= rules.max_build:
        raise StateError(f"{what}.value: {v!r} is not a build value (1 to {rules.max_build})")
    _seat(b.owner, n, f"{what}.owner")
    if not b.groups:
        raise StateError(f"{what}.groups: a build holds one group of cards or more")
    groups = tuple(tuple(_card_ids(g, f"{what}.groups[{j}]")) for j, g in enumerate(b.groups))
    values = rules.value
    for j, g in enumerate(groups):
        if not g:
            raise StateError(f"{what}.groups[{j}]: an empty group")
        if any(not values[c] for c in g):
            raise StateError(f"{what}.groups[{j}]: court cards never build in {game.name}")
        if sum(values[c] for c in g) != v:
            raise StateError(f"{what}.groups[{j}]: adds up to {sum(values[c] for c in g)}, not {v}")
    if len(groups) == 1 and len(groups[0]) < 2:
        raise StateError(f"{what}.groups: a build holds at least two cards")
    bits = 0
    for g in groups:
        for c in g:
            bits |= 1 << c
    return Build(v, b.owner, groups, bits)


def _captured(piles: list[list[str]] | None, n: int) -> list[list[int]]:
    if not piles:
        return [[] for _ in range(n)]
    if len(piles) != n:
        raise StateError(f"captured: one pile per seat ({n}), not {len(piles)}")
    return [_card_ids(p, f"captured[{s}]") for s, p in enumerate(piles)]


def _check_cards(every: list[int], strict: bool) -> None:
    try:
        check_cards([NAMES[c] for c in every], standard_deck(), "state")
    except CardError as exc:
        raise StateCardError(str(exc)) from None
    if strict and len(every) != 52:
        missing = sorted(set(range(52)) - set(every))
        raise StateCardError(f"state: {len(missing)} cards missing from a whole deck: "
                             + " ".join(NAMES[c] for c in missing))


def _counts(d: StateData, n: int, sides: int) -> tuple[list[int], list[int]]:
    """The sweeps per seat and the totals per side before the hand."""
    sweeps = d.sweeps or [0] * n
    if len(sweeps) != n or any(x < 0 for x in sweeps):
        raise StateError(f"sweeps: one count (0 or more) per seat ({n})")
    totals = d.totals_before or [0] * sides
    if len(totals) != sides:
        raise StateError(f"totals_before: one total per side ({sides})")
    return list(sweeps), list(totals)


def _seating(game: FishingGame, options: Any, d: StateData, n: int, hands: list[list[int]],
             has_to_play: bool) -> tuple[Seating, int | None]:
    """The table's seating and the seat to play: the dealer is the seat before the one to
    play when left out; the seat to play is the leader's, or the next with cards, when
    left out."""
    to_play = _seat(d.to_play, n, "to_play") if has_to_play else None
    dealer = _seat(d.dealer, n, "dealer")
    if dealer is None:
        if to_play is None:
            dealer = 0
        else:
            around = game.seating(n, options)
            dealer = next(s for s in range(n) if around.next(s) == to_play)
    seating = game.seating(n, options, dealer)
    if not has_to_play:
        to_play = next((s for s in seating.deal_order() if hands[s]), None)
    return seating, to_play


def _check_play(state: FishingState) -> None:
    """A seat to play that holds cards, or a hand over with nothing in play; every owner of
    a build holding a card that captures it (D12)."""
    hands = state.hands
    if state.to_play is None:
        if any(hands) or state.stock or state.builds:
            raise StateError("to_play: null (the hand is over) but cards are still in play")
        return
    if not hands[state.to_play]:
        raise StateError(f"to_play: seat {state.to_play} is to play but holds no cards")
    for s in range(state.players):
        need = required_values(state, s)
        if need and not _holds(state.rules, hands[s], need):
            raise StateError(
                f"hands.{s}: seat {s} owns a build of {', '.join(map(str, need))} but holds "
                "no card to capture it (D12)")


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
                         f"{state.to_play} to play cannot happen in play")
