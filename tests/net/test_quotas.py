"""What one client may take of a server (docs/hosting.md, "What the server guards against"):
tables per address (over reconnects) and in total; unfinished handshakes per address and in
total; no file descriptor per table (a server holds its matches by a claim row in the
library); codes unique across servers sharing a library; no orphan match or row when a
table cannot be made. Real sockets on 127.0.0.x, every wait bounded."""

from __future__ import annotations

import asyncio
import os
import random
import resource
import sqlite3
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from cardcore.services.net.connection import source_of
from cardcore.services.net.server import MAX_CODE_DRAWS
from cardcore.services.store import MatchLocked
from cardcore.services.store.sqlite import SqliteStore
from tests.net.helpers import WAIT, Client, running, server_config, start_server, stop_server, until

OTHER = "127.0.0.2"  # Linux routes all of 127/8 to the loopback: a second address


async def create(client: Client) -> dict:
    return await client.request({"type": "create_table", "game": "casino", "seats": ["human", "greedy"]})


async def at_once(client: Client, n: int) -> list[dict]:
    """``n`` create_table sent before any reply comes: the replies."""
    ids = [await client.send({"type": "create_table", "game": "casino", "seats": ["human", "greedy"]})
           for _ in range(n)]
    await until(lambda: {m.get("id") for m in client.received} >= set(ids), "every reply")
    return [m for m in client.received if m.get("id") in ids]


async def from_address(port: int, address: str) -> Client:
    return await Client.connect(port, local_addr=(address, 0))


def fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def rows(library: Path, sql: str) -> list[tuple]:
    db = sqlite3.connect(library)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


class Stuck(random.Random):
    """A code drawer that always draws the same code (AAA-000)."""

    def getrandbits(self, k: int) -> int:
        return 0


@pytest.mark.asyncio
async def test_one_address_is_cut_at_its_tables_over_reconnects_while_another_still_makes_one(tmp_path):
    config = replace(server_config(), max_tables=5, max_tables_per_ip=3)
    async with running(tmp_path / "library.sqlite", config) as server:
        abuser = await Client.connect(server.port)
        for _ in range(2):
            assert (await create(abuser))["type"] == "table_created"
        await abuser.close()
        abuser = await Client.connect(server.port)  # a new connection: the count goes on
        replies = await at_once(abuser, 4)  # one more fits
        assert sorted(r["type"] for r in replies) == ["error"] * 3 + ["table_created"]
        assert {r["code"] for r in replies if r["type"] == "error"} == {"too_many"}
        await abuser.close()
        abuser = await Client.connect(server.port)
        cut = await create(abuser)
        assert (cut["code"], "your address" in cut["message"]) == ("too_many", True)
        other = await from_address(server.port, OTHER)
        assert (await create(other))["type"] == "table_created"
        assert (await create(other))["type"] == "table_created"  # the server's 5: full now
        third = await from_address(server.port, "127.0.0.3")
        full = await create(third)
        assert (full["code"], "this server" in full["message"]) == ("too_many", True)
        # tables no longer live do not count: abandoned ones free their maker's place
        server.config.expire_after = 0.0
        for client in (abuser, other, third):
            await client.close()
        await until(lambda: not server.clients, "the server hears of every close")
        assert len(server.expire_idle()) == 5
        again = await Client.connect(server.port)
        assert (await create(again))["type"] == "table_created"
        await again.close()


@pytest.mark.asyncio
async def test_a_tables_place_is_freed_once_its_match_is_over(tmp_path):
    config = replace(server_config(), max_tables_per_ip=1)
    async with running(tmp_path / "library.sqlite", config) as server:
        host = await Client.connect(server.port)
        made = await host.request({"type": "create_table", "game": "crazy_eights", "seed": 2,
                                   "options": {"target": 1}, "seats": ["greedy", "greedy"]})
        assert (await create(host))["code"] == "too_many"
        await host.request({"type": "watch", "code": made["code"]})  # the bots play while watched
        await host.update(lambda u: u["over"])
        assert (await create(host))["type"] == "table_created"
        await host.close()


