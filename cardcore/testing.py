"""check_game: the conformance kit any game plugin runs in its tests.

Seeded random playouts of whole hands and of short whole matches, for every
allowed player count, asserting after every action:

- every card is accounted for (the export's cards are the same multiset);
- ``legal_actions()`` is never empty before the hand ends, lists no action twice,
  and an action not in it raises IllegalAction and leaves ``export()`` identical;
- ``clone()`` is independent of the original;
- ``export()`` -> ``state_from_json()`` round-trips exactly (legal actions too);
- ``view(seat)`` reveals nothing: permuting the cards at the positions the view
  nulls and reloading gives the same view; ``determinize`` agrees with the view;
- ``view(None)``, the spectator's, hides exactly the cards some seat cannot see;
- every hand ends; ``score()`` is JSON with each side's ``total`` the sum of its items;
- hostile input (``cardcore.fuzz``, with hypothesis): forged actions raise IllegalAction
  and change nothing; mutated exports load or raise StateError, nothing else.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from cardcore.cards import CardError, parse_card
from cardcore.fuzz import NON_ACTIONS, check_forged_actions, fuzz_loading
from cardcore.game import Action, Game, GameState, IllegalAction, ScoreRow
from cardcore.match import Match, play_bots

Path = tuple[Any, ...]


class _Bogus(Action):
    """An action no game offers."""

    __slots__ = ()

    def __init__(self) -> None:
        self.key = ("cardcore.testing.bogus",)

    def to_json(self) -> dict:
        return {"type": "cardcore-test-bogus"}

    @property
    def label(self) -> str:
        return "bogus"


@dataclass
class Report:
    hands: int = 0
    decisions: int = 0
    matches: int = 0


def check_game(
    game: Game,
    seeds: Iterable[int] = range(10),
    max_hands: int = 3,
    player_counts: Iterable[int] | None = None,
    match_target: int | None = None,
    max_steps: int = 20_000,
    deep_every: int = 1,
) -> Report:
    """Run the conformance checks on ``game``; AssertionError names the seed and step."""
    report = Report()
    seeds = list(seeds)
    for players in player_counts or game.player_counts:
        for seed in seeds:
            _check_hand(game, players, seed, max_steps, deep_every, report)
        for seed in seeds[:3]:
            _check_match(game, players, seed, max_hands, match_target, report)
    return report


def card_multiset(data: Any) -> Counter:
    """Every card string anywhere in an export (options excluded)."""
    found: Counter = Counter()
    for _, value in _leaves(data):
        if isinstance(value, str) and _is_card(value):
            found[value] += 1
    return found


def _check_hand(game: Game, players: int, seed: int, max_steps: int, deep_every: int,
                report: Report) -> None:
    options = game.Options()
    seating = game.seating(players, options, dealer=seed % players)
    sides = seating.sides
    rng = random.Random(f"check:{seed}")
    state = game.new_hand(seating, options, random.Random(f"{seed}:1"), [0] * sides)
    where = f"{game.id} players={players} seed={seed}"
    cards = card_multiset(state.export())
    _require(sum(cards.values()) > 0, f"{where}: the export names no card")
    seen: dict[tuple, Action] = {}
    fuzz_steps = {0, 7} if seed < 2 else set()  # hostile input, on a few positions per count
    for step in range(max_steps):
        at = f"{where} step={step}"
        if state.is_over:
            break
        deep = step % deep_every == 0
        actions = _check_legal(state, at)
        for a in actions:
            seen.setdefault(a.key, a)
        action = actions[rng.randrange(len(actions))]
        if deep:
            _check_clone(state, action, at)
            _check_round_trip(game, state, actions, at)
            _check_illegal(state, actions, seen, at)
            _check_views(game, state, players, rng, at)
        if step in fuzz_steps:
            check_forged_actions(state, at)
            fuzz_loading(game, state, at)
        state.apply(action)
        report.decisions += 1
        _require(card_multiset(state.export()) == cards,
                 f"{at}: cards created or lost by {action.to_json()}")
    else:
        raise AssertionError(f"{where}: the hand did not end in {max_steps} actions")
    _require(state.to_play is None, f"{where}: to_play is {state.to_play} after the hand ended")
    _require(state.legal_actions() == [], f"{where}: legal actions after the hand ended")
    _check_round_trip(game, state, [], where + " (over)")
    _check_views(game, state, players, rng, where + " (over)")
    _check_score(state.score(), sides, where)
    report.hands += 1


def _check_legal(state: GameState, at: str) -> list[Action]:
    actions = state.legal_actions()
    _require(bool(actions), f"{at}: no legal action before the hand ended")
    keys = [json.dumps(a.to_json(), sort_keys=True) for a in actions]
    _require(len(set(keys)) == len(keys), f"{at}: an action is listed twice")
    _require(len({a.key for a in actions}) == len(actions), f"{at}: two actions share a key")
    for a in actions:
        _require(isinstance(a.label, str) and bool(a.label), f"{at}: {keys[0]} has no label")
        json.dumps(a.to_json())
    return actions


def _check_round_trip(game: Game, state: GameState, actions: list[Action], at: str) -> None:
    data = state.export()
    json.dumps(data)
    again = game.state_from_json(copy.deepcopy(data))
    _require(again.export() == data, f"{at}: export -> state_from_json -> export differs")
    _require([a.to_json() for a in again.legal_actions()] == [a.to_json() for a in actions],
             f"{at}: the reloaded state has other legal actions")
    for a in actions[:3]:
        _require(game.action_from_json(state, a.to_json()) == a,
                 f"{at}: action_from_json does not give back {a.to_json()}")


def _check_illegal(state: GameState, actions: list[Action], seen: dict, at: str) -> None:
    before = state.export()
    legal = set(actions)
    others = [a for a in seen.values() if a not in legal][:5]
    for bad in [_Bogus(), *others]:
        try:
            state.apply(bad)
        except IllegalAction as exc:
            _require(bool(exc.reason), f"{at}: IllegalAction without a reason")
        else:
            raise AssertionError(f"{at}: apply accepted {bad.to_json()}, not a legal action")
        _require(state.export() == before, f"{at}: a refused action changed the state")


def _check_clone(state: GameState, action: Action, at: str) -> None:
    before = state.export()
    twin = state.clone()
    _require(twin.export() == before, f"{at}: clone() differs from the original")
    twin.apply(action)
    _require(state.export() == before, f"{at}: applying to a clone changed the original")


def _check_views(game: Game, state: GameState, players: int, rng: random.Random, at: str) -> None:
    data = state.export()
    hidden_from_some: set[Path] = set()
    for seat in range(players):
        view = state.view(seat)
        json.dumps(view)
        hidden = _hidden_paths(data, view, at)
        hidden_from_some.update(hidden)
        _require(card_multiset(view) <= card_multiset(data), f"{at}: view({seat}) invents cards")
        if len(hidden) > 1:
            permuted = _permute(data, hidden, rng)
            try:
                other = game.state_from_json(permuted)
            except (ValueError, CardError):
                other = game.state_from_json(_permute(data, hidden, rng, within=True))
            _require(other.view(seat) == view,
                     f"{at}: view({seat}) changes when hidden cards are permuted")
        if not state.is_over:
            sample = state.determinize(seat, random.Random(rng.random()))
            _require(sample.view(seat) == view, f"{at}: determinize({seat}) disagrees with the view")
            _require(card_multiset(sample.export()) == card_multiset(data),
                     f"{at}: determinize({seat}) changed the cards")
        zones = state.zones(seat)
        _require(bool(zones), f"{at}: zones({seat}) is empty")
        shown = Counter(c for z in zones for c in z.cards if c is not None)
        shown += Counter(c for z in zones for g in z.groups for c in g.cards)
        _require(shown <= card_multiset(view), f"{at}: zones({seat}) show cards the view hides")
    _check_spectator(state, data, hidden_from_some, at)


def _check_spectator(state: GameState, data: dict, hidden_from_some: set[Path], at: str) -> None:
    """The spectator, ``view(None)``, knows what every seat knows and nothing more."""
    view = state.view(None)
    json.dumps(view)
    hidden = set(_hidden_paths(data, view, at))
    shown = sorted(hidden_from_some - hidden)
    _require(not shown, f"{at}: view(None) shows cards a seat cannot see, e.g. at {shown[:1]}")
    extra = sorted(hidden - hidden_from_some)
    _require(not extra, f"{at}: view(None) hides cards every seat can see, e.g. at {extra[:1]}")


def _hidden_paths(data: Any, view: Any, at: str) -> list[Path]:
    """Paths where the export has a card and the view has null (same shape required)."""
    hidden: list[Path] = []

    def walk(d: Any, v: Any, path: Path) -> None:
        if isinstance(d, dict):
            _require(isinstance(v, dict) and v.keys() == d.keys(), f"{at}: view shape at {path}")
            for k in d:
                if k != "options":
                    walk(d[k], v[k], path + (k,))
        elif isinstance(d, list):
            _require(isinstance(v, list) and len(v) == len(d), f"{at}: view length at {path}")
            for i, (dd, vv) in enumerate(zip(d, v, strict=True)):
                walk(dd, vv, path + (i,))
        elif v is None and isinstance(d, str) and _is_card(d):
            hidden.append(path)
        else:
            _require(v == d, f"{at}: view differs from export at {path} but is not null")

    walk(data, view, ())
    return hidden


def _permute(data: Any, paths: list[Path], rng: random.Random, within: bool = False) -> Any:
    out = copy.deepcopy(data)
    groups: dict[Path, list[Path]] = {}
    for p in paths:
        groups.setdefault(p[:-1] if within else (), []).append(p)
    for group in groups.values():
        values = [_get(data, p) for p in group]
        rng.shuffle(values)
        for p, v in zip(group, values, strict=True):
            _set(out, p, v)
    return out


def _check_score(score: ScoreRow | Any, sides: int, where: str) -> None:
    json.dumps(score)
    _require(len(score["sides"]) == sides, f"{where}: score() has {len(score['sides'])} sides")
    for side in score["sides"]:
        items = side["items"]
        _require(all(isinstance(v, int) for v in items.values()), f"{where}: non-integer item")
        _require(side["total"] == sum(items.values()),
                 f"{where}: total {side['total']} is not the sum of {items}")


def _check_match(game: Game, players: int, seed: int, max_hands: int, target: int | None,
                 report: Report) -> None:
    from cardcore.bots import RandomBot

    default = game.Options().target
    options = game.Options(target=target or max(1, default // 10))
    events: list[dict] = []
    match = Match(game, options, seed=seed, players=players, seats=["random"] * players,
                  max_hands=max_hands, on_event=events.append)
    match.start()
    where = f"{game.id} match players={players} seed={seed}"
    _check_non_actions(match, where)
    play_bots(match, {s: RandomBot() for s in range(players)})
    _require(match.over, f"{where}: did not end")
    _require(len(match.sheet.hands) <= max_hands, f"{where}: played past the cap")
    _require(match.sheet.totals == [sum(r["sides"][i]["total"] for r in match.sheet.hands)
                                    for i in range(match.sheet.sides)], f"{where}: totals")
    if match.winner is not None:
        _require(game.match_winner(match.sheet, options) == match.winner, f"{where}: winner")
    kinds = [e["event"] for e in events]
    _require(kinds[0] == "match_start" and kinds[-1] == "match_end", f"{where}: events {kinds[:3]}")
    _require(kinds.count("hand_end") == len(match.sheet.hands), f"{where}: hand_end events")
    report.matches += 1
    report.hands += len(match.sheet.hands)
    report.decisions += match.decisions


def _check_non_actions(match: Match, where: str) -> None:
    """What is not an action at all never reaches the game: the match refuses it."""
    before = match.snapshot()
    for thing in NON_ACTIONS:
        try:
            match.apply(thing)
        except IllegalAction:
            continue
        except Exception as exc:
            raise AssertionError(f"{where}: Match.apply({thing!r}) raised {type(exc).__name__}") from None
        raise AssertionError(f"{where}: Match.apply accepted {thing!r}")
    _require(match.snapshot() == before, f"{where}: a refused non-action changed the match")


def _leaves(data: Any, path: Path = ()) -> Iterator[tuple[Path, str]]:
    if isinstance(data, dict):
        for k, v in data.items():
            if k != "options":
                yield from _leaves(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _leaves(v, path + (i,))
    else:
        yield path, data


def _is_card(text: str) -> bool:
    try:
        return parse_card(text) == text
    except CardError:
        return False


def _get(data: Any, path: Path) -> Any:
    for p in path:
        data = data[p]
    return data


def _set(data: Any, path: Path, value: Any) -> None:
    _get(data, path[:-1])[path[-1]] = value


def _require(ok: bool, message: str) -> None:
    if not ok:
        raise AssertionError(message)
