"""Nothing is shown before it is kept: an update waits until the library holds the move it
shows, frames that follow it at the same connection wait behind it, and while the library
cannot be written (here another process holds its write lock, as an import or a backup
may; a read-only or full disk fails the same way) the table stands still and says so to
whoever tries to move. The writer process dying loses nothing either. The kill -9 loop
that shows what this buys is tests/net/test_kill_loop.py."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
from dataclasses import replace

import pytest

from cardcore.services.store import open_library
from cardcore.services.store.commits import WRITER_KEY, is_postgres
from tests.net.helpers import Client, running, server_config, until
from tests.net.test_hostile import make_table


def decisions(library, match_id: int) -> int:
    """The match's turn as the library holds it (read by a connection of its own)."""
    store = open_library(library, import_autosave=False)
    try:
        return store.get(match_id).decisions
    finally:
        store.close()


async def nothing_comes(clients: list[Client], seconds: float = 0.5) -> None:
    counts = [len(c.received) for c in clients]
    await asyncio.sleep(seconds)  # the wait is the assertion: nothing may arrive meanwhile
    came = [c.received[n:] for c, n in zip(clients, counts, strict=True)]
    assert not any(came), came


class Holder:
    """Another process's hold on the library's write lock (an open write transaction; in
    PostgreSQL, one holding the writers' advisory lock)."""

    def __init__(self, library) -> None:
        self.pg = is_postgres(str(library))
        if self.pg:
            import psycopg

            self.conn = psycopg.connect(str(library), autocommit=True)
        else:
            self.conn = sqlite3.connect(library, isolation_level=None)

    async def __aenter__(self) -> Holder:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.release()
        self.conn.close()

    def take(self) -> None:
        if self.pg:
            self.conn.execute("BEGIN")
            self.conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (WRITER_KEY,))
        else:
            self.conn.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        if self.pg or self.conn.in_transaction:  # (PostgreSQL: nothing to roll back is no error)
            self.conn.execute("ROLLBACK")



def quick_failing(**table):
    """A server whose commits give up on a held lock after 0.2 s (10 s in service)."""
    return replace(server_config(**table), library_wait=0.2)


@pytest.mark.asyncio
async def test_an_update_waits_until_the_library_holds_its_move(library):
    async with running(library, quick_failing()) as server, Holder(library) as hold:
        code, _, (first, second) = await make_table(server.port)
        other, _, (third, fourth) = await make_table(server.port)
        table = server.tables[code]
        hold.take()
        mover = first if table.match.to_play == 0 else second
        update = [m for m in mover.received if m["type"] == "update"][-1]
        await mover.send({"type": "act", "code": code, "action": update["actions"][0]["action"], "turn": 0})
        await mover.send({"type": "chat", "code": code, "text": "after my move"})
        everyone = [first, second, third, fourth]
        await nothing_comes(everyone)  # the move is applied, its batch failed: nobody sees it
        assert table.match.decisions == 1 and decisions(library, table.match_id) == 0
        assert server.writer.problem is not None

        # at the other table a player whose turn was shown before is told at once; nothing changes
        ahead = third if server.tables[other].match.to_play == 0 else fourth
        turn = [m for m in ahead.received if m["type"] == "update"][-1]
        refused = await ahead.request({"type": "act", "code": other, "turn": 0,
                                       "action": turn["actions"][0]["action"]})
        assert refused["type"] == "error" and refused["code"] == "server_error", refused
        assert "cannot save moves" in refused["message"]
        assert server.tables[other].match.decisions == 0

        hold.release()  # the next retry writes the batch: the move is shown
        for client in (first, second):
            shown = await client.update(lambda m: m["turn"] == 1)
            assert decisions(library, table.match_id) == 1
            after = await client.next(lambda m: m["type"] in ("update", "chat"))
            assert after["type"] == "chat" and after["text"] == "after my move"  # not ahead of it
            assert shown["turn"] == 1
        assert server.writer.problem is None


