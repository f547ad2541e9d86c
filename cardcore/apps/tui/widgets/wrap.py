"""Lines that wrap the way a narrow terminal needs: under their own start (Hanging),
short items side by side, as many to a line as fit (Flow), and a line of parts that breaks
only between them (Parts)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual.widgets import Static

from cardcore.language import _


class Flow:
    """A zone's groups side by side, as many to a line as the width takes (a side's melds
    in two or three lines, not one each), each line four columns in."""

    GAP = 3

    def __init__(self, groups: list[Text], indent: int = 4) -> None:
        self.groups = groups
        self.indent = indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        line: Text | None = None
        for group in self.groups:
            if line is not None and cell_len(line.plain) + self.GAP + cell_len(group.plain) <= width:
                line.append(" " * self.GAP)
                line.append_text(group)
                continue
            if line is not None:
                yield Hanging(line)
            line = Text.assemble(" " * self.indent, group)
        if line is not None:
            yield Hanging(line)


class Hanging:
    """One line of a zone that, too long for the width, goes on under its own start two
    columns further in (a zone's badges wrap under its title, not at the left edge)."""

    def __init__(self, line: Text) -> None:
        self.line = line
        plain = line.plain
        self.lead = len(plain) - len(plain.lstrip(" ▶"))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width, lead = options.max_width, self.lead
        indent = lead + 2
        if cell_len(self.line.plain) <= width or width < indent + 8:
            yield self.line
            return
        body = self.line[lead:]
        first = body.wrap(console, width - lead)[0]
        yield Text.assemble(self.line[:lead], first)
        rest = body[len(first.plain):]
        rest = rest[len(rest.plain) - len(rest.plain.lstrip(" ")):]
        for part in rest.wrap(console, width - indent):
            yield Text.assemble(" " * indent, part)


class Tail:
    """A row of cards shown in at most ``most`` lines: when it would take more, its first
    cards (the bottom of a pile) give way to "…N more" and the newest stay in view."""

    def __init__(self, row: Text, most: int = 2) -> None:
        plain = row.plain
        lead = len(plain) - len(plain.lstrip(" ▶"))
        self.head = row[:lead]
        self.cards = [t for t in row[lead:].split(" ") if t.plain]
        self.most = most

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        rows: list[Text] = []
        for drop in range(len(self.cards)):
            more = [Text("…" + _("{n} more").format(n=drop), style="dim")] if drop else []
            rows = self._packed(more + self.cards[drop:], width)
            if len(rows) <= self.most:
                break
        yield from rows

    def _packed(self, items: list[Text], width: int) -> list[Text]:
        """``items`` a space apart, as many to a line as fit; later lines two columns in."""
        indent = " " * (len(self.head.plain) + 2)
        rows = [self.head.copy()]
        fresh = True  # nothing on the line yet
        for item in items:
            line = rows[-1]
            if not fresh and cell_len(line.plain) + 1 + cell_len(item.plain) > width:
                line = Text(indent)
                rows.append(line)
                fresh = True
            if not fresh:
                line.append(" ")
            line.append_text(item)
            fresh = False
        return rows


class Parts:
    """Parts of a line (the status line's score, turn, hand, game, dealer) joined by
    ``SEP``, breaking only between parts: no part is cut or split at the edge (a part
    wider than the whole width alone wraps at its words). In ``most`` lines: the parts
    at ``spare`` (indices, the first left out first) give way until the rest fit, and a
    last line still too many ends in "…". A part at ``glued`` joins the one before it in
    that part's style (a score's sides), not in the separators' dim."""

    SEP = " · "

    def __init__(self, parts: list[Text], most: int | None = None, spare: Sequence[int] = (),
                 glued: Sequence[int] = ()) -> None:
        self.given = parts
        self.parts = [p for p in parts if p.plain]
        self.most = most
        self.spare = spare
        self.glued = set(glued)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        left_out: set[int] = set()
        lines = self._lines(console, width, left_out)
        for i in self.spare:
            if self.most is None or len(lines) <= self.most:
                break
            left_out.add(i)
            lines = self._lines(console, width, left_out)
        if self.most is not None and len(lines) > self.most:
            lines = lines[:self.most]
            lines[-1] = lines[-1][:max(0, width - 1)] + Text("…")
        yield from lines

    def _lines(self, console: Console, width: int, left_out: set[int]) -> list[Text]:
        out: list[Text] = []
        line: Text | None = None
        before = Text()
        for i, part in enumerate(self.given):
            if not part.plain or i in left_out:
                continue
            if line is not None and cell_len(line.plain) + len(self.SEP) + cell_len(part.plain) <= width:
                line.append(self.SEP, style=before.style if i in self.glued else "dim")
                line.append_text(part)
            else:
                if line is not None:
                    out += line.wrap(console, width)
                line = part.copy()
            before = part
        if line is not None:
            out += line.wrap(console, width)
        return out

    @property
    def plain(self) -> str:
        return self.SEP.join(p.plain for p in self.parts)


class PartsLine(Static):
    """A Static showing ``Parts`` (the table's status line); ``plain`` is the text shown."""

    plain = ""

    def show(self, parts: list[Text], most: int | None = None, spare: Sequence[int] = (),
             glued: Sequence[int] = ()) -> None:
        line = Parts(parts, most, spare, glued)
        self.plain = line.plain
        self.update(line)
