"""Hostile input for check_game: forged actions and mutated exports, made with hypothesis.

hypothesis is in the test extra; it is imported only when check_game runs. Every game
must answer a forged action with IllegalAction (state unchanged), and a mutated export
with a state or with StateError naming the field: never TypeError, KeyError,
AttributeError, IndexError or anything else. A strict load (``strict=True``: files and the
network) refuses, with StateError, an export with one card taken out, one card twice or one
field left out (``check_strict_loading``).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

from cardcore.engine.cards import deck
from cardcore.engine.game import Action, Game, GameState, IllegalAction, SimpleAction, StateError, load_state
from cardcore.engine.kit import known

Path = tuple[Any, ...]

#: Values of every JSON type (and a few Python ones) that a mutation drops in.
ODD_VALUES: tuple[Any, ...] = (None, True, False, 0, 1, -1, 1.0, 2.5, 10**20, "", "AS", "x",
                               [], [None], ["AS"], {}, {"a": 1}, [[[]]])


def _paths(data: Any, path: Path = ()) -> list[Path]:
    out = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _paths(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += _paths(value, path + (i,))
    return out


def _mutate(data: Any, path: Path, how: str, value: Any) -> Any:
    """A copy of ``data`` with the node at ``path`` replaced, removed, or wrapped in a list."""
    root = copy.deepcopy(data)
    if not path:
        return value
    parent = root
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == "replace":
        parent[last] = value
    elif how == "wrap":
        parent[last] = [parent[last]]
    elif isinstance(parent, dict):
        del parent[last]
    else:
        parent.pop(last)
    return root


def fuzz_loading(game: Game, state: GameState, at: str, examples: int = 60) -> None:
    """Mutated exports load or raise StateError; nothing else escapes."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    data = state.export()
    paths = _paths(data)
    mutation = st.tuples(st.sampled_from(paths), st.sampled_from(["replace", "remove", "wrap"]),
                         st.sampled_from(ODD_VALUES))

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    @given(mutation)
    def load(m: tuple[Path, str, Any]) -> None:
        path, how, value = m
        mutant = _mutate(data, path, how, value)
        for strict in (False, True):
            try:
                _load(game, mutant, strict)
            except StateError:
                pass
            except Exception as exc:
                raise AssertionError(
                    f"{at}: state_from_json({'strict' if strict else 'partial'}) of the export "
                    f"with {how} at {list(path)} ({value!r}) raised {type(exc).__name__}: {exc}; "
                    "bad data must raise StateError naming the field") from None

    load()


def _load(game: Game, data: Any, strict: bool) -> GameState:
    return load_state(game, data, strict=strict)


class _Odd(Action):
    """An Action subclass whose key collides with nothing a game makes."""

    __slots__ = ("_data",)

    def __init__(self, data: Any):
        self._data = data
        self.key = ("cardcore.engine.fuzz", repr(data))

    def to_json(self) -> dict:
        return {"fuzz": repr(self._data)}

    @property
    def label(self) -> str:
        return "odd"


#: Not actions at all: the match refuses them before any game sees them (``Match.apply``).
NON_ACTIONS: tuple[Any, ...] = (None, 0, 7, "draw", {"type": "draw"}, ["draw"])


def forged_actions(state: GameState) -> list[Action]:
    """Actions no game offers: look-alikes of its own (same JSON keys, wrong values), its own
    JSON in another Action class, and Action subclasses of nobody's."""
    forged: list[Action] = [_Odd(None), _Odd([1])]
    for action in state.legal_actions()[:3]:
        data = action.to_json()
        for key in data:
            for value in (["AS"], None, 12, "ZZ", {"x": 1}):
                twin = dict(data)
                twin[key] = value
                forged.append(SimpleAction(twin, "forged"))
        forged.append(SimpleAction(data, action.label))  # its own JSON, not its own class
    return forged


def check_forged_actions(state: GameState, at: str) -> None:
    """Every forged action raises IllegalAction and leaves the export as it was."""
    before = state.export()
    legal = {repr(sorted(a.to_json().items())) for a in state.legal_actions()}
    for forged in forged_actions(state):
        if repr(sorted(forged.to_json().items())) in legal:
            continue  # a faithful copy of a legal action may be accepted
        try:
            state.apply(forged)
        except IllegalAction:
            pass
        except Exception as exc:
            raise AssertionError(f"{at}: apply({forged.to_json()}) raised {type(exc).__name__}: "
                                 f"{exc}; a forged action must raise IllegalAction") from None
        else:
            raise AssertionError(f"{at}: apply accepted a forged action {forged!r}")
        after = state.export()
        if after != before:
            raise AssertionError(f"{at}: apply({forged.to_json()}) refused the action but a refused "
                                 f"action changed the state first, at {first_difference(before, after)}; "
                                 "check before changing anything")
