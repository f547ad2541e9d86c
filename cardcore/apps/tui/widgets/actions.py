"""The legal actions, numbered 1-9 a page; the table filters them by the picked cards."""

from __future__ import annotations

import re

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from cardcore.apps.tui.widgets.cards import card_style
from cardcore.apps.tui.widgets.wrap import Hanging
from cardcore.engine.game import Action

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


class ActionList(OptionList):
    """One page of actions; option ids are indexes into the table's list of legal actions."""

    DEFAULT_CSS = """
    ActionList { height: auto; max-height: 11; }
    """

    def show(self, actions: list[tuple[int, Action]], page: int, palette: str = "two",
             hint: int | None = None, highlight: int | None = None) -> None:
        """Show page ``page`` of ``actions`` (pairs of index in the legal list, action)."""
        chunk = actions[page * PAGE:(page + 1) * PAGE]
        options = []
        for n, (index, action) in enumerate(chunk, start=1):
            prompt = Text(f"{n} ", style="bold")
            prompt.append_text(coloured_label(action.label, palette))
            if index == hint:
                prompt.append("  ◆ hint", style="bold green")
            options.append(Option(Hanging(prompt), id=str(index)))  # wraps under its label
        self.clear_options()
        self.add_options(options)
        if options:
            ids = [index for index, _ in chunk]
            self.highlighted = ids.index(highlight) if highlight in ids else 0
