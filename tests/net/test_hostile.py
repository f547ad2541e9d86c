"""Hostile clients: each gets an error (or is closed), nothing at the table changes, and no
other client, at this table or another, receives anything because of them."""

from __future__ import annotations

import json

import pytest
import pytest_asyncio
import websockets

from cardcore.services.net.protocol import MAX_MESSAGE_BYTES
from tests.net.helpers import WAIT, Client, running, server_config


async def make_table(port: int, game: str = "casino") -> tuple[str, list[dict], list[Client]]:
    host = await Client.connect(port)
    made = await host.request({"type": "create_table", "game": game, "seats": ["human", "human"],
                               "seed": 4})
    clients = []
    for link in made["seats"]:
        client = await Client.connect(port)
        joined = await client.request({"type": "join", "code": made["code"], "invite": link["invite"]})
        assert joined["type"] == "joined"
        link["token"] = joined["token"]
        await client.update()
        clients.append(client)
    await host.close()
    return made["code"], made["seats"], clients


class Room:
    """Two tables of two players, and a spectator at the first."""

    def __init__(self, server, a, b, spectator):
        self.server = server
        self.code, self.links, self.players = a
        self.other_code, _, self.others = b
        self.spectator = spectator

    @property
    def bystanders(self) -> list[Client]:
        return [*self.players, *self.others, self.spectator]

    def counts(self) -> list[int]:
        return [len(c.received) for c in self.bystanders]

    def turn(self) -> int:
        return self.server.tables[self.code].match.decisions


@pytest_asyncio.fixture
async def room(tmp_path):
    async with running(tmp_path / "library.sqlite", server_config(rate=20, burst=40)) as server:
        a = await make_table(server.port)
        b = await make_table(server.port)
        spectator = await Client.connect(server.port)
        assert (await spectator.request({"type": "watch", "code": a[0]}))["type"] == "watching"
        await spectator.update()
        yield Room(server, a, b, spectator)


async def errors_of(client: Client, frames: list, room: Room) -> list[str]:
    """Send each frame, return the error code each one got; nobody else heard a thing."""
    before, turn = room.counts(), room.turn()
    codes = []
    for frame in frames:
        if isinstance(frame, dict):
            reply = await client.request(frame)
        else:
            await client.send(frame)
            reply = await client.next()
        assert reply["type"] == "error", reply
        assert "\n" not in reply["message"] and reply["message"]
        codes.append(reply["code"])
    if client not in room.bystanders:
        assert await heard_nothing_since(room, before)
    assert room.turn() == turn
    return codes


async def heard_nothing_since(room: Room, before: list[int]) -> bool:
    """Whether no bystander received anything since ``before`` (their message counts): each
    asks the server for the tables, and the server writes a connection's frames in order, so
    whatever it sent them before comes before that answer."""
    for client in room.bystanders:
        assert (await client.request({"type": "list_tables"}))["type"] == "tables"
    return room.counts() == [n + 1 for n in before]


async def to_play(room: Room) -> tuple[Client, Client, dict]:
    """The player to play, the other one, and the update that asks the first to play."""
    seat = room.server.tables[room.code].match.to_play
    mover, other = room.players[seat], room.players[1 - seat]
    update = [m for m in mover.received if m["type"] == "update"][-1]
    assert update["actions"]
    return mover, other, update


@pytest.mark.asyncio
async def test_malformed_frames_get_one_line_errors_and_the_connection_goes_on(room):
    stranger = await Client.connect(room.server.port)
    codes = await errors_of(stranger, [
        "{not json", "[1, 2]", "\"text\"", b"\x00\x01binary",
        json.dumps({"v": 2, "type": "hello"}), json.dumps({"v": 1, "type": "teleport"}),
        json.dumps({"v": 1}), json.dumps({"v": 1, "type": "hello", "name": "x" * 500}),
        json.dumps({"v": 1, "type": "act", "code": room.code, "action": {}, "turn": "3"}),
        json.dumps({"v": 1, "type": "chat", "code": room.code, "text": "bell\x07"}),
        json.dumps({"v": 1, "type": "chat", "code": room.code, "text": "x" * 201}),
    ], room)
    assert codes == ["bad_json", "bad_json", "bad_json", "bad_json", "bad_version", "unknown_type",
                     "bad_field", "bad_field", "bad_field", "bad_field", "bad_field"]
    assert (await stranger.request({"type": "hello"}))["type"] == "welcome"
    await stranger.close()


@pytest.mark.asyncio
async def test_an_oversized_frame_closes_that_connection_alone(room):
    stranger = await Client.connect(room.server.port)
    before = room.counts()
    await stranger.send(json.dumps({"v": 1, "type": "chat", "code": room.code,
                                    "text": "x" * MAX_MESSAGE_BYTES}))
    code, _ = await stranger.wait_closed()
    assert code == 1009
    assert await heard_nothing_since(room, before)
    mover, _, update = await to_play(room)
    await mover.send({"type": "act", "code": room.code, "action": update["actions"][0]["action"],
                      "turn": update["turn"]})
    for client in room.bystanders[:2]:
        assert (await client.update(lambda m: m["turn"] == update["turn"] + 1))["code"] == room.code


