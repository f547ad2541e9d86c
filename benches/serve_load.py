"""Load on one ``cardcore serve`` process: many tables of four client connections each.

    python benches/serve_load.py [--tables 200] [--seconds 60] [--think 0.25] [--jitter 0.5]
                                 [--game casino] [--saturation-tables 50]
                                 [--saturation-seconds 20] [--server-tree DIR]
                                 [--workers N] [--kill-after S]

Phase 1 (people, only faster): ``--tables`` tables of four clients over 127.0.0.1; each
client answers ``--think`` seconds after an update asks it to play (``--jitter J``: a
think time drawn from ``think * (1 ± J)``, as people vary: 0.5 unless told; ``--jitter 0``
puts all the clients in lockstep, the worst case: every answer of a wave of updates comes
in the same millisecond), with a random legal action.
Measured: the latency from sending an action to the last of the table's four
clients receiving the update it caused (p50, p99, max), the server's memory per table
(its RSS with the tables and their connections, less its RSS before them, over the tables),
and nothing lost: once the server has stopped, every table's record in the library holds
exactly the actions the clients saw played, and replays through the engine.

Phase 2 (saturation): ``--saturation-tables`` tables whose clients answer at once; the
actions per second the server applies, and its CPU share meanwhile.

The server runs in its own process (``cardcore serve``), the clients in this one, each a
websockets Sans-I/O protocol on a plain asyncio transport that reads most updates without
parsing them (the clients share the machine with the server: they must cost it little);
their own garbage collector is off while measuring (its pauses are not the server's).
Reported besides: the server's CPU per action (user and system: the figure that moves
least with the machine's load) and its writer process's (the library's group commits,
on another core), its event loop's lag, the clients' CPU share. Prints one
JSON object, with the machine's load average before and after (the machine may be
shared: figures move with it). ``--server-tree DIR`` runs another checkout's server
(PYTHONPATH set to it), for before/after comparisons under the same load.

``--workers N``: ``cardcore serve --workers N``, N server processes behind HAProxy on one
port (docs/hosting.md, "Several server processes"); every client connects through the
proxy, to its table's ``/play/CODE``; the CPU and memory figures are the servers' together.
``--kill-after S``: S seconds into phase 1, server 0 is killed outright (SIGKILL); its
tables' clients come back by themselves with their seat tokens (through the proxy, to the
next server of each table's chain): reported, how long until every one of its tables had
an update again, and whether any move a client saw was lost (the records' check).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
import websockets
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

CLK = os.sysconf("SC_CLK_TCK")
# The clients read most updates without parsing them (the client process shares the machine
# with the server): the server writes the top-level keys in this order, "turn" before "view".
UPDATE = b'{"v":1,"type":"update"'
NO_ACTIONS = b'"actions":[],"why_not"'
HAND_OVER = b'"hand_over":true'
TURN = re.compile(rb'"turn":(\d+)')
TARGET = 400  # casino: matches last far longer than a run


class TableRun:
    """One table: its code, its clients, the send time of each action awaiting its update."""

    def __init__(self, code: str, think: float, latencies: list[tuple[float, float]], jitter: float = 0.0):
        self.code = code
        self.think = think
        self.jitter = jitter
        self.latencies = latencies
        self.sent: dict[int, float] = {}      # turn after the action -> send time
        self.seen: dict[int, int] = {}        # turn -> clients that got an update with it
        self.turn = 0                         # the last turn every client saw
        self.actions = 0
        self.rng = random.Random(code)
        self.last_update = 0.0

    def pause(self) -> float:
        """How long a client thinks before it answers."""
        if not self.jitter:
            return self.think
        return self.think * (1 + self.jitter * (2 * self.rng.random() - 1))

    def arrived(self, turn: int, now: float) -> None:
        self.last_update = now
        count = self.seen.get(turn, 0) + 1
        self.seen[turn] = count
        if count == 4:
            del self.seen[turn]
            self.turn = max(self.turn, turn)
            sent = self.sent.pop(turn, None)
            if sent is not None:
                self.latencies.append((now, now - sent))


class SeatClient(asyncio.Protocol):
    """One seat, as light as a WebSocket client gets: websockets' Sans-I/O protocol on a
    plain transport (no task or future per frame). Frames are read as bytes, most with a
    look for their turn only; an answer is a timer and a frame written at once."""

    def __init__(self, port: int, table: TableRun, key: str, field: str, stop: asyncio.Event,
                 errors: list[str]):
        self.port = port
        self.table, self.stop, self.errors = table, stop, errors
        self.ws = self._protocol()
        self.join = {"v": 1, "type": "join", "code": table.code, field: key}
        self.transport: asyncio.Transport | None = None
        self.loop = asyncio.get_running_loop()
        #: Connections lost and made again (the clients come back with their seat's token).
        self.drops = 0

    def _protocol(self) -> ClientProtocol:
        return ClientProtocol(parse_uri(f"ws://127.0.0.1:{self.port}/play/{self.table.code}"),
                              max_size=2**20)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if self.ws.handshake_exc is not None:
                    if not self.drops:
                        self.errors.append(f"handshake: {self.ws.handshake_exc}")
                    continue  # coming back: the proxy has no server up for it yet
                if self.ws.state is State.OPEN:
                    self.send(self.join)
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                self.frame(bytes(event.data), now)
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.stop.is_set():
            return
        if "token" not in self.join:
            self.errors.append(f"table {self.table.code}: connection lost before seated ({exc})")
            return
        self.drops += 1
        self.loop.call_later(0.2, self.come_back)

    def come_back(self) -> None:
        """A new connection to the table, through the proxy, seated with the token."""
        if self.stop.is_set():
            return
        self.ws = self._protocol()

        def failed(task: asyncio.Task[Any]) -> None:
            if task.exception() is not None:
                self.loop.call_later(0.2, self.come_back)
        self.loop.create_task(self.loop.create_connection(lambda: self, "127.0.0.1", self.port)) \
            .add_done_callback(failed)

    def frame(self, raw: bytes, now: float) -> None:
        table = self.table
        if raw.startswith(UPDATE) and NO_ACTIONS in raw:  # 3 updates in 4: read lightly
            if HAND_OVER not in raw:
                found = TURN.search(raw)
                assert found is not None
                table.arrived(int(found.group(1)), now)
            return
        msg = orjson.loads(raw)
        if msg["type"] == "joined":
            self.join = {"v": 1, "type": "join", "code": table.code, "token": msg["token"]}
        elif msg["type"] == "update":
            if not msg["hand_over"]:
                table.arrived(msg["turn"], now)
            if msg["actions"]:
                self.loop.call_later(table.pause(), self.act, msg)
        elif msg["type"] == "error":
            self.errors.append(f"table {table.code}: {msg}")

    def act(self, update: dict[str, Any]) -> None:
        if self.stop.is_set() or self.ws.state is not State.OPEN:
            return  # (coming back: the table's next update asks again)
        table = self.table
        action = table.rng.choice(update["actions"])["action"]
        table.sent[update["turn"] + 1] = time.perf_counter()
        table.actions += 1
        self.send({"v": 1, "type": "act", "code": table.code, "action": action, "turn": update["turn"]})
        self._flush()

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_text(orjson.dumps(message))

    def _flush(self) -> None:
        assert self.transport is not None
        for data in self.ws.data_to_send():
            if data:
                self.transport.write(data)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def make_tables(port: int, n: int, game: str, per_connection: int = 20
                      ) -> list[tuple[str, list[str], str]]:
    """``n`` tables of four human seats: (code, the seats' keys, what ``join`` calls them:
    ``invite``, or ``secret`` at a server from before invites). Behind the proxy each
    lobby connection goes to the next server: one table a connection spreads them."""
    made = []
    for start in range(0, n, per_connection):
        async with websockets.connect(f"ws://127.0.0.1:{port}/") as ws:
            for _ in range(min(per_connection, n - start)):
                await ws.send(json.dumps({"v": 1, "type": "create_table", "game": game,
                                          "options": {"target": TARGET}, "seats": ["human"] * 4}))
                reply = json.loads(await ws.recv())
                assert reply["type"] == "table_created", reply
                field = "invite" if "invite" in reply["seats"][0] else "secret"
                made.append((reply["code"], [s[field] for s in reply["seats"]], field))
    return made


#: The packages of a tree, for ``--server-tree``.
PACKAGES = ("", "plugins/casino", "plugins/royal_casino", "plugins/canasta")


class Room:
    """The server processes under test: one ``cardcore serve``, or ``--workers N`` of them
    behind HAProxy (``proc`` is then the supervisor); ``pids``: the servers' own."""

    def __init__(self, proc: asyncio.subprocess.Process, port: int, pids: dict[int, int]) -> None:
        self.proc, self.port, self.pids = proc, port, pids
        self.lines: list[str] = []
        self._reader: asyncio.Task[None] | None = None

    def drain(self) -> None:
        """Keep reading the supervisor's lines (its pipe must not fill)."""
        async def read() -> None:
            assert self.proc.stdout is not None
            while line := (await self.proc.stdout.readline()).decode():
                self.lines.append(line)
                found = SERVER_LINE.match(line)
                if found:
                    self.pids[int(found[1])] = int(found[2])
        self._reader = asyncio.ensure_future(read())

    async def stop(self) -> str:
        """SIGTERM; the lines it printed as it stopped."""
        self.proc.send_signal(signal.SIGTERM)
        if self._reader is None:
            assert self.proc.stdout is not None
            tail = (await asyncio.wait_for(self.proc.stdout.read(), 60)).decode()
        else:
            await asyncio.wait_for(self._reader, 60)
            tail = "".join(self.lines)
        await asyncio.wait_for(self.proc.wait(), 60)
        return tail


