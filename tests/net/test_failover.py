"""Two real ``cardcore serve`` processes share one library as slots 0 and 1 of a card room:
each holds the tables of its own codes under a lease; when one is killed outright (SIGKILL)
the other takes its tables over from the library within a few seconds, where their last
committed action left them, and the players come back to it with their seat tokens."""

from __future__ import annotations

import asyncio
import random
import signal
import time

import pytest

from cardcore.engine.records import parse_record_lines
from cardcore.services.net import placement
from cardcore.services.plugins import load_registry
from cardcore.services.store import checks
from cardcore.services.store.sqlite import SqliteStore
from tests.net.helpers import WAIT, Client
from tests.net.play import local_record, play_seat
from tests.net.processes import play_until, serve, settled

#: How soon the other server must serve a dead server's tables (seconds).
TAKEOVER = 5.0


async def come_back(port: int, code: str, link: dict, deadline: float) -> Client:
    """A connection to ``code`` on the server at ``port``, seated with the seat's token,
    tried again (the server may not hold the table yet) until ``deadline``."""
    while True:
        try:
            client = await Client.connect(port, f"/play/{code}")
            reply = await client.sit(code, link)
            if reply["type"] == "joined":
                return client
            await client.close()
        except (ConnectionError, OSError):
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"table {code} was not taken over in {TAKEOVER} s")
        await asyncio.sleep(0.1)


@pytest.mark.slow  # two servers and a takeover: several seconds
@pytest.mark.asyncio
async def test_a_killed_server_s_tables_are_taken_over_by_the_other_with_nothing_lost(tmp_path):
    library = tmp_path / "library.sqlite"
    registry = load_registry()
    procs = []
    try:
        for slot in (0, 1):
            procs.append(await serve(library, tmp_path / f"home{slot}", "--slot", str(slot), "--slots", "2"))
        (first, port0), (_second, port1) = procs
        lobby = await Client.connect(port0)
        made = [await lobby.request({"type": "create_table", "game": "casino", "seats": ["human", "human"],
                                     "seed": n, "public": True}) for n in range(3)]
        assert all(placement.home(m["code"], 2) == 0 for m in made)  # the first server's own
        listed = await (await Client.connect(port1)).request({"type": "list_tables"})
        sent: dict[str, list] = {m["code"]: [] for m in made}
        seated = {}
        for m in made:
            seated[m["code"]] = [await Client.connect(port0, f"/play/{m['code']}") for _ in m["seats"]]
            for client, link in zip(seated[m["code"]], m["seats"], strict=True):
                assert (await client.sit(m["code"], link))["type"] == "joined"
        rng = random.Random(4)
        for m in made:
            await asyncio.wait_for(asyncio.gather(*(play_until(c, m["code"], 6, sent[m["code"]], rng)
                                                    for c in seated[m["code"]])), 20)
        before = {m["code"]: [await settled(c) for c in seated[m["code"]]] for m in made}
        first.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        await asyncio.wait_for(first.wait(), WAIT)
        taken, back = [], {}
        for m in made:  # every seat back at the other server, where every client saw it
            code = m["code"]
            back[code] = []
            for link, old in zip(m["seats"], before[code], strict=True):
                client = await come_back(port1, code, link, killed + TAKEOVER)
                taken.append(time.monotonic() - killed)
                update = await client.update()
                assert (update["turn"], update["zones"], update["actions"]) == \
                    (old["turn"], old["zones"], old["actions"])
                client.rewind()
                back[code].append(client)
        game = registry.games["casino"]
        for m in made:  # and the matches play on to their end
            code = m["code"]
            bots = [registry.bots["random"]() for _ in back[code]]
            await asyncio.wait_for(asyncio.gather(*(
                play_seat(c, code, link["seat"], game, bot, random.Random(i), sent[code])
                for i, (c, link, bot) in enumerate(zip(back[code], m["seats"], bots, strict=True)))), 40)
        assert max(taken) < TAKEOVER, taken
        assert listed["type"] == "tables"
    finally:
        for proc, _port in procs:
            if proc.returncode is None:
                proc.send_signal(signal.SIGKILL)
                await asyncio.wait_for(proc.wait(), WAIT)
    store = SqliteStore(library)
    try:
        for code, match_id, _status, _data in store.net_tables(("over",)):
            record = store.export_record(match_id)
            numbered = parse_record_lines(record, code)
            checks.rebuild(registry.games["casino"], numbered)
            kept = "".join(line + "\n" for line in record.splitlines()
                           if '"event":"resume"' not in line and '"event":"seat"' not in line)
            assert kept == local_record(registry, numbered[0][1], sent[code])  # not a move lost
        assert len(store.net_tables(("over",))) == len(made)
    finally:
        store.close()
