"""Step through a record: every position open (``zones(None)``), with the move that led to it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Static

from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen
from cardcore.apps.tui.session import Replay
from cardcore.apps.tui.widgets.zones import ZonesView

if TYPE_CHECKING:
    from cardcore.apps.tui.app import CardcoreApp


class ReplayScreen(Screen[None]):
    app: CardcoreApp

    class Left(Message):
        """The viewer is done with the replay."""

    BINDINGS = [
        Binding("left,p", "step(-1)", "Back", id="replay.back"),
        Binding("right,n,space", "step(1)", "Forward", id="replay.forward"),
        Binding("home", "jump(0)", "First", id="replay.first"),
        Binding("end", "jump(-1)", "Last", id="replay.last"),
        Binding("s", "score_sheet", "Score sheet", id="replay.sheet"),
        Binding("q", "leave", "Leave", id="replay.leave"),
    ]

    index: reactive[int] = reactive(0)

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with VerticalScroll(id="zones-scroll", can_focus=False):  # end/home step the replay
            yield ZonesView(id="zones")
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.draw()

    def validate_index(self, value: int) -> int:
        return max(0, min(value, len(self.replay.frames) - 1))

    def watch_index(self) -> None:
        if self.is_mounted:
            self.draw()

    def draw(self) -> None:
        r = self.replay
        frame = r.frames[self.index]
        info = r.table_info(self.index, self.app.palette)  # names and sides as the match had them
        self.query_one("#zones", ZonesView).show(r.zones(self.index), info)
        status = Text(f"Replay · {r.game.name} · {r.name}", style="bold")
        status.append(f" · hand {frame.hand} · position {self.index + 1}/{len(r.frames)}")
        if frame.hand_over:
            status.append(" · hand over", style="bold")
        self.query_one("#status", Static).update(status)
        self.query_one("#message", Static).update(Text(frame.text, style="italic"))

    def action_step(self, step: int) -> None:
        self.index += step

    def action_jump(self, where: int) -> None:
        self.index = where if where >= 0 else len(self.replay.frames) - 1

    def action_score_sheet(self) -> None:
        sheet = self.replay.sheets[self.index]
        last = self.index == len(self.replay.frames) - 1
        self.app.push_screen(ScoreSheetScreen(sheet=sheet, winner=self.replay.winner if last else None,
                                              over=last and self.replay.winner is not None))

    def action_leave(self) -> None:
        self.post_message(self.Left())
