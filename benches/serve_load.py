"""Load on one ``cardcore serve`` process: many tables of four client connections each.

    python benches/serve_load.py [--tables 200] [--seconds 60] [--think 0.25] [--jitter 0]
                                 [--game casino] [--saturation-tables 50]
                                 [--saturation-seconds 20] [--server-tree DIR]

Phase 1 (people, only faster): ``--tables`` tables of four clients over 127.0.0.1; each
client answers ``--think`` seconds after an update asks it to play (``--jitter J``: a
think time drawn from ``think * (1 ± J)``, as people vary), with a random legal action.
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

    def __init__(self, code: str, think: float, latencies: list[float], jitter: float = 0.0):
        self.code = code
        self.think = think
        self.jitter = jitter
        self.latencies = latencies
        self.sent: dict[int, float] = {}      # turn after the action -> send time
        self.seen: dict[int, int] = {}        # turn -> clients that got an update with it
        self.turn = 0                         # the last turn every client saw
        self.actions = 0
        self.rng = random.Random(code)

    def pause(self) -> float:
        """How long a client thinks before it answers."""
        if not self.jitter:
            return self.think
        return self.think * (1 + self.jitter * (2 * self.rng.random() - 1))

    def arrived(self, turn: int, now: float) -> None:
        count = self.seen.get(turn, 0) + 1
        self.seen[turn] = count
        if count == 4:
            del self.seen[turn]
            self.turn = max(self.turn, turn)
            sent = self.sent.pop(turn, None)
            if sent is not None:
                self.latencies.append(now - sent)


class SeatClient(asyncio.Protocol):
    """One seat, as light as a WebSocket client gets: websockets' Sans-I/O protocol on a
    plain transport (no task or future per frame). Frames are read as bytes, most with a
    look for their turn only; an answer is a timer and a frame written at once."""

    def __init__(self, port: int, table: TableRun, key: str, field: str, stop: asyncio.Event,
                 errors: list[str]):
        self.ws = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/"), max_size=2**20)
        self.table, self.stop, self.errors = table, stop, errors
        self.join = {"v": 1, "type": "join", "code": table.code, field: key}
        self.transport: asyncio.Transport | None = None
        self.loop = asyncio.get_running_loop()

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
                    self.errors.append(f"handshake: {self.ws.handshake_exc}")
                    continue
                self.send(self.join)
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                self.frame(bytes(event.data), now)
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.stop.is_set():
            self.errors.append(f"table {self.table.code}: connection lost ({exc})")

    def frame(self, raw: bytes, now: float) -> None:
        table = self.table
        if raw.startswith(UPDATE) and NO_ACTIONS in raw:  # 3 updates in 4: read lightly
            if HAND_OVER not in raw:
                found = TURN.search(raw)
                assert found is not None
                table.arrived(int(found.group(1)), now)
            return
        msg = orjson.loads(raw)
        if msg["type"] == "update":
            if not msg["hand_over"]:
                table.arrived(msg["turn"], now)
            if msg["actions"]:
                self.loop.call_later(table.pause(), self.act, msg)
        elif msg["type"] == "error":
            self.errors.append(f"table {table.code}: {msg}")

    def act(self, update: dict[str, Any]) -> None:
        if self.stop.is_set():
            return
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


async def make_tables(port: int, n: int, game: str) -> list[tuple[str, list[str], str]]:
    """``n`` tables of four human seats: (code, the seats' keys, what ``join`` calls them:
    ``invite``, or ``secret`` at a server from before invites)."""
    made = []
    for start in range(0, n, 20):  # one connection makes at most 20 tables
        async with websockets.connect(f"ws://127.0.0.1:{port}/") as ws:
            for _ in range(min(20, n - start)):
                await ws.send(json.dumps({"v": 1, "type": "create_table", "game": game,
                                          "options": {"target": TARGET}, "seats": ["human"] * 4}))
                reply = json.loads(await ws.recv())
                assert reply["type"] == "table_created", reply
                field = "invite" if "invite" in reply["seats"][0] else "secret"
                made.append((reply["code"], [s[field] for s in reply["seats"]], field))
    return made


#: The packages of a tree, for ``--server-tree``.
PACKAGES = ("", "plugins/casino", "plugins/royal_casino", "plugins/canasta")


async def start_server(library: Path, home: Path, tree: Path | None = None
                       ) -> tuple[asyncio.subprocess.Process, int]:
    profile = os.environ.get("SERVE_LOAD_PROFILE")  # a file: the server runs under cProfile
    prefix = ["-m", "cProfile", "-o", profile] if profile else []
    env = {**os.environ, "CARDCORE_HOME": str(home)}
    if tree is not None:  # another checkout's server (before / after), this venv
        env["PYTHONPATH"] = os.pathsep.join(str(tree / p) for p in PACKAGES)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, *prefix, "-m", "cardcore", "serve", "--port", "0", "--library", str(library),
        "--rate", "1000", "--max-tables", "5000", "--bot-delay", "0", *new_flags(tree),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, env=env,
        cwd=tree)
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
    return proc, int(line.rsplit(":", 1)[1].strip().strip("/").split("/")[0].split(";")[0])


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
                    tree: Path | None = None, jitter: float = 0.0) -> dict[str, Any]:
    library = workdir / "library.sqlite"
    proc, port = await start_server(library, workdir / "home", tree)
    base_rss = rss_mb(proc.pid)
    latencies: list[float] = []
    stop = asyncio.Event()
    made = await make_tables(port, tables, game)
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
    cpu0, t0, mine0 = cpu_s(proc.pid), time.perf_counter(), time.process_time()
    helpers0 = children_cpu_s(proc.pid)
    await asyncio.sleep(seconds)
    (user, system), elapsed = cpu_s(proc.pid), time.perf_counter() - t0
    helpers = children_cpu_s(proc.pid) - helpers0
    user, system = user - cpu0[0], system - cpu0[1]
    cpu = user + system
    client_cpu = time.process_time() - mine0
    actions = sum(r.actions for r in runs) - actions0
    rss = rss_mb(proc.pid)
    stop.set()
    gc.enable()
    gc.unfreeze()
    await asyncio.sleep(think + 1.0)  # the last actions land
    for seat in clients:
        seat.close()
    proc.send_signal(signal.SIGTERM)
    assert proc.stdout is not None
    tail = (await asyncio.wait_for(proc.stdout.read(), 60)).decode()
    await asyncio.wait_for(proc.wait(), 60)
    lag = json.loads(tail.rsplit("lag ms ", 1)[1].rsplit(")", 1)[0]) if "lag ms " in tail else None
    lost = check_records(library, {r.code: r.turn for r in runs})
    lat = sorted(latencies)
    return {
        "tables": tables, "clients": 4 * tables, "think_s": think, "jitter": jitter,
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
        "server_loop_lag_ms": lag,
        "server_rss_mb": {"before_tables": round(base_rss, 1), "with_tables": round(rss, 1),
                          "per_table_kb": round((rss - base_rss) * 1024 / tables, 1)},
        "client_errors": [e[:200] for e in errors[:3]], "records": lost,
    }


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
    p.add_argument("--jitter", type=float, default=0.0, help="think times vary by this share (0-1)")
    p.add_argument("--game", default="casino")
    p.add_argument("--saturation-tables", type=int, default=50)
    p.add_argument("--saturation-seconds", type=float, default=20)
    p.add_argument("--server-tree", type=Path, help="run the server of another checkout (before/after)")
    args = p.parse_args()
    out: dict[str, Any] = {"game": args.game, "server_tree": str(args.server_tree or "this one"),
                           "load_before": load()}
    with tempfile.TemporaryDirectory(prefix="serve-load-") as tmp:
        (Path(tmp) / "a").mkdir()
        out["people"] = await run_phase(args.tables, args.seconds, args.think, args.game, Path(tmp) / "a",
                                        args.server_tree, args.jitter)
        out["load_between"] = load()
        if args.saturation_tables:
            (Path(tmp) / "b").mkdir()
            out["saturation"] = await run_phase(args.saturation_tables, args.saturation_seconds, 0.0,
                                                args.game, Path(tmp) / "b", args.server_tree)
    out["load_after"] = load()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    asyncio.run(main())
