"""Textual's footer, its keys' words in the language in use.

Bindings are made when their module is imported, in English, before the language is
chosen (and the launcher can change it): their words are marked with ``N_`` and
translated here, each time the footer is drawn (docs/languages.md)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey

from cardcore.language import N_, _

#: Textual's own word for the command palette's key, said in the language in use too.
PALETTE = N_("palette")


def spoken(words: str) -> str:
    """``words`` in the language in use; nothing stays nothing (gettext's ``""`` is the
    catalog's header)."""
    return _(words) if words else words


class Footer(TextualFooter):
    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                widget.description = spoken(widget.description)
                if isinstance(widget.tooltip, str):
                    widget.tooltip = spoken(widget.tooltip)
            yield widget
