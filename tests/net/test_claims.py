"""Seats belong to who claims them (issue 22, items 2 to 4; docs/protocol.md, "Seats"):
an invite claims its seat once, the claimer comes back with the seat's token, the owner
re-issues an invite, one connection holds one seat unless the table is hot-seat, a seat
nobody claimed is played by nobody, and a binding ends with its connection."""

from __future__ import annotations

import pytest

from cardcore.services.net.seats import Seat, hash_secret
from tests.net.helpers import Client, running, server_config, until


async def create(client: Client, seats: list[str], **fields) -> dict:
    made = await client.request({"type": "create_table", "game": "casino", "seats": seats,
                                 "seed": 5, **fields})
    assert made["type"] == "table_created", made
    return made


def errors(reply: dict) -> str:
    assert reply["type"] == "error", reply
    return reply["code"]


@pytest.mark.asyncio
async def test_an_invite_claims_its_seat_once_whoever_sends_it_and_its_token_brings_the_player_back(tmp_path):
    async with running(tmp_path / "library.sqlite") as server:
        host = await Client.connect(server.port)
        made = await create(host, ["human", "human"])
        code, (ann_link, bob_link) = made["code"], made["seats"]
        ann = await Client.connect(server.port)
        joined = await ann.sit(code, ann_link, "Ann")
        assert (joined["seat"], joined["name"]) == (0, "Ann") and len(joined["token"]) >= 22
        # the invite is used: a second use answers seat_taken, from anyone, even Ann
        for who in (host, ann, await Client.connect(server.port)):
            assert errors(await who.request({"type": "join", "code": code,
                                             "invite": ann_link["invite"]})) == "seat_taken"
        await ann.close()
        # Ann comes back with her token (the invite would not do), as seat 0, named Ann
        back = await Client.connect(server.port)
        again = await back.sit(code, ann_link)
        assert (again["seat"], again["name"], again["token"]) == (0, "Ann", joined["token"])
        # a token of another table or a made-up one: bad_secret
        assert errors(await host.request({"type": "join", "code": code, "token": "x" * 22})) == "bad_secret"
        bob = await Client.connect(server.port)
        assert (await bob.sit(code, bob_link, "Bob"))["seat"] == 1
        assert server.tables[code].match.seating.names == ("Ann", "Bob")
        for client in (host, back, bob):
            await client.close()


@pytest.mark.asyncio
async def test_the_creator_cannot_take_a_second_seat_so_its_player_gets_it_named_as_they_chose(tmp_path):
    async with running(tmp_path / "library.sqlite") as server:
        host = await Client.connect(server.port)
        made = await create(host, ["human", "human"])
        code, (mine, bobs) = made["code"], made["seats"]
        assert (await host.sit(code, mine, "Host"))["seat"] == 0
        refused = await host.request({"type": "join", "code": code, "invite": bobs["invite"]})
        assert errors(refused) == "seat_taken" and "one seat a connection" in refused["message"]
        table = server.tables[code]
        assert not table.seats[1].claimed and table.status == "waiting"
        assert not [m for m in host.received if m["type"] == "update" and m["seat"] == 1]
        bob = await Client.connect(server.port)
        joined = await bob.sit(code, bobs, "Bob")
        assert (joined["seat"], joined["name"]) == (1, "Bob")
        # everyone at the table sees the seat claimed
        status = await host.next(lambda m: m["type"] == "seat_status" and m["seat"] == 1)
        assert (status["connected"], status["open"], status["name"]) == (True, False, "Bob")
        update = await host.update(lambda m: not m["seats"][1]["open"])
        assert update["names"] == ["Host", "Bob"]
        for client in (host, bob):
            await client.close()