async def half_open(port: int, address: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A socket whose handshake never ends (half a request)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    await writer.drain()
    return reader, writer


async def dropped_at_once(reader: asyncio.StreamReader) -> bool:
    """The server closed the socket without a word, well within the open deadline."""
    try:
        return await asyncio.wait_for(reader.read(), 1.0) == b""
    except ConnectionResetError:
        return True


@pytest.mark.asyncio
async def test_unfinished_handshakes_are_capped_per_address_and_in_total(tmp_path):
    config = replace(server_config(), max_handshakes_per_ip=3, max_handshakes=5, open_timeout=5.0)
    async with running(tmp_path / "library.sqlite", config) as server:
        held = [await half_open(server.port, "127.0.0.1") for _ in range(3)]
        await until(lambda: len(server.handshaking) == 3, "three handshakes under way")
        reader, writer = await half_open(server.port, "127.0.0.1")
        assert await dropped_at_once(reader)  # a fourth from that address
        writer.close()
        newcomer = await from_address(server.port, OTHER)  # another address still comes in
        assert (await newcomer.request({"type": "hello", "name": "Ann"}))["type"] == "welcome"
        held += [await half_open(server.port, "127.0.0.3") for _ in range(2)]  # five in all
        await until(lambda: len(server.handshaking) == 5, "five handshakes under way")
        reader, writer = await half_open(server.port, "127.0.0.4")
        assert await dropped_at_once(reader)  # past the total
        writer.close()
        assert server.handshakes_per_ip == {"127.0.0.1": 3, "127.0.0.3": 2}
        for _, w in held:
            w.close()
        await until(lambda: not server.handshaking and not server.handshakes_per_ip,
                    "the server hears of every close")
        late = await Client.connect(server.port)  # 127.0.0.1 may come in again
        assert (await late.request({"type": "hello"}))["type"] == "welcome"
        for client in (newcomer, late):
            await client.close()


@pytest.mark.asyncio
async def test_a_refused_handshake_counts_until_its_socket_goes(tmp_path):
    """A 429 answered and the socket kept open by the client still counts, and is dropped
    at the open deadline (not held for the closing one)."""
    config = replace(server_config(), max_connections_per_ip=1, max_handshakes_per_ip=2, open_timeout=0.5)
    async with running(tmp_path / "library.sqlite", config) as server:
        first = await Client.connect(server.port)
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WAIT)
        assert head.startswith(b"HTTP/1.1 429 ")
        assert len(server.handshaking) == 1  # refused, still open: counted
        loop = asyncio.get_running_loop()
        start = loop.time()
        await asyncio.wait_for(reader.read(), WAIT)  # the server ends it; we never close
        await until(lambda: not server.handshaking, "the refused socket is dropped")
        assert loop.time() - start < 3
        writer.close()
        await first.close()


@pytest.mark.asyncio
async def test_tables_hold_no_file_descriptor_before_or_after_a_restart(tmp_path):
    library = tmp_path / "library.sqlite"
    config = replace(server_config(), max_tables_per_ip=0)
    async with running(library, config) as server:
        host = await Client.connect(server.port)
        await create(host)  # the first claim opens this server's one holder file
        before = fds()
        made = [await create(host) for _ in range(12)]
        assert all(m["type"] == "table_created" for m in made)
        sitter = await Client.connect(server.port)
        assert (await sitter.sit(made[0]["code"], made[0]["seats"][0]))["type"] == "joined"
        await sitter.close()  # the table had someone, and has nobody again
        await server.writer.drain()
        assert fds() - before <= 1  # the sitter's socket may not be gone yet; no table holds one
        await host.close()
    base = fds()
    server = await start_server(library, config)
    try:
        assert len(server.resumed) == 13
        # the listening socket, the library's connection (and WAL), the holder: not one a table
        assert fds() - base <= 8, os.listdir("/proc/self/fd")
    finally:
        await stop_server(server)


@pytest.mark.asyncio
async def test_a_second_server_on_the_library_never_plays_the_firsts_matches(tmp_path):
    library = tmp_path / "library.sqlite"
    first = await start_server(library)
    try:
        host = await Client.connect(first.port)
        made = await create(host)
        await first.writer.drain()
        second = await start_server(library)  # the same library, while the first holds it
        try:
            assert (second.resumed, list(second.tables)) == ([], [])  # the first's lease holds it
        finally:
            await stop_server(second)
        match_id = first.tables[made["code"]].match_id
        local = SqliteStore(library)
        with pytest.raises(MatchLocked, match="at a cardcore server"):
            local.open(match_id)  # nor does a local table
        assert local.get(match_id).locked
        local.close()
        await host.close()
    finally:
        await stop_server(first)  # its claims die with its store
    third = await start_server(library)
    try:
        assert third.resumed == [made["code"]]
    finally:
        await stop_server(third)


@pytest.mark.asyncio
async def test_codes_are_unique_across_two_servers_on_one_library(tmp_path):
    library = tmp_path / "library.sqlite"
    first, second = await start_server(library), await start_server(library)
    try:
        first.code_rng, second.code_rng = random.Random(7), random.Random(7)  # the same draws
        a, b = await Client.connect(first.port), await Client.connect(second.port)
        made_a = await create(a)
        made_b = await create(b)  # its first draw is the first server's code: drawn again
        assert made_a["type"] == made_b["type"] == "table_created"
        assert made_a["code"] != made_b["code"]
        first.code_rng = random.Random(7)
        drawn = [first._new_code() for _ in range(2)]
        assert drawn == [made_a["code"], made_b["code"]]  # a collision in the library, really
        await first.writer.drain()
        await second.writer.drain()
        kept = dict(rows(library, "SELECT code, match_id FROM net_tables"))
        assert kept == {made_a["code"]: first.tables[made_a["code"]].match_id,
                        made_b["code"]: second.tables[made_b["code"]].match_id}
        assert kept[made_a["code"]] != kept[made_b["code"]]
        for client in (a, b):
            await client.close()
    finally:
        await stop_server(first)
        await stop_server(second)


