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
- every hand ends; ``score()`` is JSON with each side's ``total`` the sum of its items
  and each side's ``seats`` the seating's;
- the export holds only JSON types and the hand's options; the same actions replayed on
  a state reloaded from the export give the same states (nothing the rules need is
  left out); ``determinize`` deals the hidden cards again (it never gives back the truth);
- a seat sees the cards it plays; two actions never share a label; ``heuristic`` (every
  seat, every step) and ``log_line`` (every legal action) answer without raising;
- an action that is not legal raises IllegalAction (no other exception) and changes
  nothing; a game with ``deck_dealt_out`` ends no hand with a card never dealt;
- every Options field is also played at a value other than its default;
- hostile input (``cardcore.engine.fuzz``, with hypothesis): forged actions raise IllegalAction
  and change nothing; mutated exports load or raise StateError, nothing else.
"""

from __future__ import annotations

import copy
import enum
import json
import math
import random
import typing
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import pydantic

from cardcore.engine.bots.play import play_bots
from cardcore.engine.cards import CardError, deck
from cardcore.engine.fuzz import NON_ACTIONS, check_forged_actions, first_difference, fuzz_loading, short_json
from cardcore.engine.game import Action, Game, GameOptions, GameState, IllegalAction, ScoreRow
from cardcore.engine.journal import MatchEvent
from cardcore.engine.kit.known import known_in
from cardcore.engine.match import Match
from cardcore.engine.seating import Seating

Path = tuple[Any, ...]


class _Bogus(Action):
    """An action no game offers."""

    __slots__ = ()

    def __init__(self) -> None:
        self.key = ("cardcore.engine.testing.bogus",)

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
    options: GameOptions | None = None,
    variants: bool = True,
) -> Report:
    """Run the conformance checks on ``game``; AssertionError names the seed and step.
    ``options``: the options of the hands dealt one by one (None: the game's defaults; the
    whole matches play the defaults); ``variants``: also a hand with each option off its
    default."""
    report = Report()
    seeds = list(seeds)
    counts = list(player_counts or game.player_counts)
    for players in counts:
        for seed in seeds:
            _check_hand(game, players, seed, max_steps, deep_every, report, options)
        for seed in seeds[:3]:
            _check_match(game, players, seed, max_hands, match_target, report)
    for i, variant in enumerate(option_variants(game.Options) if variants else []):
        _check_hand(game, counts[i % len(counts)], seeds[i % len(seeds)], max_steps, deep_every,
                    report, variant)
    return report


def option_variants(model: type[GameOptions]) -> list[GameOptions]:
    """Options with one field off its default each: bools flipped, another Literal or Enum
    value, an int one step away within its bounds, None for an optional field."""
    out: list[GameOptions] = []
    for name, info in model.model_fields.items():
        for value in _other_values(info.annotation, info.default):
            try:
                out.append(model(**{name: value}))
            except (pydantic.ValidationError, TypeError, ValueError):
                continue
            break
    return out


def _other_values(annotation: Any, default: Any) -> list[Any]:
    args = typing.get_args(annotation)
    if annotation is bool:
        return [not default]
    if typing.get_origin(annotation) is typing.Literal:
        return [v for v in args if v != default]
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [v for v in annotation if v != default]
    if annotation is int and isinstance(default, int):
        return [default + 1, default - 1]
    if type(None) in args:
        inner = [a for a in args if a is not type(None)]
        if default is None:
            return [v for a in inner for v in _other_values(a, _zero(a))] + [_zero(a) for a in inner]
        return [None]
    return []


def _zero(annotation: Any) -> Any:
    return {bool: False, int: 0, str: ""}.get(annotation)


def card_multiset(data: Any) -> Counter:
    """Every card string anywhere in an export (options and known-card marks excluded)."""
    found: Counter = Counter()
    for _, value in _leaves(data):
        if isinstance(value, str) and _is_card(value):
            found[value] += 1
    return found


def _check_hand(game: Game, players: int, seed: int, max_steps: int, deep_every: int,
                report: Report, options: GameOptions | None = None) -> None:
    options = options if options is not None else game.Options()
    seating = game.seating(players, options, dealer=seed % players)
    rng = random.Random(f"check:{seed}")
    where = f"{game.id} players={players} seed={seed}"
    if options != game.Options():
        where += f" options={options.model_dump(mode='json', exclude_defaults=True)}"
    state = _guard(where, "new_hand", game.new_hand, seating, options, random.Random(f"{seed}:1"),
                   [0] * seating.sides)
    cards = card_multiset(state.export())
    _require(sum(cards.values()) > 0, f"{where}: the export names no card")
    _check_options(state, options, where)
    seen: dict[tuple, Action] = {}
    fuzz_steps = {0, 7} if seed < 2 and options == game.Options() else set()
    unchecked = set(range(players))  # seats whose determinize is yet to be tried on many seeds
    for step in range(max_steps):
        at = f"{where} step={step}"
        if state.is_over:
            break
        deep = step % deep_every == 0
        actions = _check_legal(state, at)
        for a in actions:
            seen.setdefault(a.key, a)
        action = actions[rng.randrange(len(actions))]
        _check_heuristic(game, state, players, at)
        reloaded = None
        if deep:
            _check_clone(state, action, at)
            reloaded = _check_round_trip(game, state, actions, at)
            _check_illegal(state, actions, seen, at)
            _check_views(game, state, players, rng, at)
            _check_determinize_deals(state, unchecked, at)
        if step in fuzz_steps:
            check_forged_actions(state, at)
            fuzz_loading(game, state, at)
        _guard(at, f"apply({action.to_json()})", state.apply, action)
        report.decisions += 1
        _require(card_multiset(state.export()) == cards,
                 f"{at}: cards created or lost by {action.to_json()}")
        if reloaded is not None:
            _check_replay(state, reloaded, action, at)
    else:
        raise AssertionError(f"{where}: the hand did not end in {max_steps} actions")
    _require(state.to_play is None, f"{where}: to_play is {state.to_play} after the hand ended")
    _require(state.legal_actions() == [], f"{where}: legal actions after the hand ended")
    _check_round_trip(game, state, [], where + " (over)")
    hidden_from_all = _check_views(game, state, players, rng, where + " (over)")
    _check_dealt_out(game, hidden_from_all, where)
    _check_heuristic(game, state, players, where + " (over)")
    _check_score(_guard(where, "score()", state.score), seating, where)
    report.hands += 1


def _guard(at: str, what: str, fn: Any, *args: Any) -> Any:
    """``fn(*args)``; an exception from the game becomes an AssertionError naming the call."""
    try:
        return fn(*args)
    except AssertionError:
        raise
    except Exception as exc:
        raise AssertionError(f"{at}: {what} raised {type(exc).__name__}: {exc}") from None


def _check_options(state: GameState, options: GameOptions, where: str) -> None:
    have = state.export().get("options")
    want = options.model_dump(mode="json")
    _require(have == want, lambda: f"{where}: export()['options'] is {have!r}, not the hand's options "
             f"{want!r}: the export carries the options, so a reloaded hand plays by them")


def _check_legal(state: GameState, at: str) -> list[Action]:
    actions = state.legal_actions()
    _require(bool(actions), f"{at}: no legal action before the hand ended")
    keys = [json.dumps(a.to_json(), sort_keys=True) for a in actions]
    _require(len(set(keys)) == len(keys), f"{at}: an action is listed twice")
    _require(len({a.key for a in actions}) == len(actions), f"{at}: two actions share a key")
    labels: dict[str, str] = {}
    for a, key in zip(actions, keys, strict=True):
        label = a.label
        _require(isinstance(label, str) and bool(label), f"{at}: {key} has no label")
        if label in labels:
            raise AssertionError(f"{at}: two actions share the label {label!r}: "
                                 f"{labels[label]} and {key}; a player must tell them apart")
        labels[label] = key
        _check_json(a.to_json(), f"{at}: action {key}")
        line = _guard(at, f"log_line({key})", state.log_line, a)
        _require(isinstance(line, str) and bool(line), f"{at}: log_line({key}) is {line!r}, not text")
    return actions


def _check_heuristic(game: Game, state: GameState, players: int, at: str) -> None:
    for seat in range(players):
        value = _guard(at, f"heuristic(state, seat {seat})", game.heuristic, state, seat)
        _require(isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value),
                 f"{at}: heuristic(state, seat {seat}) is {value!r}, not a finite number")


def _check_json(data: Any, what: str, path: Path = ()) -> None:
    """Only JSON types: dicts with str keys, lists, str, int, float, bool, None."""
    if isinstance(data, dict):
        for k, v in data.items():
            _require(isinstance(k, str), f"{what} has a {type(k).__name__} key {k!r} at {list(path)}")
            _check_json(v, what, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            _check_json(v, what, path + (i,))
    elif not (data is None or isinstance(data, str | int | float)):
        raise AssertionError(f"{what} holds a {type(data).__name__} at {list(path)}; only JSON "
                             "types (dict with str keys, list, str, int, float, bool, None)")


def _check_round_trip(game: Game, state: GameState, actions: list[Action], at: str) -> GameState:
    data = state.export()
    _check_json(data, f"{at}: export()")
    again = _guard(at, "state_from_json(export())", game.state_from_json, copy.deepcopy(data))
    _require(again.export() == data, lambda: f"{at}: export -> state_from_json -> export differs at "
             f"{first_difference(data, again.export())}")
    have, want = [a.to_json() for a in again.legal_actions()], [a.to_json() for a in actions]
    _require(have == want, lambda: f"{at}: the export leaves out something the rules need: the state "
             f"reloaded from export() has other legal actions ({first_difference(want, have)})")
    for a in actions[:3]:
        _require(game.action_from_json(state, a.to_json()) == a,
                 f"{at}: action_from_json does not give back {a.to_json()}")
    return again


def _check_replay(state: GameState, reloaded: GameState, action: Action, at: str) -> None:
    """The same action on a state reloaded from the export: the same state after."""
    _guard(at, f"apply({action.to_json()}) on the reloaded state", reloaded.apply, action)
    have, want = reloaded.export(), state.export()
    _require(have == want, lambda: f"{at}: the export leaves out something the rules need: after "
             f"{action.to_json()}, the state reloaded from the export differs at "
             f"{first_difference(want, have)}")


def _check_illegal(state: GameState, actions: list[Action], seen: dict, at: str) -> None:
    before = state.export()
    legal = set(actions)
    others = [a for a in seen.values() if a not in legal][:5]
    for bad in [_Bogus(), *others]:
        try:
            state.apply(bad)
        except IllegalAction as exc:
            _require(bool(exc.reason), f"{at}: IllegalAction without a reason")
        except Exception as exc:
            raise AssertionError(
                f"{at}: apply({bad.to_json()}), not a legal action here, raised "
                f"{type(exc).__name__}: {exc}; check that the action is legal first and raise "
                "IllegalAction") from None
        else:
            raise AssertionError(f"{at}: apply accepted {bad.to_json()}, not a legal action")
        if state.export() != before:
            raise AssertionError(
                f"{at}: apply({bad.to_json()}) refused the action but a refused action changed "
                f"the state first, at {first_difference(before, state.export())}; check before "
                "changing anything")


def _check_clone(state: GameState, action: Action, at: str) -> None:
    before = state.export()
    twin = state.clone()
    _require(twin.export() == before, f"{at}: clone() differs from the original")
    twin.apply(action)
    _require(state.export() == before, lambda: f"{at}: applying to a clone changed the original at "
             f"{first_difference(before, state.export())} (a shallow clone shares a list)")


def _check_views(game: Game, state: GameState, players: int, rng: random.Random, at: str) -> set[Path]:
    """Every seat's view and zones; returns the paths hidden from every seat."""
    data = state.export()
    cards = card_multiset(data)
    hidden_from_some: set[Path] = set()
    hidden_from_all: set[Path] | None = None
    for seat in range(players):
        view = _guard(at, f"view({seat})", state.view, seat)
        _check_json(view, f"{at}: view({seat})")
        hidden = _hidden_paths(data, view, f"{at}: view({seat})")
        hidden_from_some.update(hidden)
        hidden_from_all = set(hidden) if hidden_from_all is None else hidden_from_all & set(hidden)
        visible = card_multiset(view)
        _require(visible <= cards, f"{at}: view({seat}) invents cards")
        _check_own_cards(state, seat, visible, at)
        if len(hidden) > 1:
            _check_permuted(game, data, hidden, seat, view, rng, at)
        _check_zones(state, seat, visible, at, view)
        if not state.is_over:
            _check_determinize(state, seat, data, cards, hidden, view, rng, at)
    _check_spectator(state, data, hidden_from_some, at)
    return hidden_from_all or set()


