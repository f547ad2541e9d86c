"""A rematch at a server's table (docs/protocol.md "rematch"): every human seat asks, the
table keeps its code, seats and links, and deals a new match that is a new match in the
library; the rematch itself is the table service's (``TableService.rematch``)."""

from __future__ import annotations

import random

import pytest

from cardcore.engine.records import parse_record_lines
from cardcore.engine.replay import Rebuild
from cardcore.services.plugins import load_registry
from tests.net.helpers import Client, running
from tests.net.play import gather_bounded, play_seat


async def two_players_finish(server, registry) -> tuple[str, dict, list[Client]]:
    host = await Client.connect(server.port)
    made = await host.request({"type": "create_table", "game": "casino", "seats": ["human", "human"],
                               "seed": 3})
    code = made["code"]
    clients = []
    for link, name in zip(made["seats"], ["Ann", "Bob"], strict=True):
        client = await Client.connect(server.port)
        joined = await client.sit(code, link, name)
        assert joined["type"] == "joined"
        clients.append(client)
    game = registry.games["casino"]
    await gather_bounded(*(
        play_seat(c, code, link["seat"], game, registry.bots["greedy"](), random.Random(i), [])
        for i, (c, link) in enumerate(zip(clients, made["seats"], strict=True))), timeout=40)
    await host.close()
    return code, made, clients


@pytest.mark.asyncio
async def test_a_rematch_starts_when_every_player_asks_and_is_a_new_match_at_the_same_table(tmp_path):
    registry = load_registry()
    async with running(tmp_path / "library.sqlite", registry=registry) as server:
        code, made, (ann, bob) = await two_players_finish(server, registry)
        table = server.tables[code]
        first_id, first = table.match_id, table.match
        last_dealer = first.seating.dealer

        asked = await ann.request({"type": "rematch", "code": code})
        assert asked["type"] == "rematch" and asked["agreed"] == [0] and asked["waiting"] == [1]
        heard = await bob.next(lambda m: m["type"] == "rematch")
        assert heard["waiting"] == [1] and not heard["started"]
        assert server.tables[code].match is first  # nothing starts before Bob asks

        await bob.request({"type": "rematch", "code": code})
        for client in (ann, bob):
            await client.next(lambda m: m["type"] == "rematch" and m["started"])
            update = await client.update(lambda m: m["hand_no"] == 1 and not m["over"] and m["turn"] == 0)
            assert update["code"] == code and update["names"] == ["Ann", "Bob"]
        table = server.tables[code]
        assert table.match_id != first_id and table.match is not first
        assert table.match.seating.dealer == (last_dealer + 1) % 2  # the deal moves on
        assert table.match.seats == first.seats and table.match.options == first.options

        await server.writer.drain()
        again = server.store.get(table.match_id)
        assert again.source == "server" and again.names == ["Ann", "Bob"] and not again.finished
        assert server.store.get(first_id).finished
        start = server.store.export_record(table.match_id).splitlines()[0]
        assert f'"first_dealer":{(last_dealer + 1) % 2}' in start
        record = parse_record_lines(server.store.export_record(table.match_id), "the rematch")
        assert Rebuild(registry.games["casino"], record).run().seating.dealer == (last_dealer + 1) % 2

        # the same links still seat their players at the new match
        await bob.close()
        back = await Client.connect(server.port)
        joined = await back.sit(code, made["seats"][1])
        assert joined["type"] == "joined" and joined["seat"] == 1
        for client in (ann, back):
            await client.close()


@pytest.mark.asyncio
async def test_a_rematch_is_refused_before_the_end_to_spectators_and_waits_for_an_absent_player(tmp_path):
    registry = load_registry()
    async with running(tmp_path / "library.sqlite", registry=registry) as server:
        host = await Client.connect(server.port)
        made = await host.request({"type": "create_table", "game": "casino",
                                   "seats": ["human", "greedy"], "seed": 3})
        code = made["code"]
        ann = await Client.connect(server.port)
        await ann.sit(code, made["seats"][0])
        early = await ann.request({"type": "rematch", "code": code})
        assert early["type"] == "error" and early["code"] == "not_over"
        watcher = await Client.connect(server.port)
        await watcher.request({"type": "watch", "code": code})
        refused = await watcher.request({"type": "rematch", "code": code})
        assert refused["type"] == "error" and refused["code"] == "spectator"
        for client in (host, ann, watcher):
            await client.close()

    async with running(tmp_path / "library2.sqlite", registry=registry) as server:
        code, _, (ann, bob) = await two_players_finish(server, registry)
        await bob.close()  # Bob is away: nobody asks for him
        asked = await ann.request({"type": "rematch", "code": code})
        assert asked["waiting"] == [1]
        table = server.tables[code]
        assert table.match.over and table.rematch_votes == {0}
        await ann.close()
