"""The table on this machine: the screens drive a ``Session``; no Textual here, so it is
tested on its own.

A Session is a thin adapter over ``cardcore.services.table_service.TableService`` (the match, its
seats, bots, undo, log and the transaction around a move, the same service a server's
table runs) kept in the library by a ``LibraryKeeper`` (``cardcore.services.table_keeper``). What
is its own is what the screen needs: which hands are face up, the hand-over between
people at one terminal, the hint, the bot speed. A Replay steps through a record (a file,
or a library match's export).

Faults at the table never take it down: a move whose game code raises leaves the match as
it was (``MoveFailed`` names the plugin and method); a library that cannot be written
leaves play going on (``save_problem`` says so until saving works again).
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardcore.apps.tui import picks
from cardcore.apps.tui.marks import Moved, TableInfo, moved
from cardcore.engine import records
from cardcore.engine.bots.base import Bot, InfoSet
from cardcore.engine.bots.search import Estimate, HardBot
from cardcore.engine.game import Action, Game, GameOptions, GameState, Zone
from cardcore.engine.journal import (
    Deal,
    HandEnd,
    MatchEnd,
    MatchEvent,
    MatchStart,
    Played,
    Resume,
    Undo,
    parse_event,
    start_of,
)
from cardcore.engine.match import Match
from cardcore.engine.match_setup import HUMAN, Setup
from cardcore.engine.replay import Rebuild
from cardcore.engine.scoresheet import ScoreSheet
from cardcore.language import _
from cardcore.services import files
from cardcore.services.plugins import Registry
from cardcore.services.store import MatchStore, NoSuchMatch, OpenMatch, StoreError, checks, open_library
from cardcore.services.table_keeper import LibraryKeeper
from cardcore.services.table_service import (
    LogEntry,
    MoveFailed,
    Refused,
    TableService,
    log_text,
    reveal_of,
    zone_cards,
)

if TYPE_CHECKING:
    from cardcore.apps.tui.table_session import Listener

#: The hint's search stops after this long on a slow machine (it runs at the table).
HINT_SECONDS = 1.0


def hint_bot() -> HardBot:
    """The search behind a hint: the ``hard`` level as the game plays it, capped at
    ``HINT_SECONDS`` on a slow machine. Advice is the best search a second allows: a
    game's weaker medium (the fishing games space their levels) is for opponents."""
    return HardBot(max_seconds=HINT_SECONDS)


#: What a new match needs (``cardcore.engine.match_setup.Setup``: checked by ``MatchSetup.check``).
SessionSetup = Setup

__all__ = ["HINT_SECONDS", "HUMAN", "Frame", "LogEntry", "MoveFailed", "Replay", "Session",
           "SessionSetup", "hint_bot", "os_reason", "reveal_of", "zone_cards"]