def _check_own_cards(state: GameState, seat: int, visible: Counter, at: str) -> None:
    """A seat sees the cards it plays (its own hand)."""
    if state.to_play != seat:
        return
    played = Counter(c for a in state.legal_actions() for c in set(a.hand_cards))
    hidden = sorted(c for c in played if visible[c] == 0)
    _require(not hidden, f"{at}: view({seat}) hides the seat's own cards: it may play {hidden} "
             "but its view shows them as null")


def _check_permuted(game: Game, data: dict, hidden: list[Path], seat: int, view: dict,
                    rng: random.Random, at: str) -> None:
    """Dealing the hidden cards differently never changes the view."""
    for _ in range(2):
        permuted = _permute(data, hidden, rng)
        try:
            other = game.state_from_json(permuted)
        except (ValueError, CardError):
            other = game.state_from_json(_permute(data, hidden, rng, within=True))
        other_view = other.view(seat)
        if other_view != view:
            raise AssertionError(f"{at}: view({seat}) leaks hidden cards: it changes at "
                                 f"{first_difference(view, other_view)} when the hidden cards are "
                                 "dealt differently")


def _check_determinize(state: GameState, seat: int, data: dict, cards: Counter, hidden: list[Path],
                       view: dict, rng: random.Random, at: str) -> None:
    sample = _guard(at, f"determinize({seat})", state.determinize, seat, random.Random(rng.random()))
    sample_data = sample.export()
    sample_cards = card_multiset(sample_data)
    _require(sample_cards == cards,
             f"{at}: determinize({seat}) changed the cards: {_card_change(cards, sample_cards)}")
    if seat == state.to_play:  # a seat knows its own legal actions: a sample keeps them
        _require([a.key for a in sample.legal_actions()] == [a.key for a in state.legal_actions()],
                 f"{at}: determinize({seat}) changed the legal actions of the seat to play")
    sample_view = sample.view(seat)
    if sample_view == view:
        return
    secret = set(hidden)
    if _same_outside(data, sample_data, secret):  # only hidden cards moved: the view reads them
        raise AssertionError(f"{at}: view({seat}) leaks hidden cards: it changes at "
                             f"{first_difference(view, sample_view)} when they are dealt again")
    moved = [p for p, v in _leaves(data) if p not in secret and _is_card(v)
             and _get(sample_data, p) != v]
    table = Counter(c for z in state.zones(seat) for c in [*z.cards, *(c for g in z.groups for c in g.cards)])
    if moved and not any(table[_get(data, p)] for p in moved):
        raise AssertionError(
            f"{at}: view({seat}) leaks hidden cards at {'/'.join(map(str, moved[0]))} and "
            f"{len(moved) - 1} more: determinize({seat}) deals them again and the table does not "
            "show them, yet the view does (hide the stock and the other hands)")
    raise AssertionError(f"{at}: determinize({seat}) disagrees with the view at "
                         f"{first_difference(view, sample_view)}: it may change only hidden cards")


