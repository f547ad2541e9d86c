"""``cardcore web``: the Textual front end served to browsers by textual-serve.

Each browser page gets its own ``cardcore join --server URL --remote-only`` process: the
server's tables (create, sit, watch) and nothing of this machine's library, saves or
statistics. Request lines are not logged (a link holds a secret).

- The page (templates/index.html) keeps a random key in the browser's storage and opens
  its WebSocket at ``/ws/KEY``; the process gets ``CARDCORE_SEATS_DIR``, a folder of its
  own under the data dir named after the key's hash, where the client keeps the tokens
  of the seats it holds: only that browser comes back to them.
- A seat's web link (``/?table=KQX-482&secret=S``, from ``cardcore serve --web-url``)
  opens that seat at once: the WebSocket goes to ``/ws/KEY/CODE/S``, the process is
  started with the code on its command line and the secret in its environment
  (``CARDCORE_SECRET``): a command line is in ``ps`` for every local user, an environment
  only for the same user.
- A WebSocket from a page of another origin is refused (403, ``origins.Origins``); the
  processes are capped per client address (429) and in all (503); the page says so.
- Each page speaks its player's language (``page_language``): the one they chose (the
  page's address with ``?lang=id``, kept in a cookie; else ``cardcore web --lang``), else
  the first of the browser's Accept-Language that cardcore speaks, else English. The app
  process gets it as ``CARDCORE_LANG`` (docs/languages.md).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from cardcore.apps.args import SECRET_ENV
from cardcore.language import LANGUAGES, N_, _, normal, speaking
from cardcore.services.files import data_dir
from cardcore.services.net.origins import Origins, is_loopback
from cardcore.services.net.protocol import CODE_PATTERN
from cardcore.services.net.seat_book import SEATS_ENV

#: A seat's invite in a web link: its four words joined by dashes (``invites``), or an
#: older one as ``secrets.token_urlsafe`` wrote it.
SECRET_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
#: A browser's key: URL-safe base64 of 16 to 48 random bytes (the page makes 32).
KEY_PATTERN = r"^[A-Za-z0-9_-]{22,64}$"
#: The largest terminal a page may ask for (a 4K screen in a small font is ~480 by 135).
MAX_COLUMNS, MAX_ROWS = 1000, 400
#: How long an app process has to quit after its page is gone, before it is killed (seconds).
STOP_WAIT = 10.0
TEMPLATES = Path(__file__).parent / "templates"
#: The cookie a page keeps its player's chosen language in (set by ``?lang=CODE``).
LANGUAGE_COOKIE = "cardcore-lang"
#: An Accept-Language header is read up to this many characters (a browser's is ~50).
MAX_ACCEPT_CHARS = 500
#: The page's own words, in its language (templates/index.html).
PAGE_WORDS = {"try_again": N_("Try again"), "start": N_("Start"), "ended": N_("Session ended."),
              "restart": N_("Restart")}

log = logging.getLogger("cardcore.web")


def accepted(header: str | None) -> list[str]:
    """The languages of an Accept-Language header, most wanted first (``q`` weights; equal
    weights in the header's order; ``*`` and malformed entries skipped)."""
    weighted: list[tuple[float, int, str]] = []
    for i, entry in enumerate((header or "")[:MAX_ACCEPT_CHARS].split(",")):
        tag, _semi, params = entry.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        if re.fullmatch(r"[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*", tag) and weight > 0:
            weighted.append((-weight, i, tag))
    return [tag for _w, _i, tag in sorted(weighted)]


def page_language(chosen: str | None, accept_language: str | None) -> str:
    """The language a browser's page and app speak: ``chosen`` (the player's, when cardcore
    speaks it), else the first of the browser's languages that cardcore speaks, else English."""
    for tag in ([chosen] if chosen else []) + accepted(accept_language):
        if normal(tag) in LANGUAGES:
            return normal(tag)
    return "en"


@dataclass(frozen=True)
class WebConfig:
    """``cardcore web``'s settings (docs/hosting.md, Playing in a browser)."""

    server: str
    host: str = "127.0.0.1"
    port: int = 8000
    #: The address browsers use (a proxy's https://…); default http://HOST:PORT.
    public_url: str | None = None
    #: Page origins let in besides the public URL's (and, on loopback, loopback names at this port).
    origins: tuple[str, ...] = ()
    #: App processes at once, in all and per client address (0: no limit).
    max_apps: int = 20
    max_apps_per_client: int = 4
    #: The language ``cardcore web --lang`` (or CARDCORE_LANG) chose for every page a player
    #: has not chosen one for; None: each browser's Accept-Language.
    language: str | None = None

    @property
    def url(self) -> str:
        shown = self.host if ":" not in self.host else f"[{self.host}]"
        return self.public_url.rstrip("/") if self.public_url else f"http://{shown}:{self.port}"


def app_command(server: str) -> str:
    """The command textual-serve runs for each browser (``exec``: the app is the web
    server's own child, and leaves when it is orphaned, see ``CardcoreApp``)."""
    return "exec " + " ".join(shlex.quote(part) for part in
                              (sys.executable, "-m", "cardcore", "join", "--server", server,
                               "--remote-only"))


def seat_of(table: str | None, secret: str | None) -> tuple[str, str] | None:
    """A web link's table code and secret, when both are well formed."""
    if table and secret and re.fullmatch(CODE_PATTERN, table) and re.fullmatch(SECRET_PATTERN, secret):
        return table, secret
    return None


def seats_dir(root: Path, key: str) -> Path:
    """The folder of a browser's seat tokens: named after its key's hash (the key itself
    is never written down)."""
    if not re.fullmatch(KEY_PATTERN, key):
        raise ValueError("not a browser key")  # not translated: checked before, never shown
    return root / hashlib.sha256(key.encode()).hexdigest()[:32]


def screen_size(width: Any, height: Any) -> tuple[int, int]:
    """A page's terminal size, within bounds (a page asks for it: no screen of a million
    columns for the app to draw)."""
    width = width if type(width) is int else 80
    height = height if type(height) is int else 24
    return min(max(width, 1), MAX_COLUMNS), min(max(height, 1), MAX_ROWS)


class App(AppService):
    """One browser's process, with an environment of its own."""

    def __init__(self, command: str, env: dict[str, str], **kwargs: Any):
        super().__init__(command, **kwargs)
        self.env = env

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width, height)
        environment.pop(SECRET_ENV, None)  # none of the web server's own
        environment.update(self.env)
        return environment

    async def start(self, width: int, height: int) -> None:
        await super().start(*screen_size(width, height))

    async def set_terminal_size(self, width: int, height: int) -> None:
        await super().set_terminal_size(*screen_size(width, height))

    async def close(self) -> None:
        """Ask the process to quit; kill it if it has not within ``STOP_WAIT``."""
        try:
            await asyncio.wait_for(self.stop(), STOP_WAIT)
        except TimeoutError:
            log.warning("an app process did not quit in %s s: killed", STOP_WAIT)
        process = self._process
        if process is not None and process.returncode is None:
            process.kill()
            await process.wait()


