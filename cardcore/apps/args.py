"""What every command-line module shares: the usage error (one line, exit status 2), the
parser that raises it (with ``--lang`` on every command), the language chosen at start, and
argparse types for numbers in a range."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NoReturn

from cardcore.language import N_, _, from_environment, known, normal, spoken


class UsageError(Exception):
    """Bad input from the command line: one line on stderr, exit status 2."""


class Parser(argparse.ArgumentParser):
    """Every command's parser: a bad argument is a UsageError."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def add_lang(parser: argparse.ArgumentParser) -> None:
    """``--lang`` in the help. It is taken anywhere on the command line, before the parser
    is built (``explicit_language``), and taken out (``without_lang``): one option on every
    command, not one added to each of the parsers every start builds."""
    parser.add_argument("--lang", metavar="CODE", default=argparse.SUPPRESS,
                        help=_("the language to show, on any command: en or id (default: "
                               "CARDCORE_LANG, else the system's locale)"))


def without_lang(argv: Sequence[str]) -> list[str]:
    """``argv`` without its ``--lang CODE`` and ``--lang=CODE`` (those before any ``--``)."""
    out: list[str] = []
    skip, ended = False, False
    for arg in argv:
        if skip:
            skip = False
        elif ended or arg == "--":
            ended = True
            out.append(arg)
        elif arg == "--lang":
            skip = True
        elif not arg.startswith("--lang="):
            out.append(arg)
    return out


def chosen_language(argv: Sequence[str], environ: Mapping[str, str], remembered: str | None = None) -> str:
    """The language a command shows: the player's choice for this run (``explicit_language``),
    else ``remembered`` (the front end's setting, when it speaks it), else the system locale.
    An unknown ``--lang`` or ``CARDCORE_LANG`` is ``language.UnknownLanguage``."""
    explicit = explicit_language(argv, environ)
    if explicit is not None:
        return explicit
    if remembered and spoken(remembered) == normal(remembered):
        return normal(remembered)
    return from_environment(environ)


def explicit_language(argv: Sequence[str], environ: Mapping[str, str]) -> str | None:
    """``--lang CODE`` (or ``--lang=CODE``) before any ``--``, else ``CARDCORE_LANG``: a
    language chosen for this run; None when neither says one."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            return known(argv[i + 1])
        if arg.startswith("--lang="):
            return known(arg.partition("=")[2])
    chosen = environ.get("CARDCORE_LANG")
    return known(chosen) if chosen else None


#: argparse's own words (its gettext calls), so that its help and errors are translated:
#: ``speak_argparse`` points argparse's ``_`` at the core's catalog.
ARGPARSE_WORDS = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("the following arguments are required: %s"), N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"), N_("argument %(argument_name)s: %(message)s"),
    N_("expected one argument"), N_("invalid %(type)s value: %(value)r"),
    N_("not allowed with argument %s"), N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("expected at least one argument"), N_("one of the arguments %s is required"),
)


def speak_argparse() -> None:
    """argparse's own words (``usage:``, ``options``, its errors) in the language in use."""
    from cardcore.language import CORE

    argparse._ = CORE.gettext  # type: ignore[attr-defined]  # argparse calls its module's _


def number_type(convert: Callable[[str], Any], low: float, high: float, noun: str) -> Callable[[str], Any]:
    """An argparse type: ``convert(text)`` from ``low`` to ``high``, else one line naming ``noun``."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(_("wants {noun}, not {text!r}").format(
                noun=_(noun), text=text)) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(_("must be between {low} and {high}, not {value}").format(
                low=low, high=high, value=value))
        return value

    return parse


#: Where ``cardcore join`` finds a seat's secret when no ``--secret`` is given: ``cardcore
#: web`` passes it so, since every local user sees a command line in ``ps`` and an
#: environment only its own user (/proc/PID/environ).
SECRET_ENV = "CARDCORE_SECRET"


#: The narrowest and widest text the commands lay out for (a width outside is taken as these).
MIN_WIDTH, MAX_WIDTH = 20, 1000


def output_width() -> int:
    """The width the commands lay their text out for: $COLUMNS when set (the way to choose
    it when stdout is not a terminal), else the terminal's, else 80."""
    import shutil

    return min(max(shutil.get_terminal_size((80, 24)).columns, MIN_WIDTH), MAX_WIDTH)


def fit(pieces: Iterable[str], width: int, *, lead: str = "", indent: int = 0,
        sep: str = " ") -> list[str]:
    """``pieces`` ``sep`` apart, as many to a line as fit ``width`` (terminal cells), the
    first line after ``lead``, the others ``indent`` columns in: a line breaks only between
    pieces (the separator dropped there). A piece wider than a whole line alone breaks
    between its words; a word wider than a line is cut at the width."""
    from rich.cells import cell_len, chop_cells

    lines: list[str] = []
    line, empty = lead, True  # the line being filled, and whether it holds a piece yet
    for glue, word in _tokens(pieces, width - indent, sep):
        if not empty and cell_len(line) + cell_len(glue) + cell_len(word) > width:
            lines.append(line.rstrip())
            line, empty = " " * indent, True
        if empty and lines and not word.strip():
            continue  # a column's padding does not start a continuation line
        line = line + word if empty else f"{line}{glue}{word}"
        empty = False
        while cell_len(line) > width:  # one word wider than the line
            head = chop_cells(line, width)[0]
            lines.append(head)
            line = " " * indent + line[len(head):]
    lines.append(line.rstrip())
    return [x for x in lines if x] or [""]


def _tokens(pieces: Iterable[str], room: int, sep: str) -> Iterable[tuple[str, str]]:
    """(what goes before it, text) to lay out: each piece whole, or its words when the
    piece is wider than ``room`` (a whole continuation line)."""
    from rich.cells import cell_len

    for i, piece in enumerate(pieces):
        glue = sep if i else ""
        if cell_len(piece) <= room or " " not in piece.strip():
            yield glue, piece
            continue
        for j, word in enumerate(piece.split(" ")):
            yield (glue if j == 0 else " "), word
