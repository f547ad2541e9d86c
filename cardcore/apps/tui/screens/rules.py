"""A game's rules, as the engine plays them, in a scrollable view."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from cardcore.apps.tui.plain import plain
from cardcore.engine.game import Game, GameOptions


class RulesScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q", "close", "Close", id="rules.close")]

    def __init__(self, game: Game, options: GameOptions | None = None) -> None:
        super().__init__()
        self.game = game
        self.options = options if options is not None else game.Options()

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules-box"):
            yield Static(plain(self.game.name, "bold"), id="rules-title")
            yield Markdown(self.game.rules(self.options))

    def on_mount(self) -> None:
        self.query_one("#rules-box").focus()

    def action_close(self) -> None:
        self.dismiss(None)
