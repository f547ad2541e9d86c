"""One line of text asked for (a chat line, a seat's link): enter gives it, esc drops it."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from cardcore.language import N_


class LineScreen(ModalScreen[str | None]):
    """Dismissed with the line typed (stripped), or None."""

    DEFAULT_CSS = """
    LineScreen { align: center bottom; }
    LineScreen #line-box { width: 90%; max-width: 90; height: auto; border: round $accent;
                           padding: 0 1; margin-bottom: 2; }
    """

    BINDINGS = [Binding("escape", "drop", N_("Cancel"), id="line.drop")]

    def __init__(self, prompt: str | Text, placeholder: str = "", max_length: int = 0) -> None:
        """``prompt``: markup (a str, the app's own words) or a Text (one that names data)."""
        super().__init__()
        self.prompt = prompt
        self.placeholder = placeholder
        self.max_length = max_length

    def compose(self) -> ComposeResult:
        with Vertical(id="line-box"):
            yield Static(self.prompt)
            yield Input(placeholder=self.placeholder, max_length=self.max_length, id="line-input")

    def on_mount(self) -> None:
        self.query_one("#line-input", Input).focus()

    @on(Input.Submitted, "#line-input")
    def _given(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_drop(self) -> None:
        self.dismiss(None)
