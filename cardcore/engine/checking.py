"""What check_game's checks share: a failure as an AssertionError (``require``), a call to the
game whose exception is the game's mistake, named (``guard``, ``apply_legal``), JSON types,
and the cards of an export."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from cardcore.engine.fuzz import is_card, leaves
from cardcore.engine.game import Action, GameState, IllegalAction

Path = tuple[Any, ...]


def card_multiset(data: Any) -> Counter:
    """Every card string anywhere in an export (options and known-card marks excluded)."""
    found: Counter = Counter()
    for _, value in leaves(data):
        if isinstance(value, str) and is_card(value):
            found[value] += 1
    return found


def guard(at: str, what: str, fn: Any, *args: Any) -> Any:
    """``fn(*args)``; an exception from the game becomes an AssertionError naming the call."""
    try:
        return fn(*args)
    except AssertionError:
        raise
    except Exception as exc:
        raise AssertionError(f"{at}: {what} raised {type(exc).__name__}: {exc}") from None


def require(ok: bool, message: str | Callable[[], str]) -> None:
    """AssertionError(message) unless ``ok``; a costly message is a lambda, built on failure."""
    if not ok:
        raise AssertionError(message if isinstance(message, str) else message())


def apply_legal(state: GameState, action: Action, at: str, on: str = "") -> None:
    """``state.apply(action)`` of a legal action; raising is the game's mistake, named."""
    try:
        state.apply(action)
    except AssertionError:
        raise
    except Exception as exc:
        hint = ("; does apply change the state (take the card from the hand) before it checks "
                "that the action is legal?" if isinstance(exc, IllegalAction) else "")
        raise AssertionError(f"{at}: apply({action.to_json()}){on}, a legal action here, raised "
                             f"{type(exc).__name__}: {exc}: a legal action must apply{hint}") from None


def check_json(data: Any, what: str, path: Path = ()) -> None:
    """Only JSON types: dicts with str keys, lists, str, int, float, bool, None."""
    if isinstance(data, dict):
        for k, v in data.items():
            require(isinstance(k, str), f"{what} has a {type(k).__name__} key {k!r} at {list(path)}")
            check_json(v, what, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            check_json(v, what, path + (i,))
    elif not (data is None or isinstance(data, str | int | float)):
        raise AssertionError(f"{what} holds a {type(data).__name__} at {list(path)}; only JSON "
                             "types (dict with str keys, list, str, int, float, bool, None)")


def card_change(before: Counter, after: Counter) -> str:
    lost, made = before - after, after - before
    return f"lost {sorted(lost.elements())}, made {sorted(made.elements())}"
