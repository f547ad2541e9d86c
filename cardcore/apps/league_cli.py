"""``cardcore league``: new, list, show, add, forfeit, correct, remove, export (docs/leagues.md).

Bad input is a ``UsageError`` or a ``LeagueError`` (a StoreError): one line, exit status 2
(``cardcore.apps.cli``), and nothing changed.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import datetime
import sys
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any

from cardcore.apps.args import UsageError, fit, output_width
from cardcore.apps.library_cli import say
from cardcore.language import N_, _, day, ngettext, number

if TYPE_CHECKING:  # the leagues, the store and the ratings load when `league` runs
    from cardcore.services.league import Entry, League
    from cardcore.services.league.book import LeagueBook
    from cardcore.services.league.standings import PlayerRow, Standings, TeamRow
    from cardcore.services.plugins import Registry


def add_parser(sub: Any) -> None:
    q = sub.add_parser("league", help=_("leagues of team matches: standings, ratings, forfeits, CSV"))
    q.add_argument("--library", metavar="FILE | URL",
                   help=_("the match library, a file or a postgresql:// URL (a server's: its --library)"))
    leagues = q.add_subparsers(dest="league_command", parser_class=type(q), required=True)
    new = leagues.add_parser("new", help=_("a new league of fixed partnerships"))
    new.add_argument("name")
    new.add_argument("--game", required=True)
    new.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    new.add_argument("--season", default=str(datetime.date.today().year))
    new.add_argument("--pair", action="append", default=[], required=True, metavar="[NAME=]A,B",
                     help=_("a partnership: its two players (and its name); one --pair each"))
    leagues.add_parser("list", help=_("the leagues in the library"))
    show = leagues.add_parser("show", help=_("the standings, the players' ratings and the entries"))
    show.add_argument("name")
    add = leagues.add_parser("add", help=_("a finished library match between two of the partnerships"))
    add.add_argument("name")
    add.add_argument("match", type=int, metavar="MATCH_ID")
    add.add_argument("--as", dest="assign", metavar="FIRST,SECOND",
                     help=_("the partnerships of the match's first and second side, named by hand"))
    ff = leagues.add_parser("forfeit", help=_("a partnership forfeited a match"))
    ff.add_argument("name")
    ff.add_argument("--by", required=True, metavar="PARTNERSHIP", help=_("the partnership that forfeited"))
    ff.add_argument("--to", required=True, metavar="PARTNERSHIP", help=_("the partnership the win goes to"))
    ff.add_argument("--date", help=_("YYYY-MM-DD (default: today)"))
    fix = leagues.add_parser("correct", help=_("override an entry's result or partnerships, with a reason"))
    fix.add_argument("name")
    fix.add_argument("entry", type=int, metavar="ENTRY")
    fix.add_argument("--reason", required=True)
    fix.add_argument("--winner", metavar="PARTNERSHIP", help=_("the winner (none: nobody won)"))
    fix.add_argument("--points", metavar="A,B", help=_("the first and second partnership's points"))
    fix.add_argument("--as", dest="assign", metavar="FIRST,SECOND", help=_("the partnerships, re-assigned"))
    rm = leagues.add_parser("remove", help=_("take an entry out of the league"))
    rm.add_argument("name")
    rm.add_argument("entry", type=int, metavar="ENTRY")
    out = leagues.add_parser("export", help=_("the standings (or --entries) as CSV"))
    out.add_argument("name")
    out.add_argument("--entries", action="store_true", help=_("one row an entry instead"))
    out.add_argument("--output", "-o", metavar="FILE", help=_("default: stdout"))


#: ``cli.parse_options``: a game's options from ``--option KEY=VALUE`` pairs (UsageError).
OptionsParser = Callable[[Any, list[str]], Any]


def command(registry: Registry, args: argparse.Namespace, parse_options: OptionsParser) -> int:
    from cardcore.services.league.book import LeagueBook
    from cardcore.services.store import open_library

    store = open_library(args.library, import_autosave=False)
    book = LeagueBook(store)
    try:
        _run(registry, book, args, parse_options)
    finally:
        book.close()
        store.close()
    return 0


def _run(registry: Registry, book: LeagueBook, args: argparse.Namespace,
         parse_options: OptionsParser) -> None:
    from cardcore.services.league.standings import standings

    what = args.league_command
    if what == "new":
        league = _new(registry, book, args, parse_options)
        say(_("league {name}: {n} partnerships, {game}, season {season}").format(
            name=league.name, n=len(league.partnerships),
            game=_game_name(registry, league.game, league.options),
            season=league.season))
    elif what == "list":
        leagues = book.leagues()
        none = _("No league yet: `cardcore league new NAME --game GAME --pair A,B ...`")
        say("\n".join(_("{name}  {game}  season {season}  {n} partnerships, {entries}").format(
            name=lg.name, game=_game_name(registry, lg.game, lg.options), season=lg.season,
            n=len(lg.partnerships), entries=_entries(len(book.entries(lg)))) for lg in leagues) or none)
    elif what == "show":
        league = book.get(args.name)
        say(format_standings(registry, standings(league, book.entries(league)), output_width()))
    elif what == "export":
        league = book.get(args.name)
        with _output(args.output) as out:
            export_csv(standings(league, book.entries(league)), out, entries=args.entries)
    else:
        _change(book, args)


def _change(book: LeagueBook, args: argparse.Namespace) -> None:
    from cardcore.services.league.book import KEEP

    league = book.get(args.name)
    what = args.league_command
    if what == "add":
        entry = book.add_match(league, args.match, _pair(args.assign) if args.assign else None)
        say(_("league {name}: entry {id}: {text}").format(name=league.name, id=entry.id,
                                                          text=entry_text(league, entry)))
    elif what == "forfeit":
        entry = book.forfeit(league, args.by, args.to, _date(args.date))
        say(_("league {name}: entry {id}: {text}").format(name=league.name, id=entry.id,
                                                          text=entry_text(league, entry)))
    elif what == "correct":
        points = KEEP if args.points is None else _points(args.points)
        winner = KEEP if args.winner is None else (None if args.winner.lower() == "none" else args.winner)
        teams = KEEP if args.assign is None else _pair(args.assign)
        entry = book.correct(league, args.entry, args.reason, winner=winner, points=points, teams=teams)
        say(_("league {name}: entry {id} corrected: {text}").format(name=league.name, id=entry.id,
                                                                    text=entry_text(league, entry)))
    elif what == "remove":
        entry = book.remove(league, args.entry)
        say(_("league {name}: entry {id} removed ({text})").format(name=league.name, id=entry.id,
                                                                   text=entry_text(league, entry)))


def _new(registry: Registry, book: LeagueBook, args: argparse.Namespace,
         parse_options: OptionsParser) -> League:
    game = registry.game(args.game)  # KeyError: one line
    if not game.partnerships or 4 not in game.player_counts:
        raise UsageError(_("{game} is not played by two partnerships of two").format(game=game.id))
    options = parse_options(game, args.option).model_dump(mode="json")
    pairs: list[tuple[str | None, list[str]]] = []
    for text in args.pair:
        name, sep, players = text.rpartition("=")
        pairs.append((name.strip() if sep else None, [p.strip() for p in players.split(",")]))
    return book.create(args.name, game.id, options, args.season, pairs)


def _pair(text: str) -> tuple[str, str]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise UsageError(_("--as wants two partnerships, FIRST,SECOND, not {text!r}").format(text=text))
    return parts[0], parts[1]


def _points(text: str) -> tuple[int, int]:
    try:
        first, second = (int(p) for p in text.split(","))
    except ValueError:
        raise UsageError(_("--points wants two whole numbers, A,B, not {text!r}").format(text=text)) from None
    return first, second


def _date(text: str | None) -> float:
    if text is None:
        return time.time()
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError:
        raise UsageError(_("--date wants YYYY-MM-DD, not {text!r}").format(text=text)) from None
    return time.mktime((day.year, day.month, day.day, 12, 0, 0, 0, 0, -1))


@contextlib.contextmanager
def _output(path: str | None) -> Iterator[IO[str]]:
    if path is None:
        yield sys.stdout
        return
    try:
        with open(path, "w", encoding="utf-8", newline="") as f:
            yield f
    except OSError as exc:
        raise UsageError(_("cannot write {name}: {reason}").format(
            name=path, reason=exc.strerror or exc)) from None


# --- text ------------------------------------------------------------------------------


def _game_name(registry: Registry, game_id: str, options: dict[str, Any]) -> str:
    from cardcore.apps.stats_text import variant

    game = registry.games.get(game_id)
    return f"{game.name if game else game_id} ({variant(registry, game_id, options)})"


def _day(t: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(t))


def entry_text(league: League, e: Entry) -> str:
    """One entry in words: "match 12, 2026-12-01: Ann & Bob 120 - 80 Cat & Dan, won by Ann & Bob"."""
    names = [league.partnerships[n].name for n in e.teams]
    if e.forfeit:
        text = _("forfeit, {day}: {loser} forfeited to {winner}").format(
            day=day(e.played), loser=names[1], winner=names[0])
    else:
        won = _("won by {name}").format(name=names[e.winner]) if e.winner is not None else _("nobody won")
        text = _("match {id}, {day}: {first} {a} - {b} {second}, {won}").format(
            id=e.match_id, day=day(e.played), first=names[0], a=e.points[0], b=e.points[1],
            second=names[1], won=won)
    return text + (_(" (corrected: {note})").format(note=e.note) if e.note else "")


#: The table's columns: heading, width, and the order they go in when the width is short
#: (the highest first); the partnership's column takes the rest, wrapped. A heading is
#: shown translated (a column is as wide as its heading there, at least).
COLUMNS: tuple[tuple[str, int, int], ...] = (
    (N_("played"), 6, 9), (N_("won"), 4, 10), (N_("lost"), 4, 8), (N_("drawn"), 5, 2),
    (N_("forfeits"), 8, 3), (N_("for"), 7, 6), (N_("against"), 7, 5), (N_("rating"), 6, 7), ("±", 4, 1),
)
#: The partnership's column is at least this wide.
MIN_NAME = 12


def _cells(row: TeamRow) -> dict[str, str]:
    return {"played": str(row.played), "won": str(row.won), "lost": str(row.lost), "drawn": str(row.drawn),
            "forfeits": str(row.forfeits), "for": str(row.points_for), "against": str(row.points_against),
            "rating": number(row.rating.mu, 1, grouping=False),
            "±": number(row.rating.sigma, 1, grouping=False)}


def _columns(width: int, drawn: bool) -> list[tuple[str, int]]:
    """The columns that fit in ``width`` beside a partnership's column of MIN_NAME + the
    place column, the least wanted dropped first ("drawn" only when a match was drawn)."""
    kept = [(h, max(w, len(_(h))), rank) for h, w, rank in COLUMNS if drawn or h != "drawn"]
    while kept and 3 + MIN_NAME + sum(c[1] + 1 for c in kept) > width:
        kept.remove(min(kept, key=lambda c: c[2]))
    return [(h, w) for h, w, _rank in kept]


def format_standings(registry: Registry, s: Standings, width: int) -> str:
    """The standings, the players' ratings and the entries, in lines of at most ``width``."""
    league = s.league
    out = table_lines(registry, (league.name, league.game, league.options, league.season), len(s.entries),
                      s.teams, s.players, width)
    none = _("No entries yet: `cardcore league add NAME MATCH_ID`")
    out.extend(textwrap.wrap(_("Entries") if s.entries else none, width))
    for e in s.entries:
        out.extend(textwrap.wrap(f"{e.id:>3}  {entry_text(league, e)}", width, subsequent_indent="     "))
    return "\n".join(out)


