"""``LeagueBook``: the leagues of one match library (on a connection of its own,
``MatchStore.database``; the tables are ``cardcore/services/store/league_tables.py``'s).

Every change is one transaction and is checked before it is written: anything wrong is a
``LeagueError`` (one line) and nothing changes. A match enters a league as an entry that
copies what the standings need (the partnerships, the points, the winner, the players), so
the standings are computed from the entries alone, and a match deleted from the library
later leaves its league as it was.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from cardcore.engine.names import check_name, plain_text
from cardcore.services.league import MAX_PARTNERSHIPS, Entry, League, LeagueError, Partnership, player_key
from cardcore.services.store import MatchStore, MatchSummary, SqlConflict, SqlError, StoreError
from cardcore.services.store.commits import column_json

T = TypeVar("T")
#: A correction's reason, at most.
MAX_REASON_CHARS = 200
_ENTRY_COLUMNS = "id, kind, match_id, played, teams, points, winner, players, note"
#: ``correct``'s arguments left as they were.
KEEP: Any = object()


class LeagueBook:
    """The leagues in ``store``'s library. Safe to use from one thread at a time."""

    def __init__(self, store: MatchStore):
        self.store = store
        self.db = store.database()

    def close(self) -> None:
        self.db.close()

    # --- reading ---------------------------------------------------------------------

    def _read(self, fn: Callable[[Any], T]) -> T:
        try:
            return self.db.read(fn)
        except SqlError as exc:
            raise StoreError(f"the leagues cannot be read: {exc}") from None

    @contextmanager
    def _write(self) -> Iterator[Any]:
        try:
            with self.db.write() as cur:
                yield cur
        except SqlConflict as exc:
            raise LeagueError(f"not written: {exc}") from None
        except SqlError as exc:
            raise StoreError(f"the leagues cannot be written: {exc}") from None

    def leagues(self) -> list[League]:
        rows = self._read(lambda c: c.execute("SELECT id FROM leagues ORDER BY created, id").fetchall())
        return [self._league(int(r[0])) for r in rows]

    def get(self, name: str) -> League:
        row = self._read(lambda c: c.execute("SELECT id FROM leagues WHERE name = ?", (name,)).fetchone())
        if row is None:
            known = ", ".join(league.name for league in self.leagues()) or "none yet"
            raise LeagueError(f"no league named {name!r} (leagues: {known})")
        return self._league(int(row[0]))

    def _league(self, league_id: int) -> League:
        def read(c: Any) -> tuple[Any, list[Any]]:
            head = c.execute("SELECT id, name, game, options, season, created FROM leagues WHERE id = ?",
                             (league_id,)).fetchone()
            teams = c.execute("SELECT team, name, players FROM league_teams WHERE league_id = ? "
                              "ORDER BY team", (league_id,)).fetchall()
            return head, teams

        head, teams = self._read(read)
        partnerships = tuple(Partnership(int(t[0]), t[1], tuple(json.loads(t[2]))) for t in teams)
        return League(int(head[0]), head[1], head[2], json.loads(head[3]), head[4], float(head[5]),
                      partnerships)

    def entries(self, league: League) -> list[Entry]:
        """The league's entries in the order they were played (then the order added)."""
        rows = self._read(lambda c: c.execute(
            f"SELECT {_ENTRY_COLUMNS} FROM league_entries WHERE league_id = ? ORDER BY played, id",
            (league.id,)).fetchall())
        return [_entry(r) for r in rows]

    def entry(self, league: League, entry_id: int) -> Entry:
        for found in self.entries(league):
            if found.id == entry_id:
                return found
        raise LeagueError(f"league {league.name} has no entry {entry_id} (`cardcore league show` lists them)")

    # --- a new league -------------------------------------------------------------------

    def create(self, name: str, game: str, options: dict[str, Any], season: str,
               partnerships: Sequence[tuple[str | None, Sequence[str]]]) -> League:
        """A new league; ``partnerships``: (its name or None: "A & B", its two players)."""
        _named("the league's name", name)
        _named("the season", season)
        teams = _partnerships(partnerships)
        now = time.time()
        with self._write() as cur:
            if cur.execute("SELECT 1 FROM leagues WHERE name = ?", (name,)).fetchone():
                raise LeagueError(f"a league named {name!r} exists already")
            league_id = cur.execute("INSERT INTO leagues (name, game, options, season, created) "
                                    "VALUES (?, ?, ?, ?, ?) RETURNING id",
                                    (name, game, column_json(options), season, now)).fetchone()[0]
            cur.executemany("INSERT INTO league_teams (league_id, team, name, players) VALUES (?, ?, ?, ?)",
                            [(league_id, i, team, column_json(list(players)))
                             for i, (team, players) in enumerate(teams)])
        return self.get(name)

    # --- entries --------------------------------------------------------------------------

    def add_match(self, league: League, match_id: int,
                  assign: tuple[str, str] | None = None) -> Entry:
        """The finished library match ``match_id`` as an entry. Its sides are the league's
        partnerships whose players they are (``player_key``), or ``assign``: the
        partnerships of its first and second side, named by hand."""
        summary = self.store.get(match_id)
        sides = self._sides(match_id) if summary.finished else []
        values = match_values(league, summary, sides, assign)
        with self._write() as cur:
            held = cur.execute("SELECT id FROM league_entries WHERE league_id = ? AND match_id = ?",
                               (league.id, match_id)).fetchone()
            if held is not None:
                raise LeagueError(f"match {match_id} is already in league {league.name} (entry {held[0]})")
            return self._insert(cur, league, "match", match_id, **values)

    def _sides(self, match_id: int) -> list[list[int]]:
        """The seats of each side of a library match, from its first score row."""
        rows = self.store.score_sheet(match_id)
        sides = rows[0].get("sides") if rows else None
        if not isinstance(sides, list):
            raise LeagueError(f"match {match_id} has no score row: it was not played to its end")
        return [list(s.get("seats") or []) if isinstance(s, dict) else [] for s in sides]

    def forfeit(self, league: League, by: str, to: str, when: float) -> Entry:
        """Partnership ``by`` forfeited its match against ``to`` on ``when``."""
        loser, winner = league.partnership(by), league.partnership(to)
        if loser == winner:
            raise LeagueError("a partnership cannot forfeit to itself")
        with self._write() as cur:
            return self._insert(cur, league, "forfeit", None, played=when,
                                teams=(winner.number, loser.number), points=(0, 0), winner=0,
                                players=((), ()))

    def _insert(self, cur: Any, league: League, kind: str, match_id: int | None, *,
                played: float, teams: tuple[int, int], points: tuple[int, int], winner: int | None,
                players: tuple[tuple[str, ...], tuple[str, ...]], note: str = "") -> Entry:
        row = cur.execute("INSERT INTO league_entries (league_id, kind, match_id, played, teams, points, "
                          "winner, players, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                          f"RETURNING {_ENTRY_COLUMNS}",
                          (league.id, kind, match_id, played, column_json(list(teams)),
                           column_json(list(points)), winner, column_json([list(p) for p in players]), note)
                          ).fetchone()
        return _entry(row)

    def correct(self, league: League, entry_id: int, reason: str, *, winner: Any = KEEP,
                points: Any = KEEP, teams: Any = KEEP) -> Entry:
        """Override an entry: ``winner`` (a partnership's name, or None: nobody won),
        ``points`` (of its first and second partnership), ``teams`` (the two partnerships'
        names: re-assigned), each left as it was unless given; ``reason`` is kept with it."""
        old = self.entry(league, entry_id)
        reason = " ".join(reason.split())
        if not reason or len(reason) > MAX_REASON_CHARS:
            raise LeagueError(f"a correction needs a reason of 1 to {MAX_REASON_CHARS} characters")
        plain_text(reason)
        new_teams = old.teams if teams is KEEP else _two_teams(league, teams)
        new_points = old.points if points is KEEP else _two_points(points)
        if winner is KEEP:
            new_winner = old.winner
        elif winner is None:
            new_winner = None
        else:
            number = league.partnership(winner).number
            if number not in new_teams:
                raise LeagueError(f"{winner} did not play in entry {entry_id}")
            new_winner = new_teams.index(number)
        if old.forfeit and (points is not KEEP or new_winner is None):
            raise LeagueError("a forfeit has no points and always a winner: remove it instead")
        with self._write() as cur:
            cur.execute("UPDATE league_entries SET teams = ?, points = ?, winner = ?, note = ? WHERE id = ?",
                        (column_json(list(new_teams)), column_json(list(new_points)), new_winner, reason,
                         entry_id))
        return self.entry(league, entry_id)

    def remove(self, league: League, entry_id: int) -> Entry:
        old = self.entry(league, entry_id)
        with self._write() as cur:
            cur.execute("DELETE FROM league_entries WHERE id = ?", (entry_id,))
        return old

    # --- a server's league tables ---------------------------------------------------------

    def pend(self, league: League, match_id: int) -> None:
        """Match ``match_id`` (not finished) goes to ``league`` when it finishes (``settle``)."""
        with self._write() as cur:
            cur.execute("INSERT INTO league_pending (match_id, league_id) VALUES (?, ?) "
                        "ON CONFLICT (match_id) DO UPDATE SET league_id = excluded.league_id",
                        (match_id, league.id))

    def pending_league(self, match_id: int) -> League | None:
        row = self._read(lambda c: c.execute("SELECT league_id FROM league_pending WHERE match_id = ?",
                                             (match_id,)).fetchone())
        return None if row is None else self._league(int(row[0]))

    def forget(self, match_id: int) -> None:
        """A pending match that is no longer in the library: its row goes."""
        with self._write() as cur:
            cur.execute("DELETE FROM league_pending WHERE match_id = ?", (match_id,))

    def unsettled(self) -> list[int]:
        """The pending matches not in their league yet (finished or not), oldest first."""
        rows = self._read(lambda c: c.execute(
            "SELECT p.match_id FROM league_pending p WHERE NOT EXISTS (SELECT 1 FROM league_entries e "
            "WHERE e.league_id = p.league_id AND e.match_id = p.match_id) ORDER BY p.match_id").fetchall())
        return [int(r[0]) for r in rows]

    def settle(self, match_id: int) -> Entry | None:
        """A pending match, once finished, added to its league (once: its row stays, so a
        rematch at its table knows the league); None while it is not finished, when it is
        already in, or when it is no league's."""
        league = self.pending_league(match_id)
        if league is None or not self.store.get(match_id).finished:
            return None
        if any(e.match_id == match_id for e in self.entries(league)):
            return None
        return self.add_match(league, match_id)