@pytest.mark.asyncio
async def test_frames_that_change_nothing_go_at_once(tmp_path):
    library = tmp_path / "library.sqlite"
    async with running(library, quick_failing()) as server, Holder(library) as hold:
        code, _, (first, second) = await make_table(server.port)
        hold.take()  # nothing is waiting to be written at this table
        await first.send({"type": "chat", "code": code, "text": "hello"})
        assert (await second.next(lambda m: m["type"] == "chat"))["text"] == "hello"
        watcher = await Client.connect(server.port)
        assert (await watcher.request({"type": "watch", "code": code}))["type"] == "watching"
        assert (await watcher.update())["turn"] == 0
        hold.release()


@pytest.mark.asyncio
async def test_a_connection_with_too_much_waiting_for_the_library_is_closed_alone(tmp_path, monkeypatch):
    from cardcore.services.net import persist

    monkeypatch.setattr(persist, "MAX_HELD_BYTES", 20_000)  # 4 MiB in service: a smaller cap here
    library = tmp_path / "library.sqlite"
    async with running(library, quick_failing()) as server, Holder(library) as hold:
        code, links, (first, second) = await make_table(server.port)
        other, _, (third, fourth) = await make_table(server.port)
        hold.take()
        mover = first if server.tables[code].match.to_play == 0 else second
        update = [m for m in mover.received if m["type"] == "update"][-1]
        await mover.send({"type": "act", "code": code, "action": update["actions"][0]["action"], "turn": 0})
        for _ in range(100):  # each line waits behind the move, for both players
            await mover.send({"type": "chat", "code": code, "text": "x" * 200})
        assert (await first.wait_closed())[0] == 1013
        assert (await second.wait_closed())[0] == 1013
        hold.release()
        await third.send({"type": "chat", "code": other, "text": "still here"})  # the other table goes on
        assert (await fourth.next(lambda m: m["type"] == "chat"))["text"] == "still here"
        back = await Client.connect(server.port)  # the move was kept: its player comes back to it
        joined = await back.sit(code, links[0])  # with the token the claim gave
        assert joined["type"] == "joined"
        assert (await back.update())["turn"] == 1


@pytest.mark.asyncio
async def test_bots_wait_while_the_library_cannot_be_written(library):
    async with running(library, quick_failing(bot_delay=0.5)) as server, Holder(library) as hold:
        host = await Client.connect(server.port)
        made = await host.request({"type": "create_table", "game": "casino", "seats": ["human", "random"],
                                   "seed": 4})
        code, player = made["code"], await Client.connect(server.port)
        assert (await player.sit(code, made["seats"][0]))["type"] == "joined"
        update = await player.update(lambda m: bool(m["actions"]))
        table = server.tables[code]
        hold.take()
        await player.send({"type": "act", "code": code, "action": update["actions"][0]["action"],
                           "turn": update["turn"]})
        await nothing_comes([player], 1.0)
        assert server.writer.problem is not None  # known after 0.2 s, before the bot's turn came
        assert table.match.decisions == update["turn"] + 1  # the player's move; the bot waits
        hold.release()
        await player.update(lambda m: m["turn"] >= update["turn"] + 2)  # the bot plays on
        assert table.match.decisions >= update["turn"] + 2


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_move_whose_writer_process_died_is_written_by_the_next(tmp_path):
    library = tmp_path / "library.sqlite"
    config = replace(server_config(), library_wait=5.0)  # the batch waits in the process
    async with running(library, config) as server, Holder(library) as hold:
        code, _, (first, second) = await make_table(server.port)
        table, worker = server.tables[code], server.writer.worker
        old = worker.pid
        assert old is not None
        hold.take()
        mover = first if table.match.to_play == 0 else second
        update = [m for m in mover.received if m["type"] == "update"][-1]
        await mover.send({"type": "act", "code": code, "action": update["actions"][0]["action"], "turn": 0})
        await until(lambda: table.match.decisions == 1, "the move applied")
        await asyncio.sleep(0.2)  # handed over: the process waits for the lock
        os.kill(old, signal.SIGKILL)
        await nothing_comes([first, second])
        assert server.writer.problem == "the library's writer process stopped"
        hold.release()
        for client in (first, second):  # tried again by a new process: kept, then shown
            assert (await client.update(lambda m: m["turn"] == 1))["turn"] == 1
        assert decisions(library, table.match_id) == 1
        assert worker.pid not in (None, old) and server.writer.problem is None
