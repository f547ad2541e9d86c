"""The match controller the screens drive: no Textual here, so it is tested on its own.

A Session owns one Match, the bots of its seats, the match's place in the library
(``cardcore.services.store``: every event and a snapshot committed after every action, one
transaction each), the undo stack and the move log. A Replay steps through a record
(a file, or a library match's export).

Faults at the table never take it down:

- every move (a human's or a bot's) is applied with the match's events held back; when
  the game's code raises, the match is restored from the snapshot taken before the move,
  nothing is recorded or saved, and :class:`MoveFailed` names the plugin and method;
- a library that cannot be opened or written (a read-only data dir, a full disk) leaves
  play going on without it: ``save_problem`` says so until saving works again (the events
  are kept meanwhile, and the match goes into the library once it can).

Undo never lets the human peek: after every move the human's view before and after is
compared (:func:`reveal_of`); a move that showed the human cards it had not seen (a draw
from the stock, a deal, a card turned up) is a barrier undo does not go back across.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardcore.apps.tui import picks
from cardcore.apps.tui.marks import Moved, TableInfo, moved
from cardcore.engine import records
from cardcore.engine.bots.base import Bot, InfoSet
from cardcore.engine.bots.search import Estimate, MediumBot, SearchBot
from cardcore.engine.faults import describe
from cardcore.engine.game import Action, Game, GameOptions, GameState, IllegalAction, Zone
from cardcore.engine.match import Match
from cardcore.engine.replay import replay
from cardcore.engine.scoresheet import ScoreSheet
from cardcore.services import files
from cardcore.services.plugins import Registry
from cardcore.services.store import MatchStore, NoSuchMatch, OpenMatch, StoreError, checks, open_library

if TYPE_CHECKING:
    from collections.abc import Callable

    from cardcore.apps.cli import MatchSetup
    from cardcore.apps.tui.table_session import Listener

#: The hint's search stops after this long on a slow machine (it runs at the table).
HINT_SECONDS = 1.0

HUMAN = "human"


class MoveFailed(Exception):
    """The game's (or a bot's) code raised during a move; the match is as it was before it.

    ``str()`` is one line naming the plugin and method (``cardcore.engine.faults.describe``)."""


def reveal_of(before: GameState, after: GameState, seat: int) -> str | None:
    """What a move showed ``seat`` that it had not seen, or None; generic, from views only.

    A move reveals when the stock's length changed (the view's ``stock`` list: a draw, a
    deal, a card turned up from it), or when the seat's own hand (its ``hand`` zone) holds
    a card that was hidden everywhere in its view before (a card drawn or dealt to it).
    Cards a bot plays from its hand are not counted: that bot's reply is replayed from the
    same seed after an undo.
    """
    stock_before, stock_after = before.view(seat).get("stock"), after.view(seat).get("stock")
    if isinstance(stock_before, list) and isinstance(stock_after, list) \
            and len(stock_before) != len(stock_after):
        return "a card taken from the stock"
    seen = Counter(c for z in before.zones(seat) for c in zone_cards(z) if c is not None)
    mine = Counter(c for z in after.zones(seat) if z.kind == "hand" and z.seat == seat
                   for c in z.cards if c is not None)
    if mine - seen:
        return "cards you had not seen before"
    return None


def zone_cards(zone: Zone) -> list[str | None]:
    """Every card of a zone: its own and its groups'."""
    return [*zone.cards, *(c for g in zone.groups for c in g.cards)]


@dataclass
class LogEntry:
    hand: int
    seat: int | None
    text: str
    bot: bool = False
    #: Not a move: a chat line, a player's coming and going (tables on a server).
    note: bool = False


@dataclass
class SessionSetup:
    """What a new match needs: the command line's MatchSetup plus names and the draw."""

    game: Game
    options: GameOptions
    seats: list[str]
    seed: int | str
    names: list[str] | None = None
    side_names: list[str] | None = None
    draw_for_partners: bool = False

    @classmethod
    def from_match_setup(cls, setup: MatchSetup) -> SessionSetup:
        return cls(setup.game, setup.options, list(setup.seats), setup.seed)


@dataclass
class Snapshot:
    match: dict[str, Any]
    log_len: int
    seat: int


