"""`cardcore web` started for real, with `cardcore serve` (issue 22, item 11): a seat link's
WebSocket starts the browser's own `cardcore join` at that seat, with the secret in its
environment and never on its command line (which `ps` shows every local user), and a
page of another origin is refused."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

import pytest
import websockets

from cardcore.services.net import protocol as p

from .processes import ask, browser_apps, serve, web

WAIT = 30.0
KEY = "Kq" * 21 + "x"


async def screen_until(ws: websockets.ClientConnection, text: str) -> None:
    """Read the app's screen output until ``text`` shows."""
    seen = ""

    async def read() -> None:
        nonlocal seen
        async for frame in ws:
            if isinstance(frame, bytes):
                seen += frame.decode("utf-8", "replace")
            if text in seen:
                return
        raise AssertionError(f"closed before {text!r}")

    try:
        await asyncio.wait_for(read(), WAIT)
    except TimeoutError:
        raise AssertionError(f"no {text!r} on the screen; the end of it: {seen[-400:]!r}") from None


def proc_file(pid: int, name: str) -> list[str]:
    return [part.decode() for part in (Path("/proc") / str(pid) / name).read_bytes().split(b"\0") if part]


@pytest.mark.slow
def test_a_seat_link_starts_its_app_with_the_secret_out_of_its_command_line(cardcore_home):
    with serve() as server, web(server) as page:
        created = ask(server, p.CreateTable(game="casino", seats=["human", "greedy"]))
        code, secret = created.code, created.seats[0].invite
        ws_url = page.replace("http://", "ws://")

        async def go() -> None:
            with pytest.raises(websockets.InvalidStatus) as refused:  # another site's page
                await websockets.connect(f"{ws_url}/ws/{KEY}", origin="http://evil.example")
            assert refused.value.response.status_code == 403
            seat = f"{ws_url}/ws/{KEY}/{code}/{secret}?width=100&height=40"
            ws = await asyncio.wait_for(websockets.connect(seat, origin=page), WAIT)
            try:
                await screen_until(ws, "Your hand")  # the seat taken: the secret reached the app
                [pid] = browser_apps(server)
                cmdline, environ = proc_file(pid, "cmdline"), proc_file(pid, "environ")
                assert code in cmdline and not [arg for arg in cmdline if secret in arg], cmdline
                assert f"CARDCORE_SECRET={secret}" in environ
                folder = cardcore_home / "web-seats" / hashlib.sha256(KEY.encode()).hexdigest()[:32]
                assert f"CARDCORE_SEATS_DIR={folder}" in environ and folder.is_dir()
            finally:
                await ws.close()

        asyncio.run(go())


@pytest.mark.slow
def test_a_web_link_to_a_seat_someone_holds_says_why_it_did_not_seat_you(cardcore_home):
    """Issue 23: the page said "No table yet"; it says the seat is taken, as `cardcore join` does."""
    with serve() as server, web(server) as page:
        created = ask(server, p.CreateTable(game="casino", seats=["human", "greedy"]))
        code, invite = created.code, created.seats[0].invite
        ws_url = page.replace("http://", "ws://")

        async def go() -> None:
            from cardcore.services.net.client import Connection

            holder = await Connection.open(server, "Ann")  # the seat is Ann's, and she is at it
            try:
                await holder.call(p.Join(code=code, invite=invite))
                seat = f"{ws_url}/ws/{KEY}/{code}/{invite}?width=120&height=30"
                ws = await asyncio.wait_for(websockets.connect(seat, origin=page), WAIT)
                try:
                    await screen_until(ws, "did not seat you (taken)")
                finally:
                    await ws.close()
            finally:
                await holder.close()

        asyncio.run(go())
