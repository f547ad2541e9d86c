"""The ``cardcore`` command: launcher, play, resume, plugins, rules, simulate, replay, and the
match library's history, export, import, delete and stats (``cardcore.apps.library_cli``).

A command imports what it uses when it runs: parsing the arguments (and ``--help``) needs
argparse alone, the engine, pydantic, the store, Textual and websockets come with the
commands that use them (docs/design.md, Start-up)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any

from cardcore.apps.args import (
    Parser,
    UsageError,
    add_lang,
    chosen_language,
    explicit_language,
    number_type,
    output_width,
    speak_argparse,
    without_lang,
)
from cardcore.engine.faults import PluginLoadInterrupted
from cardcore.language import N_, _, number, percent

if TYPE_CHECKING:
    from cardcore.engine.match_setup import Setup
    from cardcore.services.plugins import Registry

#: A count on the command line: a whole number from 1 to a million.
_count = number_type(int, 1, 1_000_000, N_("a whole number"))


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="cardcore", description=_("Card games at a terminal table."))
    add_lang(p)
    sub = p.add_subparsers(dest="command", parser_class=Parser)

    def match_flags(q: argparse.ArgumentParser) -> None:
        q.add_argument("game")
        q.add_argument("--players", type=_count)
        q.add_argument("--seats", help=_("comma-separated: human or a bot id per seat"))
        q.add_argument("--target", type=int)
        q.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
        q.add_argument("--seed", type=int)

    q = sub.add_parser("play", help=_("start a match in the TUI"))
    match_flags(q)
    q.add_argument("--names", metavar="NAME,NAME,...",
                   help=_("comma-separated: each seat's name (a human's is kept as a profile)"))
    q = sub.add_parser("resume",
                       help=_("continue a match from the library (the most recent), or a save file"))
    q.add_argument("file", nargs="?", metavar="ID | FILE")
    sub.add_parser("plugins", help=_("installed games, bots, plugins and load errors"))
    q = sub.add_parser("rules", help=_("the rules as the engine plays them"))
    q.add_argument("game")
    q.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    q = sub.add_parser("simulate", help=_("bots play whole matches"))
    match_flags(q)
    q.add_argument("--matches", type=_count, required=True)
    q.add_argument("--record", metavar="FILE")
    q.add_argument("--json", action="store_true")
    from cardcore.apps.tournament_cli import add_parser

    add_parser(sub, _count)
    q = sub.add_parser("replay", help=_("step through a record (a file, or a library match's id) in the TUI"))
    q.add_argument("file", metavar="FILE | ID")
    q.add_argument("--match", type=_count, metavar="N",
                   help=_("a record of several matches (simulate --record): the Nth (1: the first)"))
    q = sub.add_parser("new-game", help=_("write a new game plugin package, ready to play, to start from"))
    q.add_argument("name", help=_("the game's id: lower-case letters, digits and _"))
    from cardcore.apps.library_cli import add_commands

    add_commands(sub)
    from cardcore.apps.serve_cli import add_parser as add_serve

    add_serve(sub, _count)
    from cardcore.apps.remote_cli import add_parsers as add_remote

    add_remote(sub)
    from cardcore.apps.league_cli import add_parser as add_league

    add_league(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        start_language(argv)
    except ValueError as exc:  # an unknown language: said in English, the one known to all
        return _fail(str(exc), 2)
    try:
        args = build_parser().parse_args(without_lang(argv))
        if getattr(args, "lang", None):  # an abbreviation (--la id) argparse took: from now on
            from cardcore.language import known, set_language

            set_language(known(args.lang))
        status = _dispatch(args)
        sys.stdout.flush()
        return status
    except UsageError as exc:
        return _fail(str(exc), 2)
    except PluginLoadInterrupted as exc:
        return _fail(str(exc), 130, prefix="cardcore: ")
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``cardcore simulate --json | head -1``): stop quietly.
        _silence_stdout()
        return 141
    except OSError as exc:  # stdout on a full disk or /dev/full
        _silence_stdout()
        return _fail(_("cannot write the output ({reason})").format(reason=exc.strerror or exc), 2)


def start_language(argv: Sequence[str]) -> None:
    """The process's language, once, before anything is shown: ``--lang``, ``CARDCORE_LANG``,
    the launcher's remembered language, the system locale (docs/languages.md); argparse's
    own words follow it. The settings file is read (with pydantic) only when there is one."""
    import os

    from cardcore import language

    remembered = None
    if explicit_language(argv, os.environ) is None:
        from cardcore.services import home

        if home.has_settings():  # pydantic and the settings module only then
            from cardcore.services import settings

            remembered = settings.remembered_language()
    language.set_language(chosen_language(argv, os.environ, remembered))
    if language.current() != language.ENGLISH:
        speak_argparse()


def _fail(message: str, status: int, prefix: str | None = None) -> int:
    """One line on stderr, whatever the message held (a name or a path in it is shown as
    text: no escape sequence reaches the terminal); ``prefix``: ``cardcore: error: ``."""
    from cardcore.engine.names import shown

    prefix = "cardcore: " + _("error: ") if prefix is None else prefix
    print(prefix + shown(" ".join(message.split())), file=sys.stderr)
    return status


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail again."""
    import os

    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _dispatch(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except KeyError as exc:  # an unknown game
        raise UsageError(str(exc.args[0])) from None
    except ValueError as exc:  # bad files, cards, positions or options: one clear line
        raise UsageError(_one_line(exc)) from None
    except Exception as exc:
        from cardcore.services.store import StoreError  # on the way out only

        if isinstance(exc, StoreError):
            raise UsageError(str(exc)) from None
        raise


def _one_line(exc: ValueError) -> str:
    """A ValueError's message (pydantic's: its first complaint, ``field.path: message``)."""
    from pydantic import ValidationError  # loaded already by whatever raised one

    if isinstance(exc, ValidationError):
        from cardcore.engine.complaints import first_error

        return first_error(exc)
    return str(exc)


def load_registry() -> Registry:
    """The plugins, loaded when a command needs them (never to parse the command line)."""
    from cardcore.services import plugins

    return plugins.load_registry()


def _run(args: argparse.Namespace) -> int:
    from cardcore.apps import library_cli

    if args.command is None:
        from cardcore.apps.tui import run_launcher

        run_launcher()
        return 0
    if args.command == "new-game":
        return _new_game(args.name)
    if args.command == "plugins":
        return _plugins()
    if args.command in library_cli.COMMANDS:
        library_cli.run(load_registry, args)
        return 0
    command = _COMMANDS[args.command]
    return command(load_registry(), args) or 0


def _new_game(name: str) -> int:
    from cardcore.apps.newgame import NewGameError, new_game

    try:
        print(_("wrote {path}: pip install it, then cardcore play {name}").format(
            path=new_game(name), name=name))
    except NewGameError as exc:
        raise UsageError(str(exc)) from None
    return 0


def _rules(registry: Registry, args: argparse.Namespace) -> None:
    from cardcore.engine.faults import PluginFault
    from cardcore.engine.option_fields import options_markdown

    game = _game(registry, args.game)
    try:
        text = registry.rules(game, parse_options(game, args.option))
    except PluginFault as exc:
        raise UsageError(str(exc)) from None
    print_markdown(f"{text.rstrip()}\n\n{options_markdown(game.Options, game.translate)}\n")


def print_markdown(text: str) -> None:
    """Markdown laid out for the output's width (``args.output_width``): styled on a
    terminal, plain text otherwise."""
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console(width=output_width(), highlight=False)
    if console.is_terminal:
        console.print(Markdown(text))
        return
    with console.capture() as captured:  # plain text: without the padding to the width
        console.print(Markdown(text))
    sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))


