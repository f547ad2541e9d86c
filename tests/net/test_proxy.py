"""The HAProxy configuration made from the placement rule (``proxy``): each code's home
backend, its chain as backups; for servers on several machines (here 127.0.0.1 and
127.0.0.2) it routes a table's connection to the server holding it, hands each server the
client's own address (PROXY protocol), and sends the table to the next server of its chain
once its home is down."""

from __future__ import annotations

import asyncio
import contextlib
import re
import string
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cardcore.apps.serve_workers import find_haproxy
from cardcore.services.net import placement
from cardcore.services.net.proxy import haproxy_config
from tests.net.helpers import WAIT, Client, server_config, start_server, stop_server, until
from tests.net.test_workers import free_port

HAPROXY = find_haproxy()
needs_haproxy = pytest.mark.skipif(HAPROXY is None, reason="needs HAProxy (make test installs it)")


def test_each_code_goes_to_its_home_backend_and_its_chain_backs_it_up():
    for slots in (1, 2, 3, 5):
        config = haproxy_config("127.0.0.1:9000", [f"127.0.0.1:{9001 + k}" for k in range(slots)])
        acls = dict(re.findall(r"acl (home\d+) path_reg -i /play/\[([A-Z]+)\]", config))
        for letter in string.ascii_uppercase:  # every code has exactly one home backend: the rule's
            homes = [name for name, letters in acls.items() if letter in letters]
            assert homes == [f"home{placement.home(letter + 'AA-000', slots)}"]
        for slot in range(slots):
            backend = config.split(f"backend home{slot}\n")[1].split("\n\n")[0]
            order = [int(k) for k in re.findall(r"server s(\d+)", backend)]
            assert order == placement.successors(slot, slots)
            servers = [line for line in backend.splitlines() if line.startswith("    server ")]
            assert ["backup" in line for line in servers] == [False] + [True] * (slots - 1)


@needs_haproxy
def test_the_configurations_are_valid_for_haproxy(tmp_path):
    for servers in (["127.0.0.1:9001"], ["10.0.0.1:8765", "10.0.0.2:8765", "10.0.0.3:8765"]):
        path = tmp_path / "haproxy.cfg"
        path.write_text(haproxy_config("127.0.0.1:9000", servers))
        checked = subprocess.run([HAPROXY or "haproxy", "-c", "-f", str(path)], capture_output=True,
                                 text=True, timeout=WAIT)
        assert checked.returncode == 0, checked.stdout + checked.stderr


@contextlib.asynccontextmanager
async def haproxy(config: Path) -> AsyncIterator[None]:
    proc = await asyncio.create_subprocess_exec(HAPROXY or "haproxy", "-db", "-f", str(config),
                                                stdout=asyncio.subprocess.DEVNULL,
                                                stderr=asyncio.subprocess.DEVNULL)
    try:
        yield
    finally:
        proc.terminate()
        await asyncio.wait_for(proc.wait(), WAIT)


async def through(port: int, path: str) -> Client:
    """A connection to the proxy from 127.0.0.3 (the servers see that address, not the
    proxy's), tried again while the proxy starts or has no server up for it."""
    for _ in range(100):
        with contextlib.suppress(OSError, Exception):
            client = await Client.connect(port, path, local_addr=("127.0.0.3", 0))
            if (await client.request({"type": "hello"}))["type"] == "welcome":
                return client
        await asyncio.sleep(0.1)
    raise AssertionError(f"the proxy did not let {path} through")


@needs_haproxy
@pytest.mark.slow  # HAProxy and two servers, one stopped: a few seconds
@pytest.mark.asyncio
async def test_servers_on_two_addresses_behind_the_generated_proxy(tmp_path):
    library = tmp_path / "library.sqlite"
    servers = []
    for slot, host in enumerate(("127.0.0.1", "127.0.0.2")):
        config = server_config()
        config.host, config.slot, config.slots, config.proxy_protocol = host, slot, 2, True
        servers.append(await start_server(library, config))
    port = free_port()
    path = tmp_path / "haproxy.cfg"
    printed = subprocess.run([sys.executable, "-m", "cardcore.services.net.proxy", f"127.0.0.1:{port}",
                              f"127.0.0.1:{servers[0].port}", f"127.0.0.2:{servers[1].port}"],
                             capture_output=True, text=True, timeout=WAIT, check=True)
    path.write_text(printed.stdout)
    try:
        async with haproxy(path):
            made: dict[int, dict] = {}
            while len(made) < 2:  # the lobby's connections go round both servers
                lobby = await through(port, "/lobby")
                reply = await lobby.request({"type": "create_table", "game": "casino",
                                             "seats": ["human", "human"]})
                made[placement.home(reply["code"], 2)] = reply
                await lobby.close()
            for slot, reply in made.items():
                code = reply["code"]
                client = await through(port, f"/play/{code}")
                assert (await client.sit(code, reply["seats"][0]))["type"] == "joined"
                assert code in servers[slot].tables and "127.0.0.3" in servers[slot].per_ip
                await client.close()
            await stop_server(servers.pop(1))  # the second machine goes down
            code = made[1]["code"]
            client = await through(port, f"/play/{code}")  # its table: now on the first
            assert (await client.sit(code, made[1]["seats"][0]))["type"] == "joined"
            await until(lambda: code in servers[0].tables, "taken over", WAIT)
            await client.close()
    finally:
        for server in servers:
            await stop_server(server)
