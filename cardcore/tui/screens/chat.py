"""A chat line for the table (tables on a server): one input, enter sends, esc drops it."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from cardcore.net.protocol import MAX_CHAT_CHARS


class ChatScreen(ModalScreen[str | None]):
    """Dismissed with the line to send, or None."""

    DEFAULT_CSS = """
    ChatScreen { align: center bottom; }
    ChatScreen #chat-box { width: 90%; max-width: 80; height: auto; border: round $accent;
                           padding: 0 1; margin-bottom: 2; }
    """

    BINDINGS = [Binding("escape", "drop", "Cancel", id="chat.drop")]

    def compose(self) -> ComposeResult:
        with Vertical(id="chat-box"):
            yield Static("[b]Say to the table[/b] (enter sends, esc cancels)")
            yield Input(placeholder="a line for everyone at the table", max_length=MAX_CHAT_CHARS,
                        id="chat-input")

    def on_mount(self) -> None:
        self.query_one("#chat-input", Input).focus()

    @on(Input.Submitted, "#chat-input")
    def _sent(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_drop(self) -> None:
        self.dismiss(None)
