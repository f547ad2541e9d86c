"""The league of a new table at a server, in its setup form (docs/leagues.md, "At a
server"): a choice among the server's leagues of the form's game, or none. A league chosen,
the form takes its options (fixed: a table for it plays them), four human seats, and the
names of the two partnerships chosen to play, partners opposite as the game seats them
(``Seating.seats_of``): the match counts for the league by those names."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Checkbox, Input, Label, Select, Static

from cardcore.apps.tui.plain import plain
from cardcore.apps.tui.screens.server_leagues import ask_standings
from cardcore.apps.tui.session import HUMAN
from cardcore.apps.tui.widgets.options_form import OptionsForm
from cardcore.engine.game import Game
from cardcore.language import _
from cardcore.services.net import protocol as p
from cardcore.services.net.client import ClientError, Connection

if TYPE_CHECKING:
    from cardcore.apps.tui.screens.setup import SetupScreen

NONE = ""
#: The players a league's match has: two partnerships of two.
PLAYERS = 4


class LeagueChoice(Vertical):
    DEFAULT_CSS = """
    LeagueChoice { height: auto; }
    LeagueChoice .form-row { height: 1; }
    LeagueChoice #league-note { height: auto; color: $text-muted; }
    """

    def __init__(self, game: Game, conn: Connection, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.conn = conn
        #: The chosen league's standings (its partnerships and options), None: no league.
        self.answer: p.Standings | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(classes="form-row"):
            yield Label(_("League"), classes="form-label")
            yield Select([(_("none"), NONE)], value=NONE, allow_blank=False, id="league", compact=True,
                         classes="form-control")
        with Horizontal(classes="form-row", id="league-sides"):
            yield Label(_("Sides"), classes="form-label")
            yield Select([], id="league-first", compact=True, classes="form-control")
            yield Select([], id="league-second", compact=True, classes="form-control")
        yield Static(id="league-note")

    def on_mount(self) -> None:
        self.display = False  # until the server names a league of this game
        self.query_one("#league-sides").display = False
        self.call_after_refresh(self.list_leagues)

    @property
    def league(self) -> str | None:
        return self.answer.league if self.answer is not None else None

    @property
    def form(self) -> SetupScreen:
        return self.screen  # type: ignore[return-value]

    @work(exclusive=True, group="league-list")
    async def list_leagues(self) -> None:
        try:
            reply: p.Leagues = await self.conn.call(p.ListLeagues())
        except ClientError:
            return  # an older server, or none: the form makes a table of no league
        mine = [lg for lg in reply.leagues if lg.game == self.game.id]
        if mine and PLAYERS in self.game.player_counts:
            select = self.query_one("#league", Select)
            select.set_options([(_("none"), NONE), *((f"{lg.name} ({lg.season})", lg.name) for lg in mine)])
            self.display = True
            if self.form.focused is self.form.query_one("#players"):  # untouched: the league first
                select.focus()

    def say(self, text: str, style: str = "italic") -> None:
        self.query_one("#league-note", Static).update(plain(text, style))

    @on(Select.Changed, "#league")
    def _league_changed(self, event: Select.Changed) -> None:
        event.stop()
        self.choose(str(event.value) if event.value not in (NONE, Select.BLANK) else None)

    @work(exclusive=True, group="league-choice")
    async def choose(self, name: str | None) -> None:
        if name is None:
            self.answer = None
            self.query_one("#league-sides").display = False
            self.say("")
            await self.set_options(None)
            return
        try:
            answer = await ask_standings(self.conn, name)
        except ClientError as exc:
            self.say(_("League {name}: {reason}").format(name=name, reason=exc), "bold red")
            return
        if len(answer.teams) < 2:
            self.say(_("League {name} has fewer than two partnerships.").format(name=name), "bold red")
            return
        self.answer = answer
        teams = [(t.name, n) for n, t in enumerate(answer.teams)]
        for i, select_id in enumerate(("#league-first", "#league-second")):
            select = self.query_one(select_id, Select)
            select.set_options(teams)
            select.value = i
        self.query_one("#league-sides").display = True
        self.say(_("The match counts for {name} when its seats keep these names (partners opposite); "
                   "its options are the league's.").format(name=name))
        await self.set_options(answer.options)
        self.seat()

    @on(Select.Changed, "#league-first, #league-second")
    def _sides_changed(self, event: Select.Changed) -> None:
        event.stop()
        if self.answer is not None:
            self.seat()

    def seat(self) -> None:
        """The two partnerships chosen at the table: four human seats named after their
        players, each side named after its partnership."""
        assert self.answer is not None
        chosen = [self.query_one(s, Select).value for s in ("#league-first", "#league-second")]
        if not all(isinstance(c, int) for c in chosen) or chosen[0] == chosen[1]:
            self.say(_("Choose two different partnerships."), "bold red")
            return
        form = self.form
        form.query_one("#players", Select).value = PLAYERS
        form.query_one("#draw", Checkbox).value = False
        seating = self.game.seating(PLAYERS, form.options())
        for side, number in enumerate(chosen):
            team = self.answer.teams[number]  # type: ignore[index]
            form.query_one(f"#side-{side}", Input).value = team.name
            for seat, name in zip(seating.seats_of(side), team.players, strict=False):
                form.query_one(f"#who-{seat}", Select).value = HUMAN
                form.query_one(f"#name-{seat}", Input).value = name

    async def set_options(self, options: dict[str, Any] | None) -> None:
        """The form's rules: the league's, fixed (None: the game's, to choose)."""
        form = self.form.query_one("#setup-form")
        old = form.query_one("#options", OptionsForm)
        place = form.children.index(old)
        await old.remove()
        await form.mount(OptionsForm(self.game.Options, values=options, id="options",
                                     disabled=options is not None), after=place - 1)