SERVER_LINE = re.compile(r"cardcore serve: server (\d+) \(pid (\d+)\)")


async def start_server(library: Path, home: Path, tree: Path | None = None, workers: int = 0) -> Room:
    profile = os.environ.get("SERVE_LOAD_PROFILE")  # a file: the server runs under cProfile
    prefix = ["-m", "cProfile", "-o", profile] if profile else []
    env = {**os.environ, "CARDCORE_HOME": str(home)}
    if tree is not None:  # another checkout's server (before / after), this venv
        env["PYTHONPATH"] = os.pathsep.join(str(tree / p) for p in PACKAGES)
    port = free_port() if workers else 0
    room = ["--workers", str(workers)] if workers else []
    proc = await asyncio.create_subprocess_exec(
        sys.executable, *prefix, "-m", "cardcore", "serve", "--port", str(port), "--library", str(library),
        "--rate", "1000", "--max-tables", "5000", "--bot-delay", "0", *new_flags(tree), *room,
        stdout=asyncio.subprocess.PIPE, env=env, cwd=tree,
        stderr=open(os.environ["SERVE_LOAD_LOG"], "ab") if "SERVE_LOAD_LOG" in os.environ  # noqa: SIM115
        else asyncio.subprocess.DEVNULL)  # SERVE_LOAD_LOG: a file for the servers' log lines
    assert proc.stdout is not None
    if not workers:
        line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
        return Room(proc, int(line.rsplit(":", 1)[1].strip().strip("/").split("/")[0].split(";")[0]),
                    {0: proc.pid})
    pids: dict[int, int] = {}
    banner = f"cardcore serve: listening on ws://127.0.0.1:{port}/"
    while not (line := (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()).startswith(banner):
        assert line, "cardcore serve --workers stopped"
        found = SERVER_LINE.match(line)
        if found:
            pids[int(found[1])] = int(found[2])
    started = Room(proc, port, pids)
    started.drain()
    return started


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def new_flags(tree: Path | None) -> list[str]:
    """No limits per address (every client is on 127.0.0.1), for the limits the server has
    (an older tree's, with ``--server-tree``, may have fewer)."""
    root = tree or Path(__file__).resolve().parent.parent
    cli = next((p for p in (root / "cardcore" / "apps" / "serve_cli.py", root / "cardcore" / "net" / "cli.py")
                if p.exists()), None)
    text = cli.read_text() if cli is not None else ""
    limits = ("--max-per-ip", "--max-tables-per-ip", "--max-handshakes-per-ip", "--max-handshakes")
    return [flag for name in limits if f'"{name}"' in text for flag in (name, "0")]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid: int) -> tuple[float, float]:
    """The process's CPU time so far: (user, system) seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / CLK, int(fields[12]) / CLK


def children_cpu_s(pid: int) -> float:
    """The CPU time so far of the processes ``pid`` started that still run (the library's
    writer process, bot workers), in seconds."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        if int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / CLK
    return total


