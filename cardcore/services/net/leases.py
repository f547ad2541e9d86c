"""A server's lease on its tables, when several servers share one library (docs/hosting.md,
"Several server processes").

Every ``RENEW_EVERY`` the server renews its lease in the library (``MatchStore.lease``,
``LEASE_TTL`` ahead) and looks at every table not over: a table it holds whose place is
now another live server's (``placement.holder``: its home came back) is handed over (its
connections are closed with 1012, and its players' clients come back through the proxy, to
the server the same rule names); a table whose holder is dead (its process gone, or its
lease expired) and whose place is this server is taken over, from the library, at its last
committed action. A connection to a table this server does not hold (``/play/CODE``, sent
here by the proxy) takes it over at once when its holder is dead, or is closed with 1013
(try again) while another live server still holds it. The library fences every commit by
its claim (``commits.write``), so a server that stalled past its lease writes nothing once
another took its tables: its writer reports them lost, and it drops them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from cardcore.services.net import placement
from cardcore.services.store import MatchLocked, StoreError

if TYPE_CHECKING:
    from cardcore.services.net.persist import Writer
    from cardcore.services.net.server import Server

log = logging.getLogger("cardcore.serve")

#: How often the lease is renewed and the tables looked at (seconds).
RENEW_EVERY = 1.0
#: How long a lease lasts unrenewed (seconds): a stalled server's tables are taken after it.
LEASE_TTL = 4.0


class Moved(Exception):
    """Another live server holds the table."""


class Leases:
    def __init__(self, server: Server) -> None:
        self.server = server
        #: This server's lease token (its claims' holder), once taken.
        self.token: str | None = None
        self._tasks: list[asyncio.Task[None]] = []
        #: Takes one table at a time (a tick and the connections to a table not held here).
        self._taking = asyncio.Lock()

    async def start(self) -> None:
        """The lease taken; a lone server's tables resumed before it listens. A server among
        several looks at the tables as it starts listening, and every second after: its
        tables' players, sent to it by the proxy meanwhile, take theirs at once (``fetch``)."""
        await self.renew()
        self._tasks = [asyncio.ensure_future(self._every(self.renew))]
        if self.server.config.slots > 1:
            self._tasks.append(asyncio.ensure_future(self._every(self.look, at_once=True)))
        else:  # a lone server has no other's tables to take or give back
            await self.look()

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()

    @staticmethod
    async def _every(step: Callable[[], Awaitable[None]], at_once: bool = False) -> None:
        """``step`` every RENEW_EVERY (``at_once``: first now): the renewals apart from the
        looks, so that taking over many tables (seconds, under load) never lets this
        server's own lease expire."""
        while True:
            if not at_once:
                await asyncio.sleep(RENEW_EVERY)
            at_once = False
            try:
                await step()
            except StoreError as exc:
                log.warning("the lease: %s", exc)
            except Exception:  # noqa: BLE001 - a fault here must not end the renewals
                log.exception("the lease's work failed")

    async def renew(self) -> None:
        """The lease renewed, with the public tables this server lists."""
        server, config = self.server, self.server.config
        writer = self._writer()
        listing = server.public_listing() if config.slots > 1 else []  # a lone server's lobby is its own
        # not behind the library thread's queue (a takeover's reads): one call's wait at most
        self.token = await asyncio.to_thread(server.store.lease, config.slot, LEASE_TTL, listing)
        writer.holder = self.token

    async def look(self) -> None:
        """Hand over the tables whose place is another live server's; take over the dead
        servers' tables whose place is this one."""
        server, config = self.server, self.server.config
        writer, store = self._writer(), server.store
        live = await writer.call(store.live_leases)
        slots = {*live.values(), config.slot}
        for code, match_id, holder in await writer.call(store.held_tables):
            place = placement.holder(code, config.slots, slots)
            table = server.tables.get(code)
            if table is not None:
                if place != config.slot and table.match_id == match_id:
                    server.hand_over(table, f"table {code} moved to another server: come back")
            elif place == config.slot and (holder is None or holder not in live) \
                    and code not in server.skipped:
                with contextlib.suppress(Moved):  # taken by another server meanwhile
                    await self._take(code)

    def _writer(self) -> Writer:
        writer = self.server.writer
        assert writer is not None, "the server has not started"
        return writer

    async def elsewhere(self) -> list[dict[str, Any]]:
        """The public tables the other live servers list (for the lobby)."""
        listings = await self._writer().call(self.server.store.listings)
        return [t for holder, tables in listings.items() if holder != self.token for t in tables]

    async def fetch(self, code: str) -> None:
        """Table ``code``, asked for here and not held: taken over if its holder is dead
        (Moved while another live server holds it; nothing if there is no such table)."""
        writer, store = self._writer(), self.server.store
        row = await writer.call(store.net_table, code)
        if row is None:
            return
        holder = row[3]
        if holder is not None and holder != self.token and holder in await writer.call(store.live_leases):
            raise Moved(code)
        await self._take(code)

    async def _take(self, code: str) -> None:
        async with self._taking:
            if code in self.server.tables:
                return
            row = await self._writer().call(self.server.store.net_table, code)
            if row is None or row[1] not in ("waiting", "playing"):
                return
            try:
                await self.server.resume(code, row[0], row[2])
            except MatchLocked:
                raise Moved(code) from None
            log.info("table %s: taken over", code)
