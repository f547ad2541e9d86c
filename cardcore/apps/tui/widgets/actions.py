"""The legal actions, numbered 1-9 a page; the table filters them by the picked cards.

Within one turn of a player the numbers keep their meaning (docs/tui.md, "Action
numbers"): the list keeps the order it had when the turn began, an action the player's
own move made impossible stays in its place marked (its number refused), and the actions
that became possible come after the others.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from cardcore.apps.tui.widgets.cards import card_style
from cardcore.apps.tui.widgets.wrap import Hanging
from cardcore.engine.game import Action
from cardcore.language import _

PAGE = 9
_GLYPH = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|Jkr")
_SUIT_OF = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def coloured_label(label: str, palette: str = "two") -> Text:
    """An action label with its card glyphs in suit colours."""
    text = Text(label)
    for m in _GLYPH.finditer(label):
        token = m.group()
        card = "JK" if token == "Jkr" else "x" + _SUIT_OF[token[-1]]
        text.stylize(card_style(card, palette), m.start(), m.end())
    return text


@dataclass(frozen=True)
class Row:
    """One numbered line: a legal action (``index`` into the legal list), or an action
    listed earlier this turn that is no longer legal (``index`` None; ``played`` when the
    player played it)."""

    label: str
    index: int | None
    played: bool = False


def carried(order: Sequence[str], legal: Sequence[Action]) -> list[str]:
    """The turn's order after the player's own move: every label keeps its place (a label
    says what an action does), the new ones come after, in the game's order."""
    known = set(order)
    return [*order, *(a.label for a in legal if a.label not in known)]


def rows_of(order: Sequence[str], legal: Sequence[Action], played: Collection[str],
            keep: Callable[[Action], bool] | None = None) -> list[Row]:
    """The rows in the turn's ``order``: every label, the ones no longer legal marked; or,
    narrowed by ``keep`` (the picks), only the legal actions it keeps, numbered anew."""
    index = {a.label: i for i, a in enumerate(legal)}
    out = []
    for label in order:
        i = index.get(label)
        if i is None:
            if keep is None:
                out.append(Row(label, None, label in played))
        elif keep is None or keep(legal[i]):
            out.append(Row(label, i))
    return out


def gone_note(row: Row) -> str:
    return _("played") if row.played else _("not now")


class ActionList(OptionList):
    """One page of rows; option ids are indexes into the table's list of legal actions (a
    row no longer legal is shown struck through, marked in words, and cannot be chosen)."""

    DEFAULT_CSS = """
    ActionList { height: auto; max-height: 11; }
    """

    def show(self, rows: Sequence[Row], page: int, palette: str = "two",
             hint: int | None = None, highlight: int | None = None) -> None:
        """Show page ``page`` of ``rows``."""
        chunk = rows[page * PAGE:(page + 1) * PAGE]
        options = []
        for n, row in enumerate(chunk, start=1):
            if row.index is None:
                prompt = Text(f"{n} ", style="dim")
                prompt.append(row.label, style="dim strike")
                prompt.append(f" · {gone_note(row)}", style="dim italic")
                options.append(Option(Hanging(prompt), disabled=True))
                continue
            prompt = Text(f"{n} ", style="bold")
            prompt.append_text(coloured_label(row.label, palette))
            if row.index == hint:
                prompt.append("  ◆ " + _("hint"), style="bold green")
            options.append(Option(Hanging(prompt), id=str(row.index)))  # wraps under its label
        self.clear_options()
        self.add_options(options)
        live = [n for n, row in enumerate(chunk) if row.index is not None]
        if live:
            at = [n for n in live if chunk[n].index == highlight]
            self.highlighted = at[0] if at else live[0]
