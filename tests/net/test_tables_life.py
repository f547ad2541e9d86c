"""A table's life on a server: private unless made public, its move log after a restart,
abandoned when nobody comes, and a limit of connections per address."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sqlite3

import pytest
import websockets

from cardcore.services.store.sqlite import SqliteStore
from tests.net.helpers import WAIT, Client, running, server_config, until


async def create(client: Client, public: bool | None = None, seats: tuple[str, ...] = ("human", "human")
                 ) -> dict:
    extra = {} if public is None else {"public": public}
    made = await client.request({"type": "create_table", "game": "casino", "seats": list(seats),
                                 "seed": 5, **extra})
    assert made["type"] == "table_created", made
    return made


async def listed(client: Client) -> set[str]:
    return {t["code"] for t in (await client.request({"type": "list_tables"}))["tables"]}


@pytest.mark.asyncio
async def test_a_table_is_private_unless_made_public(tmp_path):
    async with running(tmp_path / "library.sqlite") as server:
        maker, stranger, player = [await Client.connect(server.port) for _ in range(3)]
        private = await create(maker)
        public = await create(maker, public=True)
        assert await listed(maker) == {private["code"], public["code"]}  # the maker sees both
        tables = (await stranger.request({"type": "list_tables"}))["tables"]
        assert [(t["code"], t["public"]) for t in tables] == [(public["code"], True)]
        # a private table is joined or watched with its code alone, and then listed for them
        await player.sit(private["code"], private["seats"][1])
        assert private["code"] in await listed(player)
        assert (await stranger.request({"type": "watch", "code": private["code"]}))["type"] == "watching"
        assert await listed(stranger) == {private["code"], public["code"]}
        await stranger.request({"type": "leave", "code": private["code"]})
        assert await listed(stranger) == {public["code"]}
        for client in (maker, stranger, player):
            await client.close()


async def to_play_at(server, code: str, turn: int) -> int:
    """The seat to play once the table is at ``turn``."""
    await until(lambda: server.tables[code].match.decisions == turn, f"the table at turn {turn}")
    return server.tables[code].match.to_play


async def play_some(server, code: str, players: list[Client], moves: int) -> list[dict]:
    """Play ``moves`` random actions; the log lines the first player saw in this hand."""
    rng = random.Random(1)
    for turn in range(moves):
        seat = await asyncio.wait_for(to_play_at(server, code, turn), WAIT)
        update = await players[seat].update(lambda m, t=turn: m["turn"] == t and bool(m["actions"]))
        await players[seat].send({"type": "act", "code": code, "turn": update["turn"],
                                  "action": rng.choice(update["actions"])["action"]})
    await players[0].update(lambda m: m["turn"] == moves)
    hand = server.tables[code].match.hand_no
    return [line for m in players[0].received if m["type"] == "update" for line in m["log"]
            if line["hand"] == hand]


async def sit_everyone(server) -> tuple[Client, dict, list[Client]]:
    """A new table of two human seats, a client joined at each: (its maker, the reply, them)."""
    host = await Client.connect(server.port)
    made = await create(host)
    players = []
    for link in made["seats"]:
        client = await Client.connect(server.port)
        await client.sit(made["code"], link)
        players.append(client)
    return host, made, players


async def log_after_restart(library, made: dict) -> list[dict]:
    """The move log seat 1 is shown on joining the table again, on a server started anew."""
    async with running(library, server_config(grace=30)) as server:  # the same library, again
        assert server.resumed == [made["code"]]
        back = await Client.connect(server.port)
        await back.sit(made["code"], made["seats"][0])
        log = (await back.update())["log"]
        await back.close()
    return log


@pytest.mark.asyncio
async def test_a_resumed_table_shows_the_move_log_of_the_hand_in_play(tmp_path):
    library = tmp_path / "library.sqlite"
    async with running(library, server_config(grace=30)) as server:
        host, made, players = await sit_everyone(server)
        seen = await play_some(server, made["code"], players, 5)
        assert len(seen) == 5
        for client in (host, *players):
            await client.close()
    assert await log_after_restart(library, made) == seen


@pytest.mark.asyncio
async def test_a_resumed_log_still_marks_the_moves_a_stand_in_bot_made(tmp_path):
    library = tmp_path / "library.sqlite"
    async with running(library, server_config(grace=0.2)) as server:
        host, made, (ann, bob) = await sit_everyone(server)
        code = made["code"]
        await bob.close()  # after the grace period a bot plays Bob's seat
        while True:
            update = await ann.update(lambda m: bool(m["actions"]))
            if update["turn"] >= 6:
                break
            await ann.send({"type": "act", "code": code, "turn": update["turn"],
                            "action": update["actions"][0]["action"]})
        hand = update["hand_no"]
        seen = [line for m in ann.received if m["type"] == "update" for line in m["log"]
                if line["hand"] == hand]
        assert {line["seat"] for line in seen if line["bot"]} == {1}
        assert {line["seat"] for line in seen if not line["bot"]} == {0}
        for client in (host, ann):
            await client.close()
    assert await log_after_restart(library, made) == seen


@pytest.mark.asyncio
async def test_a_table_nobody_is_at_is_abandoned_and_kept_unfinished(tmp_path):
    library = tmp_path / "library.sqlite"
    config = server_config()
    config.expire_after = 0.3
    async with running(library, config) as server:
        host = await Client.connect(server.port)
        empty = await create(host)  # nobody ever joins it
        kept = await create(host)
        sitter = await Client.connect(server.port)
        await sitter.sit(kept["code"], kept["seats"][0])
        await host.close()
        await until(lambda: empty["code"] not in server.tables, "the empty table expired")
        assert empty["code"] in server.abandoned and kept["code"] in server.tables  # someone is there
        late = await Client.connect(server.port)
        reply = await late.sit(empty["code"], empty["seats"][0])
        assert reply["code"] == "no_table"
        await server.writer.drain()
        store = SqliteStore(library)
        rows = {code: (match_id, status) for code, match_id, status, _ in
                store.net_tables(("waiting", "playing", "abandoned"))}
        match_id, status = rows[empty["code"]]
        assert status == "abandoned" and not store.get(match_id).finished
        assert store.load(match_id)["decisions"] == 0  # kept as it was, its lock released
        store.close()
        for client in (sitter, late):
            await client.close()
    async with running(library, config) as server:
        assert empty["code"] not in server.resumed and kept["code"] in server.resumed


@pytest.mark.asyncio
async def test_one_address_holds_a_limited_number_of_connections(tmp_path):
    config = server_config()
    config.max_connections_per_ip = 3
    async with running(tmp_path / "library.sqlite", config) as server:
        clients = [await Client.connect(server.port) for _ in range(3)]
        with pytest.raises(websockets.InvalidStatus) as refused:
            await Client.connect(server.port)
        assert refused.value.response.status_code == 429
        assert (await clients[0].request({"type": "hello"}))["type"] == "welcome"  # the others go on
        await clients[0].close()
        await until(lambda: server.per_ip.get("127.0.0.1") == 2, "the server hears of the close")
        again = await Client.connect(server.port)
        assert (await again.request({"type": "hello"}))["type"] == "welcome"
        for client in (*clients[1:], again):
            await client.close()
        await until(lambda: not server.per_ip, "the server hears of every close")
        assert server.per_ip == {}


@pytest.mark.asyncio
async def test_a_damaged_table_row_is_skipped_in_one_line_and_the_others_resume(tmp_path, caplog):
    library = tmp_path / "library.sqlite"
    async with running(library) as server:
        host = await Client.connect(server.port)
        good, bad = await create(host), await create(host)
        await host.close()
    db = sqlite3.connect(library)
    data = json.loads(db.execute("SELECT data FROM net_tables WHERE code = ?", (bad["code"],)).fetchone()[0])
    data["standin_turns"] = ["x"]
    db.execute("UPDATE net_tables SET data = ? WHERE code = ?", (json.dumps(data), bad["code"]))
    db.commit()
    db.close()
    with caplog.at_level(logging.WARNING, logger="cardcore.serve"):
        async with running(library) as server:
            assert (server.resumed, server.skipped) == ([good["code"]], [bad["code"]])
            store = SqliteStore(library)
            match_id = next(m for c, m, _, _ in store.net_tables() if c == bad["code"])
            store.open(match_id).close()  # its match is not held by the server
            store.close()
    (line,) = [r.getMessage() for r in caplog.records if bad["code"] in r.getMessage()]
    assert line.endswith("is not resumed: its stand-in turns are not a list of numbers")
    assert "\n" not in line
