"""One client of ``cardcore serve``: a WebSocket on a plain asyncio transport.

The WebSocket is websockets' Sans-I/O protocol (``ServerProtocol``): bytes in, events
out, bytes to write. A frame is read in ``data_received`` and handed to the server in
the same call, and a frame the server sends is written at once: no task, future or
queue per connection or per message. (websockets' asyncio server keeps a handler task,
a keepalive task, futures and a message queue per connection and wakes a task for every
message: at 200 tables, about half the server's CPU per action, and most of the objects
its garbage collector walks; benches/RESULTS.md.) What that server did besides is done
here: the opening handshake within ``OPEN_TIMEOUT`` (and a socket the server will not
take now, ``Host.opening``, closed at once: no descriptor held), the closing handshake within
``CLOSE_TIMEOUT``, fragmented messages, keepalive pings (``Server`` sweeps every
connection now and then: ``ping``), and a client that stops reading closed once
``MAX_UNSENT_BYTES`` wait for it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections.abc import Sequence
from typing import Protocol as Interface

from websockets.extensions.base import ServerExtensionFactory
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol

#: Bytes waiting to reach a slow client before it is closed.
MAX_UNSENT_BYTES = 4 * 1024 * 1024
#: A connection must finish its opening handshake within this (seconds); a refused one
#: must be closed by the client within it too.
OPEN_TIMEOUT = 5.0
#: After a close frame, how long the other side has to close before the socket is dropped.
CLOSE_TIMEOUT = 10.0
#: The longest PROXY protocol (v1) header, its line end included.
PROXY_HEADER_MAX = 107
#: A connection silent this long is pinged; one silent for twice this is closed (seconds).
PING_INTERVAL = 20.0


def source_of(host: str) -> str:
    """An address as the limits per address count it: an IPv4 address as it is (an IPv6
    one mapping it too); an IPv6 address by its /64, the block one subscriber commonly
    holds whole (counted one by one, a single client would have 2**64 addresses)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Host(Interface):
    """What a connection asks of its server."""

    def opening(self, conn: Connection) -> bool:
        """A new socket (its ``address`` known): False to close it at once."""

    def admit(self, conn: Connection, request: Request) -> Response | None:
        """None: the handshake may go on; else the HTTP response that refuses it."""

    def server_header(self) -> str:
        """The ``Server`` header of every handshake response."""

    def received(self, conn: Connection, text: str | None) -> None:
        """A whole message: its text, or None for a binary one."""

    def lost(self, conn: Connection) -> None:
        """The connection is gone (called once)."""


