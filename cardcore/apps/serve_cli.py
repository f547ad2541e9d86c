"""``cardcore serve``: its arguments, checks and run (docs/hosting.md)."""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardcore.language import N_, _
from cardcore.services.net.origins import is_loopback, origin_of

if TYPE_CHECKING:  # the server (websockets, asyncio, ssl) loads only when `serve` runs
    import asyncio
    import ssl

    from cardcore.services.net.server import ServerConfig
    from cardcore.services.plugins import Registry


#: ``cardcore serve``'s parser, once made (``--workers`` passes its options on to each server).
PARSER: argparse.ArgumentParser | None = None


#: The options each server of ``--workers`` gets from the supervisor, not from the command line.
SUPERVISOR_OWN = ("--workers", "--host", "--port", "--slot", "--slots", "--public-url", "--allow-remote",
                  "--proxy-protocol")


class ServeError(Exception):
    """A bad argument of ``cardcore serve``: one line, exit status 2."""


def add_parser(sub: Any, count: Callable[[str], int]) -> None:
    from cardcore.apps.args import number_type

    port = number_type(int, 0, 65535, N_("a port number"))
    seconds = number_type(float, 0, 86400, N_("seconds"))
    q = sub.add_parser("serve", help=_("hold tables that people join over the network (docs/hosting.md)"))
    global PARSER
    PARSER = q
    q.add_argument("--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1)"))
    q.add_argument("--port", type=port, default=8765, help=_("port (default 8765; 0: any free port)"))
    q.add_argument("--allow-remote", action="store_true",
                   help=_("allow listening on an address other machines can reach"))
    q.add_argument("--tls-cert", metavar="FILE", help=_("certificate chain (PEM): serve wss://"))
    q.add_argument("--tls-key", metavar="FILE", help=_("the certificate's private key (PEM)"))
    q.add_argument("--origin", action="append", default=[], metavar="URL",
                   help=_("a browser origin allowed (repeatable); besides it only the public URL's, and "
                   "loopback names when listening on loopback"))
    q.add_argument("--public-url", metavar="URL", help=_("the address players use, for links "
                   "(behind a reverse proxy: wss://cards.example.org/play)"))
    q.add_argument("--web-url", metavar="URL", help=_("the browser front end's address, for web links"))
    q.add_argument("--grace", type=seconds, default=60.0,
                   help=_("seconds a dropped seat is held before a bot plays it (default 60)"))
    q.add_argument("--standin", default="greedy", help=_("the bot that plays for an absent player"))
    q.add_argument("--bot-delay", type=seconds, default=0.6, help=_("seconds before each bot move"))
    whole = number_type(int, 0, 1_000_000, N_("a whole number"))
    q.add_argument("--max-tables", type=count, default=1000, help=_("tables the server holds at once "
                   "(default 1000)"))
    q.add_argument("--bot-processes", type=whole, default=2, metavar="N",
                   help=_("worker processes for the searching bots (default 2; 0: threads of the server's "
                   "own, where a search slows every table: docs/hosting.md)"))
    q.add_argument("--max-tables-per-ip", type=whole, default=20, metavar="N",
                   help=_("tables not over that one address made and the server holds (default 20; "
                   "0: no limit)"))
    q.add_argument("--rate", type=count, default=20, help=_("messages a second one connection may send"))
    q.add_argument("--max-watchers", type=whole, default=50, metavar="N",
                   help=_("spectators a table takes at most (default 50)"))
    q.add_argument("--max-per-ip", type=whole, default=20,
                   metavar="N", help=_("connections one address may hold at once (default 20; 0: no "
                   "limit; behind a reverse proxy all come from the proxy: docs/hosting.md)"))
    q.add_argument("--max-handshakes-per-ip", type=whole, default=10, metavar="N",
                   help=_("sockets one address may hold before its handshake is done (default 10; "
                   "0: no limit); more are closed at once"))
    q.add_argument("--library-wait", type=number_type(float, 0.1, 600, N_("seconds")), default=10.0,
                   metavar="SECONDS", help=_("how long a write waits while another process (an import, "
                   "a backup) holds the library's write lock before the tables stand still and it "
                   "is retried (default 10)"))
    q.add_argument("--max-handshakes", type=whole, default=200, metavar="N",
                   help=_("sockets all addresses together may hold before their handshake is done "
                   "(default 200; 0: no limit)"))
    q.add_argument("--open-timeout", type=number_type(float, 0.1, 600, N_("seconds")), default=5.0,
                   metavar="SECONDS", help=_("a handshake not done within this is dropped (default 5)"))
    q.add_argument("--expire-after", type=number_type(float, 0, 365 * 86400, N_("seconds")),
                   default=48 * 3600.0, metavar="SECONDS",
                   help=_("abandon a table nobody has been at for this long (default 172800, two days; "
                   "0: never); its match stays in the library, unfinished"))
    q.add_argument("--guess-limit", type=whole, default=30,
                   metavar="N", help=_("wrong table codes and keys one address may send in --guess-window "
                   "before it is refused for --guess-lockout (default 30; 0: no limit)"))
    q.add_argument("--guess-window", type=number_type(float, 1, 86400, N_("seconds")), default=60.0,
                   metavar="SECONDS", help=_("(default 60)"))
    q.add_argument("--guess-lockout", type=number_type(float, 1, 7 * 86400, N_("seconds")), default=300.0,
                   metavar="SECONDS", help=_("(default 300)"))
    q.add_argument("--library", metavar="FILE | URL",
                   help=_("the match library: a file or a postgresql:// URL (default: the data dir's)"))
    q.add_argument("--compression", action="store_true",
                   help=_("permessage-deflate: smaller frames for more CPU (slow links)"))
    q.add_argument("--slot", type=number_type(int, 0, 25, N_("a slot, 0 to 25")), default=0, metavar="K",
                   help=_("this server's place among --slots servers sharing the library (default 0)"))
    q.add_argument("--slots", type=number_type(int, 1, 26, N_("1 to 26 servers")), default=1, metavar="N",
                   help=_("how many servers share the library behind one proxy (default 1; "
                   "docs/hosting.md, Several server processes)"))
    q.add_argument("--proxy-protocol", action="store_true",
                   help=_("each connection starts with a PROXY protocol header (HAProxy's send-proxy): "
                   "the client's address is taken from it; only behind a proxy that sends it"))
    q.add_argument("--workers", type=number_type(int, 1, 26, N_("1 to 26 servers")), metavar="N",
                   help=_("run N server processes on 127.0.0.1 and HAProxy in front of them on --port "
                   "(docs/hosting.md, Several server processes)"))


