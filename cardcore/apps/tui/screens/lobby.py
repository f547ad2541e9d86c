"""The tables on a server (``cardcore join --server URL``, and the browser front end):
list them, create one (the setup form, seats human or a bot), take a seat, watch."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, DataTable, Input, OptionList, Static
from textual.widgets.option_list import Option

from cardcore.apps.tui.plain import plain
from cardcore.apps.tui.remote import RemoteSession
from cardcore.apps.tui.screens.join_code import JoinCodeScreen, profile_name, remember_name
from cardcore.apps.tui.screens.league_form import LeagueChoice
from cardcore.apps.tui.screens.line import LineScreen
from cardcore.apps.tui.screens.server_leagues import ServerLeaguesScreen
from cardcore.apps.tui.screens.setup import SetupScreen
from cardcore.apps.tui.session import HUMAN, SessionSetup
from cardcore.apps.tui.widgets.footer import Footer
from cardcore.apps.tui.widgets.options_form import Tick
from cardcore.engine.game import Game
from cardcore.engine.match_setup import MatchSetup, Setup
from cardcore.engine.names import MAX_NAME_CHARS, check_name
from cardcore.language import N_, _
from cardcore.services.net import protocol as p
from cardcore.services.net.client import ClientError, Connection, Target, not_seated, parse_target
from cardcore.services.net.invites import canonical

if TYPE_CHECKING:
    from cardcore.apps.tui.app import CardcoreApp

#: How often the list of tables is asked for again while the lobby shows (seconds).
REFRESH_SECONDS = 5.0


def seats_text(table: p.TableInfo) -> str:
    """``Ann · West (greedy) · seat 3 open``: who sits where, in one line."""
    parts = []
    for s in table.seats:
        if s.open:
            parts.append(_("seat {number} open").format(number=s.seat + 1))
        elif s.kind != HUMAN:
            parts.append(f"{s.name} ({s.kind})")
        else:
            away = " " + _("(bot meanwhile)") if s.bot_playing else ("" if s.connected else " " + _("(away)"))
            parts.append(f"{s.name}{away}")
    return " · ".join(parts)


class LobbyScreen(Screen[None]):
    """The first screen of a remote app: the server's tables."""

    app: CardcoreApp

    DEFAULT_CSS = """
    LobbyScreen #lobby-title { height: 1; padding: 0 1; }
    LobbyScreen #lobby-name-row { height: 1; padding: 0 1; }
    LobbyScreen #lobby-name-row Static { width: auto; }
    LobbyScreen #lobby-name { width: 26; }
    LobbyScreen #tables { height: 1fr; }
    LobbyScreen #lobby-message { height: auto; min-height: 1; padding: 0 1; }
    """

    BINDINGS = [
        Binding("n", "new_table", N_("New table"), id="lobby.new"),
        Binding("enter", "join", N_("Join"), id="lobby.join", show=True),
        Binding("w", "watch", N_("Watch"), id="lobby.watch"),
        Binding("j", "join_by_code", N_("Join code"), id="lobby.join_code"),
        Binding("l", "leagues", N_("Leagues"), id="lobby.leagues",
                tooltip=N_("the server's leagues and their standings")),
        Binding("r", "refresh", N_("Refresh"), id="lobby.refresh", show=False,  # in the help (80 columns)
                tooltip=N_("the list of tables now (it refreshes itself every 5 s)")),
        Binding("q", "app.quit", N_("Quit"), id="lobby.quit"),
    ]

    def __init__(self, server: str, name: str | None = None, *,
                 seat: tuple[str, str] | None = None) -> None:
        super().__init__()
        self.server = server
        #: A seat to take as soon as the server answers (a web link's code and secret).
        self.first_seat = seat
        self.player_name = name or ""
        self.conn: Connection | None = None
        self.tables: list[p.TableInfo] = []
        #: The seats' secrets of the tables created here: code -> links.
        self.created: dict[str, p.TableCreated] = {}
        #: Why the seat the lobby was opened for (a web link) was not taken: it stays on
        #: the message line (the list's refreshing does not cover it) until the next try.
        self.not_seated: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(_("Tables on {server}").format(server=self.server), style="bold"), id="lobby-title")
        with Horizontal(id="lobby-name-row"):
            yield Static(_("Your name:") + " ")
            yield Input(self.player_name or profile_name(self.app), placeholder=_("(optional)"),
                        max_length=MAX_NAME_CHARS, id="lobby-name", compact=True)
        table: DataTable[str] = DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        table.add_columns(_("Table"), _("Game"), _("Status"), _("Hand"), _("Seats"))
        yield table
        yield Static(id="lobby-message")
        yield Footer(show_command_palette=False)  # the palette (ctrl+p) is in the help: 80 columns

    async def on_mount(self) -> None:
        self.query_one("#tables", DataTable).focus()
        await self.connect()
        self.set_interval(REFRESH_SECONDS, self._refresh_tick)
        if self.first_seat is not None:
            self.open_soon(*self.first_seat)

    async def on_screen_resume(self) -> None:
        """Back from a table or a form: the list as it is now."""
        if self.conn is not None and self.conn.closed_reason is None:
            await self.refresh_tables()

    async def on_unmount(self) -> None:
        if self.conn is not None:
            await self.conn.close()

    def say(self, text: str, error: bool = False) -> None:
        self.query_one("#lobby-message", Static).update(
            Text(text, style="bold red" if error else "italic"))

    @property
    def name_typed(self) -> str | None:
        name = self.query_one("#lobby-name", Input).value.strip()
        return name or None

    # --- the connection --------------------------------------------------------------

    async def connect(self) -> bool:
        """Connect (again) when not connected; say why not."""
        if self.conn is not None and self.conn.closed_reason is None:
            return True
        try:
            self.conn = await Connection.open(self.server)
        except ClientError as exc:
            self.conn = None
            self.say(_("{reason} — r tries again.").format(reason=exc), error=True)
            return False
        await self.refresh_tables()
        return True

    async def refresh_tables(self) -> None:
        if self.conn is None:
            return
        try:
            reply = await self.conn.call(p.ListTables())
        except ClientError as exc:
            self.say(_("The list of tables did not come: {reason} — r tries again.").format(reason=exc),
                     error=True)
            return
        self.tables = list(reply.tables)
        self._draw_tables()
        if self.not_seated is not None:
            self.say(self.not_seated, error=True)
        elif not self.tables:
            self.say(_("No table yet: n creates one, j joins one by its code."))
        elif not str(self.query_one("#lobby-message", Static).render()).strip():
            self.say(_("enter: take a seat, w: watch, n: a new table."))

    def _draw_tables(self) -> None:
        widget = self.query_one("#tables", DataTable)
        row = widget.cursor_row
        widget.clear()
        for t in self.tables:
            game = f"{t.game} ({t.league})" if t.league else t.game  # a league's table names it
            widget.add_row(*map(plain, (t.code, game, t.status, t.hand_no, seats_text(t))), key=t.code)
        if self.tables:
            widget.move_cursor(row=min(row, len(self.tables) - 1))

    async def _refresh_tick(self) -> None:
        if self.app.screen is self and self.conn is not None and self.conn.closed_reason is None:
            await self.refresh_tables()

    def selected(self) -> p.TableInfo | None:
        widget = self.query_one("#tables", DataTable)
        if not self.tables or widget.cursor_row < 0 or widget.cursor_row >= len(self.tables):
            return None
        return self.tables[widget.cursor_row]

    # --- keys ----------------------------------------------------------------------------

    async def action_refresh(self) -> None:
        if await self.connect():
            await self.refresh_tables()

    def action_new_table(self) -> None:
        if self.conn is None or self.conn.welcome is None:
            self.say(_("Not connected to the server: r tries again."), error=True)
            return
        games = [(self.app.registry.games[g.id], g.bots) for g in self.conn.welcome.games
                 if g.id in self.app.registry.games]
        if not games:
            self.say(_("The server plays no game installed here."), error=True)
            return
        self.app.push_screen(GameChoiceScreen([g for g, _ in games]),
                             lambda game: self._chosen(game, dict((g.id, b) for g, b in games)))

    def _chosen(self, game: Game | None, bots: dict[str, list[str]]) -> None:
        if game is not None:
            self.app.push_screen(RemoteSetupScreen(game, bots.get(game.id, []), seed=self.app.fixed_seed,
                                                   conn=self.conn))

    def action_leagues(self) -> None:
        """The server's leagues and their standings."""
        if self.conn is None or self.conn.closed_reason is not None:
            self.say(_("Not connected to the server: r tries again."), error=True)
            return
        self.app.push_screen(ServerLeaguesScreen(self.conn, self.server))

    @on(DataTable.RowSelected, "#tables")
    async def _row_selected(self) -> None:
        await self.action_join()

    async def action_join(self) -> None:
        table = self.selected()
        if table is None:
            self.say(_("No table chosen: n creates one."), error=True)
            return
        created = self.created.get(table.code)
        if created is not None:
            self.app.push_screen(LinksScreen(created, self.reissue), lambda seat: self._sit(created, seat))
            return
        prompt = Text.assemble(plain(_("Table {code}").format(code=table.code), "bold"), ": ",
                               _("type your seat's invite (four words) or paste its link (enter; "
                                 "esc: back; w in the list watches)."))
        self.app.push_screen(LineScreen(prompt, _("maple river stone tiger, or cardcore://…")),
                             self._secret_given)

    async def action_watch(self) -> None:
        table = self.selected()
        if table is None:
            self.say(_("No table chosen."), error=True)
            return
        await self.open(table.code, None)

    def _secret_given(self, text: str | None) -> None:
        table = self.selected()
        if not text or table is None:
            return
        code, secret = table.code, canonical(text)
        if "://" in secret:  # a whole link was pasted
            try:
                target = parse_target(secret, server=self.server)
            except ClientError as exc:
                self.say(str(exc), error=True)
                return
            code, secret = target.code, target.secret or ""
        self.open_soon(code, secret)

    def action_join_by_code(self) -> None:
        """One box: a table's code (watch it), or its code and a seat's invite, or a link."""
        self.app.push_screen(JoinCodeScreen(self._join_target, self.server), self._joined)

    async def _join_target(self, target: Target, _name: str | None) -> RemoteSession:
        if not await self.connect() or self.conn is None:
            raise ClientError("unreachable", _("not connected to the server: r tries again"))
        return await self.seat_session(target.code, target.secret, come_back=True)

    def _joined(self, session: RemoteSession | None) -> None:
        if session is not None:
            self.not_seated = None
            self.say("")
            self.app.open_table(session)

    def _sit(self, created: p.TableCreated, seat: int | None) -> None:
        secret = next((s.invite for s in created.seats if s.seat == seat), None)
        if secret is not None:
            self.open_soon(created.code, secret)

    # --- creating and opening tables -------------------------------------------------

    @work(exclusive=True, group="lobby-open")
    async def open_soon(self, code: str, secret: str | None) -> None:
        await self.open(code, secret)

    async def open(self, code: str, secret: str | None) -> None:
        """Take the seat of ``secret`` at ``code`` (None: watch) and show the table; or say
        why not (for a seat: ``not_seated``, which stays on the message line)."""
        if not await self.connect() or self.conn is None:
            return
        try:
            session = await self.seat_session(code, secret)
        except ValueError as exc:
            self.say(_("Your name:") + f" {exc}", error=True)
            return
        except ClientError as exc:
            self.not_seated = not_seated(code, exc) if secret else None
            self.say(self.not_seated or f"{code}: {exc}", error=True)
            return
        self._joined(session)

    async def seat_session(self, code: str, secret: str | None, come_back: bool = False) -> RemoteSession:
        """The session at ``code``'s seat of ``secret`` (None: watching, or with
        ``come_back`` a seat held here before), on a connection of the table's own, under
        the name typed (ValueError when it is not a name)."""
        name = self.name_typed and check_name(self.name_typed)
        conn = await Connection.open(self.server, name, table=code)
        try:
            session = await RemoteSession.join(self.app.registry, conn, code, secret, name,
                                               come_back=come_back)
        except BaseException:
            await conn.close()
            raise
        if session.seat is not None:
            remember_name(self.app, name)
        return session

    @work(exclusive=True, group="lobby-create")
    async def create(self, setup: SessionSetup, public: bool = False, standin_open: bool = False,
                     league: str | None = None) -> None:
        """A new table on the server (``public``: listed for everyone; ``standin_open``: a
        bot plays the seats nobody has claimed yet; ``league``: the server's league its
        match counts for); its links are shown, and the creator picks a seat."""
        if not await self.connect() or self.conn is None:
            return
        message = p.CreateTable(game=setup.game.id, options=setup.options.model_dump(mode="json"),
                                seats=list(setup.seats), names=setup.names or None,
                                side_names=setup.side_names, draw_for_partners=setup.draw_for_partners,
                                seed=None,  # the server's own: the form shows none
                                public=public, standin_open=standin_open, league=league)
        try:
            created = await self.conn.call(message)
        except ClientError as exc:
            self.say(_("The table was not created: {reason}").format(reason=exc), error=True)
            return
        self.created[created.code] = created
        await self.refresh_tables()
        widget = self.query_one("#tables", DataTable)
        codes = [t.code for t in self.tables]
        if created.code in codes:
            widget.move_cursor(row=codes.index(created.code))
        self.say(_("Table {code} created.").format(code=created.code))
        self.app.push_screen(LinksScreen(created, self.reissue), lambda seat: self._sit(created, seat))

    async def reissue(self, code: str, seat: int) -> p.Invite | str:
        """A new invite for ``seat`` of a table made here (its holder is unseated), or why not."""
        created = self.created.get(code)
        if self.conn is None or created is None:
            return _("not connected to the server")
        try:  # a table's message: on a connection of that table's
            conn = await Connection.open(self.server, table=code)
            try:
                invite: p.Invite = await conn.call(p.Reissue(code=code, seat=seat, owner=created.owner))
            finally:
                await conn.close()
        except ClientError as exc:
            return str(exc)
        created.seats = [p.SeatLink(seat=seat, invite=invite.invite, link=invite.link,
                                    web_link=invite.web_link) if s.seat == seat else s for s in created.seats]
        return invite

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("join", "watch"):
            return True if self.tables else None
        return True


