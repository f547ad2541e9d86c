"""Positions in card notation and legal steps as short strings, for the canasta tests."""

from __future__ import annotations

from cardcore_canasta.game import CanastaGame

GAME = CanastaGame()


def position(**fields):
    """A play-phase position for seat 0 (dealer 3) unless ``fields`` say otherwise."""
    data = {"dealer": 3, "to_play": 0, "phase": "play", "stock": ["4C", "5C", "6C", "8C"],
            "discard": ["9D"]}
    data.update(fields)
    return GAME.state_from_json(data)


def show(action) -> str:
    j = action.to_json()
    t = j["type"]
    if t == "discard":
        return f"discard {j['card']}"
    if t == "meld":
        return "meld " + " | ".join(" ".join(m) for m in j["melds"])
    if t == "add":
        return f"add {j['rank']}: " + " ".join(j["cards"])
    if t == "take_pile":
        if "onto" in j:
            return f"onto {j['onto']}"
        return "take " + " ".join(j["with"]) + "".join(" | " + " ".join(m) for m in j["melds"])
    return t


def steps(state) -> set[str]:
    return {show(a) for a in state.legal_actions()}


def play(state, text: str):
    """Apply the legal step shown as ``text``."""
    for a in state.legal_actions():
        if show(a) == text:
            state.apply(a)
            return state
    raise AssertionError(f"{text!r} is not legal here: {sorted(steps(state))}")


def discards(*cards: str) -> set[str]:
    return {f"discard {c}" for c in cards}
