"""``cardcore serve``: one asyncio process holding many tables (docs/protocol.md).

Each client is a ``Client`` (a WebSocket on a plain transport, ``cardcore.services.net.connection``):
its messages are rate limited (a token bucket), decoded (``protocol.decode``: one-line
errors), and handed to the table they name, in the call that read them. What it is sent
is written at once, or once the library holds what it shows (``persist.Gate``), so a
table never waits on a client; one that falls too far behind is closed. Browsers are let
in only from a configured origin (``origins``: never the Host header).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
import secrets
import ssl
import time
from collections import deque
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

from websockets.extensions.permessage_deflate import enable_server_permessage_deflate
from websockets.frames import CloseCode
from websockets.http11 import Request, Response

from cardcore.engine import __version__
from cardcore.engine.faults import describe
from cardcore.engine.match import Match
from cardcore.engine.match_setup import MatchSetup, SetupError
from cardcore.engine.records import parse_record_lines
from cardcore.language import ENGLISH, spoken
from cardcore.services.net import protocol
from cardcore.services.net.bot_work import BotWork
from cardcore.services.net.connection import CLOSE_TIMEOUT, OPEN_TIMEOUT, PING_INTERVAL, Connection
from cardcore.services.net.guesses import Guesses
from cardcore.services.net.league_desk import LeagueDesk
from cardcore.services.net.leases import Leases, Moved
from cardcore.services.net.origins import Origins, is_loopback
from cardcore.services.net.persist import Gate, Writer
from cardcore.services.net.placement import HEALTH, new_code, table_of
from cardcore.services.net.protocol import (
    CLOSE_POLICY,
    MAX_MESSAGE_BYTES,
    Act,
    Chat,
    CreateTable,
    Hello,
    Join,
    LeagueRequest,
    Leave,
    ListLeagues,
    ListTables,
    ProtocolError,
    Reissue,
    Rematch,
    Watch,
    WhyRequest,
)
from cardcore.services.net.seats import Seat, hash_secret, new_seats, new_secret
from cardcore.services.net.tables import Table, TableConfig, TableError, WriterKeeper
from cardcore.services.plugins import Registry
from cardcore.services.store import MatchLocked, MatchStore, StoreError, checks
from cardcore.services.store.commits import BUSY_TIMEOUT_MS
from cardcore.services.table_service import TableService

log = logging.getLogger("cardcore.serve")
#: The WebSocket layer's own logger: warnings only. Below INFO websockets would log frames
#: (and so secrets), whatever the root logger's level; at INFO, every connection.
ws_log = logging.getLogger("cardcore.serve.ws")
ws_log.setLevel(logging.WARNING)

#: Rate-limited messages in a row before the connection is closed (1008).
MAX_STRIKES = 20
#: Bad secrets one connection may try before it is closed (1008).
MAX_BAD_SECRETS = 3
#: Tables a ``list_tables`` returns at most (the most recent first).
MAX_LISTED = 200
#: Codes drawn for a new table before giving up (each already used: drawn again).
MAX_CODE_DRAWS = 10
#: How long a table that could not be made waits for its writes before it is taken out.
DISCARD_WAIT = 10.0
#: The close code of a table's connections when the table moves to another server (their
#: clients come back: docs/protocol.md, "Transport").
CLOSE_MOVED = CloseCode.SERVICE_RESTART
#: Messages a connection to a table not held here may send while the table is fetched.
MAX_EARLY = 40
#: The event loop's lag is sampled this often (seconds; 20 a second cost an idle server 0.4% of a core).
LAG_TICK = 0.05


@dataclass
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    table: TableConfig = field(default_factory=TableConfig)
    #: Browser origins let in ("https://cards.example.org"), besides the public URL's and, on
    #: loopback, loopback names (cardcore/services/net/origins.py).
    origins: tuple[str, ...] = ()
    #: Messages a second per connection, and the burst it may send at once.
    rate: float = 20.0
    burst: int = 40
    #: Tables the server holds at once (resumed ones too).
    max_tables: int = 1000
    #: Tables not over that one address made and the server still holds (0: no limit);
    #: reconnecting does not reset it. Well under ``max_tables``, so one address cannot
    #: fill the server.
    max_tables_per_ip: int = 20
    #: The address players use (behind a proxy): ``wss://cards.example.org/play``.
    public_url: str | None = None
    #: The browser front end's address (``cardcore web``), for the seats' web links.
    web_url: str | None = None
    ssl: ssl.SSLContext | None = None
    #: permessage-deflate: frames about 5 times smaller, for about a third more CPU a frame;
    #: updates are a few KB, so it is off unless asked for (docs/hosting.md).
    compression: bool = False
    #: The light bots' threads, and the worker processes of the heavy ones (the searches;
    #: 0: threads of their own instead): ``cardcore.services.net.bot_work``.
    bot_threads: int = 2
    bot_processes: int = 2
    #: How long a group commit waits for another process's write lock on the library (an
    #: import, a backup) before it counts as failed: tables stand still and it is retried.
    library_wait: float = BUSY_TIMEOUT_MS / 1000
    #: Honour a ``create_table``'s seed. Off: whoever chose the seed would know every hand
    #: (tests and the benchmark turn it on, for matches that replay exactly).
    allow_seed: bool = False
    #: Connections one address may hold at once (0: no limit). Behind a reverse proxy every
    #: connection comes from the proxy's address: raise it, or limit there (docs/hosting.md).
    max_connections_per_ip: int = 20
    #: A table not over that nobody has been at, with nothing happening, for this long
    #: (seconds) is abandoned: closed, its match kept unfinished in the library (0: never).
    expire_after: float = 48 * 3600.0
    #: A client silent this long is pinged; one silent twice as long is closed (seconds).
    ping_interval: float = PING_INTERVAL
    #: A connection's opening handshake must be done within this (seconds).
    open_timeout: float = OPEN_TIMEOUT
    #: Sockets whose handshake is not done (or was refused) one address may hold, and all
    #: addresses together (0: no limit); one past either is closed at once.
    max_handshakes_per_ip: int = 10
    max_handshakes: int = 200
    #: Wrong codes and keys (``no_table``, ``bad_secret``) one address may send within
    #: ``guess_window`` seconds; past that it is refused for ``guess_lockout`` seconds.
    guess_limit: int = 30
    guess_window: float = 60.0
    guess_lockout: float = 300.0
    #: This server's place among the card room's servers, and how many there are
    #: (``placement``: the tables it makes and holds; a lone server is slot 0 of 1).
    slot: int = 0
    slots: int = 1
    #: Behind a proxy that sends the PROXY protocol (HAProxy's ``send-proxy``): each
    #: connection's address is the client's, as the proxy says, for the limits per address.
    proxy_protocol: bool = False


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; one message costs one."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Client(Connection):
    """One client as the server sees it: its name, its tables, its limits."""

    def __init__(self, server: Server):
        config = server.config
        super().__init__(server, max_size=MAX_MESSAGE_BYTES, logger=ws_log,
                         extensions=enable_server_permessage_deflate(None) if config.compression else None,
                         open_timeout=config.open_timeout, proxied=config.proxy_protocol)
        self.name: str | None = None
        #: The language its hello asked for, as this server speaks it (``language.spoken``).
        self.language = ENGLISH
        self.tables: set[str] = set()
        #: The codes of the tables this connection made (listed for it even when private).
        self.made: set[str] = set()
        self.bucket = TokenBucket(config.rate, config.burst)
        self.strikes = 0
        self.bad_secrets = 0
        #: The table this connection is for (its path, ``/play/KQX-482``); None: a lobby
        #: connection (docs/protocol.md, "Transport").
        self.table: str | None = None
        #: What it sent while its table was being fetched (``Server._fetch``), or None.
        self.early: list[str | None] | None = None
        #: What it is sent waits for the library to hold what it shows (``persist.Gate``).
        self.gate = Gate(server._writer(), super().send, self._overflow)

    def send(self, frame: bytes, after: int = 0) -> None:
        self.gate.send(frame, after)

    def _overflow(self) -> None:
        self.close(CloseCode.TRY_AGAIN_LATER, "the server cannot save moves just now")


class Server:
    def __init__(self, registry: Registry, store: MatchStore, config: ServerConfig | None = None):
        self.registry = registry
        self.store = store
        self.config = config or ServerConfig()
        self.tables: dict[str, Table] = {}
        self.writer: Writer | None = None
        self.bot_work = BotWork(threads=self.config.bot_threads, processes=self.config.bot_processes,
                                plugin_of=registry.plugin_of_packages())
        self._listener: asyncio.Server | None = None
        #: Every open connection (the keepalive pings them; stopping closes them).
        self.clients: set[Client] = set()
        self.port = self.config.port
        self.resumed: list[str] = []
        self.skipped: list[str] = []
        #: How late the event loop wakes a LAG_TICK sleep (seconds; the last samples): whether
        #: anything (a store write, a bot, a big update) holds the loop up.
        self.lag: deque[float] = deque(maxlen=20_000)
        self._lag_task: asyncio.Task[None] | None = None
        self._sweep_task: asyncio.Task[None] | None = None
        self._keepalive_task: asyncio.Task[None] | None = None
        #: Open connections per remote address.
        self.per_ip: dict[str, int] = {}
        #: Sockets not (yet) let in: their handshake is under way, or was refused.
        self.handshaking: set[Connection] = set()
        #: ... per remote address.
        self.handshakes_per_ip: dict[str, int] = {}
        self._refusal_logged = 0.0
        #: The address that made each table of this server (for ``max_tables_per_ip``).
        self.makers: dict[str, str] = {}
        #: Table creations under way, per address (counted against the caps meanwhile).
        self.creating: dict[str, int] = {}
        #: Draws the codes of new tables (tests seed their own).
        self.code_rng: random.Random = secrets.SystemRandom()
        #: The codes of the tables abandoned since the start.
        self.abandoned: list[str] = []
        self.guesses = Guesses(self.config.guess_limit, self.config.guess_window,
                               self.config.guess_lockout)
        #: The leagues of the library (docs/leagues.md).
        self.leagues = LeagueDesk(store)
        #: The lease on this server's tables (several servers on one library).
        self.leases = Leases(self)

    # --- starting and stopping ------------------------------------------------------------

    async def start(self) -> None:
        self.writer = Writer(self.store, self.config.library_wait)
        self.writer.on_lost = self._lost
        await self.leases.start()
        await self.leagues.settle_finished(self.writer)
        config = self.config
        loop = asyncio.get_running_loop()
        self._listener = await loop.create_server(
            lambda: Client(self), config.host, config.port, ssl=config.ssl,
            ssl_handshake_timeout=config.open_timeout if config.ssl else None)
        self.port = self._listener.sockets[0].getsockname()[1]
        self._lag_task = asyncio.ensure_future(self._watch_lag())
        self._keepalive_task = asyncio.ensure_future(self._keepalive())
        if config.expire_after > 0:
            self._sweep_task = asyncio.ensure_future(self._sweep())

    async def _watch_lag(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(LAG_TICK)
            self.lag.append(max(0.0, loop.time() - start - LAG_TICK))

    def lag_ms(self) -> dict[str, float]:
        """The event loop's lag: p50, p99 and max over the last samples (ms)."""
        lags = sorted(self.lag)
        if not lags:
            return {}
        return {"p50": round(1000 * lags[len(lags) // 2], 2),
                "p99": round(1000 * lags[min(len(lags) - 1, int(0.99 * len(lags)))], 2),
                "max": round(1000 * lags[-1], 2)}

    async def _sweep(self) -> None:
        """Now and then, abandon the tables idle for longer than ``expire_after``."""
        every = min(60.0, self.config.expire_after / 4)
        while True:
            await asyncio.sleep(every)
            self.expire_idle()

    def expire_idle(self) -> list[str]:
        """Abandon every table nobody has been at for ``expire_after`` (its codes)."""
        now, limit = time.monotonic(), self.config.expire_after
        gone = [t for t in self.tables.values() if (idle := t.idle_for(now)) is not None and idle >= limit]
        for table in gone:
            del self.tables[table.code]
            self.makers.pop(table.code, None)
            if table.match.over:
                continue  # finished and kept: only its place on the server goes
            table.abandon()
            self.abandoned.append(table.code)
            log.info("table %s: abandoned, nobody came for %.0f s", table.code, limit)
        return [t.code for t in gone]

    async def close(self) -> None:
        self.leases.close()
        for task in (self._lag_task, self._sweep_task, self._keepalive_task):
            if task is not None:
                task.cancel()
        if self._listener is not None:
            self._listener.close()
            for client in list(self.clients):
                client.close(CloseCode.GOING_AWAY, "the server is stopping")
            loop = asyncio.get_running_loop()
            deadline = loop.time() + CLOSE_TIMEOUT
            while self.clients and loop.time() < deadline:
                await asyncio.sleep(0.01)
        for table in self.tables.values():
            table.close()
        if self.writer is not None:
            try:
                await asyncio.wait_for(self.writer.drain(), 10)
            except TimeoutError:
                log.warning("the last writes did not reach the match library")
            self.writer.close()
        for table in self.tables.values():
            table.release_now()  # written: another server (or this one again) may take them
        self.leagues.close()
        self.bot_work.close()

    async def resume(self, code: str, match_id: int, data: dict[str, Any]) -> None:
        """A table of the library that is not over, where its last commit left it (at the
        start, or taken over from a dead server: ``leases``). MatchLocked when another live
        server holds it; one that cannot be resumed is logged and skipped."""
        try:
            table = await self._resume_table(code, match_id, data)
        except MatchLocked:
            raise
        except (StoreError, KeyError, TypeError, ValueError) as exc:  # a RecordError is a ValueError
            log.warning("table %s (match %d) is not resumed: %s", code, match_id, exc)
            self.skipped.append(code)
            return
        self.tables[code] = table
        table.start_grace()
        table.schedule()
        self.resumed.append(code)

    def hand_over(self, table: Table, reason: str) -> None:
        """Let table go (another server holds it now, or will): its connections are closed
        (1012: their clients come back, through the proxy, to the server that holds it) and
        its match let go once its last writes are in."""
        self._forget(table)
        for client in list(self.clients):
            if table.code in client.tables or client.table == table.code:
                client.close(CLOSE_MOVED, reason)
        table.close()
        table.let_go()
        log.info("table %s: handed over (%s)", table.code, reason)

    def _lost(self, match_ids: list[int]) -> None:
        """Another server claims these matches (this one stalled past its lease): their
        tables go, nothing of them shown."""
        for table in [t for t in self.tables.values() if t.match_id in match_ids]:
            self.hand_over(table, f"table {table.code} is held by another server now: come back")

    def public_listing(self) -> list[dict[str, Any]]:
        """The public tables not over, as the lobby lists them (the newest first)."""
        tables = [t for t in self.tables.values() if t.public and not t.match.over]
        return [t.info() for t in reversed(tables[-MAX_LISTED:])]

    async def _resume_table(self, code: str, match_id: int, data: dict[str, Any]) -> Table:
        writer = self._writer()
        summary = await writer.call(self.store.get, match_id)
        if summary.game not in self.registry.games:
            raise StoreError(f"the game {summary.game!r} is not installed")
        game = self.registry.games[summary.game]
        play = await writer.call(functools.partial(self.store.open, match_id, claim=True))
        try:
            match = checks.resume(play, game, pm=self.registry.pm)
            await writer.call(play.save_snapshot, match.snapshot())
            seats = [Seat.from_json(s) for s in data["seats"]]
            if len(seats) != len(match.seats):
                raise ValueError(f"{len(seats)} seats for a match of {len(match.seats)}")
            record = parse_record_lines(await writer.call(play.record), f"table {code}")
            turns = data.get("standin_turns", [])
            if not isinstance(turns, list) or not all(type(t) is int for t in turns):
                raise ValueError("its stand-in turns are not a list of numbers")
        except BaseException:
            await writer.call(play.close)
            raise
        service = self._service(match, play.id)
        service.resumed([event for _, event in record], "the position the table was resumed at", turns)
        owner = data.get("owner")
        league = data.get("league") if isinstance(data.get("league"), str) else None
        return self._table(code, service, seats, play, public=bool(data.get("public")),
                           chosen_seed=bool(data.get("chosen_seed")),
                           owner_hash=owner if isinstance(owner, str) else None,
                           hot_seat=bool(data.get("hot_seat")), standin_open=bool(data.get("standin_open")),
                           league=league, league_players=await self.leagues.players(writer, league))

    def _service(self, match: Match, match_id: int, *, new: bool = False) -> TableService:
        """The table service of a server's match: kept through the writer, no undo."""
        kwargs: dict[str, Any] = {"keeper": WriterKeeper(self._writer(), match_id),
                                  "undo_allowed": False, "standin": self.config.table.standin}
        if new:
            return TableService.new(self.registry, match, **kwargs)
        return TableService(self.registry, match, **kwargs)

    def _table(self, code: str, service: TableService, seats: list[Seat], play: Any, public: bool,
               **kwargs: Any) -> Table:
        table = Table(code, service, seats, play.id, registry=self.registry, config=self.config.table,
                      writer=self._writer(), bot_work=self.bot_work, lock=self.leagues.hold(play),
                      on_empty=self._forget, public=public, **kwargs)
        table.on_rematch = lambda t: _background(self._rematch(t))
        return table

    async def _rematch(self, table: Table) -> None:
        """Every human seat asked: the table's next match (``TableService.rematch``), a new
        match in the library, dealt at the same table."""
        try:
            setup = table.service.rematch().check(self.registry)
            match = setup.new_match(pm=self.registry.pm)
            play = await self._writer().call(self._create_match, match)
        except (StoreError, SetupError) as exc:
            log.error("table %s: no rematch: %s", table.code, exc)
            table.rematch_failed()
            return
        await self.leagues.follow(self._writer(), table.match_id, play.id)
        if self.tables.get(table.code) is not table:  # the table went meanwhile: no orphan
            await self._discard(play)
            return
        table.begin(self._service(match, play.id, new=True), play.id, self.leagues.hold(play))
        log.info("table %s: a rematch (match %d)", table.code, play.id)

    def _forget(self, table: Table) -> None:
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
            self.makers.pop(table.code, None)

    def _writer(self) -> Writer:
        assert self.writer is not None, "the server has not started"
        return self.writer

    # --- connections -----------------------------------------------------------------------

    async def _keepalive(self) -> None:
        """Now and then, ping the silent clients and close the ones silent for too long."""
        interval = self.config.ping_interval
        while True:
            await asyncio.sleep(interval / 4)
            for client in list(self.clients):
                client.ping(interval)
            self.guesses.forget_old()

    def server_header(self) -> str:
        return f"cardcore/{__version__}"

    def opening(self, conn: Connection) -> bool:
        """A new socket: counted among those not let in yet, or False (closed at once) when
        its address, or everyone, has as many as ``max_handshakes_per_ip`` / ``max_handshakes``."""
        config = self.config
        held = self.handshakes_per_ip.get(conn.address, 0)
        if ((config.max_handshakes_per_ip and held >= config.max_handshakes_per_ip)
                or (config.max_handshakes and len(self.handshaking) >= config.max_handshakes)):
            now = time.monotonic()
            if now - self._refusal_logged >= 60:  # one line a minute, however many come
                self._refusal_logged = now
                log.info("refusing sockets: too many unfinished handshakes")
            return False
        self.handshaking.add(conn)
        self.handshakes_per_ip[conn.address] = held + 1
        return True

    def _handshake_over(self, conn: Connection) -> None:
        if conn in self.handshaking:
            self.handshaking.discard(conn)
            _uncount(self.handshakes_per_ip, conn.address)

    def admit(self, conn: Connection, request: Request) -> Response | None:
        """Not too many connections from one address; browsers only from this host."""
        assert isinstance(conn, Client)
        if self._listener is None or not self._listener.is_serving():
            return conn.ws.reject(HTTPStatus.SERVICE_UNAVAILABLE, "cardcore: the server is stopping\n")
        if request.path == HEALTH and "Upgrade" not in request.headers:  # the proxy's check
            return conn.ws.reject(HTTPStatus.OK, "ok\n")
        conn.table = table_of(request.path)
        limit = self.config.max_connections_per_ip
        held = self.per_ip.get(conn.address, 0)
        if limit and held >= limit:
            log.info("refused a connection: too many from one address")
            return conn.ws.reject(HTTPStatus.TOO_MANY_REQUESTS,
                                  "cardcore: too many connections from your address\n")
        refused = self._check_origin(conn, request)
        if refused is None:  # let in: counted among its address's connections
            self._handshake_over(conn)
            self.per_ip[conn.address] = held + 1
            self.clients.add(conn)
            if conn.table is not None and conn.table not in self.tables:
                conn.early = []
                _background(self._fetch(conn, conn.table))
        return refused

    async def _fetch(self, conn: Client, code: str) -> None:
        """A connection to a table not held here: taken over if its holder is dead
        (``leases``), the connection closed (1013: try again) while another server holds it;
        then the messages it sent meanwhile."""
        try:
            await self.leases.fetch(code)
        except Moved:
            conn.close(CloseCode.TRY_AGAIN_LATER, f"table {code} is held by another server just now")
        except StoreError as exc:
            log.warning("table %s: not fetched: %s", code, exc)
        early, conn.early = conn.early or [], None
        for raw in early:
            if conn.open:
                self.received(conn, raw)

    def _check_origin(self, conn: Connection, request: Request) -> Response | None:
        """Browsers only from a configured origin (``--origin``, the public URL), or from a
        loopback name when listening on loopback; no Origin: fine (docs/protocol.md)."""
        config = self.config
        allowed = Origins((*config.origins, *([config.public_url] if config.public_url else [])),
                          loopback=is_loopback(config.host))
        if allowed.allows(request.headers.get("Origin")):
            return None
        log.info("refused a browser connection from another origin")
        return conn.ws.reject(HTTPStatus.FORBIDDEN, "cardcore: this origin may not connect\n")

    def lost(self, conn: Connection) -> None:
        """A client is gone: its seats are held for the grace period."""
        assert isinstance(conn, Client)
        self._handshake_over(conn)
        if conn in self.clients:
            self.clients.discard(conn)
            _uncount(self.per_ip, conn.address)
        for code in list(conn.tables):
            table = self.tables.get(code)
            if table is not None:
                table.leave(conn)

    def received(self, conn: Connection, raw: str | None) -> None:
        assert isinstance(conn, Client)
        if conn.early is not None:  # its table is being fetched
            if len(conn.early) < MAX_EARLY:
                conn.early.append(raw)
            return
        if not conn.bucket.take():
            conn.strikes += 1
            if conn.strikes >= MAX_STRIKES:
                conn.close(CLOSE_POLICY, "flooding")
            else:
                conn.send(protocol.frame(protocol.error("rate_limited", "too many messages; slow down")))
            return
        conn.strikes = 0
        if raw is None:
            conn.send(protocol.frame(protocol.error("bad_json", "send text frames (JSON)")))
            return
        try:
            message = protocol.decode(raw)
        except ProtocolError as exc:
            conn.send(protocol.frame(protocol.error(exc.code, exc.message, _id_of(raw))))
            return
        try:
            self._check_guesses(conn, message)
            self._dispatch(conn, message)
        except TableError as exc:
            conn.send(protocol.frame(protocol.error(exc.code, str(exc), message.id)))
            if exc.code in ("no_table", "bad_secret") and self.guesses.missed(conn.address):
                log.info("an address is refused for a while: too many wrong codes or keys")
            if exc.code == "bad_secret":
                conn.bad_secrets += 1
                if conn.bad_secrets >= MAX_BAD_SECRETS:
                    conn.close(CLOSE_POLICY, "too many bad secrets")

    def _check_guesses(self, conn: Client, message: Any) -> None:
        """An address that guessed wrong too often may not join or watch for a while (it
        still plays at the tables it is at)."""
        if not isinstance(message, (Join, Watch, Reissue)):
            return
        left = self.guesses.locked_for(conn.address)
        if left:
            raise TableError("rate_limited", "too many wrong table codes or keys from your address; "
                             f"try again in {left:.0f} s")

    def _dispatch(self, conn: Client, message: Any) -> None:
        self._check_connection(conn, message)
        if isinstance(message, Hello):
            conn.name = message.name
            conn.language = spoken(message.language)
            conn.send(self._reply(message, self._welcome()))
        elif isinstance(message, ListTables):
            _background(self._list(conn, message))
        elif isinstance(message, CreateTable):
            _background(self._create(conn, message))
        elif isinstance(message, Join):
            self._table_for(message.code).join(conn, invite=message.invite, token=message.token,
                                               name=message.name or conn.name, request_id=message.id)
        elif isinstance(message, Reissue):
            table = self._table_for(message.code)
            invite = table.reissue(message.seat, message.owner)
            conn.send(self._reply(message, {"type": "invite", "code": message.code, "seat": message.seat,
                                            "invite": invite, **self._links(message.code, invite)}),
                      table.after())  # a link that works once the library has it
        elif isinstance(message, Watch):
            self._table_for(message.code).watch(conn, message.id)
        elif isinstance(message, Act):
            self._table_for(message.code).act(conn, message.action, message.turn)
        elif isinstance(message, Chat):
            self._table_for(message.code).chat(conn, message.text)
        elif isinstance(message, Rematch):
            self._table_for(message.code).rematch(conn, message.id)
        elif isinstance(message, WhyRequest):
            self._table_for(message.code).why(conn, message.move, message.id)
        elif isinstance(message, (LeagueRequest, ListLeagues)):
            _background(self.leagues.reply(self._writer(), conn, message))
        elif isinstance(message, Leave):
            self._table_for(message.code).seat_of(conn)
            self._table_for(message.code).leave(conn)
            conn.send(self._reply(message, {"type": "left", "code": message.code}))

    def _check_connection(self, conn: Client, message: Any) -> None:
        """Table messages on the table's own connection (``/play/CODE``), the lobby's on a
        lobby connection; a lone server (one slot) still takes table messages on a lobby
        connection, as before play connections (docs/protocol.md, "Transport")."""
        code = getattr(message, "code", None)
        if conn.table is None:
            if code is not None and self.config.slots > 1:
                raise TableError("wrong_connection", f"play table {code} on a connection of its own: "
                                 f"/play/{code} on this server (a newer cardcore does)")
        elif isinstance(message, (ListTables, CreateTable)):
            raise TableError("wrong_connection", f"this connection is table {conn.table}'s: "
                             f"{message.type} goes on a lobby connection")
        elif code is not None and code != conn.table:
            raise TableError("wrong_connection", f"this connection is table {conn.table}'s, not "
                             f"{code}'s: connect to /play/{code}")

    def _table_for(self, code: str) -> Table:
        table = self.tables.get(code)
        if table is None:
            raise TableError("no_table", f"no table {code} on this server")
        return table

    @staticmethod
    def _reply(request: Any, body: dict[str, Any]) -> bytes:
        return protocol.frame({"v": protocol.PROTOCOL_VERSION, "id": request.id, **body})

    def _welcome(self) -> dict[str, Any]:
        games = []
        for gid, game in sorted(self.registry.games.items()):
            bots = sorted(b for b, cls in self.registry.bots.items() if cls.plays(gid))
            games.append({"id": gid, "name": game.name, "player_counts": list(game.player_counts),
                          "bots": bots, "options": game.Options().model_dump(mode="json")})
        return {"type": "welcome", "server": f"cardcore {__version__}",
                "protocol": protocol.PROTOCOL_VERSION, "games": games}

    async def _list(self, conn: Client, message: ListTables) -> None:
        """The public tables, and the private ones this connection made or is at; then the
        other servers' public tables, as they listed them at their last renewal (a second
        ago at most: ``leases``)."""
        tables = [t for t in self.tables.values() if t.public or t.code in conn.made or t.code in conn.tables]
        here = [t.info() for t in reversed(tables[-MAX_LISTED:])]
        if self.config.slots > 1:
            codes = {t["code"] for t in here}
            try:
                here += [t for t in await self.leases.elsewhere() if t["code"] not in codes]
            except StoreError as exc:
                log.warning("the other servers' tables are not listed: %s", exc)
        conn.send(self._reply(message, {"type": "tables", "tables": here[:MAX_LISTED]}))

    # --- new tables ------------------------------------------------------------------------

    async def _create(self, conn: Client, message: CreateTable) -> None:
        try:
            reply = await self._new_table(conn, message)
        except TableError as exc:
            conn.send(protocol.frame(protocol.error(exc.code, str(exc), message.id)))
            return
        except Exception as exc:  # noqa: BLE001 - the library's, or anything: one line, no table
            log.error("a new table failed: %s", describe(exc, self.registry.plugin_of_packages()))
            text = str(exc) if isinstance(exc, StoreError) else "the table could not be made"
            conn.send(protocol.frame(protocol.error("server_error", text, message.id)))
            return
        table = self.tables.get(reply["code"])  # its row in the library before anyone has its links
        conn.send(self._reply(message, reply), table.after() if table is not None else 0)

    def _check_room(self, address: str) -> None:
        """``too_many`` when the server, or this address, holds as many tables as it may
        (the creations under way counted in)."""
        config = self.config
        if len(self.tables) + sum(self.creating.values()) >= config.max_tables:
            raise TableError("too_many", "this server holds as many tables as it may")
        if not config.max_tables_per_ip:
            return
        live = sum(1 for code, maker in self.makers.items()
                   if maker == address and (t := self.tables.get(code)) is not None and not t.match.over)
        if live + self.creating.get(address, 0) >= config.max_tables_per_ip:
            raise TableError("too_many", "your address has as many tables here as one may; "
                             "finish one, or wait for one to expire")

    async def _new_table(self, conn: Client, message: CreateTable) -> dict[str, Any]:
        address = conn.address
        self._check_room(address)
        match = self._new_match(message)
        self.creating[address] = self.creating.get(address, 0) + 1
        try:
            table, made = await self._open_table(match, message)
        finally:
            _uncount(self.creating, address)
        code = table.code
        self.tables[code] = table
        self.makers[code] = address
        conn.made.add(code)
        table.schedule()
        log.info("table %s: %s for %d", code, match.game.id, len(table.seats))
        return {"type": "table_created", "code": code, **made}

    async def _open_table(self, match: Match, message: CreateTable) -> tuple[Table, dict[str, Any]]:
        """The new table, and its ``table_created`` fields: its match, a row under a code no
        table of the library has (``add_table``, filled in with the seats once dealt), the
        deal. Anything failing on the way takes the match and row out of the library again
        (``_discard``): no orphans."""
        writer = self._writer()
        play = await writer.call(self._create_match, match)
        try:
            league = None
            if message.league is not None:  # checked with the match, held for the league
                league = await self.leagues.league_for(writer, message.league, match)
                await self.leagues.pend(writer, league, play.id)
            code = await self._free_code(play.id)
            service = self._service(match, play.id, new=True)  # dealt (a draw for partners moves seats)
            seats, invites = new_seats(list(match.seats))
            owner = new_secret()
            chosen = self.config.allow_seed and message.seed is not None
            table = self._table(code, service, seats, play, public=message.public, chosen_seed=chosen,
                                owner_hash=hash_secret(owner), hot_seat=message.hot_seat,
                                standin_open=message.standin_open, league=league and league.name,
                                league_players=self.leagues.players_of(league))
            table.save_row()  # written with the deal, in one transaction
        except BaseException:
            await self._discard(play)
            raise
        links = [{"seat": i, "invite": invite, **self._links(code, invite)} for i, invite in invites.items()]
        return table, {"seats": links, "owner": owner}

    async def _free_code(self, match_id: int) -> str:
        """A code no table of the library has, its row added for ``match_id`` in the same
        transaction as the check (another server on the library draws from the same codes)."""
        for _ in range(MAX_CODE_DRAWS):
            code = self._new_code()
            if code not in self.tables and await self._writer().call(
                    self.store.add_table, code, match_id, "waiting", {}):
                return code
        raise StoreError(f"no free table code in {MAX_CODE_DRAWS} draws; try again")

    def _create_match(self, match: Match) -> Any:
        """The match's row in the library, claimed by this server (on the library's thread)."""
        return self.store.create(match.game.id, match.options.model_dump(mode="json"), match.seed,
                                 list(match.seats), list(match.seating.names),
                                 list(match.seating.side_names), "server", claim=True)

    async def _discard(self, play: Any) -> None:
        """A table that could not be made: its match, and its row if it had one, leave the
        library (or, if the library cannot be written, a line says which match stays)."""
        writer = self._writer()
        try:
            await asyncio.wait_for(writer.drain(), DISCARD_WAIT)  # the deal's commit, if queued
            await writer.call(play.close)
            await writer.call(self.store.delete, play.id)
        except TimeoutError:
            log.error("match %d of a table that could not be made stays in the library: "
                      "the library is not written", play.id)
        except StoreError as exc:
            log.error("match %d of a table that could not be made stays in the library: %s",
                      play.id, exc)

    def _new_match(self, message: CreateTable) -> Match:
        """The match ``create_table`` asks for, checked as every setup is (``MatchSetup``)."""
        chosen = message.seed if self.config.allow_seed else None
        try:
            setup = MatchSetup.of(game=message.game, options=message.options, seats=message.seats,
                                  names=message.names, side_names=message.side_names,
                                  seed=chosen, draw_for_partners=message.draw_for_partners)
            return setup.check(self.registry).new_match(pm=self.registry.pm)
        except SetupError as exc:
            raise TableError("bad_game", str(exc)) from None

    def _new_code(self) -> str:
        """A table code of this server's slot, ``ABC-123`` (17.5 million over all slots);
        whether it is free is the caller's."""
        return new_code(self.config.slot, self.config.slots, self.code_rng)

    def _links(self, code: str, secret: str) -> dict[str, str]:
        config = self.config
        if config.public_url:
            parts = urlsplit(config.public_url)
            scheme = "cardcores" if parts.scheme in ("wss", "https") else "cardcore"
            base = f"{scheme}://{parts.netloc}{parts.path.rstrip('/')}"
        else:
            scheme = "cardcores" if config.ssl else "cardcore"
            host = f"[{config.host}]" if ":" in config.host else config.host
            base = f"{scheme}://{host}:{self.port}"
        web = f"{config.web_url.rstrip('/')}/?table={code}&secret={secret}" if config.web_url else ""
        return {"link": f"{base}/{code}#{secret}", "web_link": web}


#: Tasks started and not awaited, kept until they end (asyncio keeps only weak references).
_TASKS: set[asyncio.Future[Any]] = set()


def _background(coro: Any) -> None:
    task = asyncio.ensure_future(coro)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)


def _uncount(counts: dict[str, int], key: str) -> None:
    """One fewer for ``key`` (its entry goes at zero)."""
    left = counts[key] - 1
    if left:
        counts[key] = left
    else:
        del counts[key]


def _id_of(raw: str) -> int | None:
    """The ``id`` of a frame that is not a valid message, if it has one (for the error)."""
    if len(raw) > MAX_MESSAGE_BYTES:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    found = data.get("id") if isinstance(data, dict) else None
    return found if type(found) is int and 0 <= found <= protocol.MAX_REQUEST_ID else None
