"""One table of a server: the table service of its match, the connections at it.

The match's life at the table (seats, turns, bots and stand-ins, the log, the
transaction around a move, keeping it in the library) is ``cardcore.services.table_service``'s,
the same service the table on a player's own machine runs. What is the server's own is
here: the seats' claims (``cardcore.services.net.seats``) and connections, the grace
period before a stand-in bot plays for someone away, the bots' pacing (``bot_work``
chooses their moves), and telling every connection. An action from a connection is
checked (seat, turn counter, legality) and applied, or refused with a ``TableError`` that
goes to that connection alone, nothing changed.
After every change each connection gets the update of its own seat
(``cardcore.services.net.views``), once the library holds the change: every frame sent
here waits for this match's writes queued before it (``after``; ``persist.Gate``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from cardcore.engine.bots.base import Bot
from cardcore.engine.bots.why import Choice
from cardcore.engine.game import Action, GameState, IllegalAction
from cardcore.engine.journal import MatchEvent
from cardcore.engine.match import Match
from cardcore.engine.people import distinct_name, seat_key
from cardcore.language import ENGLISH, speaking
from cardcore.services.league import player_key
from cardcore.services.net import views
from cardcore.services.net.bot_work import BotFailed, BotWork
from cardcore.services.net.persist import Writer
from cardcore.services.net.protocol import PROTOCOL_VERSION, fragment, frame
from cardcore.services.net.seats import Peer, Seat, matches
from cardcore.services.plugins import Registry
from cardcore.services.table_service import MoveFailed, Refused, TableService

log = logging.getLogger("cardcore.serve")

#: Refused: an error ``code`` (docs/protocol.md) and one line, for the sender alone.
TableError = Refused


@dataclass
class WriterKeeper:
    """A server table's ``Keeper``: its moves go to the library through the server's
    ``Writer`` (group commits, by its writer process)."""

    writer: Writer
    match_id: int

    def commit(self, events: list[MatchEvent], snapshot: dict[str, Any]) -> None:
        self.writer.commit(self.match_id, events, snapshot)


@dataclass
class TableConfig:
    #: How long a dropped seat is held before a bot plays it (seconds).
    grace: float = 60.0
    #: The bot that plays a human seat while its player is away.
    standin: str = "greedy"
    #: A pause before each bot move, so people can follow (seconds).
    bot_delay: float = 0.6
    #: Spectators a table takes at most.
    max_watchers: int = 50


@dataclass
class Shown:
    """What an update shows: the hand in play, or the one that just ended."""

    state: GameState
    hand_no: int
    dealer: int | None
    hand_over: bool


class Table:
    def __init__(self, code: str, service: TableService, seats: list[Seat], match_id: int, *,
                 registry: Registry, config: TableConfig, writer: Writer, bot_work: BotWork,
                 lock: Any = None, on_empty: Callable[[Table], None] | None = None,
                 public: bool = False, chosen_seed: bool = False, owner_hash: str | None = None,
                 hot_seat: bool = False, standin_open: bool = False, league: str | None = None,
                 league_players: frozenset[str] = frozenset()):
        self.code = code
        #: The server's league this table's matches count for (its rematches too), and its
        #: players (``player_key``).
        self.league = league
        self.league_players = league_players
        #: The owner's key (SHA-256): it re-issues invites.
        self.owner_hash = owner_hash
        #: One connection may hold several human seats.
        self.hot_seat = hot_seat
        #: A stand-in bot plays every human seat nobody has claimed (else the table waits).
        self.standin_open = standin_open
        self.service = service
        #: The match deals from a seed its creator chose (a server that allows it): every
        #: update says so, since whoever chose it can know every hand.
        self.chosen_seed = chosen_seed
        #: Listed for everyone (else only for whoever made it or sits at it).
        self.public = public
        #: When something last happened here (``time.monotonic()``): an idle table expires.
        self.active = time.monotonic()
        self.seats = seats
        self.match_id = match_id
        self.registry = registry
        self.config = config
        self.writer = writer
        self.bot_work = bot_work
        #: The match's lock in the library (released when the match is over).
        self.lock = lock
        self.on_empty = on_empty
        self.watchers: dict[Peer, int | None] = {}
        self._cursor: dict[Peer, int] = {}
        #: The seats whose players asked for a rematch (the match is over).
        self.rematch_votes: set[int] = set()
        #: Deals the rematch once every human seat asked (the server: it makes the match).
        self.on_rematch: Callable[[Table], Any] | None = None
        self._rematching = False
        self._bot_task: asyncio.Task[None] | None = None
        #: The score sheet's JSON per language, with what it was encoded for (``_sheet``).
        self._sheet_json: dict[str, tuple[tuple[int, tuple[str, ...]], orjson.Fragment]] = {}
        self._stand_in_for_open()

    @property
    def match(self) -> Match:
        return self.service.match

    # --- who is here --------------------------------------------------------------------

    @property
    def status(self) -> str:
        """``waiting`` while a human seat nobody has claimed is not stood in for."""
        if self.match.over:
            return "over"
        if self.standin_open or all(s.claimed for s in self.seats if s.human):
            return "playing"
        return "waiting"

    def seat_of(self, peer: Peer) -> int | None:
        """The seat the peer plays now (None: a spectator); TableError when it is not at the
        table. A hot-seat connection plays the seat to play among those it holds."""
        if peer not in self.watchers:
            raise TableError("no_table", f"you are not at table {self.code}: join or watch it first")
        seat = self.watchers[peer]
        if self.hot_seat and seat is not None:
            to_play = self.match.to_play
            if to_play is not None and self.seats[to_play].peer is peer:
                return to_play
        return seat

    def seats_json(self) -> list[dict[str, Any]]:
        names = self.match.seating.names
        return [{"seat": i, "name": names[i], "kind": s.kind, "connected": s.peer is not None,
                 "bot_playing": i in self.service.away, "open": s.human and not s.claimed}
                for i, s in enumerate(self.seats)]

    def info(self) -> dict[str, Any]:
        return {"code": self.code, "game": self.match.game.id, "players": len(self.seats),
                "seats": self.seats_json(), "status": self.status, "hand_no": self.match.hand_no,
                "public": self.public, "chosen_seed": self.chosen_seed, "hot_seat": self.hot_seat,
                "standin_open": self.standin_open, "league": self.league}

    def row(self) -> dict[str, Any]:
        """The table's row in the library (``net_tables.data``)."""
        return {"seats": [s.to_json() for s in self.seats], "public": self.public,
                "standin_turns": self.service.standin_turns, "chosen_seed": self.chosen_seed,
                "owner": self.owner_hash, "hot_seat": self.hot_seat,
                "standin_open": self.standin_open, **({"league": self.league} if self.league else {})}

    def save_row(self, status: str | None = None) -> None:
        self.writer.put_table(self.code, self.match_id, status or self.status, self.row())

    def idle_for(self, now: float) -> float | None:
        """How long nobody has been at the table and nothing happened at it (seconds), or
        None while someone is at it."""
        return None if self.watchers else now - self.active

    def abandon(self) -> None:
        """Nobody came back: the table closes. Its row says ``abandoned`` (a restarted server
        leaves it), its match stays in the library, unfinished, and its lock is released."""
        self.close()
        self.save_row("abandoned")
        self.let_go()

    def join(self, peer: Peer, *, invite: str | None = None, token: str | None = None,
             name: str | None = None, request_id: int | None = None) -> int:
        """Seat ``peer``: claim a seat with its ``invite`` (once; ``name`` names the seat), or
        come back to it with its ``token``. Nothing changes when it is refused."""
        if not peer.open:
            raise TableError("no_table", "the connection is closing")
        seat = self._seat_for_key(invite, token)
        held = self.seats[seat]
        if invite is not None and held.claimed:
            raise TableError("seat_taken", f"seat {seat + 1}'s invite has been used: ask the table's "
                             "owner for a new one")
        if held.peer is not None and held.peer is not peer:
            raise TableError("seat_taken", f"seat {seat + 1} is played from another connection")
        if peer in self.watchers:
            present = self.watchers[peer]
            if present is None:
                raise TableError("seat_taken", f"you watch table {self.code}: leave it first")
            if present != seat and not self.hot_seat:
                raise TableError("seat_taken", f"you hold seat {present + 1} of table {self.code}: "
                                 "one seat a connection (the table is not hot-seat)")
        if invite is not None:
            token = held.claim()
            # a name another seat has: "Ann (2)"; the person key tells them apart
            if name and not self._league_named(seat):
                names = self.match.seating.names
                taken = [n for i, n in enumerate(names) if i != seat]
                self.service.rename(seat, distinct_name(name, taken), seat_key(token))
            self.save_row()
        assert token is not None
        self._bind(peer, seat)
        peer.send(_frame({"type": "joined", "code": self.code, "seat": seat, "token": token,
                          "name": self.match.seating.names[seat], "id": request_id}), self.after())
        self._seat_status(seat)
        if invite is not None and self.status == "playing":  # a claim may start play for everyone
            self.broadcast()
        else:
            self._send_update(peer)
        self.schedule()
        return seat

    def _league_named(self, seat: int) -> bool:
        """A seat of a league table named for one of the league's players: it keeps its name
        when claimed (the league counts its matches by the players' names, docs/leagues.md)."""
        return player_key(self.match.seating.names[seat]) in self.league_players

    def _seat_for_key(self, invite: str | None, token: str | None) -> int:
        for i, held in enumerate(self.seats):
            if (held.invited_by(invite) if invite is not None
                    else token is not None and matches(token, held.token_hash)):
                return i
        raise TableError("bad_secret", f"that is not an invite or a token of a seat of table {self.code}")

    def _bind(self, peer: Peer, seat: int) -> None:
        """The seat is played from ``peer`` (bindings end with the connection: ``leave``)."""
        held = self.seats[seat]
        held.peer = peer
        held.stop_grace()
        self.service.set_away(seat, False)
        self.active = time.monotonic()
        if peer not in self.watchers:
            self.watchers[peer] = seat
            self._cursor[peer] = self._hand_log_start()
            peer.tables.add(self.code)

    def watch(self, peer: Peer, request_id: int | None = None) -> None:
        if not peer.open:
            raise TableError("no_table", "the connection is closing")
        if peer in self.watchers:
            raise TableError("seat_taken", f"you are already at table {self.code}")
        if sum(1 for s in self.watchers.values() if s is None) >= self.config.max_watchers:
            raise TableError("too_many", f"table {self.code} has as many spectators as it takes")
        self.watchers[peer] = None
        peer.tables.add(self.code)
        self.active = time.monotonic()
        self._cursor[peer] = self._hand_log_start()
        peer.send(_frame({"type": "watching", "code": self.code, "id": request_id}), self.after())
        self._send_update(peer)
        self.schedule()

    def leave(self, peer: Peer) -> None:
        """The peer leaves (or its connection dropped): its seats are held for the grace period."""
        self._forget(peer)
        self.active = time.monotonic()
        for seat, held in enumerate(self.seats):
            if held.peer is peer:
                self._unbind(seat)
        if not self.watchers and self.match.over and self.on_empty is not None:
            self.on_empty(self)

    def _unbind(self, seat: int) -> None:
        held = self.seats[seat]
        held.peer = None
        if not self.match.over and held.claimed:
            loop = asyncio.get_running_loop()
            held.grace = loop.call_later(self.config.grace, self._grace_over, seat)
        self._seat_status(seat)

    def reissue(self, seat: int, owner: str) -> str:
        """The owner's new invite for ``seat`` (returned): the seat is unclaimed, its old
        invite and token void, and its player (if connected) leaves the table."""
        if not matches(owner, self.owner_hash):
            raise TableError("bad_secret", f"that is not the owner's key of table {self.code}")
        if not 0 <= seat < len(self.seats) or not self.seats[seat].human:
            raise TableError("bad_field", f"seat {seat + 1} is not a human seat of table {self.code}")
        held = self.seats[seat]
        peer = held.peer
        invite = held.reissue()
        held.stop_grace()
        held.peer = None
        self.service.set_away(seat, self.standin_open)
        self.save_row()
        if peer is not None:
            self._evict(peer, seat)
        self._seat_status(seat)
        self.broadcast()
        self.schedule()
        return invite

    def _evict(self, peer: Peer, seat: int) -> None:
        """``peer`` no longer holds ``seat``; holding no other, it leaves the table (told so)."""
        others = [i for i, s in enumerate(self.seats) if s.peer is peer]
        if others:
            self.watchers[peer] = others[0]
            return
        self._forget(peer)
        peer.send(_frame({"type": "left", "code": self.code,
                          "reason": f"the table's owner gave seat {seat + 1} a new invite"}), self.after())

    def _forget(self, peer: Peer) -> None:
        """``peer`` is no longer at the table (what it held is the caller's to free)."""
        self.watchers.pop(peer, None)
        self._cursor.pop(peer, None)
        peer.tables.discard(self.code)

    def start_grace(self) -> None:
        """After a restart: every claimed seat waits for its player for the grace period."""
        loop = asyncio.get_running_loop()
        for i, held in enumerate(self.seats):
            if held.human and held.claimed and held.peer is None and i not in self.service.away:
                held.grace = loop.call_later(self.config.grace, self._grace_over, i)

    def _stand_in_for_open(self) -> None:
        """A table whose owner chose it: the stand-in plays each seat nobody has claimed."""
        if self.standin_open and not self.match.over:
            for i, held in enumerate(self.seats):
                if held.human and not held.claimed:
                    self.service.set_away(i, True)

    def _grace_over(self, seat: int) -> None:
        held = self.seats[seat]
        held.grace = None
        if held.peer is None and not self.match.over:
            self.service.set_away(seat, True)
            self._seat_status(seat)
            self.schedule()

    def _hand_log_start(self) -> int:
        hand = self.match.hand_no
        log = self.service.log
        start = len(log)
        while start > 0 and log[start - 1].hand == hand:
            start -= 1
        return start

    # --- playing ------------------------------------------------------------------------

    def act(self, peer: Peer, data: dict[str, Any], turn: int) -> None:
        seat = self.seat_of(peer)
        if seat is None:
            raise TableError("spectator", "spectators do not play")
        if self.status == "waiting":
            raise TableError("waiting", "waiting for every player to join")
        if self.writer.problem is not None:
            raise TableError("server_error", "the server cannot save moves just now (its match "
                             "library cannot be written); nothing changed: try again in a moment")
        self._moved(seat, lambda: self.service.act(seat, data, turn))

    def play(self, seat: int, action: Action, *, bot: bool,
             why: tuple[Choice, Bot] | None = None) -> None:
        """Apply ``action`` for ``seat`` (the seat to play), keep it, tell everyone (``why``:
        the bot's choice and the bot, ``TableService.play``)."""
        self._moved(seat, lambda: self.service.play(seat, action, bot=bot, why=why))

    def _moved(self, seat: int, move: Callable[[], Any]) -> None:
        match = self.match
        before = Shown(match.state, match.hand_no, match.seating.dealer, False)  # type: ignore[arg-type]
        standins = len(self.service.standin_turns)
        try:
            move()
        except IllegalAction as exc:
            raise TableError("illegal_action", exc.reason) from None
        except MoveFailed as exc:
            log.error("table %s: %s", self.code, exc)
            raise TableError("server_error", str(exc)) from None
        self.active = time.monotonic()
        match = self.match
        if match.over or len(self.service.standin_turns) != standins:
            self.save_row()  # before anything is sent: what is shown waits for the row too
        if match.over:  # and for the lock let go (a league's match added): before the end is sent
            self.let_go()
        if match.hand_no != before.hand_no or match.over:
            before.hand_over = True
            before.state = match.finished_hand  # type: ignore[assignment]
            self.broadcast(before)
        if not match.over:
            self.broadcast()
        self.schedule()

    # --- a rematch ---------------------------------------------------------------------------

    def rematch(self, peer: Peer, request_id: int | None = None) -> None:
        """``peer``'s player asks for a rematch; the last human seat to ask starts it. A seat
        a stand-in bot plays does not ask for its absent player."""
        if self.seat_of(peer) is None:
            raise TableError("spectator", "spectators do not play")
        if not self.match.over:
            raise TableError("not_over", "a rematch comes once the match is over")
        self.rematch_votes.update(i for i, held in enumerate(self.seats) if held.peer is peer)
        waiting = self._rematch_waiting()
        started = not waiting and not self._rematching and self.on_rematch is not None
        status = {"type": "rematch", "code": self.code, "agreed": sorted(self.rematch_votes),
                  "waiting": waiting, "started": False}
        everyone, reply = _frame(dict(status)), _frame({**status, "id": request_id})
        after = self.after()
        for other in self.watchers:
            other.send(reply if other is peer else everyone, after)
        if started:
            self._rematching = True
            assert self.on_rematch is not None
            self.on_rematch(self)

    def _rematch_waiting(self) -> list[int]:
        return [i for i, held in enumerate(self.seats)
                if held.human and held.claimed and i not in self.rematch_votes]

    def begin(self, service: TableService, match_id: int, lock: Any) -> None:
        """The rematch is dealt: the same seats, links and connections, a new match."""
        self.service, self.match_id, self.lock = service, match_id, lock
        self.rematch_votes, self._rematching = set(), False
        self.chosen_seed = False  # a rematch deals from a seed nobody chose
        self.active = time.monotonic()
        for peer in self._cursor:
            self._cursor[peer] = 0
        self.save_row()
        self._tell(_frame({"type": "rematch", "code": self.code, "agreed": [], "waiting": [],
                           "started": True}))
        self.start_grace()
        self.broadcast()
        self.schedule()

    def rematch_failed(self) -> None:
        """The library could not take the new match: the table stays over, asking again works."""
        self._rematching = False
        self.rematch_votes.clear()

    def release_now(self) -> None:
        """The match's lock released at once (the server stops, its writes are done)."""
        if self.lock is not None:
            lock, self.lock = self.lock, None
            lock.close()

    def let_go(self) -> None:
        """The match let go once its last writes are in (it is over, or handed over)."""
        if self.lock is not None:
            lock, self.lock = self.lock, None
            self.writer.close_later(lock)

    # --- bots -----------------------------------------------------------------------------

    def bot_seat(self) -> int | None:
        """The seat to play when a bot plays it now (a bot seat, or a stand-in). No player
        at the table: it pauses, its bots too."""
        if self.status != "playing" or not self._attended():
            return None
        return self.service.bot_to_play()

    def _attended(self) -> bool:
        """A player of the table is here (at a table of bots only, anyone): stand-ins never
        play out an absent table, whoever watches it."""
        humans = [s for s in self.seats if s.human]
        return any(s.peer is not None for s in humans) if humans else bool(self.watchers)

    def schedule(self) -> None:
        """Start the bot's move if a bot is to play and none is on its way."""
        if self._bot_task is None and self.bot_seat() is not None:
            self._bot_task = asyncio.ensure_future(self._bot_move())

    async def _bot_move(self) -> None:
        try:
            while (seat := self.bot_seat()) is not None:
                turn = self.match.decisions
                if self.config.bot_delay > 0:
                    await asyncio.sleep(self.config.bot_delay)
                await self.writer.working.wait()  # no move the library cannot keep
                if self.bot_seat() != seat or self.match.decisions != turn:
                    continue
                bot, choice = await self._choose(seat)
                if self.bot_seat() == seat and self.match.decisions == turn:
                    try:
                        self.play(seat, choice.action, bot=True, why=(choice, bot))
                    except TableError as exc:
                        log.error("table %s: the bot in seat %d: %s", self.code, seat + 1, exc)
                        return
        finally:
            self._bot_task = None

    async def _choose(self, seat: int) -> tuple[Bot, Choice]:
        bot, info, rng = self.service.bot_turn(seat)
        try:
            return bot, await self.bot_work.choose(self._owner(), bot, info, rng)
        except BotFailed as exc:  # the bot did not choose: the first legal action, and say so
            log.error("table %s: %s", self.code, exc)
            return bot, Choice(info.legal_actions()[0])

    def _owner(self) -> tuple[object, ...]:
        """Whose share of the bot work the table's moves take (``bot_work``): the address
        and connection of the player at the table longest (of the spectator there longest at
        a table of bots alone)."""
        first = next((p for p, seat in self.watchers.items() if seat is not None), None) \
            or next(iter(self.watchers), None)
        return (first.address if first is not None else None), first

    # --- telling everyone ----------------------------------------------------------------

    def shown(self) -> Shown:
        match = self.match
        if match.over and match.finished_hand is not None:
            return Shown(match.finished_hand, match.hand_no, match.seating.dealer, True)
        assert match.state is not None
        return Shown(match.state, match.hand_no, match.seating.dealer, False)

    def broadcast(self, shown: Shown | None = None) -> None:
        """Each connection's own update: what all have in common built once, each seat's
        own part once, the log lines once per position a connection has read to."""
        self._send(list(self.watchers), shown or self.shown())

    def _send_update(self, peer: Peer) -> None:
        self._send([peer], self.shown())

    def after(self) -> int:
        """The write a frame sent now waits for: this match's last one queued (every
        frame after a change waits until the change is in the library)."""
        return self.writer.needs(self.match_id)

    def _send(self, peers: list[Peer], shown: Shown) -> None:
        end = len(self.service.log)
        moment = _Moment(self, shown, end)
        after = self.after()
        speakers: dict[str, list[Peer]] = {}
        for peer in peers:
            speakers.setdefault(peer.language, []).append(peer)
        for language, group in speakers.items():
            if language != ENGLISH:
                self.service.languages.add(language)  # its next moves are said in it too
            with speaking(language):
                for peer in group:
                    start = self._cursor.get(peer, end)
                    self._cursor[peer] = end
                    peer.send(moment.update(self.seat_of(peer), start, language), after)

    def _here(self, seat: int | None) -> bool:
        """The seat's player is here to play it (its update carries its actions)."""
        return seat is not None and self.seats[seat].peer is not None and seat not in self.service.away

    def _sheet(self, language: str) -> orjson.Fragment:
        """The score sheet's JSON in ``language`` (its variant's words: English as the match
        keeps it, another as the game says it there), encoded again only when a hand was added
        (or a name changed)."""
        sheet = self.match.sheet
        key = (len(sheet.hands), tuple(sheet.side_names))
        kept = self._sheet_json.get(language)
        if kept is None or kept[0] != key:
            data = views.sheet_json(self.match)
            if language != ENGLISH and data["variant"]:
                data["variant"] = self.match.game.variant(self.match.options)
            kept = self._sheet_json[language] = (key, fragment(data))
        return kept[1]

    def _seat_status(self, seat: int) -> None:
        held = self.seats[seat]
        self._tell(_frame({"type": "seat_status", "code": self.code, "seat": seat,
                           "connected": held.peer is not None, "bot_playing": seat in self.service.away,
                           "name": self.match.seating.names[seat], "open": held.human and not held.claimed}))

    def _tell(self, frame: bytes) -> None:
        """One frame to everyone at the table."""
        after = self.after()
        for peer in self.watchers:
            peer.send(frame, after)

    def why(self, peer: Peer, turn: int | None, request_id: int | None = None) -> None:
        """Why the bot move at ``turn`` (None: the last) was played, as ``peer``'s seat may
        read it (a spectator: as a spectator), to ``peer`` alone."""
        with speaking(peer.language):
            why = self.service.why(turn, self.seat_of(peer))
        peer.send(_frame({"type": "why", "code": self.code, "move": why.turn, "seat": why.seat,
                          "text": why.text, "estimates": why.estimates, "id": request_id}),
                  self.after())

    def chat(self, peer: Peer, text: str) -> None:
        seat = self.seat_of(peer)
        name = self.match.seating.names[seat] if seat is not None else (peer.name or "Spectator")
        self._tell(_frame({"type": "chat", "code": self.code, "seat": seat, "name": name, "text": text}))

    def close(self) -> None:
        """The server stops: timers and the bot's move are dropped (the library keeps all)."""
        for held in self.seats:
            held.stop_grace()
        if self._bot_task is not None:
            self._bot_task.cancel()


