"""Seats over time: a table waits for its players, a dropped seat is held, a bot stands in
after the grace period and hands the seat back, players chat."""

from __future__ import annotations

import asyncio

import pytest

from tests.net.helpers import Client, running, server_config, until


async def table(port: int, seats: list[str], game: str = "casino") -> tuple[str, list[dict]]:
    host = await Client.connect(port)
    made = await host.request({"type": "create_table", "game": game, "seats": seats, "seed": 8})
    await host.close()
    return made["code"], made["seats"]


async def join(port: int, code: str, link: dict, name: str | None = None) -> Client:
    """Claim the link's seat with its invite, or come back to it with the token kept in
    ``link`` by the claim (as a client keeps it)."""
    client = await Client.connect(port)
    reply = await client.sit(code, link, name)
    assert reply["type"] == "joined", reply
    return client


async def act_first(client: Client, code: str) -> dict:
    """Wait until this client is asked to play, play the first action; returns that update."""
    update = await client.update(lambda m: bool(m["actions"]))
    await client.send({"type": "act", "code": code, "action": update["actions"][0]["action"],
                       "turn": update["turn"]})
    return update


@pytest.mark.asyncio
async def test_a_table_waits_for_every_player_before_anyone_plays(tmp_path):
    async with running(tmp_path / "library.sqlite") as server:
        code, links = await table(server.port, ["greedy", "human", "human", "greedy"])
        first = await join(server.port, code, links[0], name="Ann")
        update = await first.update()
        assert update["seats"][1]["name"] == "Ann" and update["seats"][2]["open"]
        listed = (await first.request({"type": "list_tables"}))["tables"]
        assert [t["status"] for t in listed if t["code"] == code] == ["waiting"]
        waiting = server.tables[code]
        assert waiting.match.decisions == 0 and waiting.bot_seat() is None  # the bots wait too
        if update["to_play"] == 1:
            reply = await first.request({"type": "act", "code": code, "turn": 0,
                                         "action": update["actions"][0]["action"]})
            assert reply["code"] == "waiting"
        second = await join(server.port, code, links[1])
        full = await second.update()  # sent as the table filled: nobody had played before
        assert full["turn"] == 0
        second.rewind()  # that update may be the one asking the second player to play
        await first.next(lambda m: m["type"] == "seat_status" and m["seat"] == 2 and m["connected"])
        await asyncio.wait_for(asyncio.gather(act_first(first, code), act_first(second, code)), 10)
        assert server.tables[code].match.decisions >= 2
        for client in (first, second):
            await client.close()


async def drop_the_player_to_play(server) -> tuple[str, list[dict], int, Client, dict]:
    """A table of two players; the one asked to play drops. (code, links, their seat, the
    other player, the update that asked them to play)"""
    code, links = await table(server.port, ["human", "human"])
    players = [await join(server.port, code, link) for link in links]
    seat = server.tables[code].match.to_play
    asked = await players[seat].update(lambda m: bool(m["actions"]))
    await players[seat].close()
    return code, links, seat, players[1 - seat], asked


@pytest.mark.asyncio
async def test_a_player_who_drops_mid_turn_comes_back_to_the_same_turn(tmp_path):
    async with running(tmp_path / "library.sqlite", server_config(grace=30)) as server:
        code, links, seat, other, asked = await drop_the_player_to_play(server)
        status = await other.next(lambda m: m["type"] == "seat_status" and not m["connected"])
        assert (status["seat"], status["bot_playing"]) == (seat, False)
        held = server.tables[code]
        # held: nobody plays for it (and the turn it comes back to below is the same)
        assert held.match.decisions == asked["turn"] and held.bot_seat() is None
        back = await join(server.port, code, links[seat])
        again = await back.update()
        assert again["turn"] == asked["turn"] and again["actions"] == asked["actions"]
        assert again["zones"] == asked["zones"]
        status = await other.next(lambda m: m["type"] == "seat_status")
        assert (status["seat"], status["connected"]) == (seat, True)
        await back.send({"type": "act", "code": code, "action": again["actions"][0]["action"],
                         "turn": again["turn"]})
        moved = await other.update(lambda m: m["turn"] == asked["turn"] + 1)
        assert moved["log"][-1]["seat"] == seat and not moved["log"][-1]["bot"]
        for client in (back, other):
            await client.close()


