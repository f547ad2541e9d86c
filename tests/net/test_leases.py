"""Leases (``MatchStore.lease``): a server's claims are alive while its lease is, a stalled
server's matches may be taken by another, and from then on the library fences the stalled
server's writes out; the server drops the tables it lost, showing nothing of them."""

from __future__ import annotations

import time

import pytest

from cardcore.services.store import MatchLocked, commit_of
from cardcore.services.store.sqlite import SqliteStore
from tests.net.helpers import Client, running, until


def _expire(store: SqliteStore, holder: str) -> None:
    store.conn.execute("UPDATE leases SET expires = ? WHERE holder = ?", (time.time() - 1, holder))


def test_a_lease_keeps_its_claims_until_it_expires_then_the_writes_are_fenced(tmp_path):
    path = tmp_path / "library.sqlite"
    first, second = SqliteStore(path), SqliteStore(path)
    try:
        a = first.lease(0, 5.0, [{"code": "AAA-001"}])
        play = first.create("casino", {}, 1, ["human", "human"], source="server", claim=True)
        play.save_snapshot({"decisions": 1})
        assert first.add_table("AAA-001", play.id, "playing", {"seats": []})
        b = second.lease(1, 5.0)
        assert second.live_leases() == {a: 0, b: 1}
        assert second.listings() == {a: [{"code": "AAA-001"}], b: []}
        with pytest.raises(MatchLocked):
            second.open(play.id, claim=True)
        _expire(second, a)  # the first server stalls past its lease
        assert second.live_leases() == {b: 1} and second.listings() == {b: []}
        taken = second.open(play.id, claim=True)
        commit = commit_of(play.id, [], {"decisions": 3})
        assert [(code, holder) for code, _m, holder in first.held_tables()] == [("AAA-001", b)]
        assert first.write_commits([commit], [("AAA-001", play.id, "over", {})], holder=a) == \
            [play.id, play.id]  # fenced: nothing written
        assert second.load(play.id)["decisions"] == 1 and len(second.held_tables()) == 1
        assert second.write_commits([commit], [], holder=b) == []
        assert second.load(play.id)["decisions"] == 3
        taken.close()
    finally:
        first.close()
        second.close()


@pytest.mark.asyncio
async def test_a_server_that_lost_its_lease_drops_the_table_and_shows_nothing_of_it(tmp_path):
    library = tmp_path / "library.sqlite"
    async with running(library) as server:
        host = await Client.connect(server.port)
        made = await host.request({"type": "create_table", "game": "casino", "seats": ["human", "human"],
                                   "seed": 2})
        code = made["code"]
        other_made = await host.request({"type": "create_table", "game": "casino",
                                         "seats": ["human", "human"], "seed": 3})
        others = []
        for link in other_made["seats"]:
            other_player = await Client.connect(server.port, f"/play/{other_made['code']}")
            assert (await other_player.sit(other_made["code"], link))["type"] == "joined"
            others.append(other_player)
        players = []
        for link in made["seats"]:
            player = await Client.connect(server.port, f"/play/{code}")
            assert (await player.sit(code, link))["type"] == "joined"
            players.append(player)
        await server.writer.drain()
        table = server.tables[code]
        other = SqliteStore(library)
        try:
            other.lease(1, 5.0)
            token = server.leases.token
            assert token is not None
            _expire(other, token)
            taken = other.open(table.match_id, claim=True)  # another server takes it over
            update = await players[0].update(lambda m: True)
            to_play = players[update["to_play"]]
            last = await to_play.update(lambda m: bool(m["actions"]))
            seen = len(to_play.received)
            await to_play.send({"type": "act", "code": code, "action": last["actions"][0]["action"],
                                "turn": last["turn"]})
            closed = await to_play.wait_closed()
            assert closed[0] == 1012, closed
            assert not [m for m in to_play.received[seen:] if m["type"] == "update"]  # nothing shown
            await until(lambda: code not in server.tables, "the table dropped")
            assert other.load(table.match_id).get("decisions", 0) == last["turn"]  # the move not written
            taken.close()
            writer_pid = server.writer.worker.pid
            first = await others[0].update()  # the server's other table plays on, its writes intact
            mover = others[first["to_play"]]
            ask = await mover.update(lambda m: bool(m["actions"]))
            await mover.send({"type": "act", "code": other_made["code"], "turn": ask["turn"],
                              "action": ask["actions"][0]["action"]})
            await mover.update(lambda m: m["turn"] == ask["turn"] + 1)
            assert server.writer.problem is None and server.writer.worker.pid == writer_pid
        finally:
            other.close()
