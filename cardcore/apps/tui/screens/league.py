"""The leagues of the library (``l`` in the launcher): each league's table, its players'
ratings and its entries, computed as ``cardcore league show`` computes them
(``cardcore.services.league.standings``; docs/leagues.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Label, ListItem, ListView, Static

from cardcore.apps.tui.plain import plain
from cardcore.apps.tui.widgets.footer import Footer
from cardcore.engine.names import shown
from cardcore.language import N_, _
from cardcore.services.league.book import LeagueBook
from cardcore.services.league.standings import Standings, standings
from cardcore.services.store import StoreError

if TYPE_CHECKING:
    from cardcore.apps.tui.app import CardcoreApp

T = TypeVar("T")
EMPTY = N_("No league yet. A league keeps the running score of fixed partnerships across matches:\n"
         "cardcore league new NAME --game GAME --pair A,B --pair C,D ... (docs/leagues.md)")


class LeagueItem(ListItem):
    def __init__(self, name: str, season: str) -> None:
        super().__init__()
        self.league_name, self.season = name, season

    def compose(self) -> ComposeResult:
        yield Label(plain(self.league_name, "bold"))
        yield Label(plain(_("season {number}").format(number=self.season), "dim"))


class LeagueScreen(Screen[None]):
    """The leagues on the left; the highlighted one's standings on the right. The library's
    here; a server's in ``ServerLeaguesScreen`` (the same screen, another source)."""

    app: CardcoreApp
    DEFAULT_CSS = """
    #league-title { height: 1; padding: 0 1; background: $panel; }
    #leagues { width: 18; height: 1fr; border: round $primary; }
    #leagues > ListItem { height: 2; }
    #league-scroll { height: 1fr; padding: 0 1; }
    """

    BINDINGS = [Binding("escape,q", "app.pop_screen", N_("Back"), id="league.back")]
    EMPTY = EMPTY

    def __init__(self) -> None:
        super().__init__()
        self.title_text = _("Leagues")
        #: The highlighted league's standings, laid out for a width (None: none shown).
        self.standings_layout: Callable[[int], str] | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(_("{title} — ↑ ↓: choose a league").format(title=self.title_text), style="bold"),
                     id="league-title")
        with Horizontal():
            yield ListView(id="leagues")
            with VerticalScroll(id="league-scroll"):
                yield Static(id="standings")
        yield Footer()

    def on_mount(self) -> None:
        leagues = self.read(lambda book: book.leagues()) or []
        self.fill([(lg.name, lg.season) for lg in leagues])

    def fill(self, leagues: list[tuple[str, str]]) -> None:
        """The list of leagues (name, season); the first one chosen."""
        view = self.query_one("#leagues", ListView)
        view.extend(LeagueItem(name, season) for name, season in leagues)
        if not leagues:
            view.display = False
            self.query_one("#standings", Static).update(Text(_(self.EMPTY)))
            return
        view.index = 0
        view.focus()

    def read(self, fn: Callable[[LeagueBook], T]) -> T | None:
        """``fn(book)`` on the app's library, or None (and one notify) when it cannot be read."""
        store = self.app.library()
        if store is None:
            self.notify(self.app.library_problem or _("The library cannot be opened."), severity="error")
            return None
        try:
            book = LeagueBook(store)
            try:
                return fn(book)
            finally:
                book.close()
        except StoreError as exc:
            self.notify(str(exc), severity="error", title=_("Leagues"))
            return None

    @on(ListView.Highlighted, "#leagues")
    def _highlighted(self, event: ListView.Highlighted) -> None:
        if isinstance(event.item, LeagueItem):
            self.choose(event.item.league_name)

    def choose(self, name: str) -> None:
        """Show league ``name``'s standings."""
        from cardcore.apps.league_cli import format_standings

        def read(book: LeagueBook) -> Standings:
            league = book.get(name)
            return standings(league, book.entries(league))

        found = self.read(read)
        registry = self.app.registry
        self.standings_layout = None if found is None else (
            lambda width: format_standings(registry, found, width))
        self.draw()

    def on_resize(self) -> None:
        self.call_after_refresh(self.draw)

    def draw(self) -> None:
        """The shown league's standings laid out for the width there is (as ``cardcore league
        show`` lays them out for the terminal's)."""
        if self.standings_layout is None:
            return
        width = self.query_one("#league-scroll", VerticalScroll).scrollable_content_region.width
        text = self.standings_layout(max(width - 1, 20))
        self.query_one("#standings", Static).update(Text("\n".join(map(shown, text.split("\n")))))
