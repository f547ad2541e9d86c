"""Hot-seat hand-over: every hand hidden until the next player presses a key."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Center, Middle
from textual.screen import ModalScreen
from textual.widgets import Static

from cardcore.apps.tui.plain import plain
from cardcore.language import _


class HandoverScreen(ModalScreen[None]):
    """Opaque: nothing of the table shows through."""

    DEFAULT_CSS = """
    HandoverScreen { background: $background; align: center middle; }
    HandoverScreen #handover-box { width: 60; height: auto; border: heavy $accent; padding: 1 2;
                                   text-align: center; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            text = Text.assemble(plain(_("Pass the keyboard to {name}.").format(name=self.player), "bold"),
                                 "\n\n", _("Every hand is hidden."), "\n",
                                 plain(_("{name}: press any key when you are ready.")
                                       .format(name=self.player)))
            yield Static(text, id="handover-box")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss(None)
