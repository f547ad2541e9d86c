"""Whole matches over real sockets: four clients (and a spectator) at a table, bots choosing
each client's moves from what it receives. The server's record is a local match's record
for the same seed and moves, and no message shows a card another seat holds or the stock
holds at the moment it is sent."""

from __future__ import annotations

import random

import pytest

from cardcore.engine.records import parse_record_lines
from cardcore.services.plugins import load_registry
from tests.net.helpers import Client, running
from tests.net.play import check_no_leak, gather_bounded, local_record, play_seat, positions

GAMES = [
    ("casino", 2, {}),
    pytest.param("casino", 4, {}, marks=pytest.mark.slow),  # the quick loop: casino 2p
    pytest.param("royal_casino", 4, {}, marks=pytest.mark.slow),
    pytest.param("canasta", 4, {"target": 100}, marks=pytest.mark.slow),
]


async def seat_clients(port: int, made: dict, names: list[str]) -> list[Client]:
    clients = []
    for link, name in zip(made["seats"], names, strict=False):
        client = await Client.connect(port)
        joined = await client.request({"type": "join", "code": made["code"], "invite": link["invite"],
                                       "name": name})
        assert joined["type"] == "joined" and joined["seat"] == link["seat"], joined
        clients.append(client)
    return clients


async def play_table(tmp_path, game_id: str, seats: list[str], options: dict, seed: int) -> None:
    registry = load_registry()
    async with running(tmp_path / "library.sqlite", registry=registry) as server:
        host = await Client.connect(server.port)
        made = await host.request({"type": "create_table", "game": game_id, "options": options,
                                   "seats": seats, "seed": seed})
        assert made["type"] == "table_created", made
        code = made["code"]
        spectator = await Client.connect(server.port)
        assert (await spectator.request({"type": "watch", "code": code}))["type"] == "watching"
        names = ["Ann", "Bob", "Cy", "Di"]
        clients = await seat_clients(server.port, made, names)
        game = registry.games[game_id]
        sent: list = []
        bots = [registry.bots["greedy" if i % 2 == 0 else "random"]() for i in range(len(clients))]
        finals = await gather_bounded(*(
            play_seat(c, code, link["seat"], game, bot, random.Random(f"{seed}:{i}"), sent)
            for i, (c, link, bot) in enumerate(zip(clients, made["seats"], bots, strict=True))),
            timeout=40)
        final = await spectator.update(lambda m: m["over"])
        assert all(f["winner"] == final["winner"] for f in finals)
        await server.writer.drain()
        summary = server.store.finished()[0]
        record = server.store.export_record(summary.id)
        events = [e for _, e in parse_record_lines(record, "record")]
        assert events[0].seats == seats and events[-1].event == "match_end"
        # the names people chose are in the record (and the library's summary), each as
        # a seat event when they sat; the rest is exactly a local match's record
        named = sorted((e.seat, e.name) for e in events if e.event == "seat")
        assert named == [(link["seat"], names[i]) for i, link in enumerate(made["seats"])]
        assert [summary.names[s] for s, _ in named] == [n for _, n in named]
        moves_only = "".join(line for line in record.splitlines(keepends=True)
                             if not line.startswith('{"event":"seat"'))
        assert moves_only == local_record(registry, events[0], sent)
        everyone = [*clients, spectator]
        updates = [m for c in everyone for m in c.received if m["type"] == "update"]
        assert len(updates) > len(everyone) * len(sent)  # everyone hears of every move
        for update in updates:
            check_no_leak(update, record)
        leaky = updates[0] | {"zones": [*updates[0]["zones"], {"cards": [], "groups": [
            {"cards": [c for c in positions(record)[(1, 0, False)]["stock"]][:1]}]}]}
        with pytest.raises(AssertionError, match="zones of the update"):  # the check does catch one
            check_no_leak(leaky, record)
        assert all(not m["actions"] for m in spectator.received if m["type"] == "update")
        assert not [m for c in everyone for m in c.received if m["type"] == "error"]
        for c in [host, *everyone]:
            await c.close()


@pytest.mark.asyncio
@pytest.mark.parametrize(("game_id", "players", "options"), GAMES,
                         ids=["casino-2", "casino-4", "royal_casino-4", "canasta-4"])
async def test_clients_play_a_whole_match_as_a_local_match_would(tmp_path, game_id, players, options):
    await play_table(tmp_path, game_id, ["human"] * players, options, seed=11)


@pytest.mark.slow
@pytest.mark.asyncio
async def test_the_servers_bots_play_with_the_matchs_own_random_streams(tmp_path):
    # the local match lets its bots choose with Match.bot_rng: the server's bots must agree
    await play_table(tmp_path, "royal_casino", ["human", "greedy", "human", "random"], {}, seed=5)
