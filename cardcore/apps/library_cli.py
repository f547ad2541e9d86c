"""The library's commands: resume, history, export, import, delete, stats (``cardcore.apps.cli``
parses the arguments and turns StoreError / RecordError into one line and exit status 2)."""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardcore.apps.args import fit, output_width
from cardcore.language import _, day_and_time

if TYPE_CHECKING:  # the store (and pydantic) load when a command opens the library
    from pathlib import Path

    from cardcore.services.plugins import Registry
    from cardcore.services.store import MatchStore, MatchSummary


def add_commands(sub: Any) -> None:
    """The library's subcommands (``sub``: the parser's subparsers)."""
    q = sub.add_parser("history", help=_("matches in the library, finished or not"))
    q.add_argument("game", nargs="?")
    q.add_argument("--unfinished", action="store_true", help=_("only matches that can be resumed"))
    q.add_argument("--limit", type=int, default=50)
    q = sub.add_parser("export", help=_("write a match's record (JSON Lines) to stdout"))
    q.add_argument("id", type=int)
    q = sub.add_parser("import", help=_("add a record's matches to the library (checked through the engine)"))
    q.add_argument("file")
    q.add_argument("--again", action="store_true",
                   help=_("import a match the library already holds as a second copy"))
    q = sub.add_parser("delete", help=_("remove a match from the library"))
    q.add_argument("id", type=int)
    q = sub.add_parser("stats",
                       help=_("wins, scores and counts per person and partnership, from the library"))
    q.add_argument("game", nargs="?")
    q = sub.add_parser("library", help=_("the match library itself: copy it to another back end"))
    kinds = q.add_subparsers(dest="library_command", required=True)
    q = kinds.add_parser("copy", help=_("copy a library into a new, empty one, then check every match "
                                        "(each a file's path or a postgresql:// URL)"))
    q.add_argument("source", metavar="FROM")
    q.add_argument("target", metavar="TO")


COMMANDS = ("history", "export", "import", "delete", "stats", "library")


def say(text: str) -> None:
    """Lines on stdout as plain text: a name, a path or an option from the library never
    moves the terminal's cursor or colours (``names.shown``, line by line)."""
    from cardcore.engine.names import shown

    print("\n".join(map(shown, text.split("\n"))))


def _shown(location: str) -> str:
    """A library's path or URL as said (a URL's password hidden)."""
    from cardcore.services.store.copy import shown_location

    return shown_location(location)


def _library() -> MatchStore:
    from cardcore.services.store import open_library

    store = open_library()
    if store.notice:
        print(f"cardcore: {store.notice}", file=sys.stderr)
    return store


def run(load: Callable[[], Registry], args: argparse.Namespace) -> None:
    """The library's command ``args.command``; ``load`` gives the plugins' registry, loaded only
    when the command reads the games (import, stats, or a game named)."""
    if args.command == "library":
        from cardcore.services.store.copy import copy_library

        copied = copy_library(args.source, args.target)
        say(_("copied {count} matches and every league from {source} to {target}; each match's record "
              "is the same in both").format(count=copied, source=_shown(args.source),
                                            target=_shown(args.target)))
        return
    registry = functools.cache(load)
    if getattr(args, "game", None) is not None:
        registry().game(args.game)  # KeyError: an unknown game, one line
    store = _library()
    try:
        if args.command == "history":
            history(store, args.game, args.unfinished, args.limit)
        elif args.command == "export":
            sys.stdout.write(store.export_record(args.id))
        elif args.command == "import":
            import_file(store, registry(), args.file, again=args.again)
        elif args.command == "delete":
            summary = store.get(args.id)
            store.delete(args.id)
            say(_("deleted match {id} ({game}, {players})").format(id=args.id, game=summary.game,
                                                                   players=summary.players()))
        elif args.command == "stats":
            say(format_stats(registry(), store, args.game, output_width()))
    finally:
        store.close()


def import_file(store: MatchStore, registry: Registry, path: str, again: bool = False) -> list[int]:
    """Each match of the record as its own library match, every one checked through the
    engine before any is added (a forged one: RecordError, nothing added). A match the
    library already holds (``record_digest``) is said in one line and not added again,
    unless ``again``. Returns the new matches' ids."""
    from cardcore.engine.journal import start_of
    from cardcore.engine.records import RecordError, split_matches
    from cardcore.services.files import read_record_lines
    from cardcore.services.store import record_digest
    from cardcore.services.store.checks import rebuild

    matches = split_matches(read_record_lines(path))
    plan: list[tuple[str, list[Any], dict[str, Any] | None, str | None]] = []
    seen: dict[str, str] = {}
    for i, numbered in enumerate(matches, start=1):
        label = _("{path} (match {i} of {n})").format(
            path=path, i=i, n=len(matches)) if len(matches) > 1 else path
        events = [event for _n, event in numbered]
        digest = record_digest(events)
        same = None if again else (seen.get(digest) or _held_as(store, events))
        seen.setdefault(digest, _("is the same as its match {i}").format(i=i))
        if same is not None:
            plan.append((label, events, None, same))
            continue
        game = registry.game(start_of(events[0]).game)  # KeyError: not installed, one line
        try:
            snapshot = rebuild(game, numbered).snapshot()
        except RecordError as exc:
            raise RecordError(_("{label}: refused: {reason}").format(label=label, reason=exc)) from None
        plan.append((label, events, snapshot, None))
    added = []
    for label, events, after, same in plan:
        if same is not None:
            say(_("{label} {same}: not imported again (`--again` imports a second copy)").format(
                label=label, same=same))
            continue
        match_id = store.import_record(events, after)
        added.append(match_id)
        summary = store.get(match_id)
        state = _("finished") if summary.finished else _("unfinished: `cardcore resume {id}`").format(
            id=match_id)
        say(_("imported {label} as match {id} ({game}, {state})").format(
            label=label, id=match_id, game=summary.game,
                                                                          state=state))
    return added