class GameChoiceScreen(ModalScreen[Game | None]):
    """Which game the new table plays."""

    DEFAULT_CSS = """
    GameChoiceScreen { align: center middle; }
    GameChoiceScreen #choice-box { width: 50; height: auto; border: round $accent; padding: 0 1; }
    GameChoiceScreen OptionList { height: auto; max-height: 12; }
    """
    BINDINGS = [Binding("escape", "drop", N_("Back"), id="choice.drop")]

    def __init__(self, games: list[Game]) -> None:
        super().__init__()
        self.games = sorted(games, key=lambda g: g.name)

    def compose(self) -> ComposeResult:
        with Vertical(id="choice-box"):
            yield Static("[b]" + _("A new table: which game?") + "[/b]")
            yield OptionList(*(Option(plain(g.name), id=g.id) for g in self.games), id="games")

    @on(OptionList.OptionSelected, "#games")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(next(g for g in self.games if g.id == event.option.id))

    def action_drop(self) -> None:
        self.dismiss(None)


class RemoteSetupScreen(SetupScreen):
    """The setup form for a table on a server: the server's bots, and whether the table
    is listed for everyone (public) or only for whoever has its code (private), and the
    server's league its match counts for (``LeagueChoice``). No seed: the server draws its
    own (``create`` sends none)."""

    chooses_seed = False

    def __init__(self, game: Game, bots: list[str], seed: int | None = None,
                 conn: Connection | None = None) -> None:
        super().__init__(game, seed=seed)
        self.server_bots = bots
        self.conn = conn

    def checked(self, request: MatchSetup) -> SessionSetup:
        """The server checks the setup (its games and bots): the form's own fields are
        checked here (``MatchSetup``), the rest there."""
        return Setup(self.game, self.game.Options(**request.options), list(request.seats), 0,
                     request.names, request.side_names, request.draw_for_partners)

    def bot_ids(self) -> list[str]:
        return list(self.server_bots)

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#setup-title", Static).update(
            plain(_("New table — {game}   (on the server; every human seat gets a link)")
                  .format(game=self.game.name), "bold"))
        self.query_one("#start", Button).label = "Create"
        form, partners = self.query_one("#setup-form"), self.query_one("#partners")
        if self.conn is not None:
            form.mount(LeagueChoice(self.game, self.conn, id="league-choice"), before=form.children[0])
        form.mount(Tick(_("Public: listed for everyone on the server (else: only by its code)"), False,
                        id="public", compact=True), before=partners)
        form.mount(Tick(_("A bot plays each seat until its player comes (else the table waits)"),
                        False, id="standin-open", compact=True), before=partners)

    @property
    def public(self) -> bool:
        return self.query_one("#public", Checkbox).value

    @property
    def standin_open(self) -> bool:
        return self.query_one("#standin-open", Checkbox).value

    @property
    def league(self) -> str | None:
        """The server's league chosen for the table (None: none)."""
        found = self.query(LeagueChoice)
        return found.first().league if found else None


