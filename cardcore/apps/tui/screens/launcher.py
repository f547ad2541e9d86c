"""The launcher: every installed game, its players, description and rules; load errors; the
match library (resume an unfinished match, history, statistics)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Label, ListItem, ListView, Markdown, Static

from cardcore.apps.tui.screens.rules import rules_or_fault
from cardcore.apps.tui.widgets.footer import Footer
from cardcore.engine.game import Game
from cardcore.language import LANGUAGES, N_, _, current

if TYPE_CHECKING:
    from cardcore.apps.tui.app import CardcoreApp
    from cardcore.apps.tui.table_session import TableSession


#: Each language as the launcher's button names it, after "Language:" in that language.
LANGUAGE_WORDS = {"en": "English", "id": "Indonesia"}


def players_text(counts: tuple[int, ...]) -> str:
    counts = tuple(sorted(counts))
    if len(counts) > 1 and counts == tuple(range(counts[0], counts[-1] + 1)):
        return _("{low}–{high} players").format(low=counts[0], high=counts[-1])
    if counts == (1,):
        return _("1 player")
    return _("{counts} players").format(counts="/".join(map(str, counts)))


def language_label() -> str:
    """The language button: the language in use, in itself."""
    code = current()
    return _("Language: {name} (g)").format(name=LANGUAGE_WORDS.get(code, LANGUAGES[code]))


class GameItem(ListItem):
    def __init__(self, game: Game) -> None:
        super().__init__(id=f"game-{game.id}")
        self.game = game

    def compose(self) -> ComposeResult:
        line = Text(self.game.name, style="bold")
        line.append(f"  {players_text(self.game.player_counts)}", style="dim")
        yield Label(line)


class LauncherScreen(Screen[None]):
    """Pick a game (enter), read its rules, resume the saved match."""

    app: CardcoreApp

    class SetupRequested(Message):
        """Set up a new match of ``game``."""

        def __init__(self, game: Game) -> None:
            super().__init__()
            self.game = game

    class ResumeRequested(Message):
        """Show the unfinished matches to continue one."""

    class HistoryRequested(Message):
        """Show the finished matches."""

    class StatsRequested(Message):
        """Show the statistics."""

    class LeaguesRequested(Message):
        """Show the leagues' standings."""

    BINDINGS = [
        Binding("n", "new_match", N_("New match"), id="launcher.new"),
        Binding("r", "resume", N_("Resume"), id="launcher.resume"),
        Binding("h", "history", N_("History"), id="launcher.history"),
        Binding("s", "stats", N_("Statistics"), id="launcher.stats"),
        Binding("l", "leagues", N_("Leagues"), id="launcher.leagues",
                tooltip=N_("leagues: each league's standings and ratings")),
        Binding("j", "join_by_code", N_("Join by code"), id="launcher.join", show=False,  # a button
                tooltip=N_("join by code: a friend's table, by its code and a seat's invite")),
        Binding("g", "language", N_("Language"), id="launcher.language", show=False,  # a button
                tooltip=N_("language: English or Bahasa Indonesia (kept for the next start)")),
        Binding("q", "app.quit", N_("Quit"), id="launcher.quit"),
    ]

    def compose(self) -> ComposeResult:
        registry = self.app.registry
        with Horizontal(id="launcher"):
            with Vertical(id="game-column"):
                yield Static(_("[b]cardcore[/b] — pick a game"), id="launcher-title")
                yield ListView(*(GameItem(g) for _, g in sorted(registry.games.items(),
                                                                key=lambda kv: kv[1].name)),
                               id="games")
                if not registry.games:
                    yield Static(_("No game is installed."), classes="warning")
                with Horizontal(id="launcher-buttons"):
                    yield Button(_("New match"), id="new", variant="primary", compact=True)
                    yield Button(_("Resume"), id="resume", compact=True)
                yield Button(_("Join by code (j)"), id="join", compact=True)
                yield Button(language_label(), id="language", compact=True)
                if registry.errors:
                    yield Static(self._errors_text(), id="load-errors")
            with Vertical(id="game-detail"):
                yield Static(id="game-head")
                with VerticalScroll(id="rules-scroll"):
                    yield Markdown(id="rules")
        yield Footer(show_command_palette=False)  # ctrl+p is in the help: 80 columns keep "? Help"

    def _errors_text(self) -> Text:
        text = Text(_("Plugins that failed to load") + "\n", style="bold red")
        for err in self.app.registry.errors:
            text.append(f"✗ {err.plugin}", style="bold")
            text.append(" (" + (err.distribution or _("unknown distribution")) + ")\n", style="dim")
            text.append(f"  {err.error}\n", style="red")
        return text

    def on_mount(self) -> None:
        self._ready()

    def _ready(self, game: Game | None = None) -> None:
        """The list ready: ``game`` (else the first) highlighted and shown, the list focused."""
        self.update_resume()
        games = self.query_one("#games", ListView)
        if games.children:
            items = [item for item in games.children if isinstance(item, GameItem)]
            games.index = next((i for i, item in enumerate(items) if item.game is game), 0)
            self.show_game(self.selected_game())
        games.focus()

    def on_screen_resume(self) -> None:
        self.update_resume()

    def update_resume(self) -> None:
        """The Resume button, with the number of unfinished matches (hidden when none)."""
        unfinished = self.app.unfinished()
        button = self.query_one("#resume", Button)
        button.display = bool(unfinished)
        button.label = _("Resume ({count})").format(count=len(unfinished))
        self.refresh_bindings()

    def selected_game(self) -> Game | None:
        item = self.query_one("#games", ListView).highlighted_child
        return item.game if isinstance(item, GameItem) else None

    def show_game(self, game: Game | None) -> None:
        if game is None:
            return
        plugin, dist, version = self.app.registry.origin.get(game.id, ("?", None, None))
        head = Text(game.name + "\n", style="bold")
        head.append(game.description + "\n")
        head.append(players_text(game.player_counts), style="cyan")
        head.append(" · " + _("plugin {name}").format(name=plugin), style="dim")
        if dist:
            head.append(f" ({dist} {version or ''})".rstrip(), style="dim")
        self.query_one("#game-head", Static).update(head)
        rules = rules_or_fault(self.app.registry, game, game.Options())
        self.query_one("#rules", Markdown).update(rules)
        self.query_one("#rules-scroll", VerticalScroll).scroll_home(animate=False)

    @on(ListView.Highlighted, "#games")
    def _highlighted(self, event: ListView.Highlighted) -> None:
        if isinstance(event.item, GameItem):
            self.show_game(event.item.game)

    @on(ListView.Selected, "#games")
    def _selected(self, event: ListView.Selected) -> None:
        if isinstance(event.item, GameItem):
            self.post_message(self.SetupRequested(event.item.game))

    @on(Button.Pressed, "#new")
    def action_new_match(self) -> None:
        game = self.selected_game()
        if game is None:
            self.notify(_("No game is installed."), severity="error")
            return
        self.post_message(self.SetupRequested(game))

    @on(Button.Pressed, "#resume")
    def action_resume(self) -> None:
        self.post_message(self.ResumeRequested())

    def action_history(self) -> None:
        self.post_message(self.HistoryRequested())

    def action_stats(self) -> None:
        self.post_message(self.StatsRequested())

    @on(Button.Pressed, "#join")
    def action_join_by_code(self) -> None:
        """A friend's table on a server: its code and a seat's invite, or a link
        (screens/join_code.py); the server joined last is offered."""
        from cardcore.apps.tui.screens.join_code import JoinCodeScreen, own_connection_joiner
        from cardcore.services.net.client import DEFAULT_SERVER
        from cardcore.services.net.seat_book import SeatBook

        server = SeatBook().last_server() or DEFAULT_SERVER
        box = JoinCodeScreen(own_connection_joiner(self.app.registry), server, ask_server=True)
        self.app.push_screen(box, self._joined)

    def _joined(self, session: TableSession | None) -> None:
        if session is not None:
            self.app.open_table(session)

    @on(Button.Pressed, "#language")
    async def action_language(self) -> None:
        """The next language (of ``language.LANGUAGES``): spoken at once, this screen drawn
        anew in it, and kept for the next start (``services.settings``)."""
        codes = list(LANGUAGES)
        game = self.selected_game()
        self.app.choose_language(codes[(codes.index(current()) + 1) % len(codes)])
        await self.recompose()
        self._ready(game)

    def action_leagues(self) -> None:
        self.post_message(self.LeaguesRequested())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "new_match":
            return True if self.app.registry.games else None
        return True