@pytest.mark.asyncio
async def test_a_bot_plays_an_absent_seat_after_the_grace_period_and_hands_it_back(tmp_path):
    async with running(tmp_path / "library.sqlite", server_config(grace=0.3, bot_delay=0.05)) as server:
        code, links, seat, other, asked = await drop_the_player_to_play(server)
        status = await other.next(lambda m: m["type"] == "seat_status" and m["bot_playing"], timeout=5)
        assert status["seat"] == seat
        # the stand-in plays the seat's turn; the other player plays on against it
        moved = await other.update(lambda m: m["turn"] == asked["turn"] + 1, timeout=5)
        assert moved["log"][-1]["seat"] == seat and moved["log"][-1]["bot"]
        assert moved["seats"][seat]["bot_playing"]
        if moved["actions"]:  # the other player's turn: play it
            await other.send({"type": "act", "code": code, "action": moved["actions"][0]["action"],
                              "turn": moved["turn"]})
        back = await join(server.port, code, links[seat])
        status = await other.next(lambda m: m["type"] == "seat_status" and m["seat"] == seat
                                  and m["connected"], timeout=5)
        assert not status["bot_playing"]
        turn = server.tables[code].match.decisions
        mine = await back.update(lambda m: bool(m["actions"]), timeout=5)  # the seat is the player's
        # no bot plays it now (a bot's move would also make the player's below a stale turn)
        assert server.tables[code].match.decisions == mine["turn"] >= turn
        assert server.tables[code].bot_seat() is None
        await back.send({"type": "act", "code": code, "action": mine["actions"][-1]["action"],
                         "turn": mine["turn"]})
        after = await other.update(lambda m: m["turn"] == mine["turn"] + 1)
        assert after["log"][-1] == {"hand": after["log"][-1]["hand"], "seat": seat, "bot": False,
                                    "text": f"{after['names'][seat]}: {mine['actions'][-1]['label']}"}
        for client in (back, other):
            await client.close()


@pytest.mark.asyncio
async def test_chat_reaches_the_table_and_only_it(tmp_path):
    async with running(tmp_path / "library.sqlite") as server:
        code, links = await table(server.port, ["human", "human"])
        other_code, other_links = await table(server.port, ["human", "greedy"])
        ann = await join(server.port, code, links[0], name="Ann")
        bob = await join(server.port, code, links[1], name="Bob")
        elsewhere = await join(server.port, other_code, other_links[0])
        spectator = await Client.connect(server.port)
        await spectator.request({"type": "hello", "name": "Kim"})
        await spectator.request({"type": "watch", "code": code})
        await ann.send({"type": "chat", "code": code, "text": "good luck ♥"})
        await spectator.send({"type": "chat", "code": code, "text": "hi all"})
        for client in (ann, bob, spectator):
            line = await client.next(lambda m: m["type"] == "chat")
            assert (line["seat"], line["name"], line["text"]) == (0, "Ann", "good luck ♥")
            line = await client.next(lambda m: m["type"] == "chat")
            assert (line["seat"], line["name"], line["text"]) == (None, "Kim", "hi all")
        assert (await bob.request({"type": "leave", "code": code}))["type"] == "left"
        assert (await bob.request({"type": "chat", "code": code, "text": "x"}))["code"] == "no_table"
        # the server writes each connection's frames in order: a chat sent to the other table
        # would have come before this answer
        await elsewhere.request({"type": "list_tables"})
        assert not [m for m in elsewhere.received if m["type"] == "chat"]
        for client in (ann, bob, elsewhere, spectator):
            await client.close()


