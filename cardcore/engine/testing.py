"""check_game: the conformance kit any game plugin runs in its tests.

Seeded random playouts of whole hands and of short whole matches, for every
allowed player count, asserting after every action:

- every card is accounted for (the export's cards are the same multiset);
- ``legal_actions()`` is never empty before the hand ends (no dead end), lists no action
  twice, each action's ``hand_cards`` are in the mover's hand, and an action not in it
  raises IllegalAction and leaves ``export()`` identical; a legal action applies (on the
  state, a clone and a reloaded state) without raising;
- ``clone()`` is independent of the original;
- ``export()`` -> ``state_from_json()`` round-trips exactly (legal actions too), strictly
  where the game's loading takes ``strict`` (so no card is unaccounted for, from the deal
  to the hand's end);
- ``view(seat)`` reveals nothing: permuting the cards at the positions the view
  nulls and reloading gives the same view; ``determinize`` agrees with the view;
- ``view(None)``, the spectator's, hides exactly the cards some seat cannot see;
- every hand ends (a position that comes back through forced actions only is a loop);
  ``score()`` is JSON with each side's ``total`` the sum of its items and each side's
  ``seats`` the seating's;
- the export holds only JSON types and the hand's options; the same actions replayed on
  a state reloaded from the export give the same states (nothing the rules need is
  left out); ``determinize`` deals the hidden cards again (it never gives back the truth,
  and every place hidden from every seat, a stock, comes in another order);
- a seat sees the cards it plays; two actions never share a label; ``heuristic`` (every
  seat, every step) and ``log_line`` (every legal action) answer without raising; labels
  and the log line stay the same when the cards a seat cannot see are dealt again (the log
  says public information only);
- an action that is not legal raises IllegalAction (no other exception) and changes
  nothing; a game with ``deck_dealt_out`` ends no hand with a card never dealt;
- every Options field is also played at a value other than its default;
- hostile input (``cardcore.engine.fuzz``, with hypothesis): forged actions raise IllegalAction
  and change nothing; mutated exports load or raise StateError, nothing else; a strict load
  of an export with one card taken out or put in twice, or one field left out, raises
  StateError (a few positions a hand).

Every failure is an AssertionError whose message starts with where: the game, players,
seed, step and the action about to be played (``crazy_eights players=2 seed=0 step=5
action={"type": "draw"}: ...``); an exception the game raises inside a check becomes one
too, naming the game's line and the check.
"""

from __future__ import annotations

import contextlib
import copy
import enum
import json
import math
import random
import traceback
import typing
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pydantic

from cardcore.engine.bots.play import play_bots
from cardcore.engine.checking import Path, apply_legal, card_change, card_multiset, check_json, guard, require
from cardcore.engine.fuzz import (
    NON_ACTIONS,
    check_forged_actions,
    check_strict_loading,
    first_difference,
    fuzz_loading,
)
from cardcore.engine.game import (
    Action,
    Game,
    GameOptions,
    GameState,
    IllegalAction,
    ScoreRow,
    _knows_strict,
    load_state,
)
from cardcore.engine.hiding import check_determinize_deals, check_views
from cardcore.engine.journal import MatchEvent
from cardcore.engine.kit.state import CardGame
from cardcore.engine.match import Match
from cardcore.engine.seating import Seating


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
    _check_search_settings(game)
    report = Report()
    seeds = list(seeds)
    counts = list(player_counts or game.player_counts)
    here = _Here()
    with _no_escape(here):
        for players in counts:
            for seed in seeds:
                _check_hand(game, players, seed, max_steps, deep_every, report, here, options)
            for seed in seeds[:3]:
                _check_match(game, players, seed, max_hands, match_target, report, here, max_steps)
        for i, variant in enumerate(option_variants(game.Options) if variants else []):
            _check_hand(game, counts[i % len(counts)], seeds[i % len(seeds)], max_steps, deep_every,
                        report, here, variant)
    return report