def match_values(league: League, m: MatchSummary, sides: list[list[int]],
                 assign: tuple[str, str] | None) -> dict[str, Any]:
    """What an entry of the finished match ``m`` holds (``sides``: its sides' seats), or a
    LeagueError saying in one line why the league cannot take it."""
    if not m.finished:
        raise LeagueError(f"match {m.id} is not finished (hand {m.hand}): a league takes finished matches")
    if m.game != league.game:
        raise LeagueError(f"match {m.id} is {m.game}; league {league.name} plays {league.game}")
    differ = sorted(k for k in {*m.options, *league.options} if m.options.get(k) != league.options.get(k))
    if differ:
        shown = ", ".join(f"{k} {json.dumps(m.options.get(k))} "
                          f"(the league: {json.dumps(league.options.get(k))})" for k in differ[:3])
        raise LeagueError(f"match {m.id} was played with other options than league {league.name}: {shown}")
    if len(sides) != 2 or any(len(seats) != 2 for seats in sides):
        raise LeagueError(f"match {m.id} is not a match of two partnerships of two players")
    players = tuple(tuple(m.names[s] if s < len(m.names) else f"seat {s + 1}" for s in seats)
                    for seats in sides)
    teams = _two_teams(league, assign) if assign is not None else _mapped(league, m, players)
    return {"played": m.last_played, "teams": teams, "points": (int(m.totals[0]), int(m.totals[1])),
            "winner": m.winner if m.winner in (0, 1) else None, "players": players}