class Session:
    """One match as played at the table on this machine."""

    def __init__(self, registry: Registry, service: TableService | Match,
                 keeper: LibraryKeeper | None = None, setup: Setup | None = None,
                 bot_speed: str | None = None):
        """The table of ``service`` (a bare Match: a table kept nowhere, for tests and
        benchmarks)."""
        if isinstance(service, Match):
            service = TableService(registry, service)
        self.registry = registry
        self.service = service
        self.keeper = keeper
        self.setup = setup
        #: The bot speed chosen at this table (the app's setting; a save file's is honoured).
        self.bot_speed = bot_speed
        #: Events since the screen last asked (``drain_events``).
        self.events: list[MatchEvent] = []
        service.on_events = self._heard

    def _heard(self, events: list[MatchEvent]) -> None:
        self.events.extend(events)

    # --- making one --------------------------------------------------------------

    @classmethod
    def new(cls, registry: Registry, setup: Setup, *, store: MatchStore | None = None,
            save: bool = True) -> Session:
        """A new match, put in the library (``store``, or the data dir's): a new entry,
        nothing else in the library changes."""
        keeper = LibraryKeeper.opening(store) if save else None
        service = TableService(registry, setup.new_match(pm=registry.pm), keeper=keeper)
        session = cls(registry, service, keeper, setup)
        service.start()  # the deal's events reach the session like a move's
        return session

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
        play: OpenMatch | None = None
        try:
            match_id = _pick(lib, match_id)
            summary = lib.get(match_id)
            if summary.finished:
                raise StoreError(_("match {id} is over: `cardcore replay {id}` steps through it")
                                 .format(id=match_id))
            if summary.game not in registry.games:
                raise StoreError(_("match {id}: the game {game} is not installed")
                                 .format(id=match_id, game=repr(summary.game)))
            game = registry.games[summary.game]
            play = lib.open(match_id)
            match = checks.resume(play, game, pm=registry.pm)
            _check_bots(registry, match, f"match {match_id}")
            record = play.record()
        except BaseException:
            if play is not None:
                play.close()
            if own:
                lib.close()
            raise
        keeper = LibraryKeeper(store=lib, play=play, match_id=match_id, own_store=own)
        session = cls._resumed(registry, match, keeper, _record_events(record))
        session.service.commit_position([])  # the resume event checks.resume appended
        return session

    @classmethod
    def _resume_save(cls, registry: Registry, path: Path, store: MatchStore | None) -> Session:
        """A save file, checked field by field; it goes into the library as a new match
        (the file is left as it was). The record it names is read only if cardcore wrote
        it in its records dir: a save never decides where cardcore writes."""
        if not path.exists():
            raise records.RecordError(_("no saved match at {path}").format(path=path))
        save = files.read_save(path)
        game_id = save.match.get("game")
        if not isinstance(game_id, str):
            raise records.RecordError(_("{path}: bad save (match.game: not a game id)").format(path=path))
        if game_id not in registry.games:
            raise records.RecordError(_("{path}: the game {game} is not installed").format(path=path,
                                                                                           game=repr(game_id)))
        game = registry.games[game_id]
        try:
            match = Match.from_snapshot(game, save.match, pm=registry.pm)
        except Exception as exc:  # a damaged save, or one from another version of the game
            raise records.RecordError(_("{path}: cannot continue this match ({reason})")
                                      .format(path=path, reason=exc)) from None
        _check_bots(registry, match, str(path))
        events = files.save_events(save)
        if not events:  # no record: the match starts in the library at the saved position
            events = [parse_event({"event": "match_start", "match": match.match_no, "game": game.id,
                                   "seed": match.seed, "seats": list(match.seats),
                                   "options": match.options.model_dump(mode="json"),
                                   "names": list(match.seating.names),
                                   "side_names": list(match.seating.side_names)})]
        keeper = LibraryKeeper.opening(store, source="save")
        keeper.unsaved = list(events)
        session = cls._resumed(registry, match, keeper, events, bot_speed=save.speed)
        session.service.commit_position([Resume.make(hand=match.hand_no, decisions=match.decisions)])
        return session

    @classmethod
    def _resumed(cls, registry: Registry, match: Match, keeper: LibraryKeeper,
                 events: list[MatchEvent], bot_speed: str | None = None) -> Session:
        service = TableService(registry, match, keeper=keeper)
        service.resumed(events, "the position the match was resumed at")
        setup = Setup(match.game, match.options, list(match.seats), match.seed,
                      list(match.seating.names), list(match.seating.side_names))
        return cls(registry, service, keeper, setup, bot_speed=bot_speed)

    @property
    def match_id(self) -> int | None:
        """The match's id in the library (None while it is not in it)."""
        return self.keeper.match_id if self.keeper is not None else None

    @property
    def store(self) -> MatchStore | None:
        return self.keeper.store if self.keeper is not None else None

    @property
    def play(self) -> OpenMatch | None:
        return self.keeper.play if self.keeper is not None else None

    def record(self) -> str:
        """The match's record as the library has it (JSON Lines; StoreError when the match
        is not in the library)."""
        if self.keeper is None:
            raise StoreError(_("this match is not in the library"))
        return self.keeper.record()

    def record_events(self) -> list[MatchEvent]:
        """The events of ``record()``."""
        return [e for _, e in records.parse_record_lines(self.record(), f"match {self.match_id}")]

    def close(self) -> None:
        """Leave the match: its lock in the library is released (it stays as last saved)."""
        if self.keeper is not None:
            self.keeper.close()

    @property
    def save_error(self) -> str | None:
        return self.keeper.problem if self.keeper is not None else None

    @property
    def save_problem(self) -> str | None:
        """One line for the screen while the match cannot be saved."""
        return self.save_error

    @property
    def waiting_for(self) -> str | None:
        return None  # everyone is at this machine

    # --- who is who ----------------------------------------------------------------

    @property
    def match(self) -> Match:
        return self.service.match

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def log(self) -> list[LogEntry]:
        return self.service.log

    @property
    def undo_barrier(self) -> str | None:
        return self.service.undo_barrier

    @property
    def humans(self) -> list[int]:
        return self.service.humans

    def is_bot(self, seat: int | None) -> bool:
        return self.service.is_bot(seat)

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
        return self.service.name(seat)

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
        """The seat's bot (a search stops at its level's table time cap on a slow machine)."""
        return self.service.bot_for(seat)

    @property
    def last_bot_action(self) -> Action | None:
        last = self.service.last_bot
        return last.action if last is not None else None

    @property
    def last_bot_seat(self) -> int | None:
        last = self.service.last_bot
        return last.seat if last is not None else None

    @property
    def before_last_bot(self) -> GameState | None:
        """The hand as it was before the last bot move (the table marks what moved)."""
        last = self.service.last_bot
        return last.before if last is not None else None

    def last_move_zones(self, revealed: int | None) -> list[Zone] | None:
        """The table as it was before the last bot move, seen as ``table(revealed)`` sees
        the table now (None when there is no bot move to mark)."""
        before = self.before_last_bot
        if before is None or self.last_bot_action is None:
            return None
        return self._zones_of(before, revealed)[1]

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
        self.service.play(seat, action)

    def bot_step(self) -> Action:
        """The bot to play chooses and plays; returns its action (MoveFailed, the match as
        it was, when the bot or the game raised)."""
        return self.service.bot_step()

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
        """A local match changes only when the screen moves; beside it, ``save_problem``
        changes when a write starts or stops waiting for another cardcore (``callback``
        hears False then, from the keeper's thread)."""
        if self.keeper is not None:
            self.keeper.on_change = None if callback is None else functools.partial(callback, False)

    def hint(self) -> Action | None:
        """The search's best action for the human to play (see ``hints``)."""
        best = self.hints(top=1)
        return best[0].action if best else None

    def hints(self, top: int = 3) -> list[Estimate]:
        """The search's best few actions for the human to play, best first, each with its
        estimate (the side's expected hand margin in points): ``hint_bot``'s. The bots'
        random streams are left alone."""
        return self.hint_search(top)()

    def hint_search(self, top: int = 3) -> Callable[[], list[Estimate]]:
        seat = self.to_play
        if seat is None or self.is_bot(seat):
            return list
        rng = random.Random(f"hint:{self.match.seed}:{self.match.hand_no}:{self.match.decisions}")
        info = InfoSet.of(self.game, self.state, seat)  # a copy: the state is not kept
        return functools.partial(hint_bot().analyse, info, rng, top=top)

    async def why(self, turn: int | None = None) -> str:
        """Why the bot move at ``turn`` was played (``TableService.why``), as the one human
        here sees the table (several at one screen, or none: as a spectator, every hand
        hidden)."""
        humans = self.humans
        try:
            return self.service.why(turn, humans[0] if len(humans) == 1 else None).text
        except Refused as exc:
            return nothing_to_explain(str(exc))

    def why_no_undo(self) -> str | None:
        """Why undo cannot take back a move now, or None when it can."""
        return self.service.why_no_undo()

    def can_undo(self) -> bool:
        """Undo of one's own moves (and the bots' replies since that showed no card): against
        bots only, back to the last card the human was shown at most (the table service's
        rule)."""
        return self.why_no_undo() is None

    def undo(self) -> None:
        self.service.undo()

    # --- a rematch -----------------------------------------------------------------------

    @property
    def can_rematch(self) -> bool:
        return self.over

    @property
    def league(self) -> str | None:
        return None

    async def league_standings(self) -> Any:
        raise RuntimeError("a match played here counts for no server's league")

    def rematch(self) -> Session:
        """The next match at this table (``TableService.rematch``), this one left."""
        setup = self.service.rematch().check(self.registry)
        store = self.keeper.store if self.keeper is not None and not self.keeper.own_store else None
        self.close()
        return Session.new(self.registry, setup, store=store, save=self.keeper is not None)

    def drain_events(self) -> list[MatchEvent]:
        out, self.events = self.events, []
        return out

    def hand_log(self) -> list[LogEntry]:
        return self.service.hand_log()

    def set_speed(self, speed: str) -> None:
        """The bot speed chosen at this table (an app setting)."""
        self.bot_speed = speed


