"""The table's message line: what the player's last key did stays until the next key or a
few seconds; what happens by itself meanwhile (a bot's move) waits its turn."""

from __future__ import annotations

from time import monotonic

from rich.text import Text
from textual.timer import Timer
from textual.widgets import Static


class MessageLine(Static):
    """``say`` what a key did (held ``hold`` seconds, or until ``release``: the next key);
    ``say(..., auto=True)`` for what came by itself: shown at once when nothing is held,
    else when the hold ends (the newest only: the move log keeps them all). Errors are
    never held back."""

    #: Seconds a key's message stays before a bot's move may replace it.
    hold = 3.0

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self._held_until = 0.0
        self._waiting: Text | None = None
        self._timer: Timer | None = None
        #: The line shown, as plain text (tests and the screen read it).
        self.plain = ""

    def say(self, message: str, error: bool = False, auto: bool = False) -> None:
        text = Text(message, style="bold red" if error else "italic")
        now = monotonic()
        if auto and not error and now < self._held_until:
            self._waiting = text
            if self._timer is None:
                self._timer = self.set_timer(self._held_until - now, self.release)
            return
        self._stop_timer()
        self._show(text)
        self._held_until = 0.0 if auto else now + self.hold

    def release(self) -> None:
        """The hold ends (the next key, or its time is up): a message that waited shows."""
        self._held_until = 0.0
        self._stop_timer()
        if self._waiting is not None:
            self._show(self._waiting)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _show(self, text: Text) -> None:
        self._waiting = None
        self.plain = text.plain
        self.update(text)
