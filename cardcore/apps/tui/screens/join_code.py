"""Join by code: one box that takes a table code (to take back a seat of it held here
before, else to watch the table), a code and a seat's invite (``KQX-482 maple river stone
tiger``) or a seat's link (to sit there). From the launcher (``j``: the server typed, or
the one joined last) and from a server's lobby."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from cardcore.apps.tui.plain import plain
from cardcore.apps.tui.remote import RemoteSession
from cardcore.engine.names import MAX_NAME_CHARS, check_name
from cardcore.language import N_, _
from cardcore.services.net.client import ClientError, Connection, Target, not_seated, parse_target
from cardcore.services.net.seat_book import SeatBook
from cardcore.services.plugins import Registry
from cardcore.services.profiles import known_names, remember

#: Takes the seat (or watches the table) a box names, with the player's name: the session,
#: or ClientError (one line) when the server says no.
Joiner = Callable[[Target, str | None], Awaitable[RemoteSession]]


def profile_name(app: Any) -> str:
    """The name a player is offered at a server: the most recently used local profile's
    (docs/library.md, "People"); none in the browser front end, whose data dir is the host's."""
    if getattr(app, "remote_only", False):
        return ""
    return next(iter(known_names()), "")


def remember_name(app: Any, name: str | None) -> None:
    """A name a player sat under at a server, kept as a local profile (the next time it is
    the one offered); not in the browser front end, nor when the profiles cannot be written."""
    if name and not getattr(app, "remote_only", False):
        with contextlib.suppress(OSError):
            remember([name])


def typed_server(text: str) -> str:
    """A server as typed in the box: ``ws://HOST:PORT``, ``wss://HOST/PATH``, or a bare
    ``HOST:PORT`` (plain WebSocket)."""
    text = text.strip()
    return text if "://" in text else f"ws://{text}"


def own_connection_joiner(registry: Registry) -> Joiner:
    """The launcher's: a connection of the table's own (it goes when the table is left);
    the server is remembered for the next time."""

    async def join(target: Target, name: str | None) -> RemoteSession:
        conn = await Connection.open(target.server, name, table=target.code)
        try:
            session = await RemoteSession.join(registry, conn, target.code, target.secret, name,
                                               come_back=True)
        except BaseException:
            await conn.close()
            raise
        SeatBook().remember_server(target.server)
        return session

    return join


class JoinCodeScreen(ModalScreen[RemoteSession | None]):
    """The box; dismissed with the session at the table (the caller opens it), or None."""

    DEFAULT_CSS = """
    JoinCodeScreen { align: center middle; }
    JoinCodeScreen #join-box { width: 90%; max-width: 76; height: auto; border: round $accent;
                               padding: 0 1; }
    JoinCodeScreen .join-row { height: 1; }
    JoinCodeScreen .join-label { width: 12; }
    JoinCodeScreen Input { width: 1fr; }
    JoinCodeScreen #join-message { height: auto; }
    """
    BINDINGS = [Binding("escape", "drop", N_("Back"), id="join.drop")]

    def __init__(self, joiner: Joiner, server: str, *, ask_server: bool = False) -> None:
        super().__init__()
        self.joiner = joiner
        self.server = server
        #: The launcher's box also asks for the server and a name (a lobby has both).
        self.ask_server = ask_server

    def compose(self) -> ComposeResult:
        with Vertical(id="join-box"):
            yield Static(Text(_("Join by code"), style="bold"))
            yield Static(Text(_("A table's code and a seat's invite (KQX-482 maple river stone tiger) "
                                "or a seat's link sits there; the code alone takes back your seat, "
                                "or watches. enter: join, esc: back."), style="dim"))
            with Horizontal(classes="join-row"):
                yield Static(_("Code:") + " ", classes="join-label")
                yield Input(placeholder=_("KQX-482 maple-river-stone-tiger, or a link"), id="join-code",
                            compact=True)
            if self.ask_server:
                with Horizontal(classes="join-row"):
                    yield Static(_("Server:") + " ", classes="join-label")
                    yield Input(self.server, id="join-server", compact=True)
                with Horizontal(classes="join-row"):
                    yield Static(_("Your name:") + " ", classes="join-label")
                    yield Input(profile_name(self.app), placeholder=_("(optional)"),
                                max_length=MAX_NAME_CHARS,
                                id="join-name", compact=True)
            yield Static(id="join-message")

    def on_mount(self) -> None:
        self.query_one("#join-code", Input).focus()

    def say(self, text: str) -> None:
        self.query_one("#join-message", Static).update(plain(text, "bold red"))

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.join()

    @work(exclusive=True, group="join-code")
    async def join(self) -> None:
        text = self.query_one("#join-code", Input).value.strip()
        if not text:
            self.say(_("Type a table's code, or its code and a seat's invite, or paste a link."))
            return
        try:
            target, name = self._target(text)
        except (ClientError, ValueError) as exc:
            self.say(str(exc))
            return
        self.say("")
        try:
            session = await self.joiner(target, name)
        except ClientError as exc:
            self.say(not_seated(target.code, exc) if target.secret else _("Table {code}: {reason}")
                     .format(code=target.code, reason=exc))
            return
        if session.seat is not None:
            remember_name(self.app, name)
        self.dismiss(session)

    def _target(self, text: str) -> tuple[Target, str | None]:
        if not self.ask_server:
            return parse_target(text, server=self.server), None
        name = self.query_one("#join-name", Input).value.strip() or None
        if name is not None:
            name = check_name(name)
        own_server = text.lower().startswith(("cardcore://", "cardcores://"))  # the link names it
        server = None if own_server else typed_server(self.query_one("#join-server", Input).value)
        return parse_target(text, server=server), name

    def action_drop(self) -> None:
        self.dismiss(None)