def _pick(store: MatchStore, match_id: int | None) -> int:
    """``match_id``, or the most recently played unfinished match no one else holds."""
    if match_id is not None:
        return match_id
    free = [m for m in store.list_unfinished(limit=50) if not m.locked]
    if not free:
        raise NoSuchMatch(_("there is no unfinished match to resume"))
    return free[0].id


def _check_bots(registry: Registry, match: Match, where: str) -> None:
    unknown = sorted({s for s in match.seats if s != HUMAN and s not in registry.bots})
    if unknown:
        raise records.RecordError(_("{where}: the bot {bot} is not installed").format(where=where,
                                                                                      bot=repr(unknown[0])))


def _record_events(record: str) -> list[MatchEvent]:
    """A record's events, lines that do not read skipped (the log is rebuilt from them)."""
    events = []
    for line in record.splitlines():
        try:
            event = parse_event(json.loads(line))
        except (ValueError, RecursionError):  # EventError is a ValueError
            continue
        events.append(event)
    return events


def nothing_to_explain(reason: str) -> str:
    """A refused ``why`` as a line of the table ("No bot move to explain: ...")."""
    return f"{reason[:1].upper()}{reason[1:]}."


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

    def _load(self, registry: Registry, numbered: list[tuple[int, MatchEvent]], path: str) -> None:
        start = start_of(numbered[0][1])
        game_id = start.game
        if game_id not in registry.games:
            raise records.RecordError(_("{path}: the game {game} is not installed").format(path=path,
                                                                                           game=repr(game_id)))
        self.game: Game = registry.games[game_id]
        if "human" in start.seats and not any(isinstance(e, MatchEnd) for _, e in numbered):
            raise records.RecordError(_("{path}: a match still in play with a human seat; "
                                        "it can be replayed once it has ended").format(path=path))
        try:
            rebuilt = Rebuild(self.game, numbered).run()
        except records.RecordError as exc:
            raise records.RecordError(f"{path}: {exc}") from None
        self.events = [event for _, event in numbered]
        # seats, names and side names as the match had them: after the draw for partners
        # and the names people chose when they sat (the rebuilt match's own)
        self.seats: list[str] = list(rebuilt.seats)
        self.names: list[str] = list(rebuilt.seating.names)
        self.side_names: list[str] = list(rebuilt.seating.side_names)
        try:
            self._read_frames(start)
        except (KeyError, TypeError, ValueError) as exc:  # a damaged or foreign record
            raise records.RecordError(_("{path}: not a record of {game} ({reason})")
                                      .format(path=path, game=game_id, reason=repr(exc))) from None
        if not self.frames:
            raise records.RecordError(_("{path}: the record has no positions to show").format(path=path))

    def _read_frames(self, start: MatchStart) -> None:
        self.frames: list[Frame] = []
        self.sheets: list[ScoreSheet] = []  # the sheet as it stands at each frame
        sheet: ScoreSheet | None = None
        target = start.options.get("target", 0)
        dealer = None
        for event in self.events:
            if isinstance(event, Deal):
                dealer = event.dealer
                self.frames.append(Frame(event.hand, _("Hand {number} dealt").format(number=event.hand),
                                         event.state, dealer))
            elif isinstance(event, Played):
                who = self.names[event.seat]
                self.frames.append(Frame(event.hand, log_text(who, event.label), event.state,
                                         dealer))
            elif isinstance(event, Undo):
                self.frames.append(Frame(event.hand, _("Undo"), event.state, dealer))
            elif isinstance(event, HandEnd):
                row = event.score
                if sheet is None:
                    names = self.side_names if len(self.side_names) == len(row["sides"]) else \
                        [_("Side {number}").format(number=i + 1) for i in range(len(row["sides"]))]
                    sheet = ScoreSheet(names, target)
                sheet = ScoreSheet(sheet.side_names, target, [*sheet.hands, row])
                if self.frames:
                    last = self.frames[-1]
                    self.frames[-1] = replace(last, hand_over=True)
                    self.sheets[-1] = sheet  # the position that ended the hand shows its score
            if isinstance(event, Deal | Played | Undo):
                self.sheets.append(sheet or ScoreSheet([], target))
        self.final_sheet = sheet
        self.winner = next((e.winner for e in self.events if isinstance(e, MatchEnd)), None)
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
