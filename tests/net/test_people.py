"""At a server a person is the name they chose: two people choosing one name at a table are
"Ann" and "Ann (2)", each seat's person key (from its token, never the token) is in the
record, and the statistics and a rematch keep them apart (docs/library.md, "People")."""

from __future__ import annotations

import random

import pytest

from cardcore.engine.people import seat_key
from cardcore.engine.records import parse_record_lines
from cardcore.engine.replay import Rebuild
from cardcore.services.net.seats import hash_secret
from cardcore.services.plugins import load_registry
from tests.net.helpers import Client, running
from tests.net.play import gather_bounded, play_seat


@pytest.mark.asyncio
async def test_two_people_choosing_one_name_are_told_apart(tmp_path):
    registry = load_registry()
    async with running(tmp_path / "library.sqlite", registry=registry) as server:
        host = await Client.connect(server.port)
        made = await host.request({"type": "create_table", "game": "casino", "seats": ["human", "human"],
                                   "seed": 3})
        code = made["code"]
        clients, tokens = [], []
        for link in made["seats"]:
            client = await Client.connect(server.port)
            joined = await client.sit(code, link, "Ann")
            clients.append(client)
            tokens.append(joined["token"])
        assert joined["name"] == "Ann (2)"  # the second one is told what they are called
        table = server.tables[code]
        assert list(table.match.seating.names) == ["Ann", "Ann (2)"]
        game = registry.games["casino"]
        await gather_bounded(*(
            play_seat(c, code, link["seat"], game, registry.bots["greedy"](), random.Random(i), [])
            for i, (c, link) in enumerate(zip(clients, made["seats"], strict=True))), timeout=40)
        await server.writer.drain()
        store = server.store
        text = store.export_record(table.match_id)
        events = [e for _, e in parse_record_lines(text, "record")]
        named = {e.seat: (e.name, e.person) for e in events if e.event == "seat"}
        assert named == {0: ("Ann", seat_key(tokens[0])), 1: ("Ann (2)", seat_key(tokens[1]))}
        for token in tokens:  # neither the token nor its stored hash is in the record
            assert token not in text and hash_secret(token) not in text
        assert Rebuild(game, parse_record_lines(text, "record")).run().people == [
            seat_key(t) for t in tokens]
        people = {st.player: st.matches for st in store.stats("casino")}
        assert people == {"Ann": 1, "Ann (2)": 1}
        # a rematch at the table: the same people in the same seats
        first_id = table.match_id
        for client in clients:
            await client.request({"type": "rematch", "code": code})
        await clients[0].next(lambda m: m["type"] == "rematch" and m["started"])
        again = server.tables[code]
        assert again.match_id != first_id and again.match.people == [seat_key(t) for t in tokens]
        assert list(again.match.seating.names) == ["Ann", "Ann (2)"]
        for client in [*clients, host]:
            await client.close()
