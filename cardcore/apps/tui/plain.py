"""Data drawn as text, never as markup: a name, a side's name, a chat line, a record's field.

Textual and rich read a ``str`` handed to a widget (a Static, a DataTable cell, an option,
a rich Table cell or title) as markup: ``[/]`` in a name would raise, ``[@click=...]``
would bind a click. Every such field goes through ``plain`` instead (a ``Text`` is never
parsed); a character the names rule refuses (``cardcore.engine.names``: data written
before the rule, or sent by a server that does not keep it) is drawn as U+FFFD.
"""

from __future__ import annotations

from rich.markup import escape
from rich.text import Text

from cardcore.engine.names import shown

__all__ = ["literal", "plain"]


def plain(text: object, style: str = "") -> Text:
    """``text`` (``str()`` of anything) as a ``Text`` in ``style``, every character drawn as it is."""
    return Text(shown(str(text)), style=style, end="")


def literal(text: object) -> str:
    """``text`` as markup that draws as itself (``[/]`` escaped), for a place built of markup
    (the score sheet's rich Table keeps its own alignment and styles that way)."""
    return escape(shown(str(text)))