class _Moment:
    """One moment's updates, in each connection's language: the shared part built once per
    language, a seat's own part once per (seat, language), the log lines once per (position
    read to, language), each frame once (docs/languages.md, "At a server"). Each is built
    while its language is the one in use."""

    def __init__(self, table: Table, shown: Shown, end: int):
        self.table, self.shown, self.end = table, shown, end
        self.seats = table.seats_json()
        self.playing = table.status == "playing"
        self.common: dict[str, views.Common] = {}
        self.mine: dict[tuple[int | None, str], bytes] = {}
        self.logs: dict[tuple[int, str], bytes] = {}
        self.built: dict[tuple[int | None, int, str], bytes] = {}

    def update(self, seat: int | None, start: int, language: str) -> bytes:
        """``seat``'s frame with the log from ``start``, said in ``language`` (the language
        in use: ``Table._send`` speaks it)."""
        key = (seat, start, language)
        found = self.built.get(key)
        if found is None:
            common = self.common.get(language) or self._common(language)
            mine = self.mine.get((seat, language)) or self._mine(seat, language)
            log = self.logs.get((start, language)) or self._log(start, language)
            found = self.built[key] = views.update(seat, common, mine, log)
        return found

    def _common(self, language: str) -> views.Common:
        table, shown = self.table, self.shown
        made = self.common[language] = views.shared(
            table.code, table.match, shown.state, seats=self.seats, hand_no=shown.hand_no,
            dealer=shown.dealer, hand_over=shown.hand_over, sheet=table._sheet(language),
            chosen_seed=table.chosen_seed, league=table.league)
        return made

    def _mine(self, seat: int | None, language: str) -> bytes:
        shown = self.shown
        fields = views.own(shown.state, seat, hand_over=shown.hand_over,
                           may_act=self.playing and self.table._here(seat))
        made = self.mine[seat, language] = views.inner(fields)
        return made

    def _log(self, start: int, language: str) -> bytes:
        lines = self.table.service.log[start:self.end]
        made = self.logs[start, language] = frame([e.to_json() for e in lines])
        return made


def _frame(message: dict[str, Any]) -> bytes:
    return frame({"v": PROTOCOL_VERSION, "id": message.pop("id", None), **message})