def _tournament(registry: Registry, args: argparse.Namespace) -> int:
    from cardcore.apps.tournament_cli import command

    return command(registry, args)


def _play(registry: Registry, args: argparse.Namespace) -> None:
    from cardcore.apps.tui import run_play

    run_play(match_setup(registry, args, humans_allowed=True))


def _replay(registry: Registry, args: argparse.Namespace) -> None:
    from cardcore.apps import library_cli
    from cardcore.apps.tui import run_replay
    from cardcore.engine.journal import start_of
    from cardcore.engine.records import split_matches
    from cardcore.services.files import read_record_lines

    path = library_cli.replay_path(args.file)
    matches = split_matches(read_record_lines(path))
    n = len(matches)
    if args.match is not None and args.match > n:
        held = _("one match") if n == 1 else _("{n} matches (--match 1 to {n})").format(n=n)
        raise UsageError(_("{file} holds {held}, not a match {n}").format(
            file=args.file, held=held, n=args.match))
    index = (args.match or 1) - 1
    _game(registry, start_of(matches[index][0][1]).game)
    if args.match is None and n > 1:
        print("cardcore: " + _("{file} holds {n} matches: the first is shown; `--match N` picks "
                               "another (or m in the replay)").format(file=args.file, n=n), file=sys.stderr)
    run_replay(path, index)


