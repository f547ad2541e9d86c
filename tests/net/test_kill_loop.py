"""What anyone has seen is never lost: a real ``cardcore serve`` with 24 busy tables is
killed with SIGKILL again and again, at moments nobody chose, and started again on the
same library. Every client keeps every update it received; after each kill the library
(what the restarted server resumes from) holds every move any client was shown: as many
moves as the highest turn seen, and at each turn the move whose log line was seen."""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path
from typing import Any

import pytest
import websockets

from cardcore.engine.journal import Played
from cardcore.engine.records import parse_record_lines
from cardcore.services.store.sqlite import SqliteStore
from tests.net.helpers import Client
from tests.net.processes import serve

TABLES = 24
KILLS = 5
#: Every third table has a bot in its second seat (its moves are shown like a person's).
SEATS = [["human", "random"] if i % 3 == 2 else ["human", "human"] for i in range(TABLES)]


async def play(client: Client, code: str, rng: random.Random) -> None:
    """Answer at once every update that asks this seat to play, until the server is gone."""
    try:
        while True:
            update = await client.update(lambda m: bool(m["actions"]) or m["over"], timeout=60)
            if update["over"]:
                return
            await client.send({"type": "act", "code": code, "turn": update["turn"],
                               "action": rng.choice(update["actions"])["action"]})
    except (ConnectionError, websockets.ConnectionClosed):
        return  # killed: the connection is gone


def shown(clients: list[Client]) -> list[dict[str, Any]]:
    return [m for c in clients for m in c.received if m["type"] == "update"]


def lost_moves(library: Path, seen: dict[str, list[dict[str, Any]]]) -> tuple[int, int, list[str]]:
    """(the moves clients were shown, how many of them the library lacks or holds
    otherwise, what is wrong: a line a table), every table."""
    store = SqliteStore(library)
    try:
        ids = {code: match_id for code, match_id, _, _ in store.net_tables(("waiting", "playing", "over"))}
        moves, missing, lost = 0, 0, []
        for code, updates in seen.items():
            if code not in ids:
                lost.append(f"{code}: the table was created, the library has no row for it")
                continue
            played = [e for _, e in parse_record_lines(store.export_record(ids[code]), code)
                      if isinstance(e, Played)]
            top = max((u["turn"] for u in updates), default=0)
            moves += top
            if len(played) < top:
                missing += top - len(played)
                lost.append(f"{code}: turn {top} was shown, the library holds {len(played)} moves")
            for u in updates:  # an update's last log line is the move that made its turn
                line = u["log"][-1] if u["log"] else None
                if line is None or line["seat"] is None or not 0 < u["turn"] <= len(played):
                    continue
                kept = played[u["turn"] - 1]
                if (kept.hand, kept.seat) != (line["hand"], line["seat"]) or \
                        not line["text"].endswith(": " + kept.label):
                    missing += 1
                    lost.append(f"{code}: turn {u['turn']} was shown as {line['text']!r}, "
                                f"the library has {kept.label!r}")
        return moves, missing, lost
    finally:
        store.close()


async def seat_everyone(port: int, made: list[dict[str, Any]], rng: random.Random
                        ) -> tuple[dict[str, list[Client]], list[asyncio.Task[None]]]:
    seated: dict[str, list[Client]] = {}
    tasks = []
    for m in made:
        code, clients = m["code"], []
        for link in m["seats"]:
            client = await Client.connect(port)
            reply = await client.sit(code, link)
            assert reply["type"] == "joined", reply
            clients.append(client)
            tasks.append(asyncio.ensure_future(play(client, code, random.Random(rng.random()))))
        seated[code] = clients
    return seated, tasks


@pytest.mark.slow
@pytest.mark.asyncio
async def test_kill_9_loses_no_move_any_client_was_shown(tmp_path):
    library, home = tmp_path / "library.sqlite", tmp_path / "home"
    rng = random.Random(9)
    flags = ("--max-per-ip", "0", "--max-tables-per-ip", "0")  # every client is on 127.0.0.1
    proc, port = await serve(library, home, *flags)
    report = []
    try:
        host = await Client.connect(port)
        made = []
        for seats in SEATS:
            made.append(await host.request({"type": "create_table", "game": "casino", "seats": seats,
                                            "options": {"target": 400}}))  # outlasts the kills
        assert all(m["type"] == "table_created" for m in made), made
        seen: dict[str, list[dict[str, Any]]] = {m["code"]: [] for m in made}
        for kill in range(KILLS):
            store = SqliteStore(library)
            live = {code for code, _, _, _ in store.net_tables()}  # not over
            store.close()
            seated, tasks = await seat_everyone(port, [m for m in made if m["code"] in live], rng)
            await asyncio.sleep(rng.uniform(0.5, 2.0))  # play on; killed at a moment nobody chose
            proc.send_signal(signal.SIGKILL)
            await asyncio.wait_for(proc.wait(), 10)
            await asyncio.wait_for(asyncio.gather(*tasks), 30)  # every client saw the end
            this_round = 0
            for code, clients in seated.items():
                updates = shown(clients)
                this_round += len(updates)
                seen[code] += updates
            moves, missing, lost = lost_moves(library, seen)
            report.append((kill + 1, this_round, moves, missing))
            assert not lost, f"kill {kill + 1}: {missing} moves shown and lost: {lost[:5]}"
            proc, port = await serve(library, home, *flags)
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), 20)
            finally:
                if proc.returncode is None:
                    proc.kill()
    print(f"\n{TABLES} tables, {KILLS} kills: (kill, updates received, moves shown, lost) {report}")
    assert all(r[1] > 10 * TABLES for r in report)  # every round, the tables were busy