def config_of(registry: Registry, args: argparse.Namespace) -> ServerConfig:
    """The server's settings from the arguments (ServeError: one line)."""
    from cardcore.services.net.placement import check_slots
    from cardcore.services.net.server import ServerConfig
    from cardcore.services.net.tables import TableConfig

    if not is_loopback(args.host) and not args.allow_remote:
        raise ServeError(_("--host {host} can be reached from other machines: add --allow-remote "
                           "(and --tls-cert/--tls-key, or a TLS reverse proxy: docs/hosting.md)").format(
                               host=args.host))
    try:
        check_slots(args.slot, args.slots)
    except ValueError as exc:
        raise ServeError(f"--slot/--slots: {exc}") from None
    if bool(args.tls_cert) != bool(args.tls_key):
        raise ServeError(_("--tls-cert and --tls-key go together"))
    bot = registry.bots.get(args.standin)
    if bot is None:
        raise ServeError(_("--standin: no bot {name!r} (bots: {bots})").format(
            name=args.standin, bots=", ".join(sorted(registry.bots))))
    context = _tls(args.tls_cert, args.tls_key) if args.tls_cert else None
    for origin in args.origin:
        if not origin.startswith(("http://", "https://")) or origin_of(origin) is None:
            raise ServeError(_("{flag} wants http(s)://HOST[:PORT], not {url!r}").format(
                flag="--origin", url=origin[:60]))
    return ServerConfig(
        host=args.host, port=args.port, ssl=context, origins=tuple(o.rstrip("/") for o in args.origin),
        table=TableConfig(grace=args.grace, standin=args.standin, bot_delay=args.bot_delay,
                          max_watchers=args.max_watchers),
        max_tables=args.max_tables, rate=float(args.rate), burst=2 * args.rate,
        public_url=args.public_url, web_url=args.web_url, compression=args.compression,
        max_connections_per_ip=args.max_per_ip, expire_after=args.expire_after,
        max_tables_per_ip=args.max_tables_per_ip, max_handshakes_per_ip=args.max_handshakes_per_ip,
        max_handshakes=args.max_handshakes, open_timeout=args.open_timeout,
        guess_limit=args.guess_limit, guess_window=args.guess_window, guess_lockout=args.guess_lockout,
        bot_processes=args.bot_processes, library_wait=args.library_wait, slot=args.slot, slots=args.slots,
        proxy_protocol=args.proxy_protocol)


def passed_on(args: argparse.Namespace) -> list[str]:
    """The options of ``cardcore serve`` given on its command line, as arguments again, but
    for those the supervisor gives each server itself."""
    assert PARSER is not None
    out: list[str] = []
    for action in PARSER._actions:
        value = getattr(args, action.dest, None)
        if not action.option_strings or action.option_strings[0] in SUPERVISOR_OWN or value is None \
                or value == action.default:
            continue
        flag = action.option_strings[0]
        if isinstance(action, argparse._StoreTrueAction):
            out.append(flag)
        elif isinstance(action, argparse._AppendAction):
            out += [part for item in value for part in (flag, str(item))]
        else:
            out += [flag, str(value)]
    return out


