"""Statistics from the stored score rows: per game, variant (the options) and person, and
per partnership.

A person is who ``cardcore.engine.people.person_id`` says (a local profile, else the name);
a bot is its id. For each finished match a person sat in: ``matches`` + 1; ``wins`` + 1 when
one of their sides won; for every hand and every side they sat on, ``hands`` + 1,
``points`` + the side's hand total and ``counts`` + the side's counts: the int ``counts`` of
its score row, then what the game's score extras (``Game.score_extras``) count there.

A **partnership** is the people of one side of two or more seats (a team game), whichever
seats they sat in: the same figures, for the side they formed. Sides with a bot are left
out (a bot is nobody's partner of record).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from cardcore.engine.people import person_id, told_apart
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


@dataclass(frozen=True)
class _Seat:
    who: str      # the person id (``person_id``), or "bot:" + the bot's id
    name: str     # the name this match gave them (a bot: its id)
    bot: bool


def aggregate(matches: list[Any], scores: list[Any], games: Mapping[str, Game] | None = None,
              *, partnerships: bool = False) -> list[PlayerStats]:
    """``matches``: (id, game, options JSON, seats JSON, names JSON, winner, people JSON)
    rows in id order; ``scores``: (match id, score row JSON) rows in hand order; ``games``:
    the installed games by id, whose score extras are counted (none without).
    ``partnerships``: per partnership rather than per person."""
    extras: dict[tuple[str, str], list[ScoreExtra]] = {}
    rows: dict[int, list[dict[str, Any]]] = {}
    for match_id, row in scores:
        rows.setdefault(match_id, []).append(json.loads(row))
    table: dict[tuple[str, str, tuple[str, ...]], PlayerStats] = {}
    names: dict[str, str] = {}  # person id -> the latest name (a profile's, as last played)
    for match_id, game, options, seats_json, names_json, winner, people_json in matches:
        hands = rows.get(match_id, [])
        seated = _seated(json.loads(seats_json), json.loads(names_json), json.loads(people_json or "[]"))
        names.update({s.who: s.name for s in seated if not s.bot})
        if (game, options) not in extras:
            extras[game, options] = extras_of((games or {}).get(game), json.loads(options))
        side_of = _sides_of(hands)
        groups: dict[tuple[str, ...], set[int]] = {}
        if partnerships:
            for side, members in _sides(seated, side_of).items():
                if len(members) > 1 and not any(s.bot for s in members):
                    groups.setdefault(tuple(sorted({s.who for s in members})), set()).add(side)
        else:
            for seat, s in enumerate(seated):
                groups.setdefault((s.who,), set()).add(side_of.get(seat, seat))
        for whos, sides in groups.items():
            key = (game, options, whos)
            st = table.get(key)
            if st is None:
                st = table[key] = PlayerStats(game, json.loads(options), "", whos[0].startswith("bot:"),
                                              person=" & ".join(whos))
            _add(st, hands, sides, int(winner in sides), extras[game, options])
    labels = told_apart(names)
    for (_, _, whos), st in table.items():
        st.members = tuple(labels.get(w, w.removeprefix("bot:")) for w in whos)
        st.player = " & ".join(st.members)
    return sorted(table.values(), key=lambda s: (s.game, json.dumps(s.options, sort_keys=True),
                                                 -s.matches, s.bot, s.player))


def _add(st: PlayerStats, hands: list[dict[str, Any]], sides: set[int], won: int,
         extras: Sequence[ScoreExtra]) -> None:
    st.matches += 1
    st.wins += won
    for row in hands:
        for side in sides:
            entry = row["sides"][side] if side < len(row.get("sides", [])) else None
            if not isinstance(entry, dict):
                continue
            st.hands += 1
            st.points += int(entry.get("total", 0))
            for k, v in side_counts(row, side, extras).items():
                st.counts[k] = st.counts.get(k, 0) + v


def _seated(seats: list[str], names: list[str], people: list[Any]) -> list[_Seat]:
    """Who sat in each seat of a match: a bot by id; a person by ``person_id``."""
    out = []
    for seat, kind in enumerate(seats):
        if kind != "human":
            out.append(_Seat("bot:" + kind, kind, True))
            continue
        name = names[seat] if seat < len(names) else f"Player {seat + 1}"
        key = people[seat] if seat < len(people) and isinstance(people[seat], str) else None
        out.append(_Seat(person_id(name, key), name, False))
    return out


def _sides(seated: list[_Seat], side_of: dict[int, int]) -> dict[int, list[_Seat]]:
    out: dict[int, list[_Seat]] = {}
    for seat, s in enumerate(seated):
        out.setdefault(side_of.get(seat, seat), []).append(s)
    return out


def _sides_of(hands: list[dict[str, Any]]) -> dict[int, int]:
    """seat -> side, from the first score row's ``seats``."""
    if not hands:
        return {}
    out = {}
    for side, entry in enumerate(hands[0].get("sides", [])):
        for seat in entry.get("seats", []) if isinstance(entry, dict) else []:
            out[seat] = side
    return out
