"""A game's rules, as the engine plays them, in a scrollable view."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from cardcore.apps.tui.plain import plain
from cardcore.engine.faults import PluginFault
from cardcore.engine.game import Game, GameOptions
from cardcore.language import N_, _
from cardcore.services.plugins import Registry


def rules_or_fault(registry: Registry, game: Game, options: GameOptions) -> str:
    """The game's rules (Markdown), or one line saying why a plugin's bug gave none."""
    try:
        return registry.rules(game, options)
    except PluginFault as exc:
        return _("(the rules could not be produced: {fault})").format(fault=exc)


class RulesScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q", "close", N_("Close"), id="rules.close")]

    def __init__(self, registry: Registry, game: Game, options: GameOptions | None = None) -> None:
        super().__init__()
        self.registry = registry
        self.game = game
        self.options = options if options is not None else game.Options()

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules-box"):
            yield Static(plain(self.game.name, "bold"), id="rules-title")
            yield Markdown(rules_or_fault(self.registry, self.game, self.options))

    def on_mount(self) -> None:
        self.query_one("#rules-box").focus()

    def action_close(self) -> None:
        self.dismiss(None)
