"""Statistics from the stored score rows: per game, variant (the options) and player.

A player is a human by name, or a bot by id. For each finished match a player sat in:
``matches`` + 1; ``wins`` + 1 when one of the player's sides won; for every hand and every
side the player sat on, ``hands`` + 1, ``points`` + the side's hand total and ``counts`` +
the side's counts: the int ``counts`` of its score row, then what the game's score extras
(``Game.score_extras``) count there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from cardcore.engine.scoresheet import extra_count, extras_of, read_extra
from cardcore.services.store import PlayerStats

if TYPE_CHECKING:
    from cardcore.engine.game import Game, ScoreExtra, ScoreRow


def side_counts(row: dict[str, Any], side: int, extras: Sequence[ScoreExtra] = ()) -> dict[str, int]:
    """What side ``side`` did in the hand of ``row`` that a player cares about (sweeps,
    canastas, ...): the row's int counts, and each counted extra that says something."""
    entry = row["sides"][side]
    counts = entry.get("counts")
    # by name: a row stored in the game's order or with sorted keys reads alike
    out = ({k: v for k, v in sorted(counts.items()) if isinstance(v, int) and not isinstance(v, bool)}
           if isinstance(counts, dict) else {})
    for extra in extras:
        n = extra_count(read_extra(extra, cast("ScoreRow", row), side)) if extra.stats else None
        if n is not None:
            out[extra.key] = n
    return out


def aggregate(matches: list[Any], scores: list[Any],
              games: Mapping[str, Game] | None = None) -> list[PlayerStats]:
    """``matches``: (id, game, options JSON, seats JSON, names JSON, winner) rows;
    ``scores``: (match id, score row JSON) rows in hand order; ``games``: the installed
    games by id, whose score extras are counted (none without)."""
    extras: dict[tuple[str, str], list[ScoreExtra]] = {}
    rows: dict[int, list[dict[str, Any]]] = {}
    for match_id, row in scores:
        rows.setdefault(match_id, []).append(json.loads(row))
    table: dict[tuple[str, str, str, bool], PlayerStats] = {}
    for match_id, game, options, seats_json, names_json, winner in matches:
        hands = rows.get(match_id, [])
        seats, names = json.loads(seats_json), json.loads(names_json)
        side_of = _sides_of(hands)
        if (game, options) not in extras:
            extras[game, options] = extras_of((games or {}).get(game), json.loads(options))
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
                    for k, v in side_counts(row, side, extras[game, options]).items():
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