class WebServer(Server):
    """textual-serve's server, with the browser keys, the seat links, the Origin check and
    the caps, and without request logs."""

    def __init__(self, config: WebConfig):
        super().__init__(app_command(config.server), host=config.host, port=config.port,
                         title="cardcore", public_url=config.url, templates_path=TEMPLATES)
        self.config = config
        self.origins = Origins((config.url, *config.origins), loopback=is_loopback(config.host),
                               loopback_port=config.port)
        self.seats_root = data_dir() / "web-seats"
        #: App processes running, per client address.
        self.running: dict[str, int] = {}

    def initialize_logging(self) -> None:
        super().initialize_logging()
        logging.getLogger("aiohttp.access").setLevel(logging.WARNING)

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()  # its /ws has no key: refused (an old page)
        app.router.add_get("/ws/{key}", self.handle_websocket)
        app.router.add_get("/ws/{key}/{table}/{secret}", self.handle_websocket)
        return app

    def language_of(self, request: web.Request) -> str:
        """The language of ``request``'s page (``page_language``): the page's ``?lang=`` or
        its cookie, else ``cardcore web --lang``, else the browser's Accept-Language."""
        chosen = request.query.get("lang") or request.cookies.get(LANGUAGE_COOKIE)
        if not chosen or normal(chosen) not in LANGUAGES:
            chosen = self.config.language
        return page_language(chosen, request.headers.get("Accept-Language"))

    def refusal(self, address: str) -> tuple[type[web.HTTPException], str] | None:
        """Why a client at ``address`` may not start one more app process now, if so: the
        HTTP error and one line for the page (in the language in use)."""
        config, held = self.config, self.running.get(address, 0)
        if config.max_apps and sum(self.running.values()) >= config.max_apps:
            return (web.HTTPServiceUnavailable,
                    _("This server has {n} games open, its most: try again in a while.").format(
                        n=config.max_apps))
        if config.max_apps_per_client and held >= config.max_apps_per_client:
            return (web.HTTPTooManyRequests,
                    _("{n} games are open from your address, the most there may be: close one (its "
                      "tab) and try again.").format(n=held))
        return None

    async def handle_index(self, request: web.Request) -> Any:
        context: dict[str, Any] = await Server.handle_index.__wrapped__(self, request)  # type: ignore[attr-defined]
        language = self.language_of(request)
        with speaking(language):
            refused = self.refusal(request.remote or "")
            context["words"] = {key: _(words) for key, words in PAGE_WORDS.items()}
        context["language"] = language
        if refused is not None:
            context["refused"] = refused[1]
            return aiohttp_jinja2.render_template("index.html", request, context,
                                                  status=refused[0].status_code)
        seat = seat_of(request.query.get("table"), request.query.get("secret"))
        context["seat_path"] = "/{}/{}".format(*seat) if seat else ""
        return aiohttp_jinja2.render_template("index.html", request, context)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """A page's WebSocket: checked, counted, then its own app process."""
        if not self.origins.allows(request.headers.get("Origin")):
            log.info("refused a WebSocket from another origin")
            raise web.HTTPForbidden(text="cardcore web: a page of this origin may not connect\n")
        key, table = request.match_info.get("key", ""), request.match_info.get("table")
        if not re.fullmatch(KEY_PATTERN, key):
            raise web.HTTPBadRequest(text="cardcore web: no browser key: reload the page\n")
        seat = seat_of(table, request.match_info.get("secret")) if table is not None else None
        if table is not None and seat is None:
            raise web.HTTPNotFound(text="cardcore web: not a seat\n")
        address = request.remote or ""
        language = self.language_of(request)
        with speaking(language):
            refused = self.refusal(address)
        if refused is not None:
            raise refused[0](text=f"cardcore web: {refused[1]}\n")
        self.running[address] = self.running.get(address, 0) + 1
        try:
            command = self.command + (f" {shlex.quote(seat[0])}" if seat else "")
            return await self._run(request, command, self._env(key, seat, language))
        finally:
            self.running[address] -= 1
            if not self.running[address]:
                del self.running[address]

    def _env(self, key: str, seat: tuple[str, str] | None, language: str) -> dict[str, str]:
        """A browser's process's own environment: its seats' folder, the seat's secret, its
        language."""
        folder = seats_dir(self.seats_root, key)
        try:  # both ours alone (the data dir above them is the user's)
            folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            folder.mkdir(mode=0o700, exist_ok=True)
        except OSError as exc:  # the client says so when it cannot keep a token
            log.warning("cannot make a browser's seats folder: %s", exc.strerror or exc)
        return {SEATS_ENV: str(folder), "CARDCORE_LANG": language, **({SECRET_ENV: seat[1]} if seat else {})}

    async def _run(self, request: web.Request, command: str, env: dict[str, str]) -> web.WebSocketResponse:
        """textual-serve's ``handle_websocket`` with a process of ours, always gone (quit or
        killed) when this returns."""
        websocket = web.WebSocketResponse(heartbeat=15)
        app = App(command, env, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                  close=websocket.close, download_manager=self.download_manager, debug=self.debug)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        try:
            await websocket.prepare(request)
            await app.start(width, height)
            await self._process_messages(websocket, app)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # a malformed message: this page closes, the server goes on
            # one line: a traceback's locals would show the seat's secret
            log.warning("a page's connection ended: %s", type(error).__name__)
        finally:
            await app.close()
        return websocket


def serve(config: WebConfig) -> int:
    """Serve until interrupted (ctrl+c)."""
    WebServer(config).serve()
    return 0
