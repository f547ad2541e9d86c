"""Helpers for the fishing-game tests: positions in card notation, actions as short text.

Actions are written ``"trail 5H"``, ``"capture 8D: 3H 5S 8C"``, ``"build 6S=8: 2H"``
(card, value, the table cards used); the order of the listed cards is free.
"""

from __future__ import annotations

import cardcore
from cardcore.engine.cards import parse_card
from cardcore.engine.scoresheet import ScoreSheet

GAMES = cardcore.load_games()
CASINO = GAMES["casino"]
ROYAL = GAMES["royal_casino"]


def game_of(game_id: str):
    return GAMES[game_id]


def load(game_id: str, **data):
    """A position from a partial export."""
    return GAMES[game_id].state_from_json(data)


def text(action_json: dict) -> str:
    kind = action_json["type"]
    if kind == "trail":
        return f"trail {action_json['card']}"
    if kind == "capture":
        return f"capture {action_json['card']}: " + " ".join(action_json["taken"])
    return (f"build {action_json['card']}={action_json['value']}: "
            + " ".join(action_json["used"]))


def norm(item: str) -> str:
    """Canonical form of an action written in the short text."""
    head, _, rest = item.partition(":")
    kind, _, card = head.strip().partition(" ")
    value = ""
    if "=" in card:
        card, value = card.split("=")
        value = "=" + value
    cards = sorted(parse_card(c) for c in rest.split())
    out = f"{kind} {parse_card(card)}{value}"
    return out + (": " + " ".join(cards) if kind != "trail" else "")


def legal(state) -> set[str]:
    actions = state.legal_actions()
    texts = [text(a.to_json()) for a in actions]
    assert len(set(texts)) == len(texts), "an action is listed twice"
    return set(texts)


def expect(*items: str) -> set[str]:
    return {norm(i) for i in items}


def as_json(item: str) -> dict:
    """The action JSON of the short text."""
    item = norm(item)
    head, _, rest = item.partition(":")
    kind, _, card = head.partition(" ")
    cards = rest.split()
    if kind == "trail":
        return {"type": "trail", "card": card}
    if kind == "capture":
        return {"type": "capture", "card": card, "taken": cards}
    card, value = card.split("=")
    return {"type": "build", "card": card, "value": int(value), "used": cards}


def play(state, item: str):
    """Apply the action written as ``item`` (it must be legal) and return the state."""
    game = GAMES[state.rules.game_id]
    state.apply(game.action_from_json(state, as_json(item)))
    return state


def sheet_of(rows: list[dict], target: int = 21) -> ScoreSheet:
    sides = len(rows[0]["sides"])
    return ScoreSheet([f"side {i}" for i in range(sides)], target, rows)


def row(*totals: int, outright: list[int] | None = None) -> dict:
    """A score row with just totals (items lumped into ``cards``)."""
    out = {"sides": [{"seats": [i], "items": {"cards": t}, "total": t}
                     for i, t in enumerate(totals)]}
    if outright is not None:
        out["outright"] = outright
    return out