@pytest.mark.asyncio
async def test_a_table_that_cannot_be_made_leaves_no_match_or_row(tmp_path):
    library = tmp_path / "library.sqlite"
    first, second = await start_server(library), await start_server(library)
    try:
        first.code_rng, second.code_rng = Stuck(), Stuck()  # every draw: AAA-000
        a, b = await Client.connect(first.port), await Client.connect(second.port)
        assert (await create(a))["code"] == "AAA-000"
        await first.writer.drain()
        matches = rows(library, "SELECT id FROM matches")
        for client in (a, b):  # taken here, or in the library by the other server
            failed = await create(client)
            assert (failed["type"], failed["code"]) == ("error", "server_error")
            assert f"no free table code in {MAX_CODE_DRAWS} draws" in failed["message"]
        await first.writer.drain()
        await second.writer.drain()
        assert rows(library, "SELECT id FROM matches") == matches  # the failed ones' matches: gone
        assert rows(library, "SELECT code, match_id FROM net_tables") == [("AAA-000", matches[0][0])]
        assert rows(library, "SELECT match_id FROM claims") == matches  # the live table's alone
        assert list(first.tables) == ["AAA-000"] and not second.tables
        assert not first.creating and not second.creating  # nothing counted as under way
        for client in (a, b):
            await client.close()
    finally:
        await stop_server(first)
        await stop_server(second)


# --- at the size of the report (a server in its own process, 1024 open files) ------

async def serve(library: Path, *flags: str) -> tuple[asyncio.subprocess.Process, int, str]:
    """``cardcore serve`` with the usual limit of 1024 open files: it, its port, its first line."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))

    env = {**os.environ, "CARDCORE_HOME": str(library.parent / "home")}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cardcore", "serve", "--port", "0", "--library", str(library),
        "--rate", "1000", *flags, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        env=env, preexec_fn=limit)
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
    assert line.startswith("cardcore serve: listening on ws://127.0.0.1:"), line
    return proc, int(line.split(":")[3].split("/")[0]), line


async def stop(proc: asyncio.subprocess.Process) -> None:
    proc.terminate()
    assert await asyncio.wait_for(proc.wait(), 30) == 0


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@pytest.mark.slow
@pytest.mark.asyncio
async def test_1100_unfinished_handshakes_from_one_address_leave_room_for_others(tmp_path):
    proc, port, _ = await serve(tmp_path / "library.sqlite")
    held = []
    try:
        for _ in range(1100):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET / HTTP/1.1\r\n")
            held.append((reader, writer))
        await asyncio.sleep(0.5)  # what the server does with them (bounded: a fixed pause)
        assert open_files(proc.pid) < 100
        newcomer = await from_address(port, OTHER)
        made = await create(newcomer)
        assert made["type"] == "table_created", made
        await newcomer.close()
    finally:
        for _, writer in held:
            writer.close()
        await stop(proc)


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_restart_with_1000_tables_leaves_the_descriptors_free(tmp_path):
    library = tmp_path / "library.sqlite"
    config = replace(server_config(), max_tables_per_ip=0, max_tables=2000)
    async with running(library, config) as server:
        host = await Client.connect(server.port)
        replies = []
        for _ in range(10):
            replies += await at_once(host, 100)
        assert all(r["type"] == "table_created" for r in replies)
        await host.close()
    proc, port, line = await serve(library, "--max-per-ip", "0", "--max-tables", "2000")
    try:
        assert line.rstrip().endswith("; 1000 tables resumed"), line
        assert open_files(proc.pid) < 100
        clients = [await Client.connect(port) for _ in range(300)]  # 14 could, before
        for client in clients:
            assert (await client.request({"type": "hello"}))["type"] == "welcome"
        for client in clients:
            await client.close()
    finally:
        await stop(proc)


def test_an_ipv6_client_is_counted_by_its_64_block():
    assert source_of("2001:db8:1:2:aaaa::1") == source_of("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert source_of("2001:db8:1:3::1") != source_of("2001:db8:1:2::1")
    assert source_of("::ffff:192.0.2.7") == "192.0.2.7" and source_of("127.0.0.2") == "127.0.0.2"
    assert source_of("") == ""  # a socket with no address (counted together)