@pytest.mark.asyncio
async def test_a_hot_seat_table_lets_one_connection_hold_both_seats_and_play_each_in_turn(tmp_path):
    async with running(tmp_path / "library.sqlite") as server:
        desk = await Client.connect(server.port)
        made = await create(desk, ["human", "human"], hot_seat=True)
        code = made["code"]
        assert [(await desk.sit(code, link))["seat"] for link in made["seats"]] == [0, 1]
        table = server.tables[code]
        assert table.status == "playing" and table.info()["hot_seat"]
        for _ in range(4):  # the update is always the seat to play's, and its act plays it
            to_play = table.match.to_play
            update = await desk.update(lambda m: m["turn"] == table.match.decisions and bool(m["actions"]))
            assert update["seat"] == to_play
            await desk.send({"type": "act", "code": code, "action": update["actions"][0]["action"],
                             "turn": update["turn"]})
            played = update["turn"] + 1
            await until(lambda played=played: table.match.decisions == played, "the move played")
        await desk.close()


@pytest.mark.asyncio
async def test_a_seat_nobody_claimed_is_played_by_nobody_unless_the_creator_chose_a_stand_in(tmp_path):
    async with running(tmp_path / "library.sqlite", server_config(bot_delay=0.0)) as server:
        host = await Client.connect(server.port)
        waits = await create(host, ["human", "human", "greedy", "greedy"])
        await host.sit(waits["code"], waits["seats"][0])
        await host.update()
        table = server.tables[waits["code"]]
        assert table.status == "waiting" and table.bot_seat() is None
        assert table.match.decisions == 0
        stood = await create(host, ["human", "human"], standin_open=True)
        listed = {t["code"]: t for t in (await host.request({"type": "list_tables"}))["tables"]}
        assert listed[stood["code"]]["standin_open"]  # shown to all
        assert listed[stood["code"]]["seats"][1] | {"open": True, "bot_playing": True} == \
            listed[stood["code"]]["seats"][1]
        other = await Client.connect(server.port)
        await other.sit(stood["code"], stood["seats"][0])
        busy = server.tables[stood["code"]]
        # the stand-in plays seat 1 while its player has not come; they take it over on claiming
        await until(lambda: busy.match.to_play == 0 or busy.match.decisions > 0, "seat 1 stood in for")
        late = await Client.connect(server.port)
        await late.sit(stood["code"], stood["seats"][1])
        assert 1 not in busy.service.away and busy.bot_seat() is None
        for client in (host, other, late):
            await client.close()


@pytest.mark.asyncio
async def test_the_owner_reissues_an_invite_which_unseats_its_holder_and_voids_the_old_keys(tmp_path):
    async with running(tmp_path / "library.sqlite") as server:
        host = await Client.connect(server.port)
        made = await create(host, ["human", "human"])
        code, (ann_link, bob_link) = made["code"], made["seats"]
        ann, bob = await Client.connect(server.port), await Client.connect(server.port)
        await ann.sit(code, ann_link, "Ann")
        await bob.sit(code, bob_link, "Bob")
        old = dict(bob_link)
        assert errors(await bob.request({"type": "reissue", "code": code, "seat": 1,
                                         "owner": "not-the-owner-key"})) == "bad_secret"
        fresh = await host.request({"type": "reissue", "code": code, "seat": 1, "owner": made["owner"]})
        assert fresh["type"] == "invite" and fresh["seat"] == 1 and fresh["invite"] != old["invite"]
        assert fresh["link"].endswith(f"/{code}#{fresh['invite']}")
        gone = await bob.next(lambda m: m["type"] == "left")
        assert gone["code"] == code and "new invite" in gone["reason"]
        status = await ann.next(lambda m: m["type"] == "seat_status" and m["seat"] == 1 and m["open"])
        assert not status["connected"]
        table = server.tables[code]
        assert table.status == "waiting" and len(table.watchers) == 1  # Ann alone
        assert sum(code in c.tables for c in server.clients) == 1  # only Ann's connection
        assert errors(await bob.request({"type": "chat", "code": code, "text": "hi"})) == "no_table"
        for key in ({"token": old["token"]}, {"invite": old["invite"]}):
            assert errors(await bob.request({"type": "join", "code": code, **key})) == "bad_secret"
        carl = await Client.connect(server.port)
        assert (await carl.sit(code, {"invite": fresh["invite"]}, "Carl"))["seat"] == 1
        assert table.status == "playing"
        for client in (host, ann, bob, carl):
            await client.close()