def _card_change(before: Counter, after: Counter) -> str:
    lost, made = before - after, after - before
    return f"lost {sorted(lost.elements())}, made {sorted(made.elements())}"


def _same_outside(a: Any, b: Any, hidden: set[Path], path: Path = ()) -> bool:
    """``a`` and ``b`` agree everywhere but at the ``hidden`` paths."""
    if path in hidden:
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_outside(a[k], b[k], hidden, path + (k,)) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_outside(x, y, hidden, path + (i,))
                                        for i, (x, y) in enumerate(zip(a, b, strict=True)))
    return bool(a == b)


def _check_determinize_deals(state: GameState, unchecked: set[int], at: str, samples: int = 20) -> None:
    """With two different hidden cards in two places, some of ``samples`` determinized
    states deal them differently: determinize must not give back the truth."""
    data = state.export()
    for seat in sorted(unchecked):
        hidden = _hidden_paths(data, state.view(seat), at)
        places = {p[:-1] for p in hidden}
        if len(places) < 2 or len({_get(data, p) for p in hidden}) < 2:
            continue
        unchecked.discard(seat)
        truth = [_get(data, p) for p in hidden]
        for i in range(samples):
            sample = state.determinize(seat, random.Random(f"determinize:{i}")).export()
            if [_get(sample, p) for p in hidden] != truth:
                break
        else:
            raise AssertionError(f"{at}: determinize({seat}) gave back the true hidden cards in "
                                 f"{samples} samples of {len(hidden)} hidden cards: it must deal "
                                 "them again at random")