class Connection(asyncio.Protocol):
    """A WebSocket connection to one client. The server's own state of a client (its name,
    tables, limits) lives in ``Server``'s subclass (``cardcore.services.net.server.Client``)."""

    def __init__(self, host: Host, *, max_size: int, logger: logging.Logger,
                 extensions: Sequence[ServerExtensionFactory] | None = None,
                 open_timeout: float = OPEN_TIMEOUT, proxied: bool = False):
        self.host = host
        self.open_timeout = open_timeout
        #: The PROXY protocol header a proxy sends first (``proxied``: HAProxy's
        #: ``send-proxy``), read so far; None once read, or when none is expected.
        self._header: bytes | None = b"" if proxied else None
        self.ws = ServerProtocol(max_size=max_size, extensions=extensions, logger=logger)
        self.transport: asyncio.Transport | None = None
        #: Where the client is, as the server's limits per address count it (``source_of``).
        self.address = ""
        self.closing = False
        #: When the client last sent anything (``time.monotonic()``): the keepalive's clock.
        self.heard = time.monotonic()
        self._fragments: list[bytes] = []
        self._fragmented_text = False
        self._timer: asyncio.TimerHandle | None = None
        self._gone = False

    # --- asyncio.Protocol ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.address = source_of(str(peer[0]) if isinstance(peer, tuple) and peer else str(peer or ""))
        if self._header is not None:  # who the client is comes first, from the proxy
            self._deadline(self.open_timeout)
            return
        self._opening()

    def _opening(self) -> bool:
        """The socket counted among those not let in yet (else closed at once: False)."""
        assert self.transport is not None
        if not self.host.opening(self):
            self.closing = True
            self.transport.abort()  # the descriptor goes now; connection_lost follows
            return False
        self._deadline(self.open_timeout)
        return True

    def _proxy_header(self, data: bytes) -> bytes | None:
        """The PROXY protocol's first line (v1: ``PROXY TCP4 SRC DST SPORT DPORT``): the
        client's own address; what follows it, or None while it is not whole (a socket
        without one is dropped)."""
        assert self._header is not None and self.transport is not None
        head = self._header + data
        end = head.find(b"\r\n")
        if end < 0:
            if len(head) > PROXY_HEADER_MAX:
                self.transport.abort()
            else:
                self._header = head
            return None
        self._header = None
        fields = head[:end].split(b" ")
        if fields[0] != b"PROXY":
            self.transport.abort()
            return None
        if fields[1] in (b"TCP4", b"TCP6") and len(fields) == 6:
            self.address = source_of(fields[2].decode(errors="replace"))
        return head[end + 2:] if self._opening() else None

    def data_received(self, data: bytes) -> None:
        self.heard = time.monotonic()
        if self._header is not None:
            rest = self._proxy_header(data)
            if not rest:
                return
            data = rest
        ws = self.ws
        ws.receive_data(data)
        events = ws.events_received()
        self._flush()
        for event in events:
            if isinstance(event, Frame):
                self._frame(event)
            elif isinstance(event, Request):
                self._handshake(event)
        if ws.close_expected() and not self.closing:  # the client closes, or the protocol failed
            self._wind_down()

    def eof_received(self) -> bool | None:
        self.ws.receive_eof()
        self._flush()
        return None  # the transport closes itself

    def connection_lost(self, exc: Exception | None) -> None:
        self.ws.receive_eof()  # idempotent: the protocol is CLOSED now
        self.closing = True
        self._cancel_deadline()
        if not self._gone:
            self._gone = True
            self.host.lost(self)

    # --- sending -----------------------------------------------------------------------------

    @property
    def open(self) -> bool:
        return self.ws.state is State.OPEN and not self.closing

    def send(self, frame: bytes) -> None:
        """Write one frame (UTF-8 JSON, as a text frame) now; a client that lets
        ``MAX_UNSENT_BYTES`` pile up is closed."""
        if not self.open:
            return
        assert self.transport is not None
        if self.transport.get_write_buffer_size() > MAX_UNSENT_BYTES:
            self.close(CloseCode.POLICY_VIOLATION, "too slow: too many messages waiting")
            return
        self.ws.send_text(frame)
        self._flush()

    def close(self, code: int, reason: str) -> None:
        """Start the closing handshake (the socket goes after it, or after ``CLOSE_TIMEOUT``)."""
        if self.closing or self.transport is None:
            return
        if self.ws.state is State.OPEN:
            self.ws.send_close(code, reason)
            self._flush()
            self._wind_down()
        else:
            self.closing = True
            self.transport.close()

    def ping(self, interval: float = PING_INTERVAL) -> None:
        """Keepalive: ping a client silent for ``interval``; close one silent for twice that
        (its pong, like anything it sends, counts as heard)."""
        silent = time.monotonic() - self.heard
        if not self.open or silent < interval:
            return
        if silent >= 2 * interval:
            self.close(CloseCode.INTERNAL_ERROR, "keepalive ping timeout")
        else:
            self.ws.send_ping(b"")
            self._flush()

    # --- receiving ---------------------------------------------------------------------------

    def _handshake(self, request: Request) -> None:
        refusal = self.host.admit(self, request)
        response = refusal if refusal is not None else self.ws.accept(request)
        response.headers["Server"] = self.host.server_header()
        self.ws.send_response(response)
        self._flush()
        if self.ws.state is State.OPEN:
            self._cancel_deadline()
        else:  # refused: the response is written; the client closes within the open deadline
            self.closing = True

    def _frame(self, frame: Frame) -> None:
        opcode = frame.opcode
        if opcode is Opcode.TEXT or opcode is Opcode.BINARY:
            if not frame.fin:
                self._fragments = [bytes(frame.data)]
                self._fragmented_text = opcode is Opcode.TEXT
                return
            self._message(bytes(frame.data), opcode is Opcode.TEXT)
        elif opcode is Opcode.CONT:
            self._fragments.append(bytes(frame.data))
            if frame.fin:
                data, self._fragments = b"".join(self._fragments), []
                self._message(data, self._fragmented_text)

    def _message(self, data: bytes, text: bool) -> None:
        if self.closing:
            return  # once closing, frames are read (so the close can be) and dropped
        if not text:
            self.host.received(self, None)
            return
        try:
            decoded = data.decode()
        except UnicodeDecodeError:
            self.ws.fail(CloseCode.INVALID_DATA, "a text frame that is not UTF-8")
            self._flush()
            self._wind_down()
            return
        self.host.received(self, decoded)

    # --- the socket ----------------------------------------------------------------------------

    def _flush(self) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        for data in self.ws.data_to_send():
            if data:
                transport.write(data)
            elif transport.can_write_eof():  # the protocol is done writing: half-close
                transport.write_eof()
            else:  # TLS cannot half-close
                transport.close()

    def _wind_down(self) -> None:
        """Nothing more is read from this client: the socket goes when the closing handshake
        is done, or after ``CLOSE_TIMEOUT``."""
        self.closing = True
        self._deadline(CLOSE_TIMEOUT)

    def _deadline(self, seconds: float) -> None:
        self._cancel_deadline()
        self._timer = asyncio.get_running_loop().call_later(seconds, self._abort)

    def _cancel_deadline(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _abort(self) -> None:
        self._timer = None
        if self.transport is not None:
            self.transport.abort()
