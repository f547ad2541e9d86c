"""check_game's checks of hidden information: views (each seat's and the spectator's), the
zones, ``determinize`` (the view kept, the truth never given back, a stock's order changed),
and labels and log lines that name only what their readers may see."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from cardcore.engine.cards import CardError
from cardcore.engine.checking import Path, apply_legal, card_change, card_multiset, check_json, guard, require
from cardcore.engine.fuzz import at_path as _get
from cardcore.engine.fuzz import first_difference, is_card, leaves, short_json
from cardcore.engine.game import Action, Game, GameState
from cardcore.engine.kit import known


def check_views(game: Game, state: GameState, players: int, rng: random.Random, at: str,
                action: Action | None = None) -> set[Path]:
    """Every seat's view and zones (and, before ``action``, determinize); returns the paths
    hidden from every seat."""
    data = state.export()
    cards = card_multiset(data)
    hidden_from_some: set[Path] = set()
    hidden_from_all: set[Path] | None = None
    for seat in range(players):
        view = guard(at, f"view({seat})", state.view, seat)
        check_json(view, f"{at}: view({seat})")
        hidden = hidden_paths(data, view, f"{at}: view({seat})")
        hidden_from_some.update(hidden)
        hidden_from_all = set(hidden) if hidden_from_all is None else hidden_from_all & set(hidden)
        visible = card_multiset(view)
        require(visible <= cards, f"{at}: view({seat}) invents cards")
        _check_own_cards(state, seat, visible, at)
        if len(hidden) > 1:
            _check_permuted(game, data, hidden, seat, view, rng, at)
        _check_zones(state, seat, visible, at, view)
        if action is not None:
            _check_determinize(state, seat, data, cards, hidden, view, rng, at, action)
    _check_spectator(state, data, hidden_from_some, at)
    return hidden_from_all or set()


def _check_own_cards(state: GameState, seat: int, visible: Counter, at: str) -> None:
    """A seat sees the cards it plays (its own hand)."""
    if state.to_play != seat:
        return
    played = Counter(c for a in state.legal_actions() for c in set(a.hand_cards))
    hidden = sorted(c for c in played if visible[c] == 0)
    require(not hidden, f"{at}: view({seat}) hides the seat's own cards: it may play {hidden} "
             "but its view shows them as null")


def _check_permuted(game: Game, data: dict, hidden: list[Path], seat: int, view: dict,
                    rng: random.Random, at: str) -> None:
    """Dealing the hidden cards differently never changes the view."""
    for _ in range(2):
        permuted = permute(data, hidden, rng)
        try:
            other = game.state_from_json(permuted)
        except (ValueError, CardError):  # the rules refuse that deal (a red three in a hand)
            other = guard(at, f"state_from_json of the export with the cards view({seat}) hides "
                           "shuffled within their places", game.state_from_json,
                           permute(data, hidden, rng, within=True))
        other_view = guard(at, f"view({seat}) of the export with its hidden cards shuffled",
                            other.view, seat)
        if other_view != view:
            raise AssertionError(f"{at}: view({seat}) leaks hidden cards: it changes at "
                                 f"{first_difference(view, other_view)} when the hidden cards are "
                                 "dealt differently")


def _check_determinize(state: GameState, seat: int, data: dict, cards: Counter, hidden: list[Path],
                       view: dict, rng: random.Random, at: str, action: Action) -> None:
    sample = guard(at, f"determinize({seat})", state.determinize, seat, random.Random(rng.random()))
    sample_data = sample.export()
    sample_cards = card_multiset(sample_data)
    require(sample_cards == cards,
             f"{at}: determinize({seat}) changed the cards: {card_change(cards, sample_cards)}")
    sample_view = sample.view(seat)
    if sample_view != view:
        _disagrees(state, seat, data, sample_data, hidden, view, sample_view, at)
    theirs = {a.key: a for a in sample.legal_actions()}
    if seat == state.to_play:  # a seat knows its own legal actions: a sample keeps them
        require(list(theirs) == [a.key for a in state.legal_actions()],
                 f"{at}: determinize({seat}) changed the legal actions of the seat to play")
        _check_labels(state, theirs, seat, at)
    if action.key in theirs:
        _check_log_line(state, sample, action, theirs[action.key], seat, at)


def _disagrees(state: GameState, seat: int, data: dict, sample_data: dict, hidden: list[Path],
               view: dict, sample_view: dict, at: str) -> None:
    """The sample's view is not the view: say why (always raises)."""
    secret = set(hidden)
    if _same_outside(data, sample_data, secret):  # only hidden cards moved: the view reads them
        raise AssertionError(f"{at}: view({seat}) leaks hidden cards: it changes at "
                             f"{first_difference(view, sample_view)} when they are dealt again")
    moved = [p for p, v in leaves(data) if p not in secret and is_card(v)
             and _get(sample_data, p) != v]
    table = Counter(c for z in state.zones(seat) for c in [*z.cards, *(c for g in z.groups for c in g.cards)])
    if moved and not any(table[_get(data, p)] for p in moved):
        raise AssertionError(
            f"{at}: view({seat}) leaks hidden cards at {'/'.join(map(str, moved[0]))} and "
            f"{len(moved) - 1} more: determinize({seat}) deals them again and the table does not "
            "show them, yet the view does (hide the stock and the other hands)")
    raise AssertionError(f"{at}: determinize({seat}) disagrees with the view at "
                         f"{first_difference(view, sample_view)}: it may change only hidden cards")


