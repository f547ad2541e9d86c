"""Leases (``MatchStore.lease``): a server's claims are alive while its lease is, a stalled
server's matches may be taken by another, and from then on the library fences the stalled
server's writes out; the server drops the tables it lost, showing nothing of them (the
store's part on both back ends: SQLite and PostgreSQL)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from cardcore.services.store import MatchLocked, MatchStore, commit_of, open_library, sql
from tests.net.helpers import Client, running, until


def _expire(store: MatchStore, holder: str) -> None:
    """``holder``'s lease expired, as if its server stalled (on either back end: the
    library's SQL through a connection of the store's own, ``database``)."""
    db = store.database()
    try:
        with db.write() as cur:
            cur.execute("UPDATE leases SET expires = ? WHERE holder = ?", (time.time() - 1, holder))
    finally:
        db.close()


def test_a_lease_keeps_its_claims_until_it_expires_then_the_writes_are_fenced(library):
    first, second = open_library(library), open_library(library)
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
        taken.close()  # the second lets it go: its last rows go in, the first's are fenced still
        later = commit_of(play.id, [], {"decisions": 4})
        assert first.write_commits([later], [("AAA-001", play.id, "over", {})], holder=a) == \
            [play.id, play.id]
        assert second.write_commits([later], [("AAA-001", play.id, "over", {})], holder=b) == []
        assert second.load(play.id)["decisions"] == 4
        assert second.net_table("AAA-001")[1::2] == ("over", None)  # over, claimed by nobody
        second.open(play.id, claim=True).close()  # and the match is free to claim
    finally:
        first.close()
        second.close()


class _Skewed:
    """The ``time`` module of a machine whose clock is ``by`` seconds off: what the store's
    code reads there (the test's machine is the only one; the clocks differ in ``sql.py``)."""

    def __init__(self, by: float):
        self.by = by

    def time(self) -> float:
        return time.time() + self.by

    def __getattr__(self, name: str) -> object:
        return getattr(time, name)


def test_a_lease_runs_out_by_the_library_s_clock_not_the_reading_server_s(library, monkeypatch):
    first, second = open_library(library), open_library(library)
    try:
        a = first.lease(0, 5.0, [{"code": "AAA-001"}])
        play = first.create("casino", {}, 1, ["human", "human"], source="server", claim=True)
        play.save_snapshot({"decisions": 1})
        monkeypatch.setattr(sql, "time", _Skewed(+10))  # the second machine's clock 10 s ahead
        b = second.lease(1, 5.0)
        assert second.live_leases() == {a: 0, b: 1}  # the first's lease has 5 s to run yet
        assert list(second.listings()) == [a, b]
        with pytest.raises(MatchLocked):
            second.open(play.id, claim=True)
        _expire(second, a)
        monkeypatch.setattr(sql, "time", _Skewed(-10))  # and 10 s behind
        assert second.live_leases() == {b: 1}  # run out: its claims are dead
        second.open(play.id, claim=True).close()
    finally:
        first.close()
        second.close()


def _stalled(library: str, tables: int = 1) -> tuple[MatchStore, str, list[int]]:
    """A server's store whose lease expired, claiming the matches of its tables ``AAA-001``,
    ``AAA-002``...: the store, its token, the matches' ids."""
    store = open_library(library)
    token = store.lease(0, 5.0)
    ids = []
    for n in range(1, tables + 1):
        play = store.create("casino", {}, n, ["human", "human"], source="server", claim=True)
        play.save_snapshot({"decisions": 0})
        assert store.add_table(f"AAA-{n:03}", play.id, "playing", {"seats": []})
        ids.append(play.id)
    _expire(store, token)
    return store, token, ids


def _at_once(*calls: Callable[[], object]) -> list[object]:
    """The calls' results (or the MatchLocked each raised), run in threads released together."""
    start = threading.Barrier(len(calls))

    def run(call: Callable[[], object]) -> object:
        start.wait()
        try:
            return call()
        except MatchLocked as exc:
            return exc

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def test_two_servers_taking_a_stalled_server_s_match_at_once_one_gets_it(library):
    stalled, _token, (match_id,) = _stalled(library)
    takers = [open_library(library), open_library(library)]
    try:
        tokens = [store.lease(slot, 5.0) for slot, store in enumerate(takers, 1)]
        for _ in range(5):  # a race each time: the two take it at the same moment
            got = _at_once(*(lambda store=store: store.open(match_id, claim=True) for store in takers))
            won = [n for n, result in enumerate(got) if not isinstance(result, MatchLocked)]
            assert len(won) == 1, got
            assert stalled.net_table("AAA-001")[3] == tokens[won[0]]  # its claim, the other's refused
            got[won[0]].close()  # let go: free for the next race
    finally:
        for store in (stalled, *takers):
            store.close()


def _write_on(store: MatchStore, holder: str, match_id: int, taken: threading.Event
              ) -> tuple[list[int], list[int]]:
    """A stalled server's writer, unaware: one action a commit (``decisions`` 1, 2...) until
    a few after ``taken``; the actions written, and those fenced out."""
    written: list[int] = []
    lost: list[int] = []
    n = after = 0
    while after < 5:
        n += 1
        fenced = store.write_commits([commit_of(match_id, [], {"decisions": n})], holder=holder)
        (lost if fenced else written).append(n)
        after += taken.is_set()
    return written, lost


def test_a_stalled_server_s_writes_racing_the_takeover_never_land_after_it(library):
    stalled, token, ids = _stalled(library, 3)
    taker = open_library(library)
    try:
        taker.lease(1, 5.0)
        for match_id in ids:  # a race each time: the takeover comes in the middle of the writes
            taken = threading.Event()
            with ThreadPoolExecutor(1) as pool:
                writes = pool.submit(_write_on, stalled, token, match_id, taken)
                deadline = time.monotonic() + 10
                while taker.load(match_id)["decisions"] == 0 and time.monotonic() < deadline:
                    time.sleep(0.001)  # the writes going on
                held = taker.open(match_id, claim=True)
                taken.set()
                written, lost = writes.result(30)
            at_takeover = held.snapshot()["decisions"]
            assert lost and written + lost == list(range(1, len(written) + len(lost) + 1))
            assert written[-1] == at_takeover  # every write before it landed, none after
            assert taker.load(match_id)["decisions"] == at_takeover
            held.close()
    finally:
        stalled.close()
        taker.close()


@pytest.mark.asyncio
async def test_a_server_that_lost_its_lease_drops_the_table_and_shows_nothing_of_it(library):
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
        other = open_library(library)
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