def _check_search_settings(game: Game) -> None:
    """Each level ``Game.search_settings`` tunes is a built-in search level, and each of its
    settings one that level lets change, with a value a variant could give it."""
    from cardcore.engine.bots.builtin import LEVELS
    from cardcore.engine.bots.variant import VariantError, check_settings

    levels = {bot.id: bot for bot in LEVELS}
    for level, settings in game.search_settings.items():
        if level not in levels or not levels[level].tunable:
            raise AssertionError(f"{game.id}: search_settings: {level!r} is not a search level")
        try:
            check_settings(levels[level], settings)
        except VariantError as e:
            raise AssertionError(f"{game.id}: search_settings[{level!r}]: {e}") from None


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


class _Here:
    """Where the checker is: game, players, seed, step and action, the start of every failure."""

    at = ""


@contextlib.contextmanager
def _no_escape(here: _Here) -> Iterator[None]:
    """Any exception but AssertionError from inside the checks (the game's code raising where
    no check expected it) becomes an AssertionError naming where the checker was."""
    try:
        yield
    except AssertionError:
        raise
    except Exception as exc:
        raise AssertionError(f"{here.at}: {type(exc).__name__}: {exc}, raised {_raised_in(exc)}"
                             ) from exc


#: The checker's own modules.
CHECKER = ("engine/testing.py", "engine/hiding.py", "engine/checking.py", "engine/fuzz.py")


def _raised_in(exc: Exception) -> str:
    """``in game.py:12 apply, while check_game ran _check_clone``: the innermost frame, and
    the innermost of the checker's own."""
    frames = traceback.extract_tb(exc.__traceback__)
    last = frames[-1]
    mine = [f.name for f in frames if f.filename.endswith(CHECKER)]
    return (f"in {last.filename.rsplit('/', 1)[-1]}:{last.lineno} {last.name}"
            + (f", while check_game ran {mine[-1]}" if mine else ""))


#: The steps of each hand whose export is also loaded with one card off and one field left out
#: (and the finished hand): a few per hand keep check_game quick.
STRICT_STEPS = frozenset({0, 12})
#: The steps of a hand (seeds 0 and 1, default options) given hostile input.
FUZZ_STEPS = frozenset({0, 7})


@dataclass
class _Loop:
    """A position that comes back with only forced actions between is a hand that never ends:
    the positions since the last step with a choice, and the labels of the forced actions."""

    positions: dict[str, int] = field(default_factory=dict)
    labels: list[str] = field(default_factory=list)

    def check(self, state: GameState, actions: list[Action], step: int, at: str) -> None:
        if len(actions) > 1:
            self.positions.clear()
            self.labels.clear()
            return
        position = repr(state.export())
        first = self.positions.get(position)
        if first is not None:
            labels = self.labels[first:]
            raise AssertionError(
                f"{at}: the hand never ends: the position of step {step - len(labels)} is back at "
                f"step {step}, with one legal action at each step since ({', '.join(labels)}): a "
                "loop no choice can leave (a rule that ends the hand or deals again is missing?)")
        self.positions[position] = len(self.labels)
        self.labels.append(actions[0].label)


@dataclass
class _Run:
    """One hand under check: what its steps share."""

    game: Game
    players: int
    seed: int
    where: str
    deep_every: int
    fuzz: bool
    here: _Here
    rng: random.Random
    cards: Counter = field(default_factory=Counter)
    seen: dict[tuple, Action] = field(default_factory=dict)
    #: (seat, place) whose determinize was tried on many seeds (place None: any hidden card).
    dealt: set[tuple[int, Path | None]] = field(default_factory=set)
    loop: _Loop = field(default_factory=lambda: _Loop())


