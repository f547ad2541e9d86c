"""``cardcore join`` (a table on a server, or its list of tables) and ``cardcore web`` (the
same front end served to browsers): their arguments and checks. Bad arguments, a server
that cannot be reached, a bad code or secret: one line, exit status 2."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from cardcore.language import N_, _

if TYPE_CHECKING:  # websockets, asyncio and the protocol load only when join or web runs
    from cardcore.services.net.client import Target
    from cardcore.services.plugins import Registry


def add_parsers(sub: Any) -> None:
    from cardcore.apps.args import number_type

    q = sub.add_parser("join", help=_("sit at a table on a server (cardcore serve): a code and a "
                                      "seat's invite, or a seat link; a code alone watches; with --server "
                                      "alone, the server's tables"))
    q.add_argument("target", nargs="*", metavar="CODE [INVITE] | LINK",
                   help=_("KQX-482 (watch it), KQX-482 maple river stone tiger (the seat's invite), "
                          "cardcore://HOST:PORT/KQX-482#INVITE, or a web link"))
    q.add_argument("--secret", help=_("the seat's invite (without it: watch the table); or in the "
                                      "environment's CARDCORE_SECRET, out of sight of `ps`"))
    q.add_argument("--name", help=_("your name at the table"))
    q.add_argument("--server", metavar="ws://HOST:PORT", help=_("the server (default ws://127.0.0.1:8765)"))
    # the browser front end's app (cardcore web): the server's tables, nothing of this machine
    q.add_argument("--remote-only", action="store_true", help=argparse.SUPPRESS)
    q = sub.add_parser("web", help=_("serve the table to browsers (textual-serve), playing on a server"))
    q.add_argument("--server", required=True, metavar="ws://HOST:PORT",
                   help=_("the cardcore serve to play on"))
    q.add_argument("--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1)"))
    q.add_argument("--port", type=int, default=8000, help=_("port (default 8000)"))
    q.add_argument("--allow-remote", action="store_true",
                   help=_("allow listening on an address other machines can reach"))
    q.add_argument("--public-url", metavar="URL",
                   help=_("the address browsers use, behind a reverse proxy (https://cards.example.org)"))
    q.add_argument("--origin", action="append", default=[], metavar="URL",
                   help=_("a page origin whose WebSocket is let in besides the public URL's (repeatable)"))
    limit = number_type(int, 0, 1_000_000, N_("a whole number"))
    q.add_argument("--max-apps", type=limit, default=20, metavar="N",
                   help=_("app processes at once, one per open page (default 20; 0: no limit)"))
    q.add_argument("--max-apps-per-client", type=limit, default=4, metavar="N",
                   help=_("app processes one client address may hold (default 4; 0: no limit)"))


def check_name(name: str | None) -> str | None:
    """A player's name as the protocol takes it (ValueError, one line)."""
    import pydantic

    from cardcore.engine import complaints
    from cardcore.engine.names import MAX_NAME_CHARS
    from cardcore.services.net import protocol as p

    if name is None:
        return None
    try:
        return p.Hello(name=name.strip()).name
    except pydantic.ValidationError as exc:
        reason = complaints.message(exc.errors(include_url=False)[0])
        raise ValueError(_("--name: 1 to {most} printable characters ({reason})").format(
            most=MAX_NAME_CHARS, reason=reason)) from None


def join(registry: Registry, args: argparse.Namespace) -> int:
    """``cardcore join``: the table (or, with --server alone, the lobby) in the TUI."""
    import asyncio

    from cardcore.apps.args import SECRET_ENV, UsageError
    from cardcore.services.net.client import ClientError, parse_target, server_url

    secret = args.secret or os.environ.get(SECRET_ENV)
    typed = " ".join(args.target) or None  # the invite's words may come as separate arguments
    try:
        name = check_name(args.name)
        if typed is None:
            if not args.server:
                raise ValueError(_("join wants a table code or a link (or --server for the server's tables)"))
            server = server_url(args.server)
            if not args.remote_only:
                asyncio.run(_probe(server))
            return _lobby(registry, server, name, args.remote_only)
        target = parse_target(typed, secret=secret, server=args.server)
        if args.remote_only:  # a browser's web link: the seat, then the server's tables
            seat = (target.code, target.secret) if target.secret else None
            return _lobby(registry, target.server, name, True, seat)
        asyncio.run(_join(registry, target, name))
    except (ClientError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    return 0


async def _probe(server: str) -> None:
    from cardcore.services.net.client import Connection

    conn = await Connection.open(server)
    await conn.close()


def _lobby(registry: Registry, server: str, name: str | None, remote_only: bool,
           seat: tuple[str, str] | None = None) -> int:
    from cardcore.apps.tui.app import CardcoreApp, Lobby

    CardcoreApp(registry, start=Lobby(server, name, remote_only, seat)).run()
    return 0


async def _join(registry: Registry, target: Target, name: str | None) -> None:
    """Connect, take the seat (or watch), then run the table in this loop."""
    from cardcore.apps.tui.app import CardcoreApp, JoinTable
    from cardcore.apps.tui.remote import RemoteSession
    from cardcore.services.net.client import ClientError, Connection, not_seated

    conn = await Connection.open(target.server, name, table=target.code)
    try:
        try:
            session = await RemoteSession.join(registry, conn, target.code, target.secret, name,
                                               come_back=True)
        except ClientError as exc:
            why = not_seated(target.code, exc) if target.secret else _("table {code}: {reason}").format(
                code=target.code, reason=exc)
            raise ClientError(exc.code, why) from None
        app = CardcoreApp(registry, start=JoinTable(session))
        await app.run_async()
    finally:
        await conn.close()


def web(registry: Registry, args: argparse.Namespace) -> int:
    """``cardcore web``: textual-serve runs ``cardcore join --server URL --remote-only`` for
    each browser page (docs/hosting.md, Playing in a browser)."""
    from cardcore.apps.args import UsageError, explicit_language
    from cardcore.apps.tui.web import WebConfig, serve
    from cardcore.services.net.client import ClientError, server_url
    from cardcore.services.net.origins import is_loopback, origin_of

    try:
        server = server_url(args.server)
    except ClientError as exc:
        raise UsageError(str(exc)) from None
    if not 1 <= args.port <= 65535:
        raise UsageError(_("--port: a port is 1 to 65535, not {port}").format(port=args.port))
    if not is_loopback(args.host) and not args.allow_remote:
        raise UsageError(_("--host {host} can be reached from other machines: add --allow-remote "
                           "(and put it behind a TLS reverse proxy: docs/tui.md)").format(host=args.host))
    for flag, url in [("--public-url", args.public_url), *(("--origin", o) for o in args.origin)]:
        if url is not None and (not url.startswith(("http://", "https://")) or origin_of(url) is None):
            raise UsageError(_("{flag} wants http(s)://HOST[:PORT], not {url!r}").format(
                flag=flag, url=url[:60]))
    if not is_loopback(args.host) and args.public_url is None:
        raise UsageError(_("--host {host}: give --public-url, the address browsers use (only "
                           "pages from there may open a game)").format(host=args.host))
    language = explicit_language(["--lang", args.lang] if getattr(args, "lang", None) else [], os.environ)
    return serve(WebConfig(server, args.host, args.port, args.public_url, tuple(args.origin),
                           args.max_apps, args.max_apps_per_client, language))
