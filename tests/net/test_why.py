"""``why`` over real sockets: a bot move explained to the player and a spectator, each as
their own eyes may read it, and every bad request refused with its error code."""

from __future__ import annotations

import re

import pytest

from cardcore.engine.bots.base import unseen_cards
from cardcore.engine.cards import glyph
from cardcore.services.plugins import load_registry
from tests.net.helpers import Client, running


def named(card: str, text: str) -> bool:
    return re.search(rf"(?<![\w♠♥♦♣]){re.escape(glyph(card))}(?![\w♠♥♦♣])", text) is not None


async def until_bot_moved(player: Client, code: str, seat: int, moves: int) -> dict:
    """Play the first legal action at each turn of ``seat`` until the bot moved ``moves``
    times; the last bot log line."""
    bot_lines: list[dict] = []
    while True:
        update = await player.update()
        bot_lines += [line for line in update["log"] if line["bot"]]
        if len(bot_lines) >= moves and update["to_play"] == seat:
            return bot_lines[-1]
        if update["to_play"] == seat and update["actions"]:
            await player.send({"type": "act", "code": code, "action": update["actions"][0]["action"],
                               "turn": update["turn"]})


async def against_greedy(server) -> tuple[dict, Client]:
    """A casino table, a human seat against greedy (seed 11), and its player seated."""
    host = await Client.connect(server.port)
    made = await host.request({"type": "create_table", "game": "casino", "seats": ["human", "greedy"],
                               "seed": 11})
    player = await Client.connect(server.port)
    assert (await player.sit(made["code"], made["seats"][0], "Ann"))["type"] == "joined"
    return made, player


@pytest.mark.asyncio
async def test_why_answers_the_asker_alone_without_a_hidden_card(tmp_path):
    async with running(tmp_path / "library.sqlite", registry=load_registry()) as server:
        made, player = await against_greedy(server)
        code = made["code"]
        spectator = await Client.connect(server.port)
        assert (await spectator.request({"type": "watch", "code": code}))["type"] == "watching"
        line = await until_bot_moved(player, code, 0, 3)
        turn = line["turn"]
        answer = await player.request({"type": "why", "code": code})
        assert answer["type"] == "why" and answer["code"] == code
        assert answer["move"] == turn and answer["seat"] == 1
        move = line["text"].split(": ", 1)[1]
        assert answer["text"].startswith(f"{line['text'].split(':')[0]} chose {move}")
        assert answer["estimates"][0]["label"] == move and answer["estimates"][0]["chosen"]
        assert 1 <= len(answer["estimates"]) <= 3
        assert await player.request({"type": "why", "code": code, "move": turn}) | {"id": 0} == \
            answer | {"id": 0}
        watched = await spectator.request({"type": "why", "code": code, "move": turn})
        assert watched["type"] == "why" and watched["move"] == turn
        state = server.tables[code].service.match.state
        for asker, said in ((0, answer), (None, watched)):
            words = said["text"] + " ".join(e["label"] for e in said["estimates"])
            assert not [c for c in unseen_cards(state, asker) if named(c, words)]
        # the answer went to the asker alone
        assert len([m for m in player.received if m["type"] == "why"]) == 2
        assert len([m for m in spectator.received if m["type"] == "why"]) == 1


@pytest.mark.asyncio
async def test_bad_why_requests_are_refused_with_their_codes(tmp_path):
    async with running(tmp_path / "library.sqlite") as server:
        made, player = await against_greedy(server)
        code = made["code"]
        stranger = await Client.connect(server.port)
        for who, message, error in [
            (player, {"code": code, "move": 10**6}, "bad_field"),
            (player, {"code": code, "move": -1}, "bad_field"),
            (player, {"code": code, "move": "last"}, "bad_field"),
            (player, {"code": code, "move": 1, "why": "x"}, "bad_field"),
            (player, {"code": "ZZZ-999"}, "no_table"),
            (player, {"code": "zzz"}, "bad_field"),
            (stranger, {"code": code}, "no_table"),
        ]:
            reply = await who.request({"type": "why", **message})
            assert reply["type"] == "error" and reply["code"] == error, (message, reply)