def _check_hand(game: Game, players: int, seed: int, max_steps: int, deep_every: int,
                report: Report, here: _Here, options: GameOptions | None = None) -> None:
    options = options if options is not None else game.Options()
    where = f"{game.id} players={players} seed={seed}"
    if options != game.Options():
        where += f" options={options.model_dump(mode='json', exclude_defaults=True)}"
    here.at = f"{where} step=0 action=none (the deal)"
    seating = game.seating(players, options, dealer=seed % players)
    run = _Run(game, players, seed, where, deep_every, seed < 2 and options == game.Options(), here,
               random.Random(f"check:{seed}"))
    state = guard(here.at, "new_hand", game.new_hand, seating, options, random.Random(f"{seed}:1"),
                   [0] * seating.sides)
    run.cards = card_multiset(state.export())
    require(sum(run.cards.values()) > 0, f"{here.at}: the export names no card")
    _check_options(state, options, here.at)
    last = "none"
    for step in range(max_steps):
        if state.is_over:
            break
        last = _check_step(run, state, step)
        report.decisions += 1
    else:
        raise AssertionError(f"{where} step={max_steps} action={last}: the hand did not end in "
                             f"{max_steps} actions")
    here.at = at = f"{where} step={step} action=none (the hand is over, after {last})"
    require(state.to_play is None, f"{at}: to_play is {state.to_play} after the hand ended")
    require(state.legal_actions() == [], f"{at}: legal actions after the hand ended")
    _check_round_trip(game, state, [], at)
    hidden_from_all = check_views(game, state, players, run.rng, at)
    if _knows_strict(game):
        check_strict_loading(game, state, random.Random(f"strict:{seed}:over"), at)
    _check_dealt_out(game, hidden_from_all, at)
    _check_heuristic(game, state, players, at)
    _check_score(game, guard(at, "score()", state.score), seating, at)
    report.hands += 1


def _check_step(run: _Run, state: GameState, step: int) -> str:
    """Check the position, then play one of its legal actions; returns the action's JSON."""
    game, at = run.game, f"{run.where} step={step} action=none"
    run.here.at = at
    actions = guard(at, "legal_actions()", state.legal_actions)
    require(bool(actions), lambda: f"{at}: no legal action before the hand ended (to_play is "
             f"{state.to_play}): a dead end; the seat to play always has a move (a draw, a pass), "
             "or the hand is over (to_play None)")
    action = actions[run.rng.randrange(len(actions))]
    text = json.dumps(guard(at, "to_json()", action.to_json), default=repr)
    run.here.at = at = f"{run.where} step={step} action={text}"
    _check_legal(state, actions, at)
    _check_hand_cards(state, actions, at)
    run.loop.check(state, actions, step, at)
    for a in actions:
        run.seen.setdefault(a.key, a)
    _check_heuristic(game, state, run.players, at)
    reloaded = None
    if step % run.deep_every == 0:
        _check_clone(state, action, at)
        reloaded = _check_round_trip(game, state, actions, at)
        _check_illegal(state, actions, run.seen, at)
        hidden_from_all = check_views(game, state, run.players, run.rng, at, action)
        check_determinize_deals(state, run.players, run.dealt, hidden_from_all, at)
    if step in STRICT_STEPS and _knows_strict(game):
        check_strict_loading(game, state, random.Random(f"strict:{run.seed}:{step}"), at)
    if run.fuzz and step in FUZZ_STEPS:
        check_forged_actions(state, at)
        fuzz_loading(game, state, at)
    apply_legal(state, action, at)
    require(card_multiset(state.export()) == run.cards,
             lambda: f"{at}: cards created or lost by {action.to_json()}: "
             f"{card_change(run.cards, card_multiset(state.export()))}")
    if reloaded is not None:
        _check_replay(state, reloaded, action, at)
    return text


def _check_hand_cards(state: GameState, actions: list[Action], at: str) -> None:
    """Each legal action's ``hand_cards`` are in the mover's hand (its ``hand`` zone). Zones
    that raise or show the mover's own hand face down are left to the views' checks, which
    name that mistake."""
    playing = [a for a in actions if a.hand_cards]
    if not playing:
        return
    seat = state.to_play
    try:
        zones = state.zones(seat)
    except Exception:
        return
    shown = [c for z in zones if z.kind == "hand" and z.seat == seat for c in z.cards]
    hand = Counter(c for c in shown if c is not None)
    if len(shown) > sum(hand.values()):
        return
    for a in playing:
        missing = Counter(a.hand_cards) - hand
        if missing:
            raise AssertionError(
                f"{at}: the legal action {a.to_json()} plays {sorted(missing.elements())}, not in "
                f"seat {seat}'s hand ({' '.join(sorted(hand.elements())) or 'empty'}): an action's "
                "hand_cards are cards of the mover's own hand")