def first_difference(a: Any, b: Any, path: Path = ()) -> str:
    """Where two exports first differ, and how (``hands/0/2 ("AS" vs "KD")``)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in [*a, *[k for k in b if k not in a]]:
            if a.get(k, _MISSING) != b.get(k, _MISSING):
                return first_difference(a.get(k, _MISSING), b.get(k, _MISSING), path + (k,))
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, path + (i,))
    show = "/".join(map(str, path)) or "the top"
    return f"{show} ({short_json(a)} vs {short_json(b)})"


_MISSING = "<absent>"


def short_json(value: Any) -> str:
    text = json.dumps(value) if value is not _MISSING else str(value)
    return text if len(text) < 60 else text[:57] + "..."




# --- strict loading: the whole deck, every field ----------------------------------------

def check_strict_loading(game: Game, state: GameState, rng: random.Random, at: str) -> None:
    """One card off each list of cards in the export (taken out, then twice) and each field
    left out: a strict load refuses every one with StateError. For games whose
    ``state_from_json`` takes ``strict``."""
    data = state.export()
    for what, mutant in _one_card_off(data, rng):
        _refused(game, mutant, what, "the whole deck, each card as often as the deck has it", at)
    for path, mutant in _one_field_missing(data):
        what = f"without its field {'/'.join(map(str, path))}"
        _refused(game, mutant, what, "every field the export writes", at)


def _refused(game: Game, data: dict, what: str, wants: str, at: str) -> None:
    try:
        _load(game, data, True)
    except StateError:
        return
    except Exception as exc:
        raise AssertionError(
            f"{at}: state_from_json(strict=True) of the export {what} raised "
            f"{type(exc).__name__}: {exc}; bad data must raise StateError naming the field") from None
    raise AssertionError(
        f"{at}: state_from_json(strict=True) accepted the export {what}: strict loading (files, "
        f"the network: hostile input included) wants {wants}, else StateError")


def _one_card_off(data: dict, rng: random.Random) -> Iterator[tuple[str, dict]]:
    """For each list of cards, a copy of the export with one of its cards taken out and one
    with that card put in twice."""
    places: dict[Path, list[int]] = {}
    for path, value in leaves(data):
        if isinstance(path[-1], int) and is_card(value):
            places.setdefault(path[:-1], []).append(path[-1])
    for place, indices in places.items():
        i = rng.choice(indices)
        name = "/".join(map(str, place))
        out, cards = _copy_along(data, place)
        card = cards.pop(i)
        yield f"with {card} taken out of {name}", out
        out, cards = _copy_along(data, place)
        cards.insert(i, card)
        yield f"with {card} twice in {name}", out


def _one_field_missing(data: dict) -> Iterator[tuple[Path, dict]]:
    """For each field (a key of any object in the export, the options' own aside; in a list
    of objects, the first one's), a copy of the export without it."""
    shapes: set[Path] = set()
    for path in _fields(data):
        shape = tuple("*" if isinstance(p, int) else p for p in path)
        if shape not in shapes:
            shapes.add(shape)
            out, parent = _copy_along(data, path[:-1])
            del parent[path[-1]]
            yield path, out


def _copy_along(data: dict, path: Path) -> tuple[dict, Any]:
    """A copy of ``data`` sharing all but the objects and lists on ``path`` (cheaper than a
    deep copy: loading reads its input, never changes it), and the copy's node at ``path``."""
    root = node = copy.copy(data)
    for p in path:
        node[p] = copy.copy(node[p])
        node = node[p]
    return root, node


def _fields(data: Any, path: Path = ()) -> Iterator[Path]:
    if isinstance(data, dict):
        for key, value in data.items():
            if not (path == () and key == known.KEY):  # older saves lack it: nothing known
                yield path + (key,)
            if key != "options":
                yield from _fields(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _fields(value, path + (i,))


def leaves(data: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every value of an export that is neither an object nor a list, with its path
    (options and known-card marks aside)."""
    if isinstance(data, dict):
        for k, v in data.items():
            if k not in known.NOT_CARDS:
                yield from leaves(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from leaves(v, path + (i,))
    else:
        yield path, data


_CARDS = frozenset(deck(jokers=1))


def is_card(value: Any) -> bool:
    """A card in notation (any deck's, jokers too)."""
    return isinstance(value, str) and value in _CARDS


def at_path(data: Any, path: Path) -> Any:
    for p in path:
        data = data[p]
    return data
