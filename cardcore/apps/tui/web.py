"""``cardcore web``: the Textual front end served to browsers by textual-serve.

Each browser gets its own ``cardcore join --server URL --remote-only`` process: the
server's tables (create, sit, watch) and nothing of this machine's library, saves or
statistics. A seat's web link (``/?table=KQX-482&secret=S``, from ``cardcore serve
--web-url``) opens that seat at once: the page's WebSocket goes to ``/ws/CODE/SECRET``
and the process is started with them. Request lines are not logged (a link holds a
secret).
"""

from __future__ import annotations

import copy
import logging
import re
import shlex
import sys
from typing import Any

from aiohttp import web
from textual_serve.server import Server

from cardcore.services.net.protocol import CODE_PATTERN

#: A seat's secret as ``secrets.token_urlsafe`` writes it.
SECRET_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"


def app_command(server: str) -> str:
    """The command textual-serve runs for each browser (``exec``: the app is the web
    server's own child, and leaves when it is orphaned, see ``CardcoreApp``)."""
    return "exec " + " ".join(shlex.quote(part) for part in
                              (sys.executable, "-m", "cardcore", "join", "--server", server,
                               "--remote-only"))


def seat_of(table: str | None, secret: str | None) -> tuple[str, str] | None:
    """A web link's table code and secret, when both are well formed."""
    if table and secret and re.match(CODE_PATTERN, table) and re.match(SECRET_PATTERN, secret):
        return table, secret
    return None


class WebServer(Server):
    """textual-serve's server, with the seat links and without request logs."""

    def initialize_logging(self) -> None:
        super().initialize_logging()
        logging.getLogger("aiohttp.access").setLevel(logging.WARNING)

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.router.add_get("/ws/{table}/{secret}", self.handle_seat_websocket)
        return app

    async def handle_index(self, request: web.Request) -> Any:
        context: dict[str, Any] = await Server.handle_index.__wrapped__(self, request)  # type: ignore[attr-defined]
        seat = seat_of(request.query.get("table"), request.query.get("secret"))
        if seat is not None:
            context["app_websocket_url"] += "/{}/{}".format(*seat)
        import aiohttp_jinja2

        return aiohttp_jinja2.render_template("app_index.html", request, context)

    async def handle_seat_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """The page of a seat link: the app process starts at that seat."""
        seat = seat_of(request.match_info.get("table"), request.match_info.get("secret"))
        if seat is None:
            raise web.HTTPNotFound(text="not a seat")
        view = copy.copy(self)  # the same server, one command for this browser
        view.command = f"{self.command} {shlex.quote(seat[0])} --secret {shlex.quote(seat[1])}"
        return await Server.handle_websocket(view, request)


def serve(server: str, host: str, port: int, public_url: str | None) -> int:
    """Serve until interrupted (ctrl+c)."""
    shown = host if ":" not in host else f"[{host}]"
    WebServer(app_command(server), host=host, port=port, title="cardcore",
              public_url=public_url.rstrip("/") if public_url else f"http://{shown}:{port}").serve()
    return 0