def _check_options(state: GameState, options: GameOptions, where: str) -> None:
    have = state.export().get("options")
    want = options.model_dump(mode="json")
    require(have == want, lambda: f"{where}: export()['options'] is {have!r}, not the hand's options "
             f"{want!r}: the export carries the options, so a reloaded hand plays by them")


def _check_legal(state: GameState, actions: list[Action], at: str) -> None:
    keys = [json.dumps(a.to_json(), sort_keys=True) for a in actions]
    require(len(set(keys)) == len(keys), f"{at}: an action is listed twice")
    require(len({a.key for a in actions}) == len(actions), f"{at}: two actions share a key")
    labels: dict[str, str] = {}
    for a, key in zip(actions, keys, strict=True):
        label = a.label
        require(isinstance(label, str) and bool(label), f"{at}: {key} has no label")
        if label in labels:
            raise AssertionError(f"{at}: two actions share the label {label!r}: "
                                 f"{labels[label]} and {key}; a player must tell them apart")
        labels[label] = key
        check_json(a.to_json(), f"{at}: action {key}")
        line = guard(at, f"log_line({key})", state.log_line, a)
        require(isinstance(line, str) and bool(line), f"{at}: log_line({key}) is {line!r}, not text")


def _check_heuristic(game: Game, state: GameState, players: int, at: str) -> None:
    for seat in range(players):
        value = guard(at, f"heuristic(state, seat {seat})", game.heuristic, state, seat)
        require(isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value),
                 f"{at}: heuristic(state, seat {seat}) is {value!r}, not a finite number")


def _check_round_trip(game: Game, state: GameState, actions: list[Action], at: str) -> GameState:
    data = state.export()
    check_json(data, f"{at}: export()")
    again = _load_export(game, data, at)
    require(again.export() == data, lambda: f"{at}: export -> state_from_json -> export differs at "
             f"{first_difference(data, again.export())}")
    have, want = [a.to_json() for a in again.legal_actions()], [a.to_json() for a in actions]
    require(have == want, lambda: f"{at}: the export leaves out something the rules need: the state "
             f"reloaded from export() has other legal actions ({first_difference(want, have)})")
    for a in actions[:3]:
        require(game.action_from_json(state, a.to_json()) == a,
                 f"{at}: action_from_json does not give back {a.to_json()}")
    return again


def _load_export(game: Game, data: dict, at: str) -> GameState:
    """The export loaded as files and the network load it: strictly, where the game can."""
    strict = _knows_strict(game)
    try:
        return load_state(game, copy.deepcopy(data), strict=True)
    except AssertionError:
        raise
    except Exception as exc:
        how = "state_from_json(export(), strict=True)" if strict else "state_from_json(export())"
        if "missing (strict loading wants every" in str(exc):
            raise AssertionError(f"{at}: the export leaves out something the rules need: {how} "
                                 f"refused it, {type(exc).__name__}: {exc}") from None
        raise AssertionError(
            f"{at}: {how} refused the export, {type(exc).__name__}: {exc}: everything loaded from a "
            "file or the network loads strictly, so the export of every position must (is a card "
            "unaccounted for, or a counter past its bounds?)") from None