def _mapped(league: League, m: MatchSummary, players: tuple[tuple[str, ...], ...]) -> tuple[int, int]:
    """The partnerships whose players played each side (``player_key``)."""
    found = []
    for side, names in enumerate(players):
        keys = frozenset(map(player_key, names))
        team = next((p for p in league.partnerships if p.keys() == keys), None)
        if team is None:
            raise LeagueError(f"match {m.id}: side {side + 1} ({' & '.join(names)}) is no partnership of "
                              f"league {league.name}; `--as FIRST,SECOND` names the partnerships by hand")
        found.append(team.number)
    return found[0], found[1]


def _two_teams(league: League, names: Sequence[str]) -> tuple[int, int]:
    if len(names) != 2:
        raise LeagueError("name two partnerships: the first side's, then the second's")
    first, second = (league.partnership(n).number for n in names)
    if first == second:
        raise LeagueError("a partnership cannot play itself")
    return first, second


def _two_points(points: Sequence[int]) -> tuple[int, int]:
    if len(points) != 2 or not all(type(p) is int and abs(p) < 10**9 for p in points):
        raise LeagueError("points: two whole numbers, the first partnership's then the second's")
    return points[0], points[1]


def _named(what: str, text: str) -> None:
    try:
        check_name(text)
    except ValueError as exc:
        raise LeagueError(f"{what}: {exc}") from None


def _partnerships(given: Sequence[tuple[str | None, Sequence[str]]]) -> list[tuple[str, tuple[str, str]]]:
    """The partnerships checked: 2 to MAX_PARTNERSHIPS, two players each, nobody twice, no
    name twice."""
    if not 2 <= len(given) <= MAX_PARTNERSHIPS:
        raise LeagueError(f"a league has 2 to {MAX_PARTNERSHIPS} partnerships, not {len(given)}")
    out: list[tuple[str, tuple[str, str]]] = []
    seen: dict[str, str] = {}
    names: set[str] = set()
    for name, players in given:
        if len(players) != 2:
            raise LeagueError(f"a partnership is two players, not {len(players)} ({', '.join(players)})")
        for player in players:
            _named("a player's name", player)
            if player_key(player) in seen:
                raise LeagueError(f"{player} is in two partnerships ({seen[player_key(player)]} too)")
        team = name or f"{players[0]} & {players[1]}"
        if name is not None:
            _named("a partnership's name", name)
        if player_key(team) in names:
            raise LeagueError(f"two partnerships are called {team!r}")
        names.add(player_key(team))
        for player in players:
            seen[player_key(player)] = team
        out.append((team, (players[0], players[1])))
    return out


def _entry(r: Any) -> Entry:
    teams, points, players = json.loads(r[4]), json.loads(r[5]), json.loads(r[7])
    match_id = None if r[2] is None else int(r[2])
    return Entry(id=int(r[0]), kind=r[1], match_id=match_id, played=float(r[3]), teams=(teams[0], teams[1]),
                 points=(points[0], points[1]), winner=r[6],
                 players=(tuple(players[0]), tuple(players[1])) if players else ((), ()), note=r[8])
