"""The WebSocket connections of ``cardcore serve`` (cardcore/services/net/connection.py): the opening
and closing handshakes, fragmented and malformed frames, keepalive, a server stopping.
Real sockets on 127.0.0.1; raw clients where a well-behaved one cannot misbehave."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from tests.net.helpers import WAIT, Client, running, server_config, start_server


class RawClient:
    """A WebSocket client whose every byte is ours to send or hold back: websockets'
    Sans-I/O protocol on asyncio streams. ``answer=False``: pings are never answered."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, answer: bool):
        self.reader, self.writer = reader, writer
        self.ws = ClientProtocol(parse_uri("ws://127.0.0.1/"))
        self.answer = answer
        self.frames: list[Frame] = []

    @classmethod
    async def connect(cls, port: int, answer: bool = True) -> RawClient:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), WAIT)
        client = cls(reader, writer, answer)
        client.ws.send_request(client.ws.connect())
        client.flush()
        response = await client.event()
        assert isinstance(response, Response) and response.status_code == 101
        return client

    def flush(self) -> None:
        for data in self.ws.data_to_send():
            if data:
                self.writer.write(data)

    async def event(self) -> Response | Frame | None:
        """The next event received (None: the server closed the socket)."""
        while True:
            events = self.ws.events_received()
            if events:
                for event in events[1:]:
                    raise AssertionError(f"more than one event at once: {event}")
                if self.answer:
                    self.flush()  # a pong, or the close frame's answer
                return events[0]
            data = await asyncio.wait_for(self.reader.read(65536), WAIT)
            if not data:
                return None
            self.ws.receive_data(data)

    async def closed(self) -> int | None:
        """Read until the server closes: the code of its close frame (None if it sent none)."""
        code = None
        while (event := await self.event()) is not None:
            if isinstance(event, Frame) and event.opcode is Opcode.CLOSE:
                code = self.ws.close_rcvd.code if self.ws.close_rcvd else None
        return code

    async def answer_pings(self, seen: list[float], arrived: asyncio.Event) -> None:
        """Read (answering each ping) until cancelled, noting when each ping came."""
        loop = asyncio.get_running_loop()
        try:
            while (event := await self.event()) is not None:
                assert isinstance(event, Frame) and event.opcode is Opcode.PING, event
                seen.append(loop.time())
                arrived.set()
        finally:
            arrived.set()  # closed, or something else came: whoever waits hears of it

    def send_text_bytes(self, data: bytes) -> None:
        self.ws.send_text(data)
        self.flush()


@pytest.mark.asyncio
async def test_a_plain_http_request_is_refused_and_the_socket_closed(tmp_path):
    async with running(tmp_path / "l.sqlite", server_config()) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        reply = await asyncio.wait_for(reader.read(), WAIT)  # until the server closes
        writer.close()
    head = reply.split(b"\r\n\r\n")[0].decode()
    assert head.startswith("HTTP/1.1 426 ")
    assert "Server: cardcore/" in head


@pytest.mark.asyncio
async def test_a_handshake_never_finished_is_dropped_after_the_open_timeout(tmp_path):
    async with running(tmp_path / "l.sqlite", replace(server_config(), open_timeout=0.3)) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the rest
        loop = asyncio.get_running_loop()
        start = loop.time()
        assert await asyncio.wait_for(reader.read(), WAIT) == b""
        assert 0.25 <= loop.time() - start < 3
        writer.close()
        # the server is none the worse: a client after it is answered
        client = await Client.connect(server.port)
        assert (await client.request({"type": "hello", "name": "Ann"}))["type"] == "welcome"
        await client.close()


@pytest.mark.asyncio
async def test_a_message_in_fragments_is_read_whole(tmp_path):
    async with running(tmp_path / "l.sqlite", server_config()) as server:
        client = await Client.connect(server.port)
        text = json.dumps({"v": 1, "id": 7, "type": "hello", "name": "Ann"})
        await client.ws.send([text[:5], text[5:20], text[20:]])
        reply = await client.next(lambda m: m.get("id") == 7)
        assert reply["type"] == "welcome"
        await client.close()


@pytest.mark.asyncio
async def test_a_text_frame_that_is_not_utf8_closes_that_connection_with_1007(tmp_path):
    async with running(tmp_path / "l.sqlite", server_config()) as server:
        other = await Client.connect(server.port)
        raw = await RawClient.connect(server.port)
        raw.send_text_bytes(b'{"v":1,"type":"hello","name":"\xff\xfe"}')
        assert await raw.closed() == 1007
        raw.writer.close()
        assert (await other.request({"type": "hello", "name": "Bob"}))["type"] == "welcome"
        assert other.closed is None
        await other.close()


@pytest.mark.asyncio
async def test_a_client_that_never_answers_pings_is_closed_and_one_that_does_stays(tmp_path):
    async with running(tmp_path / "l.sqlite", replace(server_config(), ping_interval=0.2)) as server:
        lively = await RawClient.connect(server.port)  # answers every ping, sends nothing else
        lively_pings: list[float] = []
        pinged = asyncio.Event()
        answering = asyncio.ensure_future(lively.answer_pings(lively_pings, pinged))
        deaf = await RawClient.connect(server.port, answer=False)
        loop = asyncio.get_running_loop()
        start = loop.time()
        pings = 0
        while (event := await deaf.event()) is not None:
            assert isinstance(event, Frame)
            if event.opcode is Opcode.CLOSE:
                break
            pings += event.opcode is Opcode.PING
        assert pings >= 1  # pinged when silent, then closed when still silent
        assert 0.3 <= loop.time() - start < 5
        assert deaf.ws.close_rcvd is not None and deaf.ws.close_rcvd.code == 1011
        deaf.writer.close()
        # three more pings to the lively client, each answered: it stays
        closed_at = loop.time()
        while sum(t > closed_at for t in lively_pings) < 3:
            pinged.clear()
            await asyncio.wait_for(pinged.wait(), WAIT)
            assert not answering.done(), answering  # closed, or sent something else
        answering.cancel()
        await asyncio.gather(answering, return_exceptions=True)
        lively.send_text_bytes(json.dumps({"v": 1, "id": 1, "type": "hello", "name": "Ann"}).encode())
        reply = await lively.event()
        assert isinstance(reply, Frame) and reply.opcode is Opcode.TEXT
        assert json.loads(reply.data)["type"] == "welcome"
        assert len(server.clients) == 1
        lively.writer.close()


@pytest.mark.asyncio
async def test_a_stopping_server_closes_every_client_with_1001(tmp_path):
    server = await start_server(tmp_path / "l.sqlite", server_config())
    clients = [await Client.connect(server.port) for _ in range(3)]
    await asyncio.wait_for(server.close(), WAIT)
    server.store.close()
    for client in clients:
        code, _ = await client.wait_closed()
        assert code == 1001
    assert not server.clients and not server.per_ip
