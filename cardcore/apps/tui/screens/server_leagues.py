"""A server's leagues in the front end (docs/leagues.md, "At a server"): ``l`` in its lobby
lists them (``leagues``) with the chosen one's standings (``league``), and the score sheet
of a league match that is over shows the league's table as it is now. The standings are
laid out by ``league_cli.table_lines``, as the library's own (one layout)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.widgets import Static

from cardcore.apps.tui.screens.league import LeagueScreen
from cardcore.engine.names import shown
from cardcore.language import N_, _
from cardcore.services.league.standings import PlayerRow, Rating, TeamRow
from cardcore.services.net import protocol as p
from cardcore.services.net.client import ClientError, Connection
from cardcore.services.plugins import Registry

if TYPE_CHECKING:
    from cardcore.apps.tui.app import CardcoreApp

EMPTY = N_("No league on this server yet. Its host makes one: cardcore league --library FILE new NAME "
         "--game GAME --pair A,B --pair C,D (docs/leagues.md).")


def standings_text(registry: Registry, answer: p.Standings, width: int) -> str:
    """A server's ``standings`` in lines of at most ``width``, as ``cardcore league show``
    lays out a library's (without the entries, which the answer only counts)."""
    from cardcore.apps.league_cli import table_lines

    teams = [TeamRow(n, t.name, _two(t.players), t.played, t.won, t.lost, t.drawn, t.forfeits,
                     t.points_for, t.points_against, Rating(t.mu, t.sigma))
             for n, t in enumerate(answer.teams)]
    players = [PlayerRow(q.name, q.partnership, q.played, q.won, Rating(q.mu, q.sigma))
               for q in answer.players]
    head = (answer.league, answer.game, answer.options, answer.season)
    return "\n".join(table_lines(registry, head, answer.entries, teams, players, width))


def _two(players: list[str]) -> tuple[str, str]:
    """A partnership's two players as the answer lists them ("" for one it leaves out)."""
    first, second = (players + ["", ""])[:2]
    return first, second


async def ask_standings(conn: Connection, name: str) -> p.Standings:
    """League ``name``'s standings from the server (ClientError, one line, if it says no)."""
    answer: p.Standings = await conn.call(p.LeagueRequest(name=name))
    return answer


class ServerLeaguesScreen(LeagueScreen):
    """The leagues of the server the lobby is connected to."""

    app: CardcoreApp
    EMPTY = EMPTY

    def __init__(self, conn: Connection, server: str) -> None:
        super().__init__()
        self.conn = conn
        self.title_text = _("Leagues on {server}").format(server=server)
        #: The chosen league's standings as the server last sent them.
        self.answer: p.Standings | None = None

    async def on_mount(self) -> None:  # type: ignore[override]
        try:
            reply: p.Leagues = await self.conn.call(p.ListLeagues())
        except ClientError as exc:
            self.query_one("#standings", Static).update(Text(_("The leagues did not come: {reason}")
                                                             .format(reason=exc), style="red"))
            return
        self.fill([(lg.name, lg.season) for lg in reply.leagues])

    def choose(self, name: str) -> None:
        self.fetch(name)

    @work(exclusive=True, group="server-league")
    async def fetch(self, name: str) -> None:
        try:
            answer = await ask_standings(self.conn, name)
        except ClientError as exc:
            self.standings_layout = None
            self.query_one("#standings", Static).update(Text(f"{name}: {exc}", style="red"))
            return
        registry = self.app.registry
        self.answer = answer
        self.standings_layout = lambda width: standings_text(registry, answer, width)
        self.draw()


class LeaguePanel(Static):
    """The league's standings as the server has them now, asked for when the panel shows
    (under the score sheet of a league match that is over: the running score goes on)."""

    DEFAULT_CSS = "LeaguePanel { height: auto; margin: 1 0 0 0; }"

    def __init__(self, league: str, ask: Callable[[], Awaitable[p.Standings]], **kwargs: object) -> None:
        super().__init__(Text(_("League {name}: asking the server for its standings…").format(name=league),
                              style="italic"),
                         **kwargs)  # type: ignore[arg-type]
        self.league = league
        self.ask = ask
        self.answer: p.Standings | None = None

    def on_mount(self) -> None:
        self.fetch()

    @work(exclusive=True, group="league-panel")
    async def fetch(self) -> None:
        try:
            self.answer = await self.ask()
        except ClientError as exc:
            self.update(Text(_("League {name}: the standings did not come ({reason}).")
                             .format(name=self.league, reason=exc), style="red"))
            return
        self.draw()
        self.call_after_refresh(self.scroll_visible, top=True, animate=False)

    def on_resize(self) -> None:
        self.draw()

    def draw(self) -> None:
        if self.answer is None:
            return
        width = self.size.width or self.app.size.width - 8
        text = standings_text(self.app.registry, self.answer, max(width, 20))  # type: ignore[attr-defined]
        self.update(Text("\n".join(map(shown, text.split("\n")))))
