"""The fishing-game engine as a cardcore Game, and classic Casino configured on it."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pydantic

from cardcore.cards import CardError, check_cards, parse_card, standard_deck
from cardcore.deal import one_at_a_time, packets, shuffled
from cardcore.game import Game, IllegalAction, StateError
from cardcore_casino.heuristic import heuristic
from cardcore_casino.moves import CAPTURE, NEW, TRAIL
from cardcore_casino.rules import (
    CASINO_VALUES,
    ID,
    CasinoOptions,
    Rules,
    direction_sign,
)
from cardcore_casino.state import FishingState


class FishingGame(Game):
    """One engine for the fishing games; a game supplies ``make_rules`` and its text."""

    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    partnerships: ClassVar[bool] = True

    def __init__(self) -> None:
        self._rules_cache: dict[Any, Rules] = {}

    # --- configuration ---------------------------------------------------------------

    def make_rules(self, options: pydantic.BaseModel) -> Rules:
        raise NotImplementedError

    def rules_for(self, options: pydantic.BaseModel) -> Rules:
        key = tuple(sorted(options.model_dump(mode="json").items()))
        rules = self._rules_cache.get(key)
        if rules is None:
            rules = self._rules_cache[key] = self.make_rules(options)
        return rules

    def direction(self, options: pydantic.BaseModel) -> int:
        return direction_sign(options.direction)

    # --- hands ------------------------------------------------------------------------

    def new_hand(self, seating, options, rng: random.Random, totals: list[int]) -> FishingState:
        rules = self.rules_for(options)
        n = seating.players
        stock = [ID[c] for c in shuffled(standard_deck(), rng)]
        state = FishingState(rules, n, seating.dealer, None, [[] for _ in range(n)], [], [],
                             [[] for _ in range(n)], [0] * n, stock, None, list(totals))
        state._deal(first=True)
        return state

    def state_from_json(self, data: dict) -> FishingState:
        return _load(self, data)

    def action_from_json(self, state: FishingState, data: dict):
        key = _action_key(data)
        for action in state.legal_actions():
            if action.key == key:
                return action
        raise IllegalAction(f"not a legal action here: {data}")

    def heuristic(self, state: FishingState, seat: int) -> float:
        return heuristic(state, seat)

    # --- the rules as played -------------------------------------------------------------

    def rules(self, options: pydantic.BaseModel) -> str:
        from cardcore_casino.text import rules_text

        return rules_text(self, options)


# --- Casino ------------------------------------------------------------------------------


def casino_plans(options: CasinoOptions):
    if options.deal_in_twos:
        return (lambda order: packets(order, 2, table=2, rounds=2),
                lambda order: packets(order, 2, rounds=2))
    return (lambda order: packets(order, 1, table=1, rounds=4),
            lambda order: one_at_a_time(order, 4))


class CasinoGame(FishingGame):
    id = "casino"
    name = "Casino"
    description = "The classic fishing game: capture by pairing and sums, build, sweep — to 21."
    Options = CasinoOptions

    def make_rules(self, options: CasinoOptions) -> Rules:
        first, later = casino_plans(options)
        return Rules(
            self.id, options,
            value=CASINO_VALUES,
            max_build=10,
            court_take_all=options.court_cards_take_all,
            trail_rule="free" if options.may_trail_capturing_card else "no_capture",
            raise_own_build=True,
            direction=direction_sign(options.direction),
            first_plan=first,
            later_plan=later,
            sweeps_score=options.sweeps,
        )


# --- loading a state ------------------------------------------------------------------------


def _action_key(data: Any) -> tuple:
    if not isinstance(data, dict):
        raise IllegalAction(f"an action is a JSON object, not {data!r}")
    try:
        kind = data.get("type")
        card = ID[parse_card(data.get("card"))]
        if kind == "trail":
            return (TRAIL, card)
        if kind == "capture":
            return (CAPTURE, card, _mask(data.get("taken")))
        if kind == "build":
            return (NEW, card, int(data.get("value")), _mask(data.get("used")))
    except (CardError, KeyError, TypeError, ValueError) as exc:
        raise IllegalAction(f"not an action of this game: {data} ({exc})") from None
    raise IllegalAction(f"unknown action type {data.get('type')!r}")


def _mask(cards: Any) -> int:
    bits = 0
    for c in cards:
        bits |= 1 << ID[parse_card(c)]
    return bits


def _card_ids(cards: Any, what: str) -> list[int]:
    if not isinstance(cards, list):
        raise StateError(f"{what}: expected a list of cards, got {cards!r}")
    out = []
    for c in cards:
        name = parse_card(c)
        if name not in ID:
            raise CardError(f"{what}: {c!r} is not a card of the 52-card deck")
        out.append(ID[name])
    return out


def _seat(value: Any, n: int, what: str, allow_none: bool = True) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise StateError(f"{what}: {value!r} is not a seat of a {n}-player table")
    return value


def _load(game: FishingGame, data: Any) -> FishingState:
    if not isinstance(data, dict):
        raise StateError(f"a state is a JSON object, not {type(data).__name__}")
    if data.get("game", game.id) != game.id:
        raise StateError(f"a state of {data.get('game')!r}, not of {game.id!r}")
    try:
        options = game.Options(**(data.get("options") or {}))
    except pydantic.ValidationError as exc:
        raise StateError(f"options: {exc}") from None
    rules = game.rules_for(options)
    raw_hands = data.get("hands")
    if not isinstance(raw_hands, list):
        raise StateError("hands: expected one list of cards per seat")
    n = data.get("players", len(raw_hands))
    if n not in game.player_counts:
        raise StateError(f"players: {game.name} is for 2, 3 or 4 players, not {n!r}")
    if len(raw_hands) != n:
        raise StateError(f"hands: {len(raw_hands)} hands for {n} players")
    hands = [_card_ids(h, f"hands[{s}]") for s, h in enumerate(raw_hands)]
    table = data.get("table") or {}
    if not isinstance(table, dict):
        raise StateError("table: expected {\"loose\": [...], \"builds\": [...]}")
    loose = _card_ids(table.get("loose", []), "table.loose")
    builds = []
    values = rules.value
    for i, b in enumerate(table.get("builds") or []):
        what = f"table.builds[{i}]"
        if not isinstance(b, dict):
            raise StateError(f"{what}: expected an object with value, owner, groups")
        v = b.get("value")
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= rules.max_build:
            raise StateError(f"{what}: value {v!r} is not a build value (1 to {rules.max_build})")
        owner = _seat(b.get("owner"), n, f"{what}.owner", allow_none=False)
        raw_groups = b.get("groups")
        if not isinstance(raw_groups, list) or not raw_groups:
            raise StateError(f"{what}: groups must be a non-empty list of card lists")
        groups = tuple(tuple(_card_ids(g, f"{what}.groups")) for g in raw_groups)
        for g in groups:
            if not g:
                raise StateError(f"{what}: an empty group")
            if any(not values[c] for c in g):
                raise StateError(f"{what}: court cards never build in {game.name}")
            if sum(values[c] for c in g) != v:
                raise StateError(f"{what}: a group adds up to {sum(values[c] for c in g)}, not {v}")
        if len(groups) == 1 and len(groups[0]) < 2:
            raise StateError(f"{what}: a build holds at least two cards")
        bits = 0
        for g in groups:
            for c in g:
                bits |= 1 << c
        builds.append((v, owner, groups, bits))
    raw_captured = data.get("captured") or [[] for _ in range(n)]
    if not isinstance(raw_captured, list) or len(raw_captured) != n:
        raise StateError(f"captured: one pile per seat ({n})")
    captured = [_card_ids(p, f"captured[{s}]") for s, p in enumerate(raw_captured)]
    stock = _card_ids(data.get("stock") or [], "stock")
    every = [c for h in hands for c in h] + loose + [c for b in builds for g in b[2] for c in g]
    every += [c for p in captured for c in p] + stock
    from cardcore_casino.rules import NAMES

    check_cards([NAMES[c] for c in every], standard_deck(), "state")
    sweeps = data.get("sweeps") or [0] * n
    if (not isinstance(sweeps, list) or len(sweeps) != n
            or any(isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in sweeps)):
        raise StateError(f"sweeps: one count (0 or more) per seat ({n})")
    sides = 2 if n == 4 else n
    totals = data.get("totals_before") or [0] * sides
    if (not isinstance(totals, list) or len(totals) != sides
            or any(isinstance(x, bool) or not isinstance(x, int) for x in totals)):
        raise StateError(f"totals_before: one total per side ({sides})")
    last_capture = _seat(data.get("last_capture"), n, "last_capture")
    if len(stock) % (4 * n):
        raise StateError(f"stock: {len(stock)} cards do not make whole deals of 4 each")
    d = rules.direction
    to_play = _seat(data["to_play"], n, "to_play") if "to_play" in data else None
    dealer = data.get("dealer")
    if dealer is None:
        dealer = (to_play - d) % n if to_play is not None else 0
    dealer = _seat(dealer, n, "dealer", allow_none=False)
    if "to_play" not in data:
        order = [(dealer + i * d) % n for i in range(1, n + 1)]
        to_play = next((s for s in order if hands[s]), None)
    state = FishingState(rules, n, dealer, to_play, hands, loose, builds, captured,
                         [int(x) for x in sweeps], stock, last_capture, [int(x) for x in totals])
    if to_play is None:
        if any(hands) or stock or builds:
            raise StateError("to_play is null (the hand is over) but cards are still in play")
        return state
    if not hands[to_play]:
        raise StateError(f"seat {to_play} is to play but holds no cards")
    from cardcore_casino.moves import required_values

    for s in range(n):
        need = required_values(state, s)
        if need and not _holds(rules, hands[s], need):
            raise StateError(
                f"seat {s} owns a build of {', '.join(map(str, need))} but holds no card "
                "to capture it (D12)")
    return state


def _holds(rules: Rules, hand: list[int], need: list[int]) -> bool:
    have = [0] * 15
    for c in hand:
        for v in rules.capture_values[c]:
            have[v] += 1
    if any(have[v] < 1 for v in need):
        return False
    return not (rules.ace_dual and 1 in need and 14 in need and have[1] < 2)