@pytest.mark.asyncio
async def test_actions_out_of_turn_illegal_or_stale_change_nothing(room):
    mover, other, update = await to_play(room)
    legal = update["actions"][0]["action"]
    hand = next(z for z in update["zones"] if z["kind"] == "hand" and z["seat"] == update["seat"])
    other_update = [m for m in other.received if m["type"] == "update"][-1]
    assert other_update["actions"] == [] and other_update["why_not"] == {}
    codes = await errors_of(other, [
        {"type": "act", "code": room.code, "action": legal, "turn": update["turn"]},  # another seat's
    ], room)
    codes += await errors_of(mover, [
        {"type": "act", "code": room.code, "action": {"type": "trail", "card": "XX"}, "turn": update["turn"]},
        {"type": "act", "code": room.code, "action": {"type": "capture", "card": hand["cards"][0],
                                                      "taken": ["AS", "AS"]}, "turn": update["turn"]},
        {"type": "act", "code": room.code, "action": {"type": ["trail"] * 3}, "turn": update["turn"]},
        # a key the action does not have: refused whole, in every game (docs/protocol.md)
        {"type": "act", "code": room.code, "action": {**legal, "and_then": "more"}, "turn": update["turn"]},
        {"type": "act", "code": room.code, "action": legal, "turn": update["turn"] + 1},
        {"type": "act", "code": room.code, "action": legal, "turn": -1},
        {"type": "act", "code": room.other_code, "action": legal, "turn": update["turn"]},
        {"type": "act", "code": "ZZZ-999", "action": legal, "turn": update["turn"]},
    ], room)
    assert codes == ["not_your_turn", "illegal_action", "illegal_action", "illegal_action",
                     "illegal_action", "stale", "bad_field", "no_table", "no_table"]
    await mover.send({"type": "act", "code": room.code, "action": legal, "turn": update["turn"]})
    await room.spectator.update(lambda m: m["turn"] == update["turn"] + 1)
    replayed = await mover.request({"type": "act", "code": room.code, "action": legal,
                                    "turn": update["turn"]})  # the same move sent again
    assert replayed["code"] == "stale" and room.turn() == update["turn"] + 1


@pytest.mark.asyncio
async def test_a_spectator_cannot_play_or_see_a_hand(room):
    spec = room.spectator
    update = [m for m in spec.received if m["type"] == "update"][-1]
    assert update["seat"] is None and update["actions"] == []
    hands = [z for z in update["zones"] if z["kind"] == "hand"]
    assert hands and all(c is None for z in hands for c in z["cards"])
    assert all(c is None for h in update["view"]["hands"] for c in h)
    _, _, mover_update = await to_play(room)
    before, turn = room.counts(), room.turn()
    reply = await spec.request({"type": "act", "code": room.code, "turn": mover_update["turn"],
                                "action": mover_update["actions"][0]["action"]})
    assert reply["code"] == "spectator"
    assert room.turn() == turn and [n for i, n in enumerate(room.counts()) if i != 4] == \
        [n for i, n in enumerate(before) if i != 4]


@pytest.mark.asyncio
async def test_asking_for_another_seats_view_gets_nothing(room):
    stranger = await Client.connect(room.server.port)
    codes = await errors_of(stranger, [
        {"type": "view", "code": room.code, "seat": 0},
        {"type": "watch", "code": room.code, "seat": 0},
        {"type": "join", "code": room.code, "seat": 0},
        {"type": "join", "code": room.code, "seat": 0, "secret": "x"},
        {"type": "join", "code": room.code, "invite": ""},
    ], room)
    assert codes == ["unknown_type", "bad_field", "bad_field", "bad_field", "bad_field"]
    assert not [m for m in stranger.received if m["type"] == "update"]
    await stranger.close()


@pytest.mark.asyncio
async def test_stolen_and_guessed_secrets(room):
    thief = await Client.connect(room.server.port)
    secret = room.links[0]["invite"]
    codes = await errors_of(thief, [
        {"type": "join", "code": room.code, "invite": secret},        # claimed already: no
        {"type": "join", "code": room.other_code, "invite": secret},  # another table's invite
        # a letter changed whatever its case (invites are read case-blind: "ideA" is "idea")
        {"type": "join", "code": room.code, "invite": secret[:-1] + ("y" if secret.endswith("z") else "z")},
    ], room)
    assert codes == ["seat_taken", "bad_secret", "bad_secret"]
    reply = await thief.request({"type": "join", "code": room.code, "token": "guess"})
    assert reply["code"] == "bad_secret"
    code, _ = await thief.wait_closed()  # the third bad secret closes the connection
    assert code == 1008
    assert not [m for m in thief.received if m["type"] == "update"]