@dataclass
class Session:
    """One match as played at the table."""

    registry: Registry
    match: Match
    setup: SessionSetup | None = None
    log: list[LogEntry] = field(default_factory=list)
    #: Events since the screen last asked (``drain_events``).
    events: list[dict[str, Any]] = field(default_factory=list)
    last_bot_action: Action | None = None
    last_bot_seat: int | None = None
    #: The hand as it was before the last bot move (the table marks what moved), or None.
    before_last_bot: GameState | None = None
    #: The bot speed chosen at this table (the app's setting; a save file's is honoured).
    bot_speed: str | None = None
    #: Why the match is not being saved (None while saving works).
    save_error: str | None = None
    #: What undo cannot go back across when the stack is empty (a deal, a draw, ...).
    undo_barrier: str | None = None
    #: The library (None: saving is off, or the library could not be opened yet).
    store: MatchStore | None = None
    #: The match as held in the library (locked for this session), or None.
    play: OpenMatch | None = None
    #: Save to the library at all (False: a throwaway table, e.g. the benchmark).
    saving: bool = True
    _undo: list[Snapshot] = field(default_factory=list)
    #: Every event of the match while it is not in the library (it goes in once it can).
    _unsaved: list[dict[str, Any]] = field(default_factory=list)
    _source: str = "table"
    _library_id: int | None = None
    _own_store: bool = False
    _closed: bool = False

    # --- making one --------------------------------------------------------------

    @classmethod
    def new(cls, registry: Registry, setup: SessionSetup, *, store: MatchStore | None = None,
            save: bool = True) -> Session:
        """A new match, put in the library (``store``, or the data dir's): a new entry,
        nothing else in the library changes."""
        match = Match(setup.game, setup.options, seed=setup.seed, seats=list(setup.seats),
                      names=setup.names or None, side_names=setup.side_names or None,
                      draw_for_partners=setup.draw_for_partners, pm=registry.pm)
        session = cls(registry, match, setup, saving=save)
        session._use_store(store)
        match.on_event = session._on_event
        match.start()
        session.undo_barrier = "the deal"
        session._save()
        return session

    def _use_store(self, store: MatchStore | None) -> None:
        """The library to save to: the one given, or the data dir's (opened here)."""
        if not self.saving:
            return
        if store is not None:
            self.store = store
            return
        try:
            self.store = open_library()
        except StoreError as exc:
            self.save_error = f"the match is not being saved ({exc}); play goes on"
            return
        self._own_store = True

    @classmethod
    def resume(cls, registry: Registry, target: int | str | Path | None = None, *,
               store: MatchStore | None = None) -> Session:
        """A library match (its id; None: the most recently played one not held elsewhere),
        or a save file (a path: it goes into the library as a new match and goes on there).
        StoreError (MatchLocked: played in another cardcore) or RecordError."""
        if isinstance(target, int) or target is None:
            return cls._resume_library(registry, target, store)
        return cls._resume_save(registry, Path(target), store)

    @classmethod
    def _resume_library(cls, registry: Registry, match_id: int | None,
                        store: MatchStore | None) -> Session:
        own = store is None
        lib = store if store is not None else open_library()
        try:
            if match_id is None:
                free = [m for m in lib.list_unfinished(limit=50) if not m.locked]
                if not free:
                    raise NoSuchMatch("there is no unfinished match to resume")
                match_id = free[0].id
            summary = lib.get(match_id)
            if summary.finished:
                raise StoreError(f"match {match_id} is over: `cardcore replay {match_id}` "
                                 "steps through it")
            if summary.game not in registry.games:
                raise StoreError(f"match {match_id}: the game {summary.game!r} is not installed")
            game = registry.games[summary.game]
            play = lib.open(match_id)
        except BaseException:
            if own:
                lib.close()
            raise
        try:
            match = checks.resume(play, game, pm=registry.pm)
        except BaseException:
            play.close()
            if own:
                lib.close()
            raise
        session = cls(registry, match, store=lib, play=play, _own_store=own, _library_id=match_id)
        match.on_event = session._on_event
        try:
            session._check_bots(f"match {match_id}")
            session._resumed(play.record())
            session._save()
        except BaseException:
            session.close()
            raise
        return session

    @classmethod
    def _resume_save(cls, registry: Registry, path: Path, store: MatchStore | None) -> Session:
        """A save file, checked field by field; it goes into the library as a new match
        (the file is left as it was). The record it names is read only if cardcore wrote
        it in its records dir: a save never decides where cardcore writes."""
        if not path.exists():
            raise records.RecordError(f"no saved match at {path}")
        save = files.read_save(path)
        game_id = save.match.get("game")
        if not isinstance(game_id, str):
            raise records.RecordError(f"{path}: bad save (match.game: not a game id)")
        if game_id not in registry.games:
            raise records.RecordError(f"{path}: the game {game_id!r} is not installed")
        game = registry.games[game_id]
        try:
            match = Match.from_snapshot(game, save.match, pm=registry.pm)
        except Exception as exc:  # a damaged save, or one from another version of the game
            raise records.RecordError(f"{path}: cannot continue this match ({exc})") from None
        session = cls(registry, match, bot_speed=save.speed, _source="save")
        session._check_bots(str(path))
        events = files.save_events(save)
        if not events:  # no record: the match starts in the library at the saved position
            events = [{"event": "match_start", "match": match.match_no, "game": game.id,
                       "seed": match.seed, "seats": list(match.seats),
                       "options": match.options.model_dump(mode="json"),
                       "names": list(match.seating.names),
                       "side_names": list(match.seating.side_names)}]
        session._resumed("".join(records.dumps(e) + "\n" for e in events))
        session._unsaved = events
        match.on_event = session._on_event
        session._on_event({"event": "resume", "hand": match.hand_no, "decisions": match.decisions})
        session._use_store(store)
        session._save()
        return session

    def _check_bots(self, where: str) -> None:
        unknown = sorted({s for s in self.match.seats if s != HUMAN and s not in self.registry.bots})
        if unknown:
            raise records.RecordError(f"{where}: the bot {unknown[0]!r} is not installed")

    def _resumed(self, record: str) -> None:
        """Setup, undo barrier and move log of a resumed match (``record``: its lines)."""
        match = self.match
        self.setup = SessionSetup(self.game, match.options, list(match.seats), match.seed,
                                  list(match.seating.names), list(match.seating.side_names))
        self.undo_barrier = "the position the match was resumed at"
        self._rebuild_log(record)

    @property
    def match_id(self) -> int | None:
        """The match's id in the library (None while it is not in it)."""
        return self._library_id

    def record(self) -> str:
        """The match's record as the library has it (JSON Lines; StoreError when the match
        is not in the library)."""
        if self._library_id is None:
            raise StoreError("this match is not in the library")
        if self.store is not None:
            return self.store.export_record(self._library_id)
        store = open_library(import_autosave=False)  # the session was closed
        try:
            return store.export_record(self._library_id)
        finally:
            store.close()

    def record_events(self) -> list[dict[str, Any]]:
        """The events of ``record()``."""
        return [e for _, e in records.parse_record_lines(self.record(), f"match {self.match_id}")]

    def close(self) -> None:
        """Leave the match: its lock in the library is released (it stays as last saved)."""
        self._closed = True
        if self.play is not None:
            self.play.close()
            self.play = None
        if self._own_store and self.store is not None:
            self.store.close()
        self.store = None

    # --- who is who ----------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def humans(self) -> list[int]:
        return [s for s, who in enumerate(self.match.seats) if who == HUMAN]

    def is_bot(self, seat: int | None) -> bool:
        return seat is not None and self.match.seats[seat] != HUMAN

    @property
    def to_play(self) -> int | None:
        return self.match.to_play

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def state(self) -> GameState:
        """The hand being played (RuntimeError before the first deal)."""
        state = self.match.state
        if state is None:
            raise RuntimeError("no hand has been dealt")
        return state

    def name(self, seat: int) -> str:
        return self.match.seating.names[seat]

    @property
    def options(self) -> GameOptions:
        return self.match.options

    @property
    def seats(self) -> list[str]:
        return self.match.seats

    @property
    def names(self) -> list[str]:
        return list(self.match.seating.names)

    @property
    def side_names(self) -> list[str]:
        return list(self.match.seating.side_names)

    @property
    def dealer(self) -> int:
        return self.match.seating.dealer

    @property
    def hand_no(self) -> int:
        return self.match.hand_no

    @property
    def sheet(self) -> ScoreSheet:
        return self.match.sheet

    @property
    def winner(self) -> int | None:
        return self.match.winner

    def side_name(self, side: int) -> str:
        return self.match.seating.side_names[side]

    def bot(self, seat: int) -> Bot:
        """The seat's bot; a search at the table stops at its level's time cap on a slow
        machine (and logs it), a guard: the budgets keep far below it."""
        bot: Bot = self.registry.bots[self.match.seats[seat]]()
        if isinstance(bot, SearchBot) and bot.max_seconds is None:
            bot.max_seconds = bot.table_seconds
        return bot

    def last_move_zones(self, revealed: int | None) -> list[Zone] | None:
        """The table as it was before the last bot move, seen as ``table(revealed)`` sees
        the table now (None when there is no bot move to mark)."""
        if self.before_last_bot is None or self.last_bot_action is None:
            return None
        return self._zones_of(self.before_last_bot, revealed)[1]

    def table(self, revealed: int | None) -> tuple[int | None, list[Zone]]:
        """The seat whose hand is face up (or None) and the zones to draw.

        With no human the table is open (``zones(None)``). With one human, that
        human's view. With several, only ``revealed`` (the human to play, once
        the hand-over screen was passed) sees a hand; otherwise every hand is
        face down (for instance while the bots play).
        """
        state = self.match.state
        if state is None:
            return None, []
        return self._zones_of(state, revealed)

    def _zones_of(self, state: GameState, revealed: int | None) -> tuple[int | None, list[Zone]]:
        humans = self.humans
        if not humans:
            return None, state.zones(None)
        if len(humans) == 1:
            return humans[0], state.zones(humans[0])
        to_play = self.to_play
        if revealed is not None and revealed == to_play and revealed in humans:
            return revealed, state.zones(revealed)
        zones = state.zones(humans[0])
        return None, [replace(z, cards=[None] * len(z.cards)) if z.kind == "hand" else z for z in zones]

    def finished_table(self) -> tuple[int | None, list[Zone]]:
        """The hand that just ended as its last move left it: the human's view with one
        human at the table, else every hand face down (the next player is not known)."""
        state = self.match.finished_hand
        if state is None:
            return None, []
        humans = self.humans
        seat = humans[0] if len(humans) == 1 else None
        return seat, state.zones(seat)

    def needs_handover(self, revealed: int | None) -> bool:
        """Between two human seats: hide every hand until the next player is ready."""
        seat = self.to_play
        return len(self.humans) > 1 and seat in self.humans and seat != revealed

    # --- playing ---------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        return self.match.legal_actions()

    def apply(self, action: Action) -> None:
        """A human's move. IllegalAction, or MoveFailed when the game's code raised: either
        way the match, the record and the save are as they were."""
        seat = self.to_play
        if seat is None:
            raise RuntimeError("nobody is to play")
        if self.is_bot(seat):
            raise RuntimeError(f"seat {seat + 1} is a bot's")
        before, hand = self.state.clone(), self.match.hand_no
        snap = Snapshot(self.match.snapshot(), len(self.log), seat)
        self._guarded(snap.match, lambda: self.match.apply(action))
        self._undo.append(snap)
        self._barrier(before, hand)
        self.last_bot_action = None
        self.before_last_bot = None
        self._save()

    def bot_step(self) -> Action:
        """The bot to play chooses and plays; returns its action (MoveFailed, the match as
        it was, when the bot or the game raised)."""
        seat = self.to_play
        if seat is None or not self.is_bot(seat):
            raise RuntimeError("no bot is to play")
        before, hand = self.state.clone(), self.match.hand_no
        snapshot = self.match.snapshot()
        chosen: list[Action] = []

        def move() -> None:
            info = InfoSet.of(self.game, self.state, seat)
            chosen.append(self.bot(seat).choose(info, self.match.bot_rng(seat)))
            self.match.apply(chosen[0])

        self._guarded(snapshot, move)
        self._barrier(before, hand)
        self.last_bot_action, self.last_bot_seat = chosen[0], seat
        self.before_last_bot = before if self.match.hand_no == hand else None
        self._save()
        return chosen[0]

    def _guarded(self, snapshot: dict[str, Any], move: Any) -> None:
        """Run ``move`` with the match's events held back; if it raises, put the match back
        as ``snapshot`` has it and drop the events (IllegalAction passes through as it is,
        anything else becomes MoveFailed)."""
        held: list[dict[str, Any]] = []
        self.match.on_event = held.append
        try:
            move()
        except Exception as exc:
            self.match = Match.from_snapshot(self.game, snapshot, on_event=self._on_event,
                                             pm=self.registry.pm)
            if isinstance(exc, IllegalAction):
                raise
            raise MoveFailed(describe(exc, self.registry.plugin_of_packages())) from exc
        self.match.on_event = self._on_event
        for event in held:
            self._on_event(event)

    def _barrier(self, before: GameState, hand: int) -> None:
        """After a move: if it showed the human a card, undo stops here."""
        humans = self.humans
        if len(humans) != 1:
            return
        if self.match.hand_no != hand or self.match.state is None:
            reason: str | None = "the deal"
        else:
            reason = reveal_of(before, self.match.state, humans[0])
        if reason is not None:
            self._undo.clear()
            self.undo_barrier = f"{reason} (going back past it would show you cards again)"

    def why_not(self, card: str) -> str | None:
        """Why the seat to play has no action with ``card`` (the game's own words)."""
        return self.state.why_not(card)

    def lay_out(self, cards: Counter[str], key: Callable[[str], str]) -> list[Action]:
        """The legal plays that lay out ``cards`` (``picks.lay_out`` over the hand)."""
        return picks.lay_out(self.state, cards, key)

    @property
    def drives_bots(self) -> bool:
        return True

    @property
    def can_chat(self) -> bool:
        return False

    def chat(self, text: str) -> None:
        raise RuntimeError("there is no one to chat with at a table on this machine")

    def listen(self, callback: Listener | None) -> None:
        """A local match changes only when the screen moves: nothing to listen to."""

    def hint(self) -> Action | None:
        """The search's best action for the human to play (see ``hints``)."""
        best = self.hints(top=1)
        return best[0].action if best else None

    def hints(self, top: int = 3) -> list[Estimate]:
        """The search's best few actions for the human to play, best first, each with its
        estimate (the side's expected hand margin in points): the ``medium`` level, capped
        at ``HINT_SECONDS`` on a slow machine. The bots' random streams are left alone."""
        return self.hint_search(top)()

    def hint_search(self, top: int = 3) -> Callable[[], list[Estimate]]:
        seat = self.to_play
        if seat is None or self.is_bot(seat):
            return list
        rng = random.Random(f"hint:{self.match.seed}:{self.match.hand_no}:{self.match.decisions}")
        info = InfoSet.of(self.game, self.state, seat)  # a copy: the state is not kept
        return functools.partial(MediumBot(max_seconds=HINT_SECONDS).analyse, info, rng, top=top)

    def why_no_undo(self) -> str | None:
        """Why undo cannot take back a move now, or None when it can."""
        humans = self.humans
        if not humans:
            return "No undo: nobody plays at this table but the bots."
        if len(humans) > 1:
            return "No undo between human players: a move is taken back only against bots."
        if self.over:
            return "No undo: the match is over."
        if self._undo and self._undo[-1].match["hand"] == self.match.hand_no:
            return None
        if self.undo_barrier is not None:
            return f"Nothing to undo: undo stops at {self.undo_barrier}."
        return "Nothing to undo: you have not moved yet."

    def can_undo(self) -> bool:
        """Undo of one's own moves (and the bots' replies since): against bots only, back to
        the last card the human was shown at most."""
        return self.why_no_undo() is None

    def undo(self) -> None:
        if not self.can_undo():
            raise RuntimeError("nothing to undo")
        snap = self._undo.pop()
        self.match = Match.from_snapshot(self.game, snap.match, on_event=self._on_event,
                                         pm=self.registry.pm)
        del self.log[snap.log_len:]
        self.last_bot_action = None
        self.before_last_bot = None
        self._write({"event": "undo", "hand": self.match.hand_no, "seat": snap.seat,
                     "decisions": self.match.decisions, "state": self.state.export()})
        self._save()

    def drain_events(self) -> list[dict[str, Any]]:
        out, self.events = self.events, []
        return out

    def hand_log(self) -> list[LogEntry]:
        return [e for e in self.log if e.hand == self.match.hand_no]

    # --- records and saves -----------------------------------------------------------

    def _on_event(self, event: dict[str, Any]) -> None:
        self._write(event)
        self.events.append(event)
        kind = event["event"]
        if kind == "action":
            seat = event["seat"]
            self.log.append(LogEntry(event["hand"], seat, f"{self.name(seat)}: {event['label']}",
                                     self.is_bot(seat)))
        elif kind == "hand_end":
            self._undo.clear()
            self.undo_barrier = "the deal"

    def _write(self, event: dict[str, Any]) -> None:
        """One event for the library: buffered by the held match (committed by ``_save``),
        or kept here while the match is not in the library."""
        if not self.saving:
            return
        if self.play is not None:
            self.play.append_event(event)
        else:
            self._unsaved.append(event)

    def set_speed(self, speed: str) -> None:
        """The bot speed chosen at this table (an app setting)."""
        self.bot_speed = speed

    def _save(self) -> None:
        """Commit the action's events and the snapshot: one transaction. A failure is kept
        in ``save_error`` (play goes on, the events are kept) until a save works again."""
        if not self.saving or self._closed:
            return
        snapshot = self.match.snapshot()
        try:
            if self.play is not None:
                self.play.save_snapshot(snapshot)
            else:
                self._enter_library(snapshot)
        except StoreError as exc:
            self.save_error = f"the match is not being saved ({exc}); play goes on"
            return
        self.save_error = None
        if self.match.over and self.play is not None:  # finished: the lock goes
            self.play.close()
            self.play = None

    def _enter_library(self, snapshot: dict[str, Any]) -> None:
        """The match into the library: a new entry with all its events so far, then held
        for play (a match that was put in but could not be held is held now)."""
        if self.store is None:
            self.store, self._own_store = open_library(), True
        store = self.store
        if self._library_id is None:
            self._library_id = store.import_record(self._unsaved, snapshot, source=self._source)
            self._unsaved = []
            if not self.match.over:
                self.play = store.open(self._library_id)
            return
        play = store.open(self._library_id)
        for event in self._unsaved:
            play.append_event(event)
        self._unsaved = []
        self.play = play
        play.save_snapshot(snapshot)

    @property
    def save_problem(self) -> str | None:
        """One line for the screen while the match cannot be saved."""
        return self.save_error

    def _rebuild_log(self, record: str) -> None:
        """The move log of the current hand, read back from the record (undos honoured)."""
        entries: list[tuple[int, LogEntry]] = []  # (decisions after it, entry)
        decisions = 0
        for line in record.splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            kind = event.get("event") if isinstance(event, dict) else None
            if kind == "action":
                decisions += 1
                seat = event["seat"]
                entries.append((decisions, LogEntry(event["hand"], seat,
                                                    f"{self.name(seat)}: {event['label']}",
                                                    self.is_bot(seat))))
            elif kind in ("undo", "resume"):
                decisions = event.get("decisions", decisions)
                entries = [(d, e) for d, e in entries if d <= decisions]
        self.log = [e for _, e in entries]