def _check_labels(state: GameState, theirs: dict[tuple, Action], seat: int, at: str) -> None:
    """The mover's labels name only what the mover sees: a sample keeps them."""
    for a in state.legal_actions():
        other = theirs[a.key].label
        if other != a.label:
            raise AssertionError(
                f"{at}: the label of {a.to_json()} changes when the cards seat {seat} cannot see "
                f"are dealt again ({a.label!r}, then {other!r}): a label names only what the "
                "seat to play can see")


def _check_log_line(state: GameState, sample: GameState, action: Action, same: Action, seat: int,
                    at: str) -> None:
    """The log line says public information only: the cards ``seat`` cannot see dealt again,
    it stays, unless the action shows everyone a card that differs (a red three drawn is
    laid out)."""
    line = state.log_line(action)
    again = guard(at, f"log_line({action.to_json()}) on determinize({seat})", sample.log_line, same)
    if again == line:
        return
    after = guard(at, "clone()", state.clone)
    apply_legal(after, action, at, " on a clone")
    apply_legal(sample, same, at, f" on determinize({seat})")
    if after.view(None) == sample.view(None):
        raise AssertionError(
            f"{at}: log_line({action.to_json()}) changes when the cards seat {seat} cannot see are "
            f"dealt again ({line!r}, then {again!r}): every seat reads the log, so it says public "
            "information only (\"draws a card\", never which)")


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


def check_determinize_deals(state: GameState, players: int, dealt: set[tuple[int, Path | None]],
                            hidden_from_all: set[Path], at: str, samples: int = 20) -> None:
    """Determinize must not give back the truth: with two different hidden cards in two places,
    some of ``samples`` determinized states deal them differently; and each place hidden from
    every seat (a stock) with two different cards comes in another order in some of them
    (reordering a hand is not enough). Each (seat, place) once a hand."""
    data = state.export()
    stocks: dict[Path, list[Path]] = {}
    for p in sorted(hidden_from_all):
        stocks.setdefault(p[:-1], []).append(p)
    for seat in range(players):
        checks: dict[Path | None, list[Path]] = {}
        if (seat, None) not in dealt:
            hidden = hidden_paths(data, state.view(seat), at)
            if len({p[:-1] for p in hidden}) > 1 and len({_get(data, p) for p in hidden}) > 1:
                checks[None] = hidden
        for place, paths in stocks.items():
            if (seat, place) not in dealt and len({_get(data, p) for p in paths}) > 1:
                checks[place] = paths
        if checks:
            dealt.update((seat, k) for k in checks)
            _try_deals(state, seat, data, checks, at, samples)