@pytest.mark.asyncio
async def test_a_seat_is_freed_when_its_connection_dies_and_the_token_takes_it_back(tmp_path):
    async with running(tmp_path / "library.sqlite", server_config(grace=30)) as server:
        host = await Client.connect(server.port)
        made = await create(host, ["human", "human"])
        code, link = made["code"], made["seats"][0]
        first = await Client.connect(server.port)
        await first.sit(code, link)
        first.ws.transport.abort()  # no closing handshake: the socket just goes
        table = server.tables[code]
        await until(lambda: table.seats[0].peer is None, "the seat unbound")
        assert first not in table.watchers and not [c for c in server.clients if code in c.tables
                                                    and c is not host]
        again = await Client.connect(server.port)
        assert (await again.sit(code, link))["type"] == "joined"
        for client in (host, again):
            await client.close()


@pytest.mark.asyncio
async def test_wrong_codes_and_keys_from_one_address_lock_it_out_while_another_address_joins(tmp_path):
    config = server_config()
    config.guess_limit, config.guess_window, config.guess_lockout = 5, 60.0, 60.0
    async with running(tmp_path / "library.sqlite", config) as server:
        host = await Client.connect(server.port, local_addr=("127.0.0.2", 0))
        made = await create(host, ["human", "human"])
        code = made["code"]
        guesses = ([{"type": "watch", "code": f"ZZZ-{n:03d}"} for n in range(3)]
                   + [{"type": "join", "code": code, "invite": f"guess{n}"} for n in range(3)])
        answers = []
        for guess in guesses:  # fresh connections: three bad keys close one (1008)
            guesser = await Client.connect(server.port)
            answers.append(errors(await guesser.request(guess)))
            await guesser.close()
        assert answers == ["no_table"] * 3 + ["bad_secret"] * 2 + ["bad_secret"]
        # past the limit: even a good invite is refused from this address, for a while
        locked = await Client.connect(server.port)
        refused = await locked.request({"type": "join", "code": code, "invite": made["seats"][0]["invite"]})
        assert errors(refused) == "rate_limited" and "try again in" in refused["message"]
        assert not server.tables[code].seats[0].claimed
        # another address is not held up
        assert (await host.sit(code, made["seats"][0]))["type"] == "joined"
        for client in (host, locked):
            await client.close()


def test_a_table_row_from_before_invites_keeps_its_links_working():
    """Rows written before invites held one reusable secret per seat and ``joined``."""
    digest = hash_secret("old-link-secret")
    taken = Seat.from_json({"kind": "human", "secret": digest, "joined": True})
    free = Seat.from_json({"kind": "human", "secret": digest, "joined": False})
    assert (taken.claimed, taken.token_hash) == (True, digest)  # comes back with the old link
    assert (free.claimed, free.invite_hash) == (False, digest)  # claims with the old link
    assert Seat.from_json(taken.to_json()) == taken
    with pytest.raises(ValueError):
        Seat.from_json({"kind": "human", "invite": "short", "token": None})


@pytest.mark.asyncio
async def test_claims_and_tokens_survive_a_restart(tmp_path):
    library = tmp_path / "library.sqlite"
    async with running(library, server_config(grace=30)) as server:
        host = await Client.connect(server.port)
        made = await create(host, ["human", "human"])
        code = made["code"]
        ann = await Client.connect(server.port)
        await ann.sit(code, made["seats"][0], "Ann")
        await server.writer.drain()
    async with running(library, server_config(grace=30)) as server:
        assert server.resumed == [code]
        back = await Client.connect(server.port)
        assert errors(await back.request({"type": "join", "code": code,
                                          "invite": made["seats"][0]["invite"]})) == "seat_taken"
        assert (await back.sit(code, made["seats"][0]))["name"] == "Ann"
        bob = await Client.connect(server.port)
        assert (await bob.sit(code, made["seats"][1]))["seat"] == 1
        for client in (back, bob):
            await client.close()