async def run_phase(tables: int, seconds: float, think: float, game: str, workdir: Path,
                    tree: Path | None = None, jitter: float = 0.0, workers: int = 0,
                    kill_after: float | None = None) -> dict[str, Any]:
    library = workdir / "library.sqlite"
    room = await start_server(library, workdir / "home", tree, workers)
    port = room.port
    base_rss = sum(rss_mb(pid) for pid in room.pids.values())
    latencies: list[tuple[float, float]] = []  # (when the update arrived, its latency)
    stop = asyncio.Event()
    made = await make_tables(port, tables, game, 1 if workers else 20)
    runs = [TableRun(code, think, latencies, jitter) for code, _, _ in made]
    errors: list[str] = []
    loop = asyncio.get_running_loop()
    clients = []
    for run, (_, keys, field) in zip(runs, made, strict=True):
        for key in keys:
            seat = SeatClient(port, run, key, field, stop, errors)
            await loop.create_connection(lambda: seat, "127.0.0.1", port)  # noqa: B023 - called at once
            clients.append(seat)
    await asyncio.sleep(min(5.0, seconds / 4))  # everyone seated and playing
    gc.collect()
    gc.freeze()
    gc.disable()  # the clients' own collector pauses are not the server's latency
    latencies.clear()
    actions0 = sum(r.actions for r in runs)
    pids = dict(room.pids)
    cpu0, t0, mine0 = {k: cpu_s(pid) for k, pid in pids.items()}, time.perf_counter(), time.process_time()
    helpers0 = {k: children_cpu_s(pid) for k, pid in pids.items()}
    killed = None
    if kill_after is not None:
        await asyncio.sleep(kill_after)
        killed = await kill_one(room, runs, workers)
        await asyncio.sleep(max(0.0, seconds - kill_after))
    else:
        await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - t0
    alive = [k for k, pid in pids.items() if Path(f"/proc/{pid}").exists() and room.pids.get(k) == pid]
    user = sum(cpu_s(pids[k])[0] - cpu0[k][0] for k in alive)
    system = sum(cpu_s(pids[k])[1] - cpu0[k][1] for k in alive)
    helpers = sum(children_cpu_s(pids[k]) - helpers0[k] for k in alive)
    cpu = user + system
    client_cpu = time.process_time() - mine0
    actions = sum(r.actions for r in runs) - actions0
    rss = sum(rss_mb(room.pids[k]) for k in alive)
    stop.set()
    gc.enable()
    gc.unfreeze()
    await asyncio.sleep(think + 1.0)  # the last actions land
    for seat in clients:
        seat.close()
    tail = await room.stop()
    lags = [json.loads(part.rsplit(")", 1)[0].split(")")[0]) for part in tail.split("lag ms ")[1:]]
    lost = check_records(library, {r.code: r.turn for r in runs})
    lat = sorted(latency for _, latency in latencies)
    return {
        "tables": tables, "clients": 4 * tables, "think_s": think, "jitter": jitter,
        "servers": workers or 1, "behind_proxy": bool(workers),
        "seconds": round(elapsed, 1),
        "actions": actions, "actions_per_s": round(actions / elapsed, 1),
        "server_cpu_share": round(cpu / elapsed, 2), "clients_cpu_share": round(client_cpu / elapsed, 2),
        "writer_process_cpu_share": round(helpers / elapsed, 2),
        "writer_process_cpu_ms_per_action": round(1000 * helpers / max(actions, 1), 3),
        "server_cpu_ms_per_action": {"user": round(1000 * user / max(actions, 1), 3),
                                     "system": round(1000 * system / max(actions, 1), 3),
                                     "total": round(1000 * cpu / max(actions, 1), 3)},
        "latency_ms": {"n": len(lat), "p50": _ms(lat, 0.50), "p90": _ms(lat, 0.90),
                       "p99": _ms(lat, 0.99), "max": _ms(lat, 1.0)},
        "p99_ms_by_10s": p99_by_window(latencies, t0, 10.0),
        "server_loop_lag_ms": lags[0] if len(lags) == 1 else lags,
        "server_rss_mb": {"before_tables": round(base_rss, 1), "with_tables": round(rss, 1),
                          "per_table_kb": round((rss - base_rss) * 1024 / tables, 1)},
        "client_errors": [e[:200] for e in errors[:3]], "records": lost,
        **({"killed": killed} if killed is not None else {}),
    }