def _check_zones(state: GameState, seat: int, visible: Counter, at: str, view: dict) -> None:
    zones = _guard(at, f"zones({seat})", state.zones, seat)
    _require(bool(zones), f"{at}: zones({seat}) is empty")
    shown = Counter(c for z in zones for c in z.cards if c is not None)
    shown += Counter(c for z in zones for g in z.groups for c in g.cards)
    _require(shown <= visible, lambda: f"{at}: zones({seat}) show cards the view hides: "
             f"{sorted((shown - visible).elements())[:5]} (build zones from the view)")
    for z in zones:  # the view shows them: it leaks
        face_up = Counter(c for c in z.cards if c is not None)
        if z.kind == "hand" and z.seat is not None and z.seat != seat and face_up - known_in(view, z.seat):
            raise AssertionError(f"{at}: view({seat}) leaks seat {z.seat}'s hand: zone {z.id!r} "
                                 "shows its cards face up (other seats' hands are hidden)")


def _check_dealt_out(game: Game, hidden_from_all: set[Path], where: str) -> None:
    if not getattr(game, "deck_dealt_out", False) or not hidden_from_all:
        return
    at = sorted(hidden_from_all)[0]
    raise AssertionError(
        f"{where}: the hand ended with {len(hidden_from_all)} cards never dealt (hidden from every "
        f"seat, e.g. at {'/'.join(map(str, at))}), but {type(game).__name__}.deck_dealt_out says "
        "every card is dealt by the end of a hand")


