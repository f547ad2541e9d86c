"""Leagues: a series of team matches between fixed partnerships, kept in the match library
of whoever hosts them (docs/leagues.md).

``book.LeagueBook`` keeps them (the library's SQLite file, tables of schema version 5);
``standings.standings`` computes a league's table from its entries, every time, from
nothing but the entries (no running state to drift).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from cardcore.services.store import StoreError

#: Partnerships a league holds at most (a family's or a club's evening, not a federation).
MAX_PARTNERSHIPS = 32


class LeagueError(StoreError):
    """A league, or something asked of it, that cannot be: one line (the command line's
    exit status 2), nothing changed."""


def player_key(name: str) -> str:
    """Who a player is, for a league: today their name (spaces collapsed, case ignored).

    The one place a league tells players apart: when people carry a profile (a person's
    key), this is what changes."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class Partnership:
    number: int               # from 0, in the order the league was given them
    name: str
    players: tuple[str, str]

    def keys(self) -> frozenset[str]:
        return frozenset(map(player_key, self.players))


@dataclass(frozen=True)
class League:
    id: int
    name: str
    game: str
    options: dict[str, Any]   # every field of the game's options
    season: str
    created: float
    partnerships: tuple[Partnership, ...]

    def partnership(self, name: str) -> Partnership:
        """The partnership called ``name`` (case and spaces ignored), LeagueError if none."""
        for p in self.partnerships:
            if player_key(p.name) == player_key(name):
                return p
        known = ", ".join(p.name for p in self.partnerships)
        raise LeagueError(f"league {self.name} has no partnership {name!r} (its partnerships: {known})")


@dataclass(frozen=True)
class Entry:
    """One match or forfeit of a league, as the standings read it."""

    id: int
    kind: Literal["match", "forfeit"]
    match_id: int | None
    played: float             # time.time(): the match's last move, or the forfeit's date
    #: The two partnerships by number: the match's first side first; a forfeit: the
    #: partnership it went to, then the one that forfeited.
    teams: tuple[int, int]
    points: tuple[int, int]
    winner: int | None        # 0 or 1 (an index into ``teams``); None: nobody won
    #: The players' names on each side (a forfeit: none): the ratings per player.
    players: tuple[tuple[str, ...], tuple[str, ...]]
    note: str = ""            # a correction's reason

    @property
    def forfeit(self) -> bool:
        return self.kind == "forfeit"


__all__ = ["MAX_PARTNERSHIPS", "Entry", "League", "LeagueError", "Partnership", "player_key"]
