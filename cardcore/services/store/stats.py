"""Statistics from the stored score rows: per game, variant (the options) and player.

A player is a human by name, or a bot by id. For each finished match a player sat in:
``matches`` + 1; ``wins`` + 1 when one of the player's sides won; for every hand and every
side the player sat on, ``hands`` + 1, ``points`` + the side's hand total and ``counts`` +
the side's counts. Counts are a score row's ``counts`` when it has them, otherwise derived
from the points of its ``items`` (``DERIVED``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from cardcore.services.store import PlayerStats


def _fishing(items: dict[str, int]) -> dict[str, int]:
    # a sweep scores 1 (net of the sweeps cancelled), big casino (10D) scores 2
    return {"sweeps": items.get("sweeps", 0), "big_casino": items.get("big_casino", 0) // 2}


def _canasta(items: dict[str, int]) -> dict[str, int]:
    natural = items.get("natural_canastas", 0) // 500
    mixed = items.get("mixed_canastas", 0) // 300
    reds = abs(items.get("red_threes", 0))
    return {"canastas": natural + mixed, "natural_canastas": natural, "mixed_canastas": mixed,
            "red_threes": 4 if reds == 800 else reds // 100,
            "going_out": int(items.get("going_out", 0) > 0),
            "concealed": int(items.get("concealed", 0) > 0)}


#: How counts are read from the points of a game's score items, by game id.
DERIVED: dict[str, Callable[[dict[str, int]], dict[str, int]]] = {
    "casino": _fishing, "royal_casino": _fishing, "canasta": _canasta,
}


def side_counts(game: str, side: dict[str, Any]) -> dict[str, int]:
    """What a side did in a hand that a player cares about (sweeps, canastas, ...)."""
    counts = side.get("counts")
    if isinstance(counts, dict):
        return {k: v for k, v in counts.items() if isinstance(v, int) and not isinstance(v, bool)}
    items = side.get("items")
    derive = DERIVED.get(game)
    if derive is None or not isinstance(items, dict):
        return {}
    return derive({k: v for k, v in items.items() if isinstance(v, int)})


def aggregate(matches: list[Any], scores: list[Any]) -> list[PlayerStats]:
    """``matches``: (id, game, options JSON, seats JSON, names JSON, winner) rows;
    ``scores``: (match id, score row JSON) rows in hand order."""
    rows: dict[int, list[dict[str, Any]]] = {}
    for match_id, row in scores:
        rows.setdefault(match_id, []).append(json.loads(row))
    table: dict[tuple[str, str, str, bool], PlayerStats] = {}
    for match_id, game, options, seats_json, names_json, winner in matches:
        hands = rows.get(match_id, [])
        seats, names = json.loads(seats_json), json.loads(names_json)
        side_of = _sides_of(hands)
        players: dict[tuple[str, bool], set[int]] = {}
        for seat, who in enumerate(seats):
            bot = who != "human"
            name = who if bot else (names[seat] if seat < len(names) else f"Player {seat + 1}")
            players.setdefault((name, bot), set()).add(side_of.get(seat, seat))
        for (name, bot), sides in players.items():
            key = (game, options, name, bot)
            st = table.get(key)
            if st is None:
                st = table[key] = PlayerStats(game, json.loads(options), name, bot)
            st.matches += 1
            st.wins += int(winner in sides)
            for row in hands:
                for side in sides:
                    entry = row["sides"][side] if side < len(row.get("sides", [])) else None
                    if not isinstance(entry, dict):
                        continue
                    st.hands += 1
                    st.points += int(entry.get("total", 0))
                    for k, v in side_counts(game, entry).items():
                        st.counts[k] = st.counts.get(k, 0) + v
    return sorted(table.values(), key=lambda s: (s.game, json.dumps(s.options, sort_keys=True),
                                                 -s.matches, s.bot, s.player))


def _sides_of(hands: list[dict[str, Any]]) -> dict[int, int]:
    """seat -> side, from the first score row's ``seats``."""
    if not hands:
        return {}
    out = {}
    for side, entry in enumerate(hands[0].get("sides", [])):
        for seat in entry.get("seats", []) if isinstance(entry, dict) else []:
            out[seat] = side
    return out