@pytest.mark.asyncio
async def test_secrets_are_never_logged(room, caplog):
    import logging

    caplog.set_level(logging.DEBUG)
    thief = await Client.connect(room.server.port)
    await thief.request({"type": "join", "code": room.code, "invite": "not-the-secret-42"})
    host = await Client.connect(room.server.port)
    made = await host.request({"type": "create_table", "game": "casino", "seats": ["human", "greedy"]})
    await host.request({"type": "join", "code": made["code"], "invite": made["seats"][0]["invite"]})
    text = "\n".join(r.getMessage() for r in caplog.records if r.name != "websockets.client")
    assert "cardcore.serve" in {r.name for r in caplog.records}  # the server was logging
    assert "not-the-secret-42" not in text
    assert all(link["invite"] not in text for link in [*room.links, *made["seats"]])
    assert all(link["token"] not in text for link in room.links)
    assert made["owner"] not in text


@pytest.mark.asyncio
async def test_flooding_is_limited_then_closed(room):
    flood = await Client.connect(room.server.port)
    before = room.counts()
    for _ in range(120):
        try:
            await flood.send({"type": "chat", "code": room.code, "text": "spam"})
        except websockets.ConnectionClosed:
            break
    code, _ = await flood.wait_closed()
    assert code == 1008
    errors = [m["code"] for m in flood.received if m["type"] == "error"]
    assert errors[:40] == ["no_table"] * 40 and set(errors[40:]) == {"rate_limited"}
    assert await heard_nothing_since(room, before)


@pytest.mark.asyncio
async def test_flooding_a_table_with_chat_does_not_slow_another_table(room):
    mover, _, update = await to_play(room)
    flood = room.others[0]
    for _ in range(60):
        await flood.send({"type": "chat", "code": room.other_code, "text": "spam"})
    await mover.send({"type": "act", "code": room.code, "action": update["actions"][0]["action"],
                      "turn": update["turn"]})
    moved = await room.spectator.update(lambda m: m["turn"] == update["turn"] + 1, timeout=WAIT)
    assert moved["code"] == room.code
    assert not [m for c in room.players for m in c.received if m["type"] == "chat"]


@pytest.mark.asyncio
async def test_bad_tables_are_refused(room):
    stranger = await Client.connect(room.server.port)
    codes = await errors_of(stranger, [
        {"type": "create_table", "game": "poker", "seats": ["human", "human"]},
        {"type": "create_table", "game": "casino", "seats": ["human"] * 5},
        {"type": "create_table", "game": "casino", "seats": ["human", "wizard"]},
        {"type": "create_table", "game": "casino", "seats": ["human", "human"], "options": {"target": -3}},
        {"type": "create_table", "game": "casino", "seats": ["human", "human"], "options": {"nope": 1}},
        {"type": "create_table", "game": "casino", "seats": ["human", "human"], "names": ["a"]},
        {"type": "leave", "code": room.code},
    ], room)
    assert codes == ["bad_game"] * 6 + ["no_table"]


@pytest.mark.asyncio
async def test_browsers_only_from_this_host_or_a_configured_origin(tmp_path):
    config = server_config()
    config.origins = ("https://cards.example.org",)
    async with running(tmp_path / "library.sqlite", config) as server:
        with pytest.raises(websockets.InvalidStatus) as refused:
            await Client.connect(server.port, origin="http://evil.example")
        assert refused.value.response.status_code == 403
        for origin in (f"http://127.0.0.1:{server.port + 1}", "https://cards.example.org", None):
            client = await Client.connect(server.port, origin=origin)
            assert (await client.request({"type": "hello"}))["type"] == "welcome"
            await client.close()


@pytest.mark.asyncio
async def test_a_request_id_out_of_range_is_refused_whole_and_binds_nothing(room):
    # issue 22, item 4: an id past 2**53 cannot be echoed by every reader: refused before
    # anything changes, the error carries no id, and the connection goes on
    stranger = await Client.connect(room.server.port)
    table = room.server.tables[room.code]
    watchers = len(table.watchers)
    big = 2**64
    codes = await errors_of(stranger, [
        json.dumps({"v": 1, "id": big, "type": "watch", "code": room.code}),
        json.dumps({"v": 1, "id": -1, "type": "hello"}),
        json.dumps({"v": 1, "id": big, "type": "create_table", "game": "casino", "seats": ["human"] * 2}),
    ], room)
    assert codes == ["bad_field"] * 3
    assert [m["id"] for m in stranger.received if m["type"] == "error"] == [None] * 3
    assert len(table.watchers) == watchers and len(room.server.tables) == 2  # nothing bound or made
    assert (await stranger.request({"type": "hello"}))["type"] == "welcome"
    await stranger.close()
