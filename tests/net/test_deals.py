"""A server's deals cannot be computed (issue 22, item 1): a table deals from 128 secret
bits nobody chose, never a small integer; a seat's first update finds no deal in a search
over small seeds, which does find a deal made from one (the search works). A chosen seed
(a server started with --allow-seed) is said to everyone at the table."""

from __future__ import annotations

import pytest

from cardcore.engine.match import Match
from cardcore.services.plugins import load_registry
from tests.net.helpers import Client, running

SEARCHED = 2**12


def seeds_dealing(game, seen: dict) -> list[int]:
    """The small seeds whose first deal shows seat 0 exactly ``seen`` (its view)."""
    found = []
    for seed in range(SEARCHED):
        match = Match(game, game.Options(), seed=seed, seats=["human", "greedy"])
        match.start()
        view = match.live_state().view(0)
        if view["hands"][0] == seen["hands"][0] and view["table"] == seen["table"]:
            found.append(seed)
    return found


async def first_update(port: int, **create) -> tuple[dict, str, list]:
    host = await Client.connect(port)
    made = await host.request({"type": "create_table", "game": "casino", "seats": ["human", "greedy"],
                               **create})
    ann = await Client.connect(port)
    await ann.sit(made["code"], made["seats"][0])
    update = await ann.update()
    raw = list(ann.received)
    for client in (host, ann):
        await client.close()
    return update, made["code"], raw


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_seats_first_update_finds_no_deal_among_small_seeds(tmp_path):
    registry = load_registry()
    game = registry.games["casino"]
    async with running(tmp_path / "library.sqlite", registry=registry) as server:
        update, code, received = await first_update(server.port)
        seed = server.tables[code].match.seed
        assert isinstance(seed, str) and len(seed) == 32 and int(seed, 16) >= 0  # 128 bits
        assert update["chosen_seed"] is False
        assert seed not in repr(received)  # no message carries it
        assert seeds_dealing(game, update["view"]) == []

        chosen, code, _ = await first_update(server.port, seed=1234)  # the control: it does find one
        assert chosen["chosen_seed"] is True and server.tables[code].info()["chosen_seed"]
        assert seeds_dealing(game, chosen["view"]) == [1234]
