"""The client end of the table protocol (docs/protocol.md): a connection to ``cardcore
serve`` and what a seat link says.

:class:`Connection` runs in the caller's asyncio loop (Textual's, for the table): a
request that has an answer (``hello``, ``list_tables``, ``create_table``, ``join``,
``watch``) is awaited with ``call``; what the server sends by itself (updates, chat
lines, seat status, an error about an ``act``) goes to the handler of its table.
The table's own session over it is ``cardcore.apps.tui.remote.RemoteSession``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import websockets
from pydantic import BaseModel
from websockets.asyncio.client import ClientConnection, connect

from cardcore.language import ENGLISH, N_, _, current
from cardcore.services.net import protocol as p
from cardcore.services.net.invites import canonical
from cardcore.services.net.placement import play_url
from cardcore.services.net.seat_book import SeatBook

#: The server a bare table code is looked for on (``cardcore serve``'s default address).
DEFAULT_SERVER = "ws://127.0.0.1:8765"
#: How long a request waits for its answer, and a connection for the server.
TIMEOUT = 10.0

#: What the server sent by itself, for one table: the message, or None when the
#: connection is gone (``Connection.closed_reason`` says why).
Handler = Callable[[Any], None]


class ClientError(Exception):
    """One line for the player: the server cannot be reached, refused a request, or a
    link is not one. ``code``: the server's error code, or ``"unreachable"``,
    ``"bad_link"``, ``"closed"``."""

    def __init__(self, code: str, message: str):
        super().__init__(" ".join(message.split()))
        self.code = code


#: What a server's error code means, said in the player's language: the server's message is
#: English (the protocol's, docs/protocol.md), so a client in another language shows these.
ERROR_WORDS = {
    "bad_json": N_("the server could not read the message"),
    "too_big": N_("the message was too big"),
    "bad_version": N_("the server speaks another version of the protocol"),
    "unknown_type": N_("the server does not know that request"),
    "bad_field": N_("the request was refused: a value is missing or not allowed"),
    "bad_game": N_("no such game here, or its options or seats are not allowed"),
    "illegal_action": N_("that move is not allowed now"),
    "not_your_turn": N_("it is not your turn"),
    "stale": N_("the table has moved on: look again"),
    "waiting": N_("the table is waiting for every player to join"),
    "no_table": N_("no table with that code"),
    "bad_secret": N_("that is not an invite to a seat at this table"),
    "seat_taken": N_("the seat is taken"),
    "spectator": N_("a spectator cannot play or chat as a seat"),
    "rate_limited": N_("too many requests or wrong codes: wait a little and try again"),
    "too_many": N_("the server holds as many tables or connections as it may"),
    "server_error": N_("the game failed on the server; the table is as it was"),
    "not_over": N_("the match is not over yet"),
    "no_league": N_("no league with that name on this server"),
}


def refusal(code: str, message: str) -> ClientError:
    """The server's ``error`` as the player reads it: its message in English, else what its
    code means in the language in use (an unknown code: the message as sent)."""
    if current() == ENGLISH or code not in ERROR_WORDS:
        return ClientError(code, message)
    return ClientError(code, _(ERROR_WORDS[code]))


# --- links ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """Where a seat is: the server's WebSocket URL, the table code, the seat's secret
    (None: watch the table)."""

    server: str
    code: str
    secret: str | None


_CODE = re.compile(p.CODE_PATTERN)
#: A table code as a person types it (any case, the dash optional: ``kqx482``, ``KQX 482``),
#: and what may follow it: the seat's invite (``KQX-482 maple river stone tiger``).
_TYPED = re.compile(r"([A-Za-z]{3})[\s-]*([0-9]{3})(?:[\s,;:#/-]+(.*))?", re.DOTALL)


def parse_target(text: str, *, secret: str | None = None, server: str | None = None) -> Target:
    """A table code (``KQX-482``, ``kqx482``), a code and its seat's invite (``KQX-482
    maple-river-stone-tiger``, the words in any case and spacing), a seat link
    (``cardcore://HOST:PORT/KQX-482#INVITE``, ``cardcores://`` for TLS) or a web link
    (``http://WEBHOST/?table=KQX-482&secret=INVITE``: the server is ``server``); a code
    alone takes ``secret`` (None: watch). The server is ``server``, else the link's, else
    the default. ClientError("bad_link") in one line when it is none of them."""
    text = text.strip()
    typed = _TYPED.fullmatch(text)
    if typed:
        code = f"{typed[1].upper()}-{typed[2]}"
        return Target(server_url(server or DEFAULT_SERVER), code, _invite(typed[3] or secret))
    parts = urlsplit(text)
    if parts.scheme in ("cardcore", "cardcores"):
        return _seat_link(parts, secret, server)
    if parts.scheme in ("http", "https"):
        query = parse_qs(parts.query)
        code = (query.get("table") or [""])[0].upper()
        if not _CODE.match(code):
            raise ClientError("bad_link", _("{link}: no table code in the link (?table=KQX-482)").format(
                link=_short(text)))
        secrets = query.get("secret")
        return Target(server_url(server or DEFAULT_SERVER), code, _invite(secrets[0] if secrets else secret))
    raise ClientError("bad_link", _("{link}: not a table code (KQX-482), a code and its invite, nor a "
                                    "cardcore:// or http(s):// link").format(link=_short(text)))


def _invite(text: str | None) -> str | None:
    """The invite as the server compares it (``invites.canonical``); None: none given."""
    return canonical(text) or None if text else None


def _seat_link(parts: Any, secret: str | None, server: str | None) -> Target:
    path = parts.path.rstrip("/")
    head, _slash, code = path.rpartition("/")
    code = code.upper()
    if not parts.hostname or not _CODE.match(code):
        raise ClientError("bad_link", _("{link}: a seat link is cardcore://HOST:PORT/KQX-482#SECRET").format(
            link=parts.geturl()))
    try:
        port = parts.port
    except ValueError:
        raise ClientError("bad_link", _("{host}: a bad port in the link").format(
            host=parts.hostname)) from None
    scheme = "wss" if parts.scheme == "cardcores" else "ws"
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    url = f"{scheme}://{host}{f':{port}' if port else ''}{head}/"
    return Target(server_url(server) if server else url, code, _invite(parts.fragment or secret))


#: Why a join did not seat its player, in a word, by the server's error code.
_NOT_SEATED = {"seat_taken": N_("taken"), "bad_secret": N_("not a seat's invite"),
               "no_table": N_("no such table"), "rate_limited": N_("too many tries"),
               "waiting": N_("not yet")}


def not_seated(code: str, exc: ClientError) -> str:
    """One line saying why a link or an invite did not seat its player, as the terminal
    and the browser both say it: ``Table KQX-482 did not seat you (taken): seat 1's
    invite has been used: ask the table's owner for a new one``."""
    word = _NOT_SEATED.get(exc.code)
    if word is None:  # not the server's answer about the seat: the server unreachable, ...
        return str(exc)
    if exc.code == "no_table":
        why = _("{reason} (it may have ended and expired, or the code is mistyped)")
        exc = ClientError(exc.code, why.format(reason=exc))
    elif exc.code == "bad_secret":
        why = _("{reason} (mistyped, or the table's owner gave the seat a new invite)")
        exc = ClientError(exc.code, why.format(reason=exc))
    return _("Table {code} did not seat you ({word}): {reason}").format(code=code, word=_(word), reason=exc)


def hello(name: str | None) -> p.Hello:
    """The first message: the player's name, and the language texts are to come in (none
    when English: an English client's hello is as it always was)."""
    language = current()
    return p.Hello(name=name, language=None if language == ENGLISH else language)


def server_url(url: str) -> str:
    """``url`` when it is a server's address (ws:// or wss://), else ClientError("bad_link")."""
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 (read for its check: a port that is no number, or out of range)
    except ValueError:
        parts = urlsplit("")
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise ClientError("bad_link", _("{link}: the server is ws://HOST:PORT or wss://HOST").format(link=_short(url)))
    return url


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


# --- the connection --------------------------------------------------------------------


class Connection:
    """One WebSocket to the server, in the running asyncio loop: a lobby connection, or one
    table's (``Connection.open``'s ``table``: docs/protocol.md, "Transport")."""

    def __init__(self, ws: ClientConnection, url: str, table: str | None = None) -> None:
        self.ws = ws
        #: The server's address (the seat tokens are kept under it), and the table this
        #: connection is for (None: the lobby).
        self.url = url
        self.table = table
        self.welcome: p.Welcome | None = None
        #: Why the connection is gone (None while it is open), and the server's close code
        #: (None: none came, the connection broke or was closed here).
        self.closed_reason: str | None = None
        self.close_code: int | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        #: Requests sent without waiting (``act``, ``chat``): their id -> table code, so
        #: an error about one goes to its table.
        self._sent_for: dict[int, str] = {}
        self._handlers: dict[str, Handler] = {}
        self._closed_here = False
        self._sends: set[asyncio.Task[None]] = set()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, url: str, name: str | None = None, *, table: str | None = None,
                   timeout: float = TIMEOUT) -> Connection:
        """Connect (to ``table``'s play address, ``/play/CODE``; None: the lobby) and say
        hello (ClientError, one line, when the server cannot be reached or is not a
        cardcore server)."""
        url = server_url(url)
        address = play_url(url, table) if table else url
        try:
            ws = await connect(address, max_size=p.MAX_SERVER_MESSAGE_BYTES, open_timeout=timeout,
                               ping_interval=20)
        except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as exc:
            raise ClientError("unreachable", _("cannot reach the server at {url} ({reason})").format(
                url=address, reason=_reason(exc))) from None
        conn = cls(ws, url, table)
        try:
            welcome = await conn._hello(name, timeout)
        except ClientError:
            await conn.close()
            raise
        if not isinstance(welcome, p.Welcome):
            await conn.close()
            raise ClientError("unreachable", _("{url} answered hello with {answer!r}").format(
                url=url, answer=welcome.type))
        conn.welcome = welcome
        return conn

    async def _hello(self, name: str | None, timeout: float) -> Any:
        """The hello and its answer. A server from before languages refuses the field
        (``bad_field``): said again without it, the texts then come in English."""
        message = hello(name)
        try:
            return await self.call(message, timeout=timeout)
        except ClientError as exc:
            if exc.code != "bad_field" or message.language is None:
                raise
            return await self.call(message.model_copy(update={"language": None}), timeout=timeout)

    async def call(self, message: p._Request, *, timeout: float = TIMEOUT) -> Any:
        """Send a request and wait for its answer; an ``error`` answer is ClientError."""
        if self.closed_reason is not None:
            raise ClientError("closed", self.closed_reason)
        rid = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        try:
            await self._send(message.model_copy(update={"id": rid}))
            reply = await asyncio.wait_for(future, timeout)
        except TimeoutError:
            kind = getattr(message, "type", "the request")
            raise ClientError("closed", _("the server did not answer {kind!r} in {seconds:g} s").format(
                kind=kind, seconds=timeout)) from None
        finally:
            self._waiting.pop(rid, None)
        if isinstance(reply, p.ErrorMessage):
            raise refusal(reply.code, reply.message)
        return reply

    async def join(self, code: str, invite: str, name: str | None = None,
                   book: SeatBook | None = None) -> p.Joined:
        """Take a seat at ``code``: with the token kept for it if there is one (coming
        back), else by claiming it with ``invite``; the token the server gives is kept."""
        book = book or SeatBook()
        token = book.get(self.url, code, invite)
        if token is not None:
            back = await self._by_token(code, token, name)
            if back is not None:
                return back
            book.forget(self.url, code, invite)  # the seat was re-issued since
        joined: p.Joined = await self.call(p.Join(code=code, invite=invite, name=name))
        book.put(self.url, code, invite, joined.token)
        return joined

    async def come_back(self, code: str, name: str | None = None,
                        book: SeatBook | None = None) -> p.Joined | None:
        """Take back a seat of ``code`` this client claimed before (its token is kept), if
        there is one (None: none). A token the server no longer knows (the seat was given a
        new invite) is forgotten; a seat played from another connection is ``seat_taken``.
        Only the seat taken last is tried: a wrong key counts as a wrong guess."""
        book = book or SeatBook()
        for entry, token in book.at_table(self.url, code)[:1]:
            back = await self._by_token(code, token, name)
            if back is not None:
                return back
            book.forget_entry(entry)
        return None

    async def _by_token(self, code: str, token: str, name: str | None) -> p.Joined | None:
        """The seat taken back with its kept token; None when the server no longer knows the
        token (``bad_secret``: the seat was given a new invite since)."""
        try:
            joined: p.Joined = await self.call(p.Join(code=code, token=token, name=name))
        except ClientError as exc:
            if exc.code != "bad_secret":
                raise
            return None
        return joined

    def send_soon(self, message: p._Request, table: str) -> None:
        """Send without waiting (an ``act``, a ``chat``); an error about it goes to
        ``table``'s handler."""
        rid = next(self._ids)
        self._sent_for[rid] = table
        task = asyncio.get_running_loop().create_task(
            self._send(message.model_copy(update={"id": rid}), quiet=True))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    def subscribe(self, code: str, handler: Handler | None) -> None:
        """What the server sends by itself about table ``code`` goes to ``handler``."""
        if handler is None:
            self._handlers.pop(code, None)
        else:
            self._handlers[code] = handler

    async def _send(self, message: BaseModel, quiet: bool = False) -> None:
        try:
            await self.ws.send(p.encode(message))
        except websockets.exceptions.ConnectionClosed as exc:
            self._closed(_("the server closed the connection ({reason})").format(reason=_reason(exc)))
            if not quiet:
                raise ClientError("closed", self.closed_reason or "closed") from None

    async def _read(self) -> None:
        reason = _("the server closed the connection")
        try:
            async for frame in self.ws:
                self._dispatch(frame)
        except websockets.exceptions.ConnectionClosed as exc:
            reason = _("the server closed the connection ({reason})").format(reason=_reason(exc))
            self.close_code = exc.rcvd.code if exc.rcvd is not None else None
        except OSError as exc:
            reason = _("the connection to the server broke ({reason})").format(reason=_reason(exc))
        else:
            close = self.ws.close_reason or ""
            code = self.close_code = self.ws.close_code
            if code not in (None, 1000):
                said = f"{code}: {close}" if close else str(code)
                reason = _("the server closed the connection ({reason})").format(reason=said)
        self._closed(reason)

    def _dispatch(self, frame: str | bytes) -> None:
        try:
            message = p.decode(frame, sent_by="server")
        except p.ProtocolError:
            return  # a newer server's message this client does not know: left alone
        rid = getattr(message, "id", None)
        if rid is not None and rid in self._waiting:
            future = self._waiting.pop(rid)
            if not future.done():
                future.set_result(message)
            return
        if isinstance(message, p.ErrorMessage):
            table = self._sent_for.pop(rid, None) if rid is not None else None
            targets = [table] if table is not None else list(self._handlers)
            for code in targets:
                handler = self._handlers.get(code)
                if handler is not None:
                    handler(message)
            return
        handler = self._handlers.get(getattr(message, "code", ""))
        if handler is not None:
            handler(message)

    def _closed(self, reason: str) -> None:
        if self.closed_reason is not None:
            return
        self.closed_reason = reason
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ClientError("closed", reason))
        self._waiting.clear()
        for handler in list(self._handlers.values()):
            handler(None)

    @property
    def dropped(self) -> bool:
        """Gone, and worth coming back on: not closed here, nor for what the client did
        (a policy close: flooding, bad keys; a frame too big). A server that stops (1001),
        a table moved to another server (1012, 1013), a connection broken or killed."""
        return self.closed_reason is not None and not self._closed_here and \
            self.close_code not in (1000, 1008, 1009)

    async def close(self) -> None:
        """Close the connection (the tables it sat at see the seat drop)."""
        self._closed_here = True
        self._closed("the connection was closed here")
        with contextlib.suppress(Exception):
            await self.ws.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = " ".join(str(exc).split())
    return text or type(exc).__name__