def _check_spectator(state: GameState, data: dict, hidden_from_some: set[Path], at: str) -> None:
    """The spectator, ``view(None)``, knows what every seat knows and nothing more."""
    view = _guard(at, "view(None)", state.view, None)
    _check_json(view, f"{at}: view(None)")
    hidden = set(_hidden_paths(data, view, f"{at}: view(None)"))
    shown = sorted(hidden_from_some - hidden)
    _require(not shown, f"{at}: view(None) shows cards a seat cannot see, e.g. at {shown[:1]}")
    extra = sorted(hidden - hidden_from_some)
    _require(not extra, f"{at}: view(None) hides cards every seat can see, e.g. at {extra[:1]}")


def _hidden_paths(data: Any, view: Any, what: str) -> list[Path]:
    """Paths where the export has a card and the view has null (same shape required)."""
    hidden: list[Path] = []

    def walk(d: Any, v: Any, path: Path) -> None:
        where = _Where(path)
        if isinstance(d, dict):
            _require(isinstance(v, dict) and v.keys() == d.keys(),
                     lambda: f"{what} has not the export's keys at {where or 'the top'}")
            for k in d:
                if k not in ("options", "known"):  # known: marks, not cards
                    walk(d[k], v[k], path + (k,))
        elif isinstance(d, list):
            _require(isinstance(v, list) and len(v) == len(d),
                     lambda: f"{what} at {where} is {short_json(v)} where the export has a list of {len(d)}: "
                     "a view hides each card as null and keeps the list's length")
            for i, (dd, vv) in enumerate(zip(d, v, strict=True)):
                walk(dd, vv, path + (i,))
        elif v is None and isinstance(d, str) and _is_card(d):
            hidden.append(path)
        else:
            _require(v == d, lambda: f"{what} differs from export at {where} but is not null")

    walk(data, view, ())
    return hidden