def invite_text(code: str, invite: str) -> str:
    """A seat's invite as a person reads it out: ``KQX-482 maple-river-stone-tiger``."""
    return f"{code} {invite}"


def copy_text(code: str, seats: list[p.SeatLink]) -> str:
    """What ``c`` copies: per seat, its invite, its link and its web link, one line each."""
    lines = []
    for s in seats:
        lines.append(_("cardcore table {code}, seat {number}: join by code with {invite} or the "
                       "link {link}").format(code=code, number=s.seat + 1,
                                             invite=invite_text(code, s.invite), link=s.link))
        if s.web_link:
            lines.append("  " + _("in a browser: {link}").format(link=s.web_link))
    return "\n".join(lines)


class LinksScreen(ModalScreen[int | None]):
    """A new table's invite links, one per human seat; dismissed with the seat to take."""

    DEFAULT_CSS = """
    LinksScreen { align: center middle; }
    LinksScreen #links-box { width: 95%; max-width: 110; height: auto; max-height: 95%;
                             border: round $accent; padding: 0 1; }
    LinksScreen #links { height: auto; max-height: 14; }
    LinksScreen .links-buttons { height: auto; }
    LinksScreen .links-label { width: 11; }
    LinksScreen Button { margin-right: 1; min-width: 8; width: auto; }
    """
    BINDINGS = [Binding("escape", "drop", N_("Back to the tables"), id="links.drop"),
                Binding("c", "copy", N_("Copy the invite"), id="links.copy")]

    def __init__(self, created: p.TableCreated,
                 reissue: Callable[[str, int], Awaitable[p.Invite | str]] | None = None) -> None:
        super().__init__()
        self.created = created
        self.reissue = reissue

    def compose(self) -> ComposeResult:
        with Vertical(id="links-box"):
            with VerticalScroll(id="links"):
                yield Static(self._links_text(), id="links-text")
            with Horizontal(classes="links-buttons"):
                yield Static(_("Sit at:") + " ", classes="links-label")
                for s in self.created.seats:
                    yield Button(_("seat {number}").format(number=s.seat + 1), id=f"sit-{s.seat}",
                                 compact=True,
                                 variant="primary")
                yield Button(_("Back (esc)"), id="back", compact=True)
            if self.reissue is not None:
                with Horizontal(classes="links-buttons"):
                    yield Static(_("New link:") + " ", classes="links-label")
                    for s in self.created.seats:
                        yield Button(_("seat {number}").format(number=s.seat + 1), id=f"new-{s.seat}",
                                     compact=True)

    def _links_text(self, note: str = "") -> Text:
        text = Text(_("Table {code}").format(code=self.created.code), style="bold")
        text.append("  — " + _("give each player their seat's invite (read it out; c copies it): they "
                               "join by code (j) with it, or with its link. An invite claims its seat "
                               "once; a new link unseats whoever held the seat.") + "\n", style="dim")
        for s in self.created.seats:  # the invites first: all four in view at 80x24
            text.append("\n" + _("Seat {number}:").format(number=s.seat + 1) + " ", style="bold")
            text.append(plain(invite_text(self.created.code, s.invite), "bold"))
        text.append("\n\n" + _("The same as links:"), style="dim")
        for s in self.created.seats:
            text.append("\n" + _("Seat {number}:").format(number=s.seat + 1) + " ", style="bold")
            text.append(plain(s.link))
            if s.web_link:
                text.append("\n  ")
                text.append(plain(s.web_link, "dim"))
        if note:
            text.append(f"\n\n{note}", style="italic")
        return text

    def focused_seat(self) -> int | None:
        """The seat of the focused button (``sit-N`` or ``new-N``), if any."""
        button = self.focused.id if self.focused is not None and self.focused.id else ""
        kind, _, seat = button.partition("-")
        return int(seat) if kind in ("sit", "new") and seat.isdigit() else None

    def action_copy(self) -> None:
        """The focused seat's invite and links to the clipboard (every seat's when no seat
        button has the focus), as text; the screen says what was copied."""
        seat = self.focused_seat()
        seats = [s for s in self.created.seats if seat is None or s.seat == seat]
        self.app.copy_to_clipboard(copy_text(self.created.code, seats))
        which = (_("Seat {number}'s invite copied to the clipboard.")
                 .format(number=seat + 1) if seat is not None
                 else _("Every seat's invite copied to the clipboard."))
        self.query_one("#links-text", Static).update(self._links_text(which))

    def on_mount(self) -> None:
        self.query(Button).first().focus()

    @on(Button.Pressed)
    async def _pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or ""
        if button.startswith("new-") and self.reissue is not None:
            seat = int(button.removeprefix("new-"))
            got = await self.reissue(self.created.code, seat)
            note = (_("Seat {number} has a new link.").format(number=seat + 1) if isinstance(got, p.Invite)
                    else _("No new link: {reason}").format(reason=got))
            self.query_one("#links-text", Static).update(self._links_text(note))
            return
        self.dismiss(int(button.removeprefix("sit-")) if button.startswith("sit-") else None)

    def action_drop(self) -> None:
        self.dismiss(None)