def _check_replay(state: GameState, reloaded: GameState, action: Action, at: str) -> None:
    """The same action on a state reloaded from the export: the same state after."""
    apply_legal(reloaded, action, at, " on the state reloaded from the export")
    have, want = reloaded.export(), state.export()
    require(have == want, lambda: f"{at}: the export leaves out something the rules need: after "
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
            require(bool(exc.reason), f"{at}: IllegalAction without a reason")
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
    twin = guard(at, "clone()", state.clone)
    require(twin.export() == before, f"{at}: clone() differs from the original")
    apply_legal(twin, action, at, " on a clone")
    require(state.export() == before, lambda: f"{at}: applying to a clone changed the original at "
             f"{first_difference(before, state.export())} (a shallow clone shares a list)")


def _check_dealt_out(game: Game, hidden_from_all: set[Path], where: str) -> None:
    if not getattr(game, "deck_dealt_out", False) or not hidden_from_all:
        return
    at = sorted(hidden_from_all)[0]
    raise AssertionError(
        f"{where}: the hand ended with {len(hidden_from_all)} cards never dealt (hidden from every "
        f"seat, e.g. at {'/'.join(map(str, at))}), but {type(game).__name__}.deck_dealt_out says "
        "every card is dealt by the end of a hand")


def _check_score(game: Game, score: ScoreRow | Any, seating: Seating, where: str) -> None:
    check_json(score, f"{where}: score()")
    sides = seating.sides
    require(len(score["sides"]) == sides, f"{where}: score() has {len(score['sides'])} sides, "
             f"the table {sides}")
    for i, side in enumerate(score["sides"]):
        want = seating.seats_of(i)
        require(side.get("seats") == want, f"{where}: score() side {i} names seats "
                 f"{side.get('seats')}; the seating's side {i} is seats {want}")
        items = side["items"]
        require(all(isinstance(v, int) for v in items.values()), f"{where}: non-integer item")
        require(side["total"] == sum(items.values()),
                 f"{where}: total {side['total']} is not the sum of {items}")
    if isinstance(game, CardGame):  # a kit game's match rule may ask more of a row
        fault = game.match_rule.row_fault(score)
        require(fault is None, lambda: f"{where}: score() under {type(game.match_rule).__name__}: {fault}")


def _check_match(game: Game, players: int, seed: int, max_hands: int, target: int | None,
                 report: Report, here: _Here, max_steps: int = 20_000) -> None:
    default = game.Options().target
    options = game.Options(target=target or max(1, default // 10))
    events: list[MatchEvent] = []
    match = Match(game, options, seed=seed, players=players, seats=["random"] * players,
                  max_hands=max_hands, on_event=events.append)
    where = f"{game.id} match players={players} seed={seed}"
    here.at = f"{where} hand=1 step=0 action=none (the deal)"
    match.start()
    _check_non_actions(match, where)
    bot = _NamingBot(match, where, here)
    play_bots(match, dict.fromkeys(range(players), bot), max_decisions=max_hands * max_steps)
    here.at = where
    require(match.over, f"{where}: did not end")
    require(len(match.sheet.hands) <= max_hands, f"{where}: played past the cap")
    require(match.sheet.totals == [sum(r["sides"][i]["total"] for r in match.sheet.hands)
                                    for i in range(match.sheet.sides)], f"{where}: totals")
    if match.winner is not None:
        require(game.match_winner(match.sheet, options) == match.winner, f"{where}: winner")
    kinds = [e.event for e in events]
    require(kinds[0] == "match_start" and kinds[-1] == "match_end", f"{where}: events {kinds[:3]}")
    require(kinds.count("hand_end") == len(match.sheet.hands), f"{where}: hand_end events")
    _check_extras(game, options, match.sheet.hands, where)
    report.matches += 1
    report.hands += len(match.sheet.hands)
    report.decisions += match.decisions


class _NamingBot:
    """A random bot that keeps ``here`` naming the hand, the step and the action it plays."""

    def __init__(self, match: Match, where: str, here: _Here) -> None:
        from cardcore.engine.bots import RandomBot

        self.bot, self.match, self.where, self.here = RandomBot(), match, where, here
        self.loop, self.hand = _Loop(), 0

    def choose(self, info: Any, rng: random.Random) -> Action:
        match = self.match
        action = self.bot.choose(info, rng)
        self.here.at = (f"{self.where} hand={match.hand_no} step={match.decisions} "
                        f"action={json.dumps(action.to_json(), default=repr)}")
        if self.hand != match.hand_no:
            self.loop, self.hand = _Loop(), match.hand_no
        self.loop.check(match.live_state(), match.legal_actions(), match.decisions, self.here.at)
        return action


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
    require(match.snapshot() == before, f"{where}: a refused non-action changed the match")