class _Where:
    """A path shown as ``a/0/b``, joined only when a message is built."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __format__(self, spec: str) -> str:
        return "/".join(map(str, self.path))

    def __bool__(self) -> bool:
        return bool(self.path)


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


def _check_score(score: ScoreRow | Any, seating: Seating, where: str) -> None:
    _check_json(score, f"{where}: score()")
    sides = seating.sides
    _require(len(score["sides"]) == sides, f"{where}: score() has {len(score['sides'])} sides, "
             f"the table {sides}")
    for i, side in enumerate(score["sides"]):
        want = seating.seats_of(i)
        _require(side.get("seats") == want, f"{where}: score() side {i} names seats "
                 f"{side.get('seats')}; the seating's side {i} is seats {want}")
        items = side["items"]
        _require(all(isinstance(v, int) for v in items.values()), f"{where}: non-integer item")
        _require(side["total"] == sum(items.values()),
                 f"{where}: total {side['total']} is not the sum of {items}")


def _check_match(game: Game, players: int, seed: int, max_hands: int, target: int | None,
                 report: Report) -> None:
    from cardcore.engine.bots import RandomBot

    default = game.Options().target
    options = game.Options(target=target or max(1, default // 10))
    events: list[MatchEvent] = []
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
    kinds = [e.event for e in events]
    _require(kinds[0] == "match_start" and kinds[-1] == "match_end", f"{where}: events {kinds[:3]}")
    _require(kinds.count("hand_end") == len(match.sheet.hands), f"{where}: hand_end events")
    _check_extras(game, options, match.sheet.hands, where)
    report.matches += 1
    report.hands += len(match.sheet.hands)
    report.decisions += match.decisions


def _check_extras(game: Game, options: GameOptions, rows: list[ScoreRow], where: str) -> None:
    """Each of the game's score extras reads every row it scored (for every side) as an
    int, a str, a list of str or None."""
    for extra in game.score_extras(options):
        for h, row in enumerate(rows):
            for side in range(len(row["sides"])):
                try:
                    value = extra.read(row, side)
                except Exception as exc:
                    raise AssertionError(f"{where}: score extra {extra.key!r} cannot read hand {h + 1}, "
                                         f"side {side}: {type(exc).__name__}: {exc}") from None
                ok = value is None or isinstance(value, int | str) or (
                    isinstance(value, list) and all(isinstance(v, str) for v in value))
                if not ok:
                    raise AssertionError(f"{where}: score extra {extra.key!r} read {value!r} "
                                         "(an int, a str, a list of str or None)")


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
            if k not in ("options", "known"):  # known: marks of cards counted in place
                yield from _leaves(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _leaves(v, path + (i,))
    else:
        yield path, data


_CARDS = frozenset(deck(jokers=1))


def _is_card(text: str) -> bool:
    return text in _CARDS


def _get(data: Any, path: Path) -> Any:
    for p in path:
        data = data[p]
    return data


def _set(data: Any, path: Path, value: Any) -> None:
    _get(data, path[:-1])[path[-1]] = value


def _require(ok: bool, message: str | Callable[[], str]) -> None:
    """AssertionError(message) unless ``ok``; a costly message is a lambda, built on failure."""
    if not ok:
        raise AssertionError(message if isinstance(message, str) else message())
