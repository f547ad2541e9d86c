"""A table played on a server: the TableSession the table screen drives, fed by updates.

The server (``cardcore serve``) holds the match; a RemoteSession holds the last
``update`` it sent this connection (the seat's own view: its hand, never another's),
sends the player's moves as ``act`` messages, and calls the screen's listener when
something arrives (docs/tui.md, "One session, two kinds of table").
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pydantic

from cardcore.apps.tui.session import HUMAN, LogEntry, SessionSetup, hint_bot, nothing_to_explain
from cardcore.apps.tui.table_session import Listener
from cardcore.engine import complaints
from cardcore.engine.bots.search import Estimate
from cardcore.engine.game import Action, Game, GameOptions, IllegalAction, Zone
from cardcore.engine.journal import HandEnd, MatchEvent, Note
from cardcore.engine.scoresheet import ScoreSheet
from cardcore.language import _
from cardcore.services.net import protocol as p
from cardcore.services.net.client import TIMEOUT, ClientError, Connection
from cardcore.services.net.wire import RemoteAction, info_of_view, zone_from_json
from cardcore.services.plugins import Registry

#: Coming back after a dropped connection: the first wait, the longest, and for how long
#: in all before the player is asked to join again (seconds).
RECONNECT_FIRST, RECONNECT_MOST, RECONNECT_FOR = 0.2, 2.0, 120.0


class RemoteSession:
    """One seat (or a spectator's place) at a table on a server."""

    def __init__(self, registry: Registry, conn: Connection, code: str, updates: list[Any]) -> None:
        first = next(m for m in updates if isinstance(m, p.Update))
        game = registry.games.get(first.game)
        if game is None:
            raise ClientError("bad_game", _("the table plays {game}, which is not installed here")
                              .format(game=repr(first.game)))
        self._game: Game = game
        self.conn = conn
        self.code = code
        self.bot_speed: str | None = None
        self.log: list[LogEntry] = []
        self._u: p.Update = first
        self._zones: list[Zone] = []
        self._actions: list[Action] = []
        self._events: list[MatchEvent] = []
        self._listener: Listener | None = None
        self._pending = False  # a move was sent; its update has not come yet
        self._finished: tuple[int | None, list[Zone]] = (None, [])
        self._before: list[Zone] | None = None  # the table before another seat's last move
        self._problem: str | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        #: The seat's token (None: watching) and the name sat under: coming back with them.
        self._token: str | None = None
        self._name: str | None = None
        #: Coming back after the connection dropped (``_come_back``), while it runs.
        self._back: asyncio.Task[None] | None = None
        self._take(first, first=True)
        for message in updates[updates.index(first) + 1:]:
            self._on_message(message)
        conn.subscribe(code, self._on_message)

    # --- joining ---------------------------------------------------------------------

    @classmethod
    async def join(cls, registry: Registry, conn: Connection, code: str, secret: str | None,
                   name: str | None = None, *, come_back: bool = False) -> RemoteSession:
        """Take the seat of ``secret`` at table ``code`` (a seat link's invite; the client
        comes back with the seat's token it keeps: ``Connection.join``; None: watch it, or,
        with ``come_back``, first take back a seat of it this client holds a token for).
        ClientError, one line, when the server refuses (a bad code or key, a seat taken)."""
        async def sit() -> p.Joined | None:
            if secret is not None:
                return await conn.join(code, secret, name)
            back = await conn.come_back(code, name) if come_back else None
            if back is None:
                await conn.call(p.Watch(code=code))
            return back

        got, joined = await _arrive(conn, code, sit)
        session = cls(registry, conn, code, got)
        session._token, session._name = (joined.token if joined else None), name
        return session

    # --- coming back -------------------------------------------------------------------

    def _dropped(self) -> None:
        """The table's connection broke, or the server moved the table: come back by
        ourselves, with the seat's token (docs/protocol.md, "Transport")."""
        if self._closed or not self.conn.dropped or self._back is not None:
            return
        self._back = asyncio.get_running_loop().create_task(self._come_back())

    async def _come_back(self) -> None:
        """A new connection to the table (through the proxy, to whichever server holds it
        now), seated with the token, tried again with growing waits for RECONNECT_FOR."""
        loop = asyncio.get_running_loop()
        deadline, wait = loop.time() + RECONNECT_FOR, RECONNECT_FIRST
        try:
            while not self._closed and loop.time() < deadline:
                await asyncio.sleep(wait)
                wait = min(RECONNECT_MOST, 2 * wait)
                with contextlib.suppress(ClientError):
                    if await self._rejoin():
                        return
            if not self._closed:
                reason = self.conn.closed_reason
                self._problem = _("not connected to the server ({reason}): join again with your link "
                                  "to take the seat back").format(reason=reason)
                self._say(_("Could not come back to the table: {reason}.").format(reason=reason), error=True)
                self._told(False)
        finally:
            self._back = None

    async def _rejoin(self) -> bool:
        """One try: seated again (or watching) on a new connection; False: given up (the
        seat's token no longer works); ClientError: try again."""
        conn = await Connection.open(self.conn.url, self._name, table=self.code)
        token = self._token

        async def sit() -> p.Joined | None:
            if token is None:
                await conn.call(p.Watch(code=self.code))
                return None
            joined: p.Joined = await conn.call(p.Join(code=self.code, token=token, name=self._name))
            return joined

        try:
            got, _joined = await _arrive(conn, self.code, sit)
        except ClientError as exc:
            await conn.close()
            if exc.code in ("bad_secret", "no_table"):  # re-issued, or the table is gone
                self._closed_for(str(exc))
                return False
            raise
        if self._closed:
            await conn.close()
            return True
        self.conn, self._problem, self._pending = conn, None, False
        conn.subscribe(self.code, self._on_message)
        self._say(_("Back at the table."))
        for message in got:
            self._on_message(message)
        return True

    def _closed_for(self, why: str) -> None:
        self._problem = _("no longer at the table: {reason}").format(reason=why)
        self._say(_("You are no longer at the table: {reason}.").format(reason=why), error=True)
        self._told(False)

    # --- the game and who sits where ---------------------------------------------------

    @property
    def game(self) -> Game:
        return self._game

    @property
    def options(self) -> GameOptions:
        data = self._u.view.get("options")
        if isinstance(data, dict):
            with contextlib.suppress(pydantic.ValidationError):
                return self._game.Options(**data)
        return self._game.Options()

    @property
    def seats(self) -> list[str]:
        return [s.kind for s in self._u.seats]

    @property
    def names(self) -> list[str]:
        return list(self._u.names)

    @property
    def side_names(self) -> list[str]:
        return list(self._u.side_names)

    @property
    def dealer(self) -> int:
        return self._u.dealer or 0

    @property
    def humans(self) -> list[int]:
        return [] if self._u.seat is None else [self._u.seat]

    @property
    def seat(self) -> int | None:
        """This connection's seat (None: watching)."""
        return self._u.seat

    def name(self, seat: int) -> str:
        return self._u.names[seat]

    def is_bot(self, seat: int | None) -> bool:
        return seat is not None and self.seats[seat] != HUMAN

    # --- where the match is ------------------------------------------------------------

    @property
    def to_play(self) -> int | None:
        return self._u.to_play

    @property
    def over(self) -> bool:
        return self._u.over

    @property
    def hand_no(self) -> int:
        return self._u.hand_no

    @property
    def turn(self) -> int:
        """The table's turn counter in the last update."""
        return self._u.turn

    @property
    def sheet(self) -> ScoreSheet:
        s = self._u.sheet
        return ScoreSheet(list(s.side_names), s.target, list(s.rows), s.variant)  # type: ignore[arg-type]

    @property
    def winner(self) -> int | None:
        return self._u.winner

    def finished_table(self) -> tuple[int | None, list[Zone]]:
        return self._finished

    def table(self, revealed: int | None) -> tuple[int | None, list[Zone]]:
        return self._u.seat, self._zones

    def last_move_zones(self, revealed: int | None) -> list[Zone] | None:
        return self._before

    def needs_handover(self, revealed: int | None) -> bool:
        return False

    def drain_events(self) -> list[MatchEvent]:
        out, self._events = self._events, []
        return out

    # --- playing -----------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        if self._pending or self._problem or self._u.seat is None or self._u.to_play != self._u.seat:
            return []
        return list(self._actions)

    def apply(self, action: Action) -> None:
        """Send the move (IllegalAction when it is not one of the legal actions the server
        sent); the server's update (or error) comes through the listener."""
        if action not in self.legal_actions():
            raise IllegalAction(_("not one of the legal actions at this position"))
        self._pending = True
        self.conn.send_soon(p.Act(code=self.code, action=action.to_json(), turn=self._u.turn),
                            self.code)

    def why_not(self, card: str) -> str | None:
        return self._u.why_not.get(card)

    def lay_out(self, cards: Counter[str], key: Callable[[str], str]) -> list[Action]:
        """One play at a time here (the server decides what comes after it): the legal
        action that plays the most of ``cards`` and nothing else."""
        want = Counter(map(key, cards.elements()))
        fits = [a for a in self.legal_actions() if a.step is None and a.hand_cards
                and not Counter(map(key, a.hand_cards)) - want]
        return [max(fits, key=lambda a: len(a.hand_cards))] if fits else []

    def hint(self) -> Action | None:
        best = self.hints(top=1)
        return best[0].action if best else None

    def hints(self, top: int = 3) -> list[Estimate]:
        """The search's best few, searched here from this seat's view alone (the hidden
        places filled from the cards it cannot see: ``wire.info_of_view``), each given as
        the server's own listing of that action."""
        return self.hint_search(top)()

    def hint_search(self, top: int = 3) -> Callable[[], list[Estimate]]:
        u = self._u
        if u.seat is None or u.to_play != u.seat:
            return list
        mine = {a.key[0]: a for a in self.legal_actions()}  # a RemoteAction's key: its JSON
        rng = random.Random(f"hint:{u.code}:{u.hand_no}:{u.turn}")
        info = info_of_view(self.game, u.seat, u.view)

        def search() -> list[Estimate]:
            found = hint_bot().analyse(info, rng, top=top)
            return [dataclasses.replace(e, action=mine[k]) for e in found
                    if (k := json.dumps(e.action.to_json(), sort_keys=True)) in mine]
        return search

    async def why(self, turn: int | None = None) -> str:
        """The server's answer to ``why`` (docs/protocol.md), for this seat's eyes."""
        try:
            answer: p.WhyAnswer = await self.conn.call(p.WhyRequest(code=self.code, move=turn))
        except ClientError as exc:
            return nothing_to_explain(str(exc))
        return answer.text

    @property
    def drives_bots(self) -> bool:
        return False

    def bot_step(self) -> Action:
        raise RuntimeError("the server plays the bots")

    def why_no_undo(self) -> str | None:
        return _("No undo at a table on a server: every move stands as played.")

    def undo(self) -> None:
        raise RuntimeError(self.why_no_undo())

    # --- the table's surroundings ------------------------------------------------------

    @property
    def save_problem(self) -> str | None:
        return self._problem

    @property
    def waiting_for(self) -> str | None:
        """The seats nobody has claimed yet (the table waits for them: docs/protocol.md,
        Seats), else the player to play who is away and not yet stood in for."""
        u = self._u
        if u.over:
            return None
        unclaimed = [u.names[s.seat] for s in u.seats if s.open and not s.bot_playing]
        if len(unclaimed) == 1:
            return _("{name} to sit").format(name=unclaimed[0])
        if unclaimed:  # the count first: a narrow status line cuts the names
            return _("{n} players to sit: {names}").format(n=len(unclaimed), names=", ".join(unclaimed))
        away = next((s for s in u.seats if s.seat == u.to_play), None)
        if away is not None and away.kind == HUMAN and not away.connected and not away.bot_playing:
            return _("{name} to come back").format(name=u.names[away.seat])
        return None

    @property
    def match_id(self) -> int | None:
        return None

    @property
    def setup(self) -> SessionSetup | None:
        return None

    def set_speed(self, speed: str) -> None:
        self.bot_speed = speed  # the server sets the bots' pace

    @property
    def can_rematch(self) -> bool:
        return self._u.over and self._u.seat is not None and self._problem is None

    @property
    def league(self) -> str | None:
        return self._u.league

    async def league_standings(self) -> p.Standings:
        if self._u.league is None:
            raise ClientError("no_league", _("this table's match counts for no league"))
        answer: p.Standings = await self.conn.call(p.LeagueRequest(name=self._u.league))
        return answer

    def rematch(self) -> None:
        """Ask the server for a rematch; it comes once every player at the table asked."""
        self.conn.send_soon(p.Rematch(code=self.code), self.code)
        self._say(_("Asked for a rematch: it starts once every player asks."))

    @property
    def can_chat(self) -> bool:
        return self._problem is None

    def chat(self, text: str) -> None:
        """Send a chat line (ValueError, one line, when it is empty, too long or holds
        control characters)."""
        try:
            message = p.Chat(code=self.code, text=text.strip())
        except pydantic.ValidationError as exc:
            raise ValueError(_("not sent: {reason}").format(
                reason=complaints.message(exc.errors(include_url=False)[0]))) from None
        self.conn.send_soon(message, self.code)

    def listen(self, callback: Listener | None) -> None:
        self._listener = callback

    def close(self) -> None:
        """Leave the table: the seat is held by the server (a bot plays it after the grace
        period); the table's connection goes."""
        if self._closed:
            return
        self._closed = True
        self._listener = None
        if self._back is not None:
            self._back.cancel()
        self.conn.subscribe(self.code, None)
        with contextlib.suppress(RuntimeError):  # no running loop: the app is gone
            loop = asyncio.get_running_loop()
            task = loop.create_task(self.conn.close())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    # --- what the server sends -----------------------------------------------------------

    def _on_message(self, message: Any) -> None:
        moved = False
        if message is None:
            reason = self.conn.closed_reason
            self._problem = _("not connected to the server ({reason}): coming back").format(reason=reason)
            self._pending = False
            self._say(_("Lost the server: {reason}; coming back.").format(reason=reason), error=True)
            self._dropped()
        elif isinstance(message, p.Update):
            moved = self._take(message)
        elif isinstance(message, p.ChatLine):
            self.log.append(LogEntry(self._u.hand_no, message.seat, f"{message.name}: “{message.text}”",
                                     note=True))
        elif isinstance(message, p.SeatStatus):
            self._seat_status(message)
        elif isinstance(message, p.RematchStatus):
            self._rematch_status(message)
        elif isinstance(message, p.Left):  # the owner re-issued this seat's invite
            reason = message.reason or _("you left it")
            self._problem = _("no longer at the table: {reason}").format(reason=reason)
            self._pending = False
            self._say(_("You are no longer at the table: {reason}.").format(reason=reason),
                      error=True)
        elif isinstance(message, p.ErrorMessage):
            self._pending = False
            self._say(_("The server said no: {reason}").format(reason=message.message), error=True)
        self._told(moved)

    def _told(self, moved: bool) -> None:
        if self._listener is not None and not self._closed:
            self._listener(moved)

    def _take(self, u: p.Update, first: bool = False) -> bool:
        """The new update: the table, the actions, the log; True when the position moved."""
        prev = self._u
        moved = first or (u.turn, u.hand_no, u.hand_over, u.over) != \
            (prev.turn, prev.hand_no, prev.hand_over, prev.over)
        zones = [zone_from_json(z) for z in u.zones]
        if not first and moved:
            same_hand = u.hand_no == prev.hand_no and not prev.hand_over
            by_other = prev.to_play is not None and prev.to_play != u.seat
            self._before = self._zones if same_hand and by_other else None
            self._pending = False
        if u.hand_over and (first or not (prev.hand_over and prev.hand_no == u.hand_no)):
            self._finished = (u.seat, zones)
            if not first:  # the hand's score is the sheet's last row
                rows = u.sheet.rows
                self._events.append(HandEnd.make(hand=u.hand_no, score=rows[-1] if rows else {"sides": []},
                                                 totals=u.sheet.totals))
        self._u = u
        self._zones = zones
        self._actions = [RemoteAction.from_json(a) for a in u.actions]
        self.log += [LogEntry(line.hand, line.seat, line.text, line.bot, turn=line.turn) for line in u.log]
        return moved

    def _seat_status(self, s: p.SeatStatus) -> None:
        if not 0 <= s.seat < len(self._u.names):
            return
        if s.name is not None:
            self._u.names[s.seat] = s.name
        who = self._u.names[s.seat]
        if s.open:
            text = _("Seat {number} is open: it waits for its player").format(number=s.seat + 1)
        elif s.bot_playing:
            text = _("{name} is away: a bot plays the seat until they are back").format(name=who)
        elif s.connected:
            text = _("{name} is at the table").format(name=who)
        else:
            text = _("{name} left the table: the seat is held for them").format(name=who)
        for info in self._u.seats:
            if info.seat == s.seat:
                info.connected, info.bot_playing, info.open = s.connected, s.bot_playing, s.open
        self.log.append(LogEntry(self._u.hand_no, None, text, note=True))

    def _rematch_status(self, r: p.RematchStatus) -> None:
        if r.started:
            self.log = []
            self._finished = (None, [])
            self._say(_("A rematch: the new match is dealt."))
            return
        names = self._u.names
        asked = ", ".join(names[s] for s in r.agreed if s < len(names))
        waiting = ", ".join(names[s] for s in r.waiting if s < len(names))
        text = _("A rematch is asked for by {names}").format(names=asked) + (
            "; " + _("waiting for {name}").format(name=waiting) if waiting else "")
        self.log.append(LogEntry(self._u.hand_no, None, text, note=True))

    def _say(self, text: str, error: bool = False) -> None:
        self._events.append(Note.make(text=text, error=error))


async def _arrive(conn: Connection, code: str, sit: Callable[[], Awaitable[p.Joined | None]]
                  ) -> tuple[list[Any], p.Joined | None]:
    """``sit()`` (a join or a watch) on the table's connection, and what the server sent
    about the table up to its first update; ClientError, one line, when it refuses."""
    got: list[Any] = []
    first = asyncio.get_running_loop().create_future()

    def catch(message: Any) -> None:
        got.append(message)
        if (message is None or isinstance(message, p.Update)) and not first.done():
            first.set_result(None)

    conn.subscribe(code, catch)
    try:
        joined = await sit()
        await asyncio.wait_for(first, TIMEOUT)
    except TimeoutError:
        raise ClientError("closed", _("table {code}: no update came from the server")
                          .format(code=code)) from None
    finally:
        conn.subscribe(code, None)
    if got[-1] is None or not any(isinstance(m, p.Update) for m in got):
        raise ClientError("closed", conn.closed_reason or _("the server closed the connection"))
    return got, joined
