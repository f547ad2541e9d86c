"""`cardcore serve`'s Origin check (issue 22, item 11): a browser page may connect only from
the names the host configured (`--origin`, the public URL) or, the server being on
loopback, from a loopback name; the request's Host header counts for nothing (DNS
rebinding: a page of evil.example whose name points at 127.0.0.1 sends Host evil.example)."""

from __future__ import annotations

import asyncio

import pytest
import websockets

from tests.net.helpers import WAIT, running, server_config


async def handshake(port: int, origin: str | None, host: str = "127.0.0.1") -> int:
    """The HTTP status of a WebSocket handshake to the server at 127.0.0.1:``port``, sent with
    ``Host: host:port`` and this ``Origin`` (101: let in)."""
    try:
        ws = await asyncio.wait_for(websockets.connect(f"ws://{host}:{port}/", host="127.0.0.1", port=port,
                                                       origin=origin), WAIT)
    except websockets.InvalidStatus as refused:
        return refused.response.status_code
    await ws.close()
    return 101


@pytest.mark.asyncio
async def test_browsers_only_from_the_configured_names_never_because_of_the_host_header(tmp_path):
    config = server_config()
    config.origins = ("https://cards.example.org",)
    config.public_url = "wss://play.example.net/tables"
    async with running(tmp_path / "library.sqlite", config) as server:
        port = server.port
        for host, origin in (("evil.example", "http://evil.example"),
                             ("evil.example", f"http://evil.example:{port}"),
                             ("127.0.0.1", "http://evil.example"),
                             ("cards.example.org", "http://cards.example.org"),  # not its scheme
                             ("127.0.0.1", "null")):
            assert await handshake(port, origin, host) == 403, (host, origin)
        for origin in ("https://cards.example.org", "https://play.example.net",  # --origin, --public-url
                       f"http://127.0.0.1:{port + 1}", "http://localhost:3000",  # on loopback: loopback names
                       None):  # no Origin: not a browser
            assert await handshake(port, origin, "evil.example") == 101, origin