def _held_as(store: MatchStore, events: list[Any]) -> str | None:
    found = store.find_record(events)
    return None if found is None else _("is already in the library as match {id}").format(id=found)


# --- resume and replay by id ---------------------------------------------------------------


def resume_target(registry: Registry, arg: str | None) -> int | Path:
    """What ``cardcore resume [ID | FILE]`` continues: a library match's id (checked: there,
    unfinished, not held by another process, a snapshot the engine loads) or a save file."""
    from cardcore.engine.match import Match
    from cardcore.services.store import StoreError

    if arg is not None and (not arg.isdigit() or os.path.exists(arg)):
        from pathlib import Path  # here: --help loads no pathlib

        return Path(arg)  # a save file, as before the library
    store = _library()
    try:
        if arg is None:
            found = store.list_unfinished(limit=1)
            if not found:
                raise StoreError(_("no unfinished match in the library to resume"))
            match_id = found[0].id
        else:
            match_id = int(arg)
        summary = store.get(match_id)
        if summary.locked:
            raise StoreError(_("match {id} is being played in another cardcore; finish or close it there "
                               "first").format(id=match_id))
        game = registry.game(summary.game)
        try:
            Match.from_snapshot(game, store.load(match_id))
        except ValueError as exc:
            raise StoreError(_("match {id} cannot continue ({reason})").format(
                id=match_id, reason=exc)) from None
        return match_id
    finally:
        store.close()


def replay_path(arg: str) -> str:
    """``cardcore replay ID``: the library match's record in a temporary file."""
    if not arg.isdigit() or os.path.exists(arg):
        return arg
    store = _library()
    try:
        text = store.export_record(int(arg))
    finally:
        store.close()
    import tempfile

    fd, path = tempfile.mkstemp(prefix=f"cardcore-match-{arg}-", suffix=".jsonl")
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return path


# --- listing --------------------------------------------------------------------------------


#: Where a history line's continuation starts (under the game's date).
INDENT = 7


def describe(m: MatchSummary, width: int | None = None) -> list[str]:
    """A match in the history as lines that fit ``width`` (``output_width()``): its id, when,
    game, score and state, the players after them when they fit, else under them."""
    from rich.cells import cell_len

    from cardcore.engine.names import shown

    width = width if width is not None else output_width()
    totals = "-".join(map(str, m.totals)) if m.totals else "0"
    if m.finished:
        state = (_("won by {name}").format(name=m.side_names[m.winner])
                 if m.winner is not None and m.winner < len(m.side_names) else _("no winner"))
    else:
        where = (_(" (at a server table)") if m.source == "server"
                 else _(" (open elsewhere)") if m.locked else "")
        state = _("hand {n}{where}").format(n=m.hand, where=where)
    head = shown(f"{m.id:>5}  {day_and_time(m.last_played)}  {m.game:<13} {totals:<11} {state:<28}")
    players = shown(m.players())
    if cell_len(head) + 1 + cell_len(players) <= width:
        return [f"{head} {players}"]
    each = players.split(", ")  # a player ("Ann Lee (human),") is never split
    return (fit(head.rstrip().split(" "), width, indent=INDENT)
            + fit([p + "," for p in each[:-1]] + each[-1:], width, lead=" " * INDENT, indent=INDENT))


def history(store: MatchStore, game: str | None, unfinished: bool, limit: int) -> None:
    width = output_width()
    open_ = [m for m in store.list_unfinished(limit=limit, here_only=False) if game in (None, m.game)]
    heading = _("Unfinished ({n}): `cardcore resume ID` (a server's tables: `cardcore serve`)").format(
        n=len(open_))
    say("\n".join(fit(heading.split(" "), width, indent=2)))
    for m in open_:
        say("\n".join(describe(m, width)))
    if unfinished:
        return
    done = store.finished(game, limit=limit)
    heading = _("Finished ({n} most recent): `cardcore replay ID`, `cardcore export ID`").format(n=len(done))
    say("\n".join(fit(heading.split(" "), width, indent=2)))
    for m in done:
        say("\n".join(describe(m, width)))


# --- statistics -----------------------------------------------------------------------------


def format_stats(registry: Registry, store: MatchStore, game: str | None, width: int) -> str:
    """``cardcore stats``: per person and per partnership, laid out for ``width`` columns."""
    from cardcore.apps.stats_text import stats_lines

    people = store.stats(game, games=registry.games)
    pairs = store.stats(game, games=registry.games, partnerships=True)
    return "\n".join(line.text for line in stats_lines(registry, people, pairs, width))
