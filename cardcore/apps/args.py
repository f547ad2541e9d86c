"""What every command-line module shares: the usage error (one line, exit status 2), the
parser that raises it, and argparse types for numbers in a range."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import Any, NoReturn


class UsageError(Exception):
    """Bad input from the command line: one line on stderr, exit status 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def number_type(convert: Callable[[str], Any], low: float, high: float, noun: str) -> Callable[[str], Any]:
    """An argparse type: ``convert(text)`` from ``low`` to ``high``, else one line naming ``noun``."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"wants {noun}, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be between {low} and {high}, not {value}")
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
