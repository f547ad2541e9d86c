"""``cardcore serve --workers 2``: two server processes behind HAProxy on one port. The lobby
lists every server's public tables; a table is played through the proxy by the real client
(``RemoteSession``); its server is killed outright (SIGKILL) mid-match: the client comes
back by itself with its seat token, to the next server of the table's chain (then to its
home again, once the supervisor has restarted it), and the match goes on with not a move
lost; SIGTERM stops every process of the room."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cardcore.apps.serve_workers import find_haproxy
from cardcore.engine.records import parse_record_lines
from cardcore.services.net import placement
from cardcore.services.plugins import load_registry
from cardcore.services.store.sqlite import SqliteStore
from tests.net.helpers import WAIT, Client
from tests.net.play import local_record

pytestmark = pytest.mark.skipif(find_haproxy() is None, reason="needs HAProxy (make test installs it)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Room:
    """``cardcore serve --workers N`` as a process: its port, its servers' pids, its lines."""

    def __init__(self, proc: asyncio.subprocess.Process, port: int) -> None:
        self.proc, self.port = proc, port
        self.pids: dict[str, int] = {}
        self.lines: list[str] = []
        self._reader: asyncio.Task[None] | None = None

    @classmethod
    async def start(cls, home: Path, workers: int) -> Room:
        port = free_port()
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cardcore", "serve", "--workers", str(workers), "--port", str(port),
            "--grace", "30", "--bot-delay", "0", "--rate", "1000", "--bot-processes", "0",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            env={**os.environ, "CARDCORE_HOME": str(home)})
        room = cls(proc, port)
        banner = f"cardcore serve: listening on ws://127.0.0.1:{port}/"
        try:
            await asyncio.wait_for(room._read_until(lambda line: line.startswith(banner)), 60)
        except BaseException:
            proc.terminate()  # it stops what it started
            await asyncio.wait_for(proc.wait(), 30)
            raise
        room._reader = asyncio.ensure_future(room._read_until(lambda line: False))
        return room

    async def _read_until(self, stop: Any) -> None:
        assert self.proc.stdout is not None
        while line := (await self.proc.stdout.readline()).decode():
            self.lines.append(line)
            started = re.match(r"cardcore serve: (server \d+|HAProxy) \(pid (\d+)\)", line)
            if started:
                self.pids[started[1]] = int(started[2])
            if stop(line):
                return
        raise AssertionError(f"the room stopped: {''.join(self.lines[-10:])}")

    async def stop(self) -> int:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(self.proc.wait(), 30)
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, AssertionError):
                await self._reader
        return code


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def wait_for(condition: Any, what: str, timeout: float = WAIT) -> float:
    """Until ``condition()``; how long it took (seconds)."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"not in {timeout} s: {what}")
        await asyncio.sleep(0.02)
    return time.monotonic() - start


async def play(sessions: list[Any], moves: dict[int, tuple[int, dict]], until: Any) -> None:
    """Each session plays its first legal action when it is its turn, until ``until()``;
    ``moves``: the move played at each turn (a move sent again after a reconnect, when the
    first never reached the library, replaces it)."""
    deadline = time.monotonic() + 60
    while not until():
        assert time.monotonic() < deadline, "the match did not move on"
        for session in sessions:
            actions = session.legal_actions()
            if actions:
                moves[session.turn] = (session.seat, actions[0].to_json())
                session.apply(actions[0])
        await asyncio.sleep(0.01)


@pytest.mark.slow  # a room of two servers and HAProxy, a kill and a restart: ~10 s
@pytest.mark.asyncio
async def test_a_room_behind_haproxy_survives_a_killed_server_and_stops_whole(tmp_path):
    from cardcore.apps.tui.remote import RemoteSession
    from cardcore.services.net.client import Connection

    registry = load_registry()
    room = await Room.start(tmp_path / "home", 2)
    try:
        url = f"ws://127.0.0.1:{room.port}"
        made = []
        for n in range(4):  # the lobby's connections go round the servers: both make tables
            lobby = await Client.connect(room.port, "/lobby")
            made.append(await lobby.request({"type": "create_table", "game": "casino", "seed": n,
                                             "seats": ["human", "human"], "public": True}))
            await lobby.close()
        codes = {m["code"] for m in made}
        assert {placement.home(c, 2) for c in codes} == {0, 1}

        async def listed() -> set[str]:
            lobby = await Client.connect(room.port, "/")
            try:
                return {t["code"] for t in (await lobby.request({"type": "list_tables"}))["tables"]}
            finally:
                await lobby.close()

        for _ in range(40):  # each server lists the others' tables within a second or two
            seen = [await listed() for _ in range(2)]
            if all(s == codes for s in seen):
                break
            await asyncio.sleep(0.1)
        assert all(s == codes for s in seen), seen

        table = made[0]
        code = table["code"]
        sessions = []
        for link in table["seats"]:
            conn = await Connection.open(url, table=code)
            sessions.append(await RemoteSession.join(registry, conn, code, link["invite"]))
        moves: dict[int, tuple[int, dict]] = {}
        await play(sessions, moves, lambda: all(s.turn >= 6 for s in sessions))
        await wait_for(lambda: len({s.turn for s in sessions}) == 1 and not any(s._pending for s in sessions),
                       "both players see the same turn")
        seen_turn = sessions[0].turn
        first_conns = [s.conn for s in sessions]
        home = placement.home(code, 2)
        os.kill(room.pids[f"server {home}"], signal.SIGKILL)
        took = await wait_for(lambda: all(s.conn not in first_conns and s.save_problem is None
                                          for s in sessions), "the clients came back", 15)
        assert all(s.turn >= seen_turn for s in sessions)  # nothing any client saw is lost
        await play(sessions, moves, lambda: all(s.over for s in sessions))
        print(f"came back {took:.2f} s after the kill")
        await wait_for(lambda: sum("starting it again" in line for line in room.lines) == 1,
                       "the supervisor restarts the killed server")
        for session in sessions:
            session.close()
    finally:
        pids = dict(room.pids)
        assert await room.stop() == 0
    assert len(pids) == 3 and not [pid for pid in pids.values() if alive(pid)]  # all stopped together
    store = SqliteStore(tmp_path / "home" / "library.sqlite")
    try:
        match_id = next(m for c, m, _s, _d in store.net_tables(("over",)) if c == code)
        record = store.export_record(match_id)
        numbered = parse_record_lines(record, code)
        kept = "".join(line + "\n" for line in record.splitlines()
                       if '"event":"resume"' not in line and '"event":"seat"' not in line)
        played = [(turn, seat, action) for turn, (seat, action) in sorted(moves.items())]
        assert kept == local_record(registry, numbered[0][1], played)  # every move, once
    finally:
        store.close()