@pytest.mark.asyncio
async def test_a_table_whose_players_are_away_pauses_whoever_watches_until_one_comes_back(tmp_path):
    """Issue 22, item 3: a stranger with the code cannot make stand-ins play out a match."""
    async with running(tmp_path / "library.sqlite", server_config(grace=0.05, bot_delay=0.01)) as server:
        code, links = await table(server.port, ["human", "greedy"])
        player = await join(server.port, code, links[0])
        await player.update()
        await player.close()
        alone = server.tables[code]
        await until(lambda: 0 in alone.service.away, "the grace period is over: a stand-in")
        match = alone.match
        paused = match.decisions
        assert alone.bot_seat() is None  # but no player of the table here: no bot plays
        spectator = await Client.connect(server.port)
        await spectator.request({"type": "watch", "code": code})
        await spectator.update()
        await spectator.request({"type": "list_tables"})  # a round trip: the table had its chance
        assert alone.bot_seat() is None and match.decisions == paused  # watching starts nothing
        back = await join(server.port, code, links[0])  # the player: the table plays on
        mine = await back.update()
        if mine["actions"]:
            await back.send({"type": "act", "code": code, "action": mine["actions"][0]["action"],
                             "turn": mine["turn"]})
        await spectator.update(lambda m: m["turn"] > paused)
        for client in (spectator, back):
            await client.close()


@pytest.mark.asyncio
async def test_a_chosen_seed_is_ignored_unless_the_server_allows_it(tmp_path):
    # whoever chose the seed would know every hand: a server for people draws its own
    for allow, same in ((True, True), (False, False)):
        config = server_config()
        config.allow_seed = allow
        async with running(tmp_path / f"library-{allow}.sqlite", config) as server:
            seeds = []
            for _ in range(2):
                code, _ = await table(server.port, ["human", "greedy"])
                seeds.append(server.tables[code].match.seed)
            assert (seeds == [8, 8]) is same and (seeds[0] == seeds[1]) is same


@pytest.mark.asyncio
async def test_a_joining_player_names_the_seat_and_their_side(tmp_path):
    """Two players without partners: each side is named after its seat, so a name given on
    joining shows in seat_status and the sheet's side names; partners' sides read 'A & B'."""
    async with running(tmp_path / "library.sqlite") as server:
        code, links = await table(server.port, ["human", "human"])
        ann = await join(server.port, code, links[0], name="Ann")
        await join(server.port, code, links[1], name="Bob")
        status = await ann.next(lambda m: m["type"] == "seat_status" and m["seat"] == 1)
        assert status["name"] == "Bob"
        update = await ann.update(lambda m: m["names"] == ["Ann", "Bob"])
        assert update["side_names"] == ["Ann", "Bob"]
        assert server.tables[code].match.sheet.side_names == ["Ann", "Bob"]
        code4, links4 = await table(server.port, ["human", "greedy", "greedy", "greedy"])
        await join(server.port, code4, links4[0], name="Ann")
        assert server.tables[code4].match.seating.side_names == ("Ann & North", "West & East")


@pytest.mark.asyncio
async def test_a_table_made_with_side_names_or_a_draw_for_partners(tmp_path):
    async with running(tmp_path / "library.sqlite") as server:
        host = await Client.connect(server.port)
        made = await host.request({"type": "create_table", "game": "royal_casino", "seed": 8,
                                   "seats": ["human", "greedy", "greedy", "greedy"],
                                   "side_names": ["Us", "Them"]})
        await join(server.port, made["code"], made["seats"][0], name="Ann")
        match = server.tables[made["code"]].match
        assert match.seating.side_names == ("Us", "Them")  # a joining player's name leaves them
        assert match.sheet.side_names == ["Us", "Them"]
        wrong = await host.request({"type": "create_table", "game": "royal_casino",
                                    "seats": ["human", "greedy", "greedy", "greedy"],
                                    "side_names": ["Us"]})
        assert (wrong["type"], wrong["code"]) == ("error", "bad_game")
        assert wrong["message"] == "1 side names for 2 sides"
        drawn = await host.request({"type": "create_table", "game": "canasta", "seed": 8,
                                    "seats": ["human", "greedy", "human", "greedy"],
                                    "names": ["Ann", "Rob", "Bob", "Bot"], "draw_for_partners": True})
        match = server.tables[drawn["code"]].match
        assert match.draw is not None
        humans = [i for i, kind in enumerate(match.seats) if kind == "human"]
        assert [link["seat"] for link in drawn["seats"]] == humans  # a link for each seat a person drew
        assert sorted(match.seating.names[i] for i in humans) == ["Ann", "Bob"]  # names moved with them
        await host.close()
