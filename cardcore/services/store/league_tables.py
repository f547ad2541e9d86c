"""The leagues' tables in the match library (schema version 5; docs/leagues.md).

Only the SQL is here, so the library's schema and its migration (``sqlite.MIGRATIONS``)
hold it; what reads and writes them is ``cardcore.services.league``.

- ``leagues``: one row a league: its name (unique), game, options (JSON, every field),
  season (a label).
- ``league_teams``: its partnerships, numbered from 0 in the order given: a name and the
  two players' names (JSON).
- ``league_entries``: what the standings are computed from, one row a match or a forfeit:
  when, the two partnerships (``teams``: by number, the match's first side first; a
  forfeit: the partnership it went to, then the one that forfeited), their points, the
  winner (0 or 1: an index into ``teams``; NULL: nobody won), the players of each side
  (JSON, for the ratings; a forfeit has none), and a correction's reason.
- ``league_pending``: the matches of a server's league tables, each added to its league
  when it finishes (the row stays: a rematch at the table is for the same league).
"""

from __future__ import annotations

LEAGUE_TABLES: tuple[str, ...] = (
    """CREATE TABLE leagues (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    name    TEXT    NOT NULL UNIQUE,
    game    TEXT    NOT NULL,
    options TEXT    NOT NULL,
    season  TEXT    NOT NULL,
    created REAL    NOT NULL)""",
    """CREATE TABLE league_teams (
    league_id INTEGER NOT NULL,
    team      INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    players   TEXT    NOT NULL,
    PRIMARY KEY (league_id, team)) WITHOUT ROWID""",
    """CREATE TABLE league_entries (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id INTEGER NOT NULL,
    kind      TEXT    NOT NULL,
    match_id  INTEGER,
    played    REAL    NOT NULL,
    teams     TEXT    NOT NULL,
    points    TEXT    NOT NULL,
    winner    INTEGER,
    players   TEXT    NOT NULL,
    note      TEXT    NOT NULL DEFAULT '',
    UNIQUE (league_id, match_id))""",
    "CREATE INDEX league_entries_by_league ON league_entries (league_id, played)",
    """CREATE TABLE league_pending (
    match_id  INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL)""",
)

#: The migration from version 4: the same statements, each a no-op where its table or index
#: is there already (as the claims' migration: a library rewritten as an older version by a
#: test, or by hand, keeps its newer tables).
LEAGUE_MIGRATION: tuple[str, ...] = tuple(
    s.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS")
    .replace("CREATE INDEX", "CREATE INDEX IF NOT EXISTS") for s in LEAGUE_TABLES)
