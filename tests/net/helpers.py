"""A test client and a server on 127.0.0.1 for the network tests (every wait bounded)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection

from cardcore.services.net.protocol import MAX_SERVER_MESSAGE_BYTES, decode
from cardcore.services.net.server import Server, ServerConfig
from cardcore.services.net.tables import TableConfig
from cardcore.services.plugins import load_registry
from cardcore.services.store import open_library

#: The longest any single wait in these tests may take (seconds).
WAIT = 10.0


class Client:
    """One connection: everything it received, in order, each frame checked by the models."""

    def __init__(self, ws: ClientConnection):
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self._seen = 0
        self._next_id = 0
        self._reader = asyncio.ensure_future(self._read())
        self._arrived = asyncio.Event()
        self.closed: tuple[int | None, str] | None = None

    @classmethod
    async def connect(cls, port: int, path: str = "/", host: str = "127.0.0.1", **kwargs: Any) -> Client:
        ws = await asyncio.wait_for(websockets.connect(f"ws://{host}:{port}{path}",
                                                       max_size=MAX_SERVER_MESSAGE_BYTES,
                                                       **kwargs), WAIT)
        return cls(ws)

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                decode(raw, sent_by="server")  # every frame the server sends is a valid message
                self.received.append(json.loads(raw))
                self._arrived.set()
        except websockets.ConnectionClosed:
            pass
        self.closed = (self.ws.close_code, self.ws.close_reason or "")
        self._arrived.set()

    async def send(self, message: dict[str, Any] | str | bytes) -> int:
        """Send a message (a dict gets v and a fresh id); returns the id."""
        if isinstance(message, (str, bytes)):
            await self.ws.send(message)
            return -1
        self._next_id += 1
        await self.ws.send(json.dumps({"v": 1, "id": self._next_id, **message}))
        return self._next_id

    async def next(self, pred: Callable[[dict[str, Any]], bool] = lambda m: True,
                   timeout: float = WAIT) -> dict[str, Any]:
        """The next received message (after the last one returned) that ``pred`` accepts."""
        async def find() -> dict[str, Any]:
            while True:
                while self._seen < len(self.received):
                    msg = self.received[self._seen]
                    self._seen += 1
                    if pred(msg):
                        return msg
                if self.closed is not None:
                    raise ConnectionError(f"closed {self.closed}")
                self._arrived.clear()
                await self._arrived.wait()
        try:
            return await asyncio.wait_for(find(), timeout)
        except TimeoutError:
            raise TimeoutError(f"nothing came in {timeout} s; the last frames: "
                               f"{[json.dumps(m)[:150] for m in self.received[-3:]]}") from None

    def rewind(self) -> None:
        """Read again from the first message received."""
        self._seen = 0

    async def request(self, message: dict[str, Any], timeout: float = WAIT) -> dict[str, Any]:
        """Send and return the reply with the same id (or the error about it)."""
        rid = await self.send(message)
        return await self.next(lambda m: m.get("id") == rid, timeout)

    async def sit(self, code: str, link: dict[str, Any], name: str | None = None) -> dict[str, Any]:
        """Take ``link``'s seat: claim it with its invite the first time, come back with the
        token the claim gave (kept in ``link``, as a client keeps it) after. The reply."""
        key = {"token": link["token"]} if "token" in link else {"invite": link["invite"]}
        reply = await self.request({"type": "join", "code": code, **key, **({"name": name} if name else {})})
        if reply["type"] == "joined":
            link["token"] = reply["token"]
        return reply

    async def update(self, pred: Callable[[dict[str, Any]], bool] = lambda m: True,
                     timeout: float = WAIT) -> dict[str, Any]:
        return await self.next(lambda m: m["type"] == "update" and pred(m), timeout)

    async def wait_closed(self, timeout: float = WAIT) -> tuple[int | None, str]:
        await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        assert self.closed is not None
        return self.closed

    async def close(self) -> None:
        await self.ws.close()
        await asyncio.wait_for(asyncio.shield(self._reader), WAIT)


async def until(condition: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
    """Wait until ``condition()`` holds (checked every few milliseconds, at most ``timeout``):
    for what the server does that no client is told of."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise TimeoutError(f"not in {timeout} s: {what}")
        await asyncio.sleep(0.005)


def server_config(rate: float = 1000.0, burst: int = 1000, **table: Any) -> ServerConfig:
    """A server on any free port, with short waits for tests (and clients that play as
    fast as their bots choose: a high rate limit, unless a test sets one)."""
    settings = {"grace": 0.3, "bot_delay": 0.0, **table}
    return ServerConfig(port=0, table=TableConfig(**settings), compression=False, rate=rate,
                        burst=burst, allow_seed=True)


async def start_server(library: str | Path, config: ServerConfig | None = None,
                       registry: Any = None) -> Server:
    store = open_library(library, import_autosave=False)  # a file or a postgresql:// URL
    server = Server(registry or load_registry(), store, config or server_config())
    await asyncio.wait_for(server.start(), WAIT)
    return server


async def stop_server(server: Server) -> None:
    await asyncio.wait_for(server.close(), WAIT)
    server.store.close()


@contextlib.asynccontextmanager
async def running(library: str | Path, config: ServerConfig | None = None,
                  registry: Any = None) -> AsyncIterator[Server]:
    """A server for the block, stopped after it whatever happens."""
    server = await start_server(library, config, registry)
    try:
        yield server
    finally:
        await stop_server(server)
