"""A server's leagues (docs/leagues.md, "At a server"): the leagues of its library, a
``create_table`` naming one, each such match added once it is finished, and the ``league``
message answered with ``standings``.

Everything here reads and writes the library on the server's thread for it (``Writer.call``),
in order with the rest, through one ``LeagueBook`` made on that thread. A match of a league
table is held for its league (``LeagueBook.pend``) when the table is made (and for a rematch
at it); the table's hold on the match (its ``lock``) is wrapped (``LeagueHold``) so that when
it is let go, once the match's last commit is written, the finished match is added
(``LeagueBook.settle``).
"""

from __future__ import annotations

import logging
from typing import Any

from cardcore.engine.match import Match
from cardcore.services.league import League
from cardcore.services.league.book import LeagueBook
from cardcore.services.league.standings import standings
from cardcore.services.net import protocol
from cardcore.services.net.persist import Writer
from cardcore.services.net.protocol import MAX_LISTED_LEAGUES, LeagueRequest, ListLeagues
from cardcore.services.net.tables import TableError
from cardcore.services.store import MatchStore, NoSuchMatch, StoreError

log = logging.getLogger("cardcore.serve")


class LeagueDesk:
    def __init__(self, store: MatchStore):
        self.store = store
        self._book: LeagueBook | None = None

    def book(self) -> LeagueBook:
        """The book (made on the library's thread, the one that uses it)."""
        if self._book is None:
            self._book = LeagueBook(self.store)
        return self._book

    def close(self) -> None:
        if self._book is not None:
            self._book.close()

    # --- create_table and rematch ---------------------------------------------------------

    async def league_for(self, writer: Writer, name: str, match: Match) -> League:
        """The league a new table names, checked against its match: ``no_league``, or
        ``bad_game`` when the match is of another game or options."""
        league = await writer.call(self._league, name)
        options = match.options.model_dump(mode="json")
        if match.game.id != league.game or options != league.options:
            raise TableError("bad_game", f"league {name} plays {league.game} with its own options "
                             f"({', '.join(f'{k}={v}' for k, v in sorted(league.options.items()))})")
        if len(match.seats) != 4:
            raise TableError("bad_game", f"league {name} plays two partnerships of two")
        return league

    @staticmethod
    def players_of(league: League | None) -> frozenset[str]:
        """The league's players (``player_key``): the seats of its table named for them keep
        their names when claimed (``Table.league_players``)."""
        if league is None:
            return frozenset()
        return frozenset().union(*(p.keys() for p in league.partnerships))

    async def players(self, writer: Writer, name: str | None) -> frozenset[str]:
        """``players_of`` the league called ``name`` (none if there is no such league now)."""
        if name is None:
            return frozenset()
        try:
            return self.players_of(await writer.call(self._league, name))
        except (TableError, StoreError):
            return frozenset()

    def _league(self, name: str) -> League:
        try:
            return self.book().get(name)
        except StoreError as exc:
            raise TableError("no_league", str(exc)) from None

    async def pend(self, writer: Writer, league: League, match_id: int) -> None:
        await writer.call(self.book().pend, league, match_id)

    async def follow(self, writer: Writer, old_match: int, new_match: int) -> None:
        """A rematch at a league table is held for the same league (if the library cannot
        say or write it, the rematch is played all the same, and the log says so)."""
        try:
            league = await writer.call(self.book().pending_league, old_match)
            if league is not None:
                await self.pend(writer, league, new_match)
        except StoreError as exc:
            log.warning("match %d is not held for a league: %s", new_match, exc)

    async def settle_finished(self, writer: Writer) -> None:
        """At start: the league matches that finished while no hold was let go (a server
        killed between the last commit and the release) added now."""
        for match_id in await writer.call(lambda: self.book().unsettled()):
            await writer.call(self.settle, match_id)

    def hold(self, lock: Any) -> LeagueHold:
        return LeagueHold(lock, self)

    def settle(self, match_id: int) -> None:
        """On the library's thread: the match, if finished and held for a league, added."""
        try:
            entry = self.book().settle(match_id)
        except NoSuchMatch:  # deleted meanwhile (a table that could not be made): nothing to add
            self.book().forget(match_id)
            return
        except StoreError as exc:  # its sides are no partnerships, ...: said, the match kept
            log.warning("match %d is not added to its league: %s", match_id, exc)
            return
        if entry is not None:
            log.info("match %d added to its league (entry %d)", match_id, entry.id)

    # --- the league and leagues messages --------------------------------------------------

    async def reply(self, writer: Writer, conn: Any, message: LeagueRequest | ListLeagues) -> None:
        """Send ``conn`` the league's ``standings`` (the error ``no_league`` if none), or the
        list of the leagues."""
        try:
            if isinstance(message, ListLeagues):
                body = await writer.call(self._leagues)
            else:
                body = await writer.call(self._standings, message.name)
        except TableError as exc:
            conn.send(protocol.frame(protocol.error(exc.code, str(exc), message.id)))
            return
        except StoreError as exc:
            conn.send(protocol.frame(protocol.error("server_error", str(exc), message.id)))
            return
        conn.send(protocol.frame({"v": protocol.PROTOCOL_VERSION, "id": message.id, **body}))

    def _leagues(self) -> dict[str, Any]:
        leagues = self.book().leagues()[-MAX_LISTED_LEAGUES:]
        return {"type": "leagues",
                "leagues": [{"name": lg.name, "game": lg.game, "season": lg.season} for lg in leagues]}

    def _standings(self, name: str) -> dict[str, Any]:
        league = self._league(name)
        s = standings(league, self.book().entries(league))
        return {"type": "standings", "league": league.name, "game": league.game, "options": league.options,
                "season": league.season,
                "entries": len(s.entries),
                "teams": [{"name": t.name, "players": list(t.players), "played": t.played, "won": t.won,
                           "lost": t.lost, "drawn": t.drawn, "forfeits": t.forfeits,
                           "points_for": t.points_for, "points_against": t.points_against,
                           "mu": round(t.rating.mu, 3), "sigma": round(t.rating.sigma, 3)} for t in s.teams],
                "players": [{"name": p.name, "partnership": p.partnership, "played": p.played, "won": p.won,
                             "mu": round(p.rating.mu, 3), "sigma": round(p.rating.sigma, 3)}
                            for p in s.players]}


class LeagueHold:
    """A table's hold on its match (``OpenMatch``): let go, a finished league match is added
    to its league (``Writer.close_later`` lets it go on the library's thread, once the
    match's last commit is written)."""

    def __init__(self, held: Any, desk: LeagueDesk):
        self.held = held
        self.desk = desk
        self.id: int = held.id

    def __getattr__(self, name: str) -> Any:
        return getattr(self.held, name)

    def close(self) -> None:
        self.held.close()
        self.desk.settle(self.id)