def _resume(registry: Registry, arg: str | None) -> None:
    from cardcore.apps import library_cli, tui
    from cardcore.services.files import read_save

    target = library_cli.resume_target(registry, arg)
    if not isinstance(target, int):
        _game(registry, read_save(target).match.get("game", "?"))
        tui.run_resume(str(target))
        return
    tui.run_resume_match(target)


def _open_record(name: str) -> IO[str]:
    """A new or regular file to write the record to (never a device, FIFO or directory)."""
    import os
    import stat

    try:
        if os.path.lexists(name) and not stat.S_ISREG(os.stat(name).st_mode):
            raise UsageError(_("--record {name}: not a regular file").format(name=name))
        return open(name, "w", encoding="utf-8", newline="\n")
    except OSError as exc:
        raise UsageError(_("cannot write {name}: {reason}").format(
            name=name, reason=exc.strerror or exc)) from None


# --- shared argument handling ----------------------------------------------------------


def _game(registry: Registry, game_id: object) -> Any:
    if not isinstance(game_id, str):
        raise UsageError(_("not a game id: {value}").format(value=json.dumps(game_id)[:40]))
    try:
        return registry.game(game_id)
    except KeyError as exc:
        raise UsageError(exc.args[0]) from None


#: An option value is a short thing: a number, a word, a small list.
MAX_OPTION_CHARS = 1000


def parse_value(text: str) -> Any:
    if len(text) > MAX_OPTION_CHARS:
        raise UsageError(_("option value too long ({n} characters; at most {most})").format(
            n=len(text), most=MAX_OPTION_CHARS))
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text
    except RecursionError:
        raise UsageError(_("option value nested too deeply")) from None


