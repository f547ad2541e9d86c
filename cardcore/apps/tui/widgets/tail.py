"""Text whose end must stay in view (the move log, the score sheet's last hand)."""

from __future__ import annotations

from textual.containers import ScrollableContainer
from textual.widgets import Static


class TailStatic(Static):
    """A Static in a scroll pane that scrolls the pane to its end whenever it is resized.

    Its height is known only after layout (a line may wrap, a table grows by a hand), so a
    ``scroll_end`` called right after ``update`` scrolls to the old end; a resize comes
    after layout, with the new height."""

    #: The text last shown, without styles (set by the owner when it shows renderables).
    plain = ""

    def on_resize(self) -> None:
        parent = self.parent
        if isinstance(parent, ScrollableContainer):
            parent.scroll_end(animate=False, immediate=True)