def _tls(cert: str, key: str) -> ssl.SSLContext:
    import ssl

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(cert, key)
    except OSError as exc:
        raise ServeError(_("cannot read the certificate or key: {reason}").format(
            reason=exc.strerror or exc)) from None
    except ssl.SSLError as exc:
        raise ServeError(_("--tls-cert/--tls-key: not a certificate and its key ({reason})").format(
            reason=exc.reason)) from None
    return context


def command(registry: Registry, args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from cardcore.services.store import StoreError, open_library

    try:
        config = config_of(registry, args)
        if args.workers:
            from cardcore.apps import serve_workers

            return serve_workers.run(args, passed_on(args))
        store = open_library(args.library, import_autosave=False)
    except (ServeError, StoreError) as exc:
        from cardcore.apps.args import UsageError

        raise UsageError(str(exc)) from None
    logging.basicConfig(level=logging.INFO, format="cardcore serve: %(message)s", stream=sys.stderr)
    if not is_loopback(config.host) and config.ssl is None:
        print("cardcore serve: " + _("warning: listening on {host} without TLS: secrets and moves travel in "
                                     "clear text; use --tls-cert/--tls-key or a TLS reverse proxy "
                                     "(docs/hosting.md)").format(
                                         host=config.host), file=sys.stderr, flush=True)
    try:
        asyncio.run(_serve(registry, store, config))
    except OSError as exc:  # the port is taken, the address is not ours
        from cardcore.apps.args import UsageError

        raise UsageError(_("cannot listen on {host}:{port}: {reason}").format(
            host=config.host, port=config.port, reason=exc.strerror or exc)) from None
    finally:
        store.close()
    return 0


async def _serve(registry: Registry, store: Any, config: ServerConfig) -> None:
    import asyncio
    import signal

    from cardcore.services.net.server import Server

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):  # before the first line: a signal then stops it well
        loop.add_signal_handler(sig, stop.set)
    server = Server(registry, store, config)
    await server.start()
    collecting = settle_collector()
    scheme = "wss" if config.ssl else "ws"
    host = f"[{config.host}]" if ":" in config.host else config.host
    resumed = _("; {n} tables resumed").format(n=len(server.resumed)) if server.resumed else ""
    print("cardcore serve: " + _("listening on {url}{resumed}").format(
        url=f"{scheme}://{host}:{server.port}/", resumed=resumed), flush=True)
    try:
        await stop.wait()
    finally:
        collecting.cancel()
        lag = server.lag_ms()
        await server.close()
        writes = server.writer.batches if server.writer else 0
        print("cardcore serve: " + _("stopped; every table is kept in the library ({n} transactions; "
                                     "event loop lag ms {lag})").format(
                                         n=writes, lag=json.dumps(lag)), flush=True)


#: The garbage collector while serving: young collections as objects accumulate (Python's
#: 700 is its default), the older generations never on their own (this threshold is not
#: reached); a full collection every ``FULL_COLLECTION_EVERY`` seconds instead: each pauses
#: every table (60-200 ms at 200 tables), so it comes rarely (once a minute, it was the p99
#: of the load bench's 60 s runs).
GC_THRESHOLDS = (2_000, 1_000_000_000, 10)
FULL_COLLECTION_EVERY = 600.0


def settle_collector() -> asyncio.Task[None]:
    """The collector's policy for a long-running server (call it with the loop running;
    cancel the task it returns when serving ends). What start-up made (modules, plugins,
    resumed tables) lives as long as the process, so it is frozen out of the collector's
    walks. A move leaves no reference cycles (tests/net/test_cycles.py), so collections
    find next to nothing; what they cost is the walk over what is alive, and the tables'
    positions are what is alive: at 200 tables a walk of the older generations took 20-35 ms
    in the middle of a burst of moves, several times a minute, and the p99 of a move's
    latency was those pauses (benches/RESULTS.md). Young collections walk only what the
    last few hundred moves made (2-5 ms); the rest is walked by one full collection every
    ten minutes (60-200 ms at 200 tables: each is logged), and any cycle that outlived a
    young collection lives at most that long (a few hundred objects a minute at 200
    tables: the connections')."""
    import asyncio

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    return asyncio.ensure_future(_collect_every(FULL_COLLECTION_EVERY))


async def _collect_every(seconds: float) -> None:
    import asyncio
    import logging
    import time

    while True:
        await asyncio.sleep(seconds)
        start = time.perf_counter()
        found = gc.collect()
        logging.getLogger("cardcore.serve").info(
            "full collection: %d ms, %d unreachable", round(1000 * (time.perf_counter() - start)), found)