def os_reason(exc: OSError) -> str:
    """``No space left on device``: what the system said, without the errno noise."""
    return exc.strerror or type(exc).__name__


# --- replays -----------------------------------------------------------------------------


@dataclass
class Frame:
    """One step of a replay: a position and what led to it."""

    hand: int
    text: str
    state: dict[str, Any]
    dealer: int | None = None
    #: The position that ended its hand (the status line says so; the move's own text may
    #: already, as casino's last capture does).
    hand_over: bool = False


class Replay:
    """A record as a list of positions to step through: a record file (``Replay(registry,
    path)``) or a record's text (``Replay.from_text``: a library match's export)."""

    def __init__(self, registry: Registry, path: str | Path) -> None:
        self.path = Path(path)
        self.name = self.path.name
        self._load(registry, files.read_record_lines(path), str(path))

    @classmethod
    def from_text(cls, registry: Registry, text: str, name: str) -> Replay:
        """The replay of a record's lines (``name``: what the screen and errors call it)."""
        replay = cls.__new__(cls)
        replay.path = Path(name)
        replay.name = name
        replay._load(registry, records.parse_record_lines(text, name), name)
        return replay

    def _load(self, registry: Registry, numbered: list[tuple[int, dict[str, Any]]], path: str) -> None:
        start = numbered[0][1]
        game_id = start["game"]
        if game_id not in registry.games:
            raise records.RecordError(f"{path}: the game {game_id!r} is not installed")
        self.game: Game = registry.games[game_id]
        if "human" in start["seats"] and not any(e.get("event") == "match_end" for _, e in numbered):
            raise records.RecordError(f"{path}: a match still in play with a human seat; "
                                      "it can be replayed once it has ended")
        try:
            self.events = replay(self.game, numbered)
        except records.RecordError as exc:
            raise records.RecordError(f"{path}: {exc}") from None
        try:
            self._read_seating(start, numbered)
            self._read_frames(start)
        except (KeyError, TypeError, ValueError) as exc:  # a damaged or foreign record
            raise records.RecordError(f"{path}: not a record of {game_id} ({exc!r})") from None
        if not self.frames:
            raise records.RecordError(f"{path}: the record has no positions to show")

    def _read_seating(self, start: dict[str, Any], numbered: list[tuple[int, dict[str, Any]]]) -> None:
        """Seats, names and side names as the match had them: from ``match_start`` (records
        written before it carried ``names`` get the game's default names), after the draw."""
        drew = len(numbered) > 1 and numbered[1][1].get("event") == "draw"
        match = Match(self.game, self.game.Options(**start["options"]), seed=start["seed"],
                      seats=list(start["seats"]), names=start.get("names"),
                      side_names=start.get("side_names"), match_no=start.get("match", 0),
                      draw_for_partners=drew)
        match.start()
        self.seats: list[str] = list(match.seats)
        self.names: list[str] = list(match.seating.names)
        self.side_names: list[str] = list(match.seating.side_names)

    def _read_frames(self, start: dict[str, Any]) -> None:
        self.frames: list[Frame] = []
        self.sheets: list[ScoreSheet] = []  # the sheet as it stands at each frame
        sheet: ScoreSheet | None = None
        target = (start.get("options") or {}).get("target", 0)
        dealer = None
        for event in self.events:
            kind = event["event"]
            if kind == "deal":
                dealer = event.get("dealer")
                self.frames.append(Frame(event["hand"], f"Hand {event['hand']} dealt", event["state"],
                                         dealer))
            elif kind == "action":
                who = self.names[event["seat"]]
                self.frames.append(Frame(event["hand"], f"{who}: {event['label']}", event["state"],
                                         dealer))
            elif kind == "undo":
                self.frames.append(Frame(event["hand"], "Undo", event["state"], dealer))
            elif kind == "hand_end":
                row = event["score"]
                if sheet is None:
                    names = self.side_names if len(self.side_names) == len(row["sides"]) else \
                        [f"Side {i + 1}" for i in range(len(row["sides"]))]
                    sheet = ScoreSheet(names, target)
                sheet = ScoreSheet(sheet.side_names, target, [*sheet.hands, row])
                if self.frames:
                    last = self.frames[-1]
                    self.frames[-1] = replace(last, hand_over=True)
                    self.sheets[-1] = sheet  # the position that ended the hand shows its score
            if kind in ("deal", "action", "undo"):
                self.sheets.append(sheet or ScoreSheet([], target))
        self.final_sheet = sheet
        self.winner = next((e.get("winner") for e in self.events if e["event"] == "match_end"), None)
        for frame in self.frames:  # every position must load before the screen shows any
            self.game.state_from_json(frame.state)

    def zones(self, index: int) -> list[Zone]:
        return self.game.state_from_json(self.frames[index].state).zones(None)

    def table_info(self, index: int, palette: str = "two") -> TableInfo:
        """Names with seat kinds ("South (greedy)"), side names, the dealer, whose turn, and
        what the move to this position changed (within a hand)."""
        frame = self.frames[index]
        names = [f"{name} ({who})" for name, who in zip(self.names, self.seats, strict=False)]
        state = self.game.state_from_json(frame.state)
        last = Moved()
        if index > 0 and self.frames[index - 1].hand == frame.hand:
            last = moved(self.zones(index - 1), state.zones(None))
        return TableInfo(names, list(self.side_names), dealer=frame.dealer,
                         to_play=state.to_play, last_move=last, palette=palette)