def _entries(n: int) -> str:
    return ngettext("1 entry", "{n} entries", n).format(n=n)


def table_lines(registry: Registry, head: tuple[str, str, dict[str, Any], str], entries: int,
                teams: Sequence[TeamRow], players: Sequence[PlayerRow], width: int) -> list[str]:
    """A league's heading (``head``: its name, game, options, season), table and players'
    ratings in lines of at most ``width``: the one layout of standings, here and from a
    server (``cardcore.apps.tui.screens.server_leagues``)."""
    name, game, options, season = head
    out = textwrap.wrap(_("{name} · {game} · season {season} · {entries}").format(
        name=name, game=_game_name(registry, game, options), season=season, entries=_entries(entries)), width)
    columns = _columns(width, any(t.drawn for t in teams))
    name_width = width - 3 - sum(w + 1 for _h, w in columns)
    heading = _("partnership")
    out.append(f"{'':3}{heading:<{name_width}}" + "".join(f" {_(h):>{w}}" for h, w in columns))
    for place, row in enumerate(teams, start=1):
        cells = _cells(row)
        lines = textwrap.wrap(row.name, name_width) or [""]
        out.append(f"{place:>2} {lines[0]:<{name_width}}" + "".join(f" {cells[h]:>{w}}" for h, w in columns))
        out.extend(f"{'':3}{more}" for more in lines[1:])
    out.append(_("Players"))
    for p in players:
        where = f" ({p.partnership})" if p.partnership else _(" (stood in)")
        parts = [_("{name}{where}: played {n},").format(name=p.name, where=where, n=p.played),
                 _("won {n},").format(n=p.won), p.rating.words()]
        out.extend(fit(parts, width, lead="  ", indent=4))
    return out


def export_csv(s: Standings, out: IO[str], *, entries: bool = False) -> None:
    """The standings (one row a partnership, in the table's order) or the entries, as CSV."""
    writer = csv.writer(out)
    league = s.league
    if entries:
        writer.writerow(["entry", "kind", "match", "date", "first", "second", "first_points",
                         "second_points", "winner", "first_players", "second_players", "correction"])
        for e in s.entries:
            names = [league.partnerships[n].name for n in e.teams]
            writer.writerow([e.id, e.kind, e.match_id or "", _day(e.played), *names, *e.points,
                             names[e.winner] if e.winner is not None else "", " & ".join(e.players[0]),
                             " & ".join(e.players[1]), e.note])
        return
    writer.writerow(["place", "partnership", "players", "played", "won", "lost", "drawn", "forfeits",
                     "points_for", "points_against", "rating", "rating_sigma"])
    for place, row in enumerate(s.teams, start=1):
        writer.writerow([place, row.name, " & ".join(row.players), row.played, row.won, row.lost, row.drawn,
                         row.forfeits, row.points_for, row.points_against, f"{row.rating.mu:.2f}",
                         f"{row.rating.sigma:.2f}"])