def _option_values(pairs: list[str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(_("--option wants KEY=VALUE, got {pair!r}").format(pair=pair))
        values[key.strip()] = parse_value(value.strip())
    return values


def parse_options(game: Any, pairs: list[str], target: int | None = None) -> Any:
    from cardcore.engine.match_setup import SetupError, game_options

    values = _option_values(pairs)
    if target is not None:
        values["target"] = target
    try:
        return game_options(game, values)
    except SetupError as exc:
        raise UsageError(str(exc)) from None


def match_setup(registry: Registry, args: argparse.Namespace, humans_allowed: bool) -> Setup:
    """The match the flags ask for, checked in one place (``MatchSetup.check``)."""
    from cardcore.engine.bots.variant import split_specs
    from cardcore.engine.match_setup import MatchSetup, SetupError

    game = _game(registry, args.game)
    values = _option_values(args.option)
    seats = split_specs(args.seats) if args.seats else None
    players = args.players if args.players is not None else (len(seats) if seats else game.player_counts[0])
    if seats is None:
        default = ["greedy"] * players
        seats = ["human", *default[1:]] if humans_allowed else default
    elif len(seats) != players:
        raise UsageError(_("--seats names {n} seats for {players} players").format(
            n=len(seats), players=players))
    seed = args.seed if args.seed is not None else int(time.time())
    names = [n.strip() for n in args.names.split(",")] if getattr(args, "names", None) else None
    if names is not None and len(names) != players:
        raise UsageError(_("--names names {n} seats for {players} players").format(
            n=len(names), players=players))
    try:
        setup = MatchSetup.of(game=game.id, options=values, seats=seats, seed=seed, target=args.target,
                              names=names, humans_allowed=humans_allowed).check(registry)
    except SetupError as exc:
        raise UsageError(str(exc)) from None
    return _said_defaults(setup) if names is None and humans_allowed else setup


def _said_defaults(setup: Setup) -> Setup:
    """A match set up here names its seats as its players read the default names (Selatan,
    Pemain 1): English unchanged; a default name makes no profile (``profiles.with_people``)."""
    from dataclasses import replace

    from cardcore.engine.seating import said_names
    from cardcore.language import ENGLISH, current

    if current() == ENGLISH:
        return setup
    return replace(setup, names=list(said_names(setup.game.seating(setup.players, setup.options).names)))


# --- plugins -------------------------------------------------------------------------


def _plugins() -> int:
    """``cardcore plugins``: the listing kept when nothing it was made from changed
    (``plugin_listing``: no plugin imported), else made from the plugins and kept."""
    from cardcore import language
    from cardcore.services import plugin_listing

    said = language.current()
    text = plugin_listing.kept(said)
    if text is None:
        registry = load_registry()
        text = plugins_text(registry)
        if not registry.errors:
            modules = ["cardcore", *(type(g).__module__ for g in registry.games.values()),
                       *(b.__module__ for b in registry.bots.values())]
            plugin_listing.keep(said, text, modules)
    sys.stdout.write(text)
    return 0


def plugins_text(registry: Registry) -> str:
    """The games, the bots (weakest first) and the load errors, as ``cardcore plugins``
    lists them."""
    lines = [_("Games:")]
    for gid, game in sorted(registry.games.items()):
        plugin, dist, version = registry.origin[gid]
        players = "/".join(map(str, game.player_counts))
        lines.append(_("  {id:<14} {name:<16} players {players:<7} plugin {plugin} ({dist} {version})")
                     .format(id=gid, name=game.name, players=players, plugin=plugin, dist=dist or "-",
                             version=version or "").rstrip())
    from cardcore.engine.bots.builtin import by_strength

    lines.append(_("Bots (weakest first):"))
    for bid in by_strength(registry.bots):
        bot = registry.bots[bid]
        plugin, dist, version = registry.origin["bot:" + bid]
        games = ", ".join(bot.games) if bot.games else _("any game")
        lines.append(_("  {id:<14} {games:<24} plugin {plugin}").format(id=bid, games=games, plugin=plugin))
        if bot.description:
            lines.append(f"  {'':<14} {bot.description}")
    if registry.errors:
        lines.append(_("Load errors:"))
        for err in registry.errors:
            where = err.distribution or _("unknown distribution")
            lines.append(f"  {err.plugin} ({where}): {err.error}")
    return "".join(line + "\n" for line in lines)


# --- simulate ------------------------------------------------------------------------


def simulate(registry: Registry, args: argparse.Namespace) -> None:
    from cardcore.engine.faults import describe
    from cardcore.services.files import RecordWriter
    from cardcore.services.tournament import play_match

    setup = match_setup(registry, args, humans_allowed=False)
    record = _open_record(args.record) if args.record else None
    game, n, seed = setup.game, setup.players, int(setup.seed)
    stats = _Stats(n_sides=game.seating(n, setup.options).sides)
    start = time.perf_counter()
    try:
        for m in range(args.matches):
            seats = setup.seats[m % n:] + setup.seats[:m % n]  # rotate seats across matches
            try:
                match = play_match(registry, game, setup.options, seats, seed + m, match_no=m,
                                   on_event=RecordWriter(record) if record else None, pm=registry.pm)
            except OSError as exc:
                if record is not None and exc.filename is None:
                    raise UsageError(_("cannot write {name}: {reason}").format(
                        name=args.record, reason=exc.strerror or exc)) from None
                raise
            except Exception as exc:  # a plugin's game or bot failed: name it, one line
                raise UsageError(_("match {n} (seed {seed}): {failure}").format(
                    n=m, seed=seed + m, failure=describe(exc, registry.plugin_of_packages()))) from None
            stats.add(match)
            if args.json:
                print(json.dumps({"match": m, "game": game.id, "seed": seed + m,
                                  "seats": seats, "winner": match.winner,
                                  "totals": match.sheet.totals, "hands": len(match.sheet.hands)}),
                      flush=True)
            _progress(m + 1, args.matches)
    finally:
        if record:
            with contextlib.suppress(OSError):  # the write error is already reported
                record.close()
    stats.seconds = time.perf_counter() - start
    if not args.json:
        print(stats.summary(game, setup, args.matches))


class _Stats:
    def __init__(self, n_sides: int) -> None:  # no dataclass: its import is 17 ms of --help
        self.n_sides = n_sides
        self.seconds = 0.0
        self.wins = [0] * self.n_sides
        self.undecided = 0
        self.hands = 0
        self.decisions = 0
        self.hand_points = [0] * self.n_sides
        self.bot_wins: dict[str, int] = {}
        self.endings: dict[str, int] = {}

    def add(self, match: Any) -> None:
        self.hands += len(match.sheet.hands)
        self.decisions += match.decisions
        for row in match.sheet.hands:
            if "end" in row:
                self.endings[row["end"]] = self.endings.get(row["end"], 0) + 1
            for i, side in enumerate(row["sides"]):
                self.hand_points[i] += side["total"]
        if match.winner is None:
            self.undecided += 1
            return
        self.wins[match.winner] += 1
        seating = match.seating
        for bot in {match.seats[s] for s in seating.seats_of(match.winner)}:
            self.bot_wins[bot] = self.bot_wins.get(bot, 0) + 1

    def summary(self, game: Any, setup: Setup, matches: int) -> str:
        lines = [_("{game}: {matches} matches, seed {seed}, seats {seats} (rotated), target {target}").format(
            game=game.name, matches=matches, seed=setup.seed, seats=",".join(setup.seats),
            target=setup.options.target)]
        for side in range(self.n_sides):
            mean = self.hand_points[side] / max(self.hands, 1)
            lines.append(_("  side {side}: {wins} wins, mean hand score {mean}").format(
                side=side, wins=self.wins[side], mean=number(mean, 2, grouping=False)))
        if self.undecided:
            lines.append(_("  undecided: {n}").format(n=self.undecided))
        bots = ", ".join(f"{b} {w}" for b, w in sorted(self.bot_wins.items()))
        lines.append(_("  wins by bot: {bots}").format(bots=bots))
        lines.append(_("  hands per match: {n}").format(n=number(self.hands / matches, 2, grouping=False)))
        if self.endings:
            shares = ", ".join(f"{end} {percent(n / self.hands)}" for end, n in sorted(self.endings.items()))
            lines.append(_("  hands ending by: {shares}").format(shares=shares))
        rate = self.decisions / self.seconds if self.seconds else 0.0
        lines.append(_("  decisions: {n} in {seconds} s ({rate}/s)").format(
            n=self.decisions, seconds=number(self.seconds, 2, grouping=False), rate=number(rate)))
        return "\n".join(lines)


def _progress(done: int, total: int) -> None:
    if not sys.stderr.isatty():
        if done == total:
            print(_("{done}/{total} matches").format(done=done, total=total), file=sys.stderr)
        return
    width = 30
    filled = width * done // total
    bar = "#" * filled + "." * (width - filled)
    end = "\n" if done == total else ""
    print(f"\r[{bar}] {done}/{total}", end=end, file=sys.stderr, flush=True)


#: The commands that need the plugins, by name (the library's own are in library_cli).
_COMMANDS: dict[str, Callable[[Registry, argparse.Namespace], int | None]] = {
    "rules": _rules,
    "simulate": lambda registry, args: simulate(registry, args),
    "tournament": _tournament,
    "play": _play,
    "resume": lambda registry, args: _resume(registry, args.file),
    "replay": _replay,
    "serve": lambda registry, args: _serve(registry, args),
    "join": lambda registry, args: _remote("join", registry, args),
    "web": lambda registry, args: _remote("web", registry, args),
    "league": lambda registry, args: _league(registry, args),
}


def _league(registry: Registry, args: argparse.Namespace) -> int:
    from cardcore.apps.league_cli import command

    return command(registry, args, parse_options)


def _remote(command: str, registry: Registry, args: argparse.Namespace) -> int:
    from cardcore.apps import remote_cli

    return remote_cli.join(registry, args) if command == "join" else remote_cli.web(registry, args)


def _serve(registry: Registry, args: argparse.Namespace) -> int:
    from cardcore.apps.serve_cli import command

    return command(registry, args)


if __name__ == "__main__":
    sys.exit(main())
