"""`cardcore web`'s guards (issue 22, item 11), on real sockets on 127.0.0.1: a page of
another origin cannot open a game, a WebSocket needs the browser's key, each browser's
process keeps its seats in a folder of its own, a seat's secret goes to the process in
its environment, and the processes are capped per address and in all. The web server
runs in this process; its app is a stand-in (a shell that writes its environment down
and waits for its first input), not `cardcore join` (tests/web/test_web_process.py runs
the real one)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from aiohttp.web import AppRunner, TCPSite

from cardcore.apps.tui.web import MAX_COLUMNS, MAX_ROWS, WebConfig, WebServer, screen_size, seats_dir
from cardcore.services.net.origins import Origins

from .processes import free_port

WAIT = 10.0
KEY_A = "A" * 43
KEY_B = "b-_" * 14 + "x"
#: The stand-in app: its environment and arguments written down, then alive until its
#: first input (textual-serve's "quit" when the page goes).
STAND_IN = ("exec sh -c 'env > \"$CARDCORE_SEATS_DIR/env\"; echo \"$0 $*\" > \"$CARDCORE_SEATS_DIR/args\"; "
            "exec head -c 1 >/dev/null'")


class Harness:
    """A web server in this process on a free port, and the WebSockets a test opened to it
    (closed when the test ends, whatever happens)."""

    def __init__(self, server: WebServer):
        self.server = server
        self.port = server.port
        self.clients: list[websockets.ClientConnection] = []

    async def opened(self, path: str, *, origin: str | None = None,
                     source: str = "127.0.0.1") -> websockets.ClientConnection:
        headers = {"Origin": origin} if origin is not None else {}
        ws = await asyncio.wait_for(websockets.connect(f"ws://127.0.0.1:{self.port}{path}",
                                                       additional_headers=headers,
                                                       local_addr=(source, 0)), WAIT)
        self.clients.append(ws)
        return ws

    async def refused(self, path: str, **kwargs: Any) -> tuple[int, str]:
        with pytest.raises(websockets.InvalidStatus) as caught:
            await self.opened(path, **kwargs)
        response = caught.value.response
        return response.status_code, response.body.decode() if response.body else ""


@contextlib.asynccontextmanager
async def web_server(**settings: Any) -> AsyncIterator[Harness]:
    port = free_port()
    server = WebServer(WebConfig("ws://127.0.0.1:1", port=port, **settings))
    server.command = STAND_IN
    runner = AppRunner(await server._make_app())
    await runner.setup()
    await TCPSite(runner, "127.0.0.1", port).start()
    harness = Harness(server)
    try:
        yield harness
    finally:
        for ws in harness.clients:
            await asyncio.wait_for(ws.close(), WAIT)
        await asyncio.wait_for(runner.cleanup(), WAIT)


async def until(condition, what: str) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"never: {what}"
        await asyncio.sleep(0.02)


def written(folder: Path, name: str) -> str:
    return (folder / name).read_text() if (folder / name).exists() else ""


def test_origins_are_the_configured_names_and_loopback_only_on_loopback():
    mine = Origins(["https://Cards.Example.org/web/", "http://friends.example:8080"],
                   loopback=True, loopback_port=8000)
    for header in (None, "https://cards.example.org", "https://cards.example.org:443",
                   "http://friends.example:8080", "http://127.0.0.1:8000", "http://localhost:8000",
                   "http://[::1]:8000"):
        assert mine.allows(header), header
    for header in ("http://evil.example", "https://cards.example.org:8443", "http://cards.example.org",
                   "http://friends.example", "http://localhost:8001", "http://127.0.0.1", "null", "",
                   "http://evil.example.127.0.0.1.nip.io:8000", "https://cards.example.org/x",
                   "http://user@localhost:8000", "http://localhost:99999", "file://"):
        assert not mine.allows(header), header
    # a wss:// public URL lets in its https:// pages; loopback names on any port when no port is named
    served = Origins(["wss://cards.example.org/play"], loopback=True)
    assert served.allows("https://cards.example.org") and served.allows("http://localhost:3000")
    # not on loopback: no loopback name at all (only the configured ones)
    remote = Origins(["https://cards.example.org"], loopback=False)
    assert not remote.allows("http://localhost:8765") and not remote.allows("http://127.0.0.1:8765")


def test_each_browser_key_has_its_own_folder_and_a_key_is_bounded_and_url_safe(tmp_path):
    a, b = seats_dir(tmp_path, KEY_A), seats_dir(tmp_path, KEY_B)
    assert a != b and a.parent == b.parent == tmp_path
    assert a == seats_dir(tmp_path, KEY_A)  # the same browser comes back to the same folder
    assert a.name == hashlib.sha256(KEY_A.encode()).hexdigest()[:32] and KEY_A not in str(a)
    for bad in ("", "A" * 21, "A" * 65, "A" * 42 + "/", "../" + "A" * 40, "A" * 42 + "%", "A" * 42 + "é",
                "A" * 42 + ".", "A" * 42 + "\n"):
        with pytest.raises(ValueError):
            seats_dir(tmp_path, bad)


@pytest.mark.asyncio
async def test_a_page_of_another_origin_cannot_open_a_game(cardcore_home):
    async with web_server() as web:
        port = web.port
        # DNS rebinding: evil.example pointed at 127.0.0.1 sends its own name as Host too
        status, text = await web.refused(f"/ws/{KEY_A}", origin="http://evil.example")
        assert status == 403 and "origin" in text
        for origin in (f"http://localhost:{port + 1}", "null", f"http://evil.example:{port}"):
            assert (await web.refused(f"/ws/{KEY_A}", origin=origin))[0] == 403
        assert not web.server.running and not (cardcore_home / "web-seats").exists()  # nothing started
        for origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}", None):
            ws = await web.opened(f"/ws/{KEY_A}", origin=origin)
            assert web.server.running == {"127.0.0.1": 1}
            await ws.close()
            await until(lambda: not web.server.running, "the app process gone with its page")


@pytest.mark.asyncio
async def test_a_websocket_needs_a_browser_key_and_a_well_formed_seat(cardcore_home):
    async with web_server() as web:
        for path, status in (("/ws", 400), ("/ws/short", 400), (f"/ws/{'A' * 65}", 400),
                             (f"/ws/{KEY_A}/KQX482/secret", 404), (f"/ws/{KEY_A}/KQX-482/a%3Bb", 404)):
            assert (await web.refused(path))[0] == status, path
        assert not web.server.running and not (cardcore_home / "web-seats").exists()


@pytest.mark.asyncio
async def test_each_browser_has_its_seats_folder_and_a_seat_secret_only_in_the_environment(
        cardcore_home, monkeypatch):
    monkeypatch.setenv("CARDCORE_SECRET", "the-web-servers-own")  # never handed to an app
    async with web_server() as web:
        a = seats_dir(cardcore_home / "web-seats", KEY_A)
        b = seats_dir(cardcore_home / "web-seats", KEY_B)
        seat = await web.opened(f"/ws/{KEY_A}/KQX-482/Zp3secret_-x")
        lobby = await web.opened(f"/ws/{KEY_B}")
        await until(lambda: written(a, "args") and written(b, "args"), "both apps started")
        seat_env, lobby_env = written(a, "env").splitlines(), written(b, "env").splitlines()
        assert f"CARDCORE_SEATS_DIR={a}" in seat_env and f"CARDCORE_SEATS_DIR={b}" in lobby_env
        assert "CARDCORE_SECRET=Zp3secret_-x" in seat_env
        assert not [line for line in lobby_env if line.startswith("CARDCORE_SECRET")]
        assert written(a, "args").split() == ["KQX-482"]  # the code on the command line, no secret
        assert a.stat().st_mode & 0o077 == 0 and (cardcore_home / "web-seats").stat().st_mode & 0o077 == 0
        await seat.close()
        await lobby.close()
        await until(lambda: not web.server.running, "the app processes gone")


@pytest.mark.asyncio
async def test_app_processes_are_capped_per_address_and_in_all(cardcore_home):
    async with web_server(max_apps=3, max_apps_per_client=2) as web:
        mine = [await web.opened(f"/ws/{KEY_A}"), await web.opened(f"/ws/{KEY_B}")]
        status, text = await web.refused(f"/ws/{KEY_A}")
        assert status == 429 and "2 games are open from your address" in text
        # the page says so before it tries
        page = await asyncio.to_thread(urllib_error, f"http://127.0.0.1:{web.port}/")
        assert page[0] == 429 and "2 games are open from your address" in page[1]
        theirs = await web.opened(f"/ws/{KEY_A}", source="127.0.0.2")  # another address: room
        status, text = await web.refused(f"/ws/{KEY_B}", source="127.0.0.3")
        assert status == 503 and "3 games open" in text
        assert web.server.running == {"127.0.0.1": 2, "127.0.0.2": 1}
        await mine.pop().close()  # a page closed: its process gone, its place free
        await until(lambda: web.server.running.get("127.0.0.1") == 1, "a place free")
        mine.append(await web.opened(f"/ws/{KEY_B}", source="127.0.0.1"))
        for ws in (*mine, theirs):
            await ws.close()
        await until(lambda: not web.server.running, "the app processes gone")


def urllib_error(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=WAIT) as page:
            return page.status, page.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.mark.asyncio
@pytest.mark.parametrize("junk", ["not json", '["stdin"]', '{"a": 1}', '["resize", {"width": 1}]'])
async def test_a_malformed_message_ends_that_page_alone_and_logs_no_secret(cardcore_home, caplog, junk):
    async with web_server() as web:
        seat = await web.opened(f"/ws/{KEY_A}/KQX-482/Zp3secret_-x")
        other = await web.opened(f"/ws/{KEY_B}")
        await seat.send(junk)
        await asyncio.wait_for(seat.wait_closed(), WAIT)
        await until(lambda: web.server.running == {"127.0.0.1": 1}, "that page's process gone")
        assert "Zp3secret_-x" not in caplog.text and "Traceback" not in caplog.text
        assert "a page's connection ended" in caplog.text
        await other.send('["ping", "still here"]')
        assert await asyncio.wait_for(other.recv(), WAIT) == '["pong", "still here"]'


def test_a_page_asks_for_a_terminal_within_bounds():
    assert screen_size(100, 40) == (100, 40)
    assert screen_size(10**9, 10**9) == (MAX_COLUMNS, MAX_ROWS)
    assert screen_size(-5, 0) == (1, 1)
    assert screen_size("80", [1]) == screen_size(True, None) == (80, 24)
