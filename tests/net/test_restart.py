"""A real ``cardcore serve`` killed with SIGKILL mid-hand and started again on the same
library resumes every table where its last commit left it: the players come back with
their links to the same position, and the matches end exactly as uninterrupted ones."""

from __future__ import annotations

import asyncio
import random
import signal

import pytest

from cardcore.engine.records import parse_record_lines
from cardcore.services.plugins import load_registry
from cardcore.services.store import checks, open_library
from tests.net.helpers import Client
from tests.net.play import local_record, play_seat
from tests.net.processes import committed, play_until, serve, settled

TABLES = [("casino", ["human", "human"], {}), ("canasta", ["human", "greedy", "human", "greedy"],
                                               {"target": 100})]


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_killed_server_resumes_every_table_where_it_was(tmp_path, library):
    home = tmp_path / "home"
    registry = load_registry()
    proc, port = await serve(library, home)
    host = await Client.connect(port)
    made = [await host.request({"type": "create_table", "game": g, "seats": s, "options": o, "seed": 3,
                                "public": True})  # listed for everyone after the restart
            for g, s, o in TABLES]
    sent: dict[str, list] = {m["code"]: [] for m in made}
    seated = {m["code"]: [await Client.connect(port) for _ in m["seats"]] for m in made}
    for m in made:
        for client, link in zip(seated[m["code"]], m["seats"], strict=True):
            await client.sit(m["code"], link)
    rng = random.Random(2)
    # casino: 7 moves (mid-hand, one player to play); canasta: until turn 9 (mid-turn, bots in it)
    for m, stop in zip(made, (7, 9), strict=True):
        await asyncio.wait_for(asyncio.gather(*(play_until(c, m["code"], stop, sent[m["code"]], rng)
                                                for c in seated[m["code"]])), 20)
    before = {m["code"]: [await settled(c) for c in seated[m["code"]]] for m in made}
    store = open_library(library, import_autosave=False)
    ids = {code: match_id for code, match_id, _, _ in store.net_tables()}
    store.close()
    await committed(library, {ids[code]: ups[0]["turn"] for code, ups in before.items()})
    proc.send_signal(signal.SIGKILL)
    await asyncio.wait_for(proc.wait(), 10)

    proc, port = await serve(library, home)
    try:
        listing = (await (await Client.connect(port)).request({"type": "list_tables"}))["tables"]
        assert {t["code"] for t in listing} == set(sent)
        for m in made:
            code = m["code"]
            back = []
            for link, old in zip(m["seats"], before[code], strict=True):
                client = await Client.connect(port)
                assert (await client.sit(code, link))["type"] == "joined"
                update = await client.update()
                assert (update["turn"], update["zones"], update["actions"]) == \
                    (old["turn"], old["zones"], old["actions"])
                client.rewind()  # play_seat answers that update
                back.append(client)
            game = registry.games[next(t["game"] for t in listing if t["code"] == code)]
            bots = [registry.bots["random"]() for _ in back]
            await asyncio.wait_for(asyncio.gather(*(
                play_seat(c, code, link["seat"], game, bot, random.Random(i), sent[code])
                for i, (c, link, bot) in enumerate(zip(back, m["seats"], bots, strict=True)))), 40)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 20) == 0
    store = open_library(library, import_autosave=False)
    try:
        for code, match_id in ids.items():
            record = store.export_record(match_id)
            numbered = parse_record_lines(record, code)
            game = registry.games[numbered[0][1].game]
            checks.rebuild(game, numbered)  # every event follows through the engine
            kept = "".join(line + "\n" for line in record.splitlines()  # the moves alone
                           if '"event":"resume"' not in line and '"event":"seat"' not in line)
            assert record.count('"event":"resume"') == 1
            assert kept == local_record(registry, numbered[0][1], sent[code])
        assert store.net_tables() == []  # both over
    finally:
        store.close()