async def kill_one(room: Room, runs: list[TableRun], workers: int) -> dict[str, Any]:
    """SIGKILL server 0 mid-load; until every table it held has updates again (its clients
    came back, through the proxy, to another server): how long that took."""
    from cardcore.services.net import placement

    assert workers > 1, "--kill-after needs --workers 2 or more"
    mine = [r for r in runs if placement.home(r.code, workers) == 0]
    os.kill(room.pids[0], signal.SIGKILL)
    at = time.perf_counter()
    back: dict[str, float] = {}
    while len(back) < len(mine) and time.perf_counter() - at < 60:
        await asyncio.sleep(0.05)
        for r in mine:
            if r.code not in back and r.last_update > at:
                back[r.code] = r.last_update - at
    took = sorted(back.values())
    return {"server": 0, "tables": len(mine), "back": len(back),
            "first_update_after_s": {"p50": round(took[len(took) // 2], 2) if took else None,
                                     "max": round(took[-1], 2) if took else None}}


def p99_by_window(latencies: list[tuple[float, float]], t0: float, width: float) -> list[float | None]:
    """The p99 of each ``width`` seconds of the phase, in order: whether the tail grows as
    the matches go on or comes in one moment (a pause)."""
    windows: dict[int, list[float]] = {}
    for at, latency in latencies:
        windows.setdefault(int((at - t0) // width), []).append(latency)
    return [_ms(sorted(windows.get(i, [])), 0.99) for i in range(max(windows, default=-1) + 1)]


def _ms(values: list[float], q: float) -> float | None:
    if not values:
        return None
    return round(1000 * values[min(len(values) - 1, int(q * len(values)))], 2)


def check_records(library: Path, turns: dict[str, int]) -> dict[str, Any]:
    """Every table's record holds at least the actions all four clients saw, and replays."""
    from cardcore.engine.journal import start_of
    from cardcore.engine.records import parse_record_lines
    from cardcore.services.plugins import load_registry
    from cardcore.services.store import checks
    from cardcore.services.store.sqlite import SqliteStore

    registry = load_registry()
    store = SqliteStore(library)
    rows = {code: match_id for code, match_id, _, _ in store.net_tables(("waiting", "playing", "over"))}
    short, broken, checked = [], [], 0
    for code, turn in turns.items():
        numbered = parse_record_lines(store.export_record(rows[code]), code)
        played = sum(1 for _, e in numbered if e.event == "action")
        if played < turn:
            short.append(code)
        try:
            checks.rebuild(registry.games[start_of(numbered[0][1]).game], numbered)
            checked += 1
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            broken.append(f"{code}: {exc}")
    store.close()
    return {"tables": len(turns), "replayed": checked, "short": short, "broken": broken[:3],
            "complete": not short and not broken}


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--think", type=float, default=0.25)
    p.add_argument("--jitter", type=float, default=0.5,
                   help="think times vary by this share (0-1; 0: every client in lockstep)")
    p.add_argument("--game", default="casino")
    p.add_argument("--saturation-tables", type=int, default=50)
    p.add_argument("--saturation-seconds", type=float, default=20)
    p.add_argument("--server-tree", type=Path, help="run the server of another checkout (before/after)")
    p.add_argument("--workers", type=int, default=0, help="N servers behind HAProxy (serve --workers)")
    p.add_argument("--kill-after", type=float, help="kill -9 server 0 this many seconds into phase 1")
    args = p.parse_args()
    out: dict[str, Any] = {"game": args.game, "server_tree": str(args.server_tree or "this one"),
                           "load_before": load()}
    with tempfile.TemporaryDirectory(prefix="serve-load-") as tmp:
        (Path(tmp) / "a").mkdir()
        out["people"] = await run_phase(args.tables, args.seconds, args.think, args.game, Path(tmp) / "a",
                                        args.server_tree, args.jitter, args.workers, args.kill_after)
        out["load_between"] = load()
        if args.saturation_tables:
            (Path(tmp) / "b").mkdir()
            out["saturation"] = await run_phase(args.saturation_tables, args.saturation_seconds, 0.0,
                                                args.game, Path(tmp) / "b", args.server_tree,
                                                workers=args.workers)
    out["load_after"] = load()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    asyncio.run(main())