def _try_deals(state: GameState, seat: int, data: dict, checks: dict[Path | None, list[Path]],
               at: str, samples: int) -> None:
    truth = {k: [_get(data, p) for p in paths] for k, paths in checks.items()}
    same = set(checks)
    for i in range(samples):
        sample = guard(at, f"determinize({seat})", state.determinize, seat,
                        random.Random(f"determinize:{i}")).export()
        same = {k for k in same if [_get(sample, p) for p in checks[k]] == truth[k]}
        if not same:
            return
    if None in same:
        raise AssertionError(f"{at}: determinize({seat}) gave back the true hidden cards in "
                             f"{samples} samples of {len(checks[None])} hidden cards: it must deal "
                             "them again at random")
    place = sorted(same, key=str)[0]
    assert place is not None
    raise AssertionError(
        f"{at}: determinize({seat}) kept the true order of {'/'.join(map(str, place))} (hidden from "
        f"every seat) in {samples} samples: it must deal the hidden cards again at random, the "
        "stock's order too (reordering a hand is not enough)")


def _check_zones(state: GameState, seat: int, visible: Counter, at: str, view: dict) -> None:
    zones = guard(at, f"zones({seat})", state.zones, seat)
    require(bool(zones), f"{at}: zones({seat}) is empty")
    shown = Counter(c for z in zones for c in z.cards if c is not None)
    shown += Counter(c for z in zones for g in z.groups for c in g.cards)
    require(shown <= visible, lambda: f"{at}: zones({seat}) show cards the view hides: "
             f"{sorted((shown - visible).elements())[:5]} (build zones from the view)")
    for z in zones:  # the view shows them: it leaks
        face_up = Counter(c for c in z.cards if c is not None)
        if z.kind == "hand" and z.seat is not None and z.seat != seat and \
                face_up - known.known_in(view, z.seat):
            raise AssertionError(f"{at}: view({seat}) leaks seat {z.seat}'s hand: zone {z.id!r} "
                                 "shows its cards face up (other seats' hands are hidden)")


def _check_spectator(state: GameState, data: dict, hidden_from_some: set[Path], at: str) -> None:
    """The spectator, ``view(None)``, knows what every seat knows and nothing more."""
    view = guard(at, "view(None)", state.view, None)
    check_json(view, f"{at}: view(None)")
    hidden = set(hidden_paths(data, view, f"{at}: view(None)"))
    shown = sorted(hidden_from_some - hidden)
    require(not shown, f"{at}: view(None) shows cards a seat cannot see, e.g. at {shown[:1]}")
    extra = sorted(hidden - hidden_from_some)
    require(not extra, f"{at}: view(None) hides cards every seat can see, e.g. at {extra[:1]}")


def hidden_paths(data: Any, view: Any, what: str) -> list[Path]:
    """Paths where the export has a card and the view has null (same shape required)."""
    hidden: list[Path] = []

    def walk(d: Any, v: Any, path: Path) -> None:
        where = _Where(path)
        if isinstance(d, dict):
            require(isinstance(v, dict) and v.keys() == d.keys(),
                     lambda: f"{what} has not the export's keys at {where or 'the top'}")
            for k in d:
                if k not in known.NOT_CARDS:
                    walk(d[k], v[k], path + (k,))
        elif isinstance(d, list):
            require(isinstance(v, list) and len(v) == len(d),
                     lambda: f"{what} at {where} is {short_json(v)} where the export has a list of {len(d)}: "
                     "a view hides each card as null and keeps the list's length")
            for i, (dd, vv) in enumerate(zip(d, v, strict=True)):
                walk(dd, vv, path + (i,))
        elif v is None and isinstance(d, str) and is_card(d):
            hidden.append(path)
        else:
            require(v == d, lambda: f"{what} differs from export at {where} but is not null")

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


def permute(data: Any, paths: list[Path], rng: random.Random, within: bool = False) -> Any:
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


def _set(data: Any, path: Path, value: Any) -> None:
    _get(data, path[:-1])[path[-1]] = value
