"""The placement rule (which server holds a table: ``placement``) and play connections: a
table is played on a connection of its own, ``/play/CODE``; the lobby's messages go on a
lobby connection; a server among several refuses a table's message anywhere else."""

from __future__ import annotations

import asyncio
import random

import pytest

from cardcore.services.net import placement
from tests.net.helpers import WAIT, Client, running, server_config


def test_a_code_s_home_is_its_first_letter_mod_the_servers_and_its_chain_follows():
    assert placement.home("AQX-482", 3) == 0 and placement.home("kqx-482", 3) == 10 % 3
    assert placement.chain("CQX-482", 3) == [2, 0, 1]
    assert placement.chain("ZZZ-000", 1) == [0]
    assert placement.holder("CQX-482", 3, {0, 1, 2}) == 2
    assert placement.holder("CQX-482", 3, {0, 1}) == 0  # its home is down: the next one
    assert placement.holder("CQX-482", 3, {1}) == 1
    assert placement.holder("CQX-482", 3, set()) is None


def test_each_server_makes_codes_of_its_own_home_and_the_letters_cover_every_code():
    rng = random.Random(3)
    for slots in (1, 2, 5, 26):
        assert sorted("".join(placement.letters(k, slots) for k in range(slots))) == \
            list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for slot in range(slots):
            for _ in range(20):
                code = placement.new_code(slot, slots, rng)
                assert placement.home(code, slots) == slot and len(code) == 7 and code[3] == "-"
    with pytest.raises(ValueError, match="1 to 26 servers"):
        placement.check_slots(0, 27)
    with pytest.raises(ValueError, match="0 to 1"):
        placement.check_slots(2, 2)


def test_the_play_path_names_the_table_and_the_client_builds_it_from_the_server():
    assert placement.table_of("/play/KQX-482") == "KQX-482"
    assert placement.table_of("/cards/play/kqx-482/") == "KQX-482"
    assert placement.table_of("/play/KQX-482?x=1") == "KQX-482"
    assert placement.table_of("/") is None and placement.table_of("/lobby") is None
    assert placement.table_of("/play/KQX482") is None
    assert placement.play_url("ws://127.0.0.1:8765", "KQX-482") == "ws://127.0.0.1:8765/play/KQX-482"
    assert placement.play_url("wss://cards.example.org/cards/", "KQX-482") == \
        "wss://cards.example.org/cards/play/KQX-482"


async def _make(lobby: Client) -> dict:
    made = await lobby.request({"type": "create_table", "game": "casino", "seats": ["human", "human"],
                                "seed": 5})
    assert made["type"] == "table_created", made
    return made


@pytest.mark.asyncio
async def test_a_server_among_several_takes_a_table_s_messages_on_its_own_connection_only(tmp_path):
    config = server_config()
    config.slot, config.slots = 1, 2
    async with running(tmp_path / "library.sqlite", config) as server:
        lobby = await Client.connect(server.port, "/lobby")
        made = await _make(lobby)
        code = made["code"]
        assert placement.home(code, 2) == 1  # made by slot 1: its own
        invite = made["seats"][0]["invite"]
        refused = await lobby.request({"type": "join", "code": code, "invite": invite})
        assert refused["type"] == "error" and refused["code"] == "wrong_connection"
        assert f"/play/{code}" in refused["message"]
        table = await Client.connect(server.port, f"/play/{code.lower()}")
        assert (await table.request({"type": "hello"}))["type"] == "welcome"
        for lobby_only in ({"type": "list_tables"}, {"type": "create_table", "game": "casino",
                                                      "seats": ["human", "human"]}):
            answer = await table.request(lobby_only)
            assert answer["code"] == "wrong_connection", answer
        other = "AAA-000" if code != "AAA-000" else "AAB-000"
        answer = await table.request({"type": "watch", "code": other})
        assert answer["code"] == "wrong_connection" and other in answer["message"]
        joined = await table.request({"type": "join", "code": code, "invite": invite})
        assert joined["type"] == "joined" and joined["seat"] == 0
        assert (await table.update())["code"] == code
        listed = await lobby.request({"type": "list_tables"})
        assert [t["code"] for t in listed["tables"]] == [code]
        for c in (lobby, table):
            await c.close()


@pytest.mark.asyncio
async def test_the_proxy_s_health_check_is_answered_and_a_lone_server_keeps_the_old_way(tmp_path):
    async with running(tmp_path / "library.sqlite") as server:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", server.port), WAIT)
        writer.write(b"GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        status = await asyncio.wait_for(reader.readline(), WAIT)
        assert status.startswith(b"HTTP/1.1 200"), status
        writer.close()
        lobby = await Client.connect(server.port)  # one server: table messages still come here
        made = await _make(lobby)
        invite = made["seats"][1]["invite"]
        joined = await lobby.request({"type": "join", "code": made["code"], "invite": invite})
        assert joined["type"] == "joined"
        await lobby.close()


@pytest.mark.asyncio
async def test_the_client_opens_a_connection_per_table_and_keeps_tokens_by_server(tmp_path):
    from cardcore.services.net.client import Connection
    from cardcore.services.net.seat_book import SeatBook

    book = SeatBook(tmp_path / "seats")
    config = server_config()
    config.slots = 2
    async with running(tmp_path / "library.sqlite", config) as server:
        url = f"ws://127.0.0.1:{server.port}"
        lobby = await Client.connect(server.port)
        made = await _make(lobby)
        code = made["code"]
        first = await Connection.open(url, table=code)
        assert first.table == code and first.url == url
        assert (await first.join(code, made["seats"][1]["invite"], book=book)).seat == 1
        await first.close()
        again = await Connection.open(url, table=code)
        back = await again.come_back(code, book=book)
        assert back is not None and back.seat == 1
        await again.close()
        await lobby.close()
