"""The match controller the screens drive: no Textual here, so it is tested on its own.

A Session owns one Match, the bots of its seats, the record file (JSON Lines),
the autosave written after every action, the undo stack and the move log.
A Replay steps through a record file.

Faults at the table never take it down:

- every move (a human's or a bot's) is applied with the match's events held back; when
  the game's code raises, the match is restored from the snapshot taken before the move,
  nothing is recorded or saved, and :class:`MoveFailed` names the plugin and method;
- a record or save that cannot be written (a read-only data dir, a full disk) leaves play
  going on without it: ``save_problem`` says so until saving works again.

Undo never lets the human peek: after every move the human's view before and after is
compared (:func:`reveal_of`); a move that showed the human cards it had not seen (a draw
from the stock, a deal, a card turned up) is a barrier undo does not go back across.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from cardcore import records
from cardcore.bots.base import Bot, InfoSet
from cardcore.faults import describe
from cardcore.game import Action, Game, GameOptions, GameState, IllegalAction, Zone
from cardcore.match import Match
from cardcore.plugins import Registry
from cardcore.replay import replay
from cardcore.scoresheet import ScoreSheet
from cardcore.tui.marks import Moved, TableInfo, moved

if TYPE_CHECKING:
    from cardcore.cli import MatchSetup

HUMAN = "human"


class MoveFailed(Exception):
    """The game's (or a bot's) code raised during a move; the match is as it was before it.

    ``str()`` is one line naming the plugin and method (``cardcore.faults.describe``)."""


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
    record_path: Path | None = None
    autosave: bool = True
    log: list[LogEntry] = field(default_factory=list)
    #: Events since the screen last asked (``drain_events``).
    events: list[dict[str, Any]] = field(default_factory=list)
    last_bot_action: Action | None = None
    last_bot_seat: int | None = None
    #: The hand as it was before the last bot move (the table marks what moved), or None.
    before_last_bot: GameState | None = None
    #: The bot speed chosen at this table (kept in the save, so a resume keeps it).
    bot_speed: str | None = None
    #: Why the autosave is not being written (None while saving works).
    save_error: str | None = None
    #: Why the record stopped being written (it is not written again in this session).
    record_error: str | None = None
    #: What undo cannot go back across when the stack is empty (a deal, a draw, ...).
    undo_barrier: str | None = None
    _undo: list[Snapshot] = field(default_factory=list)
    _record: IO[str] | None = None

    # --- making one --------------------------------------------------------------

    @classmethod
    def new(cls, registry: Registry, setup: SessionSetup, *, record: bool = True,
            autosave: bool = True) -> Session:
        match = Match(setup.game, setup.options, seed=setup.seed, seats=list(setup.seats),
                      names=setup.names or None, side_names=setup.side_names or None,
                      draw_for_partners=setup.draw_for_partners, pm=registry.pm)
        session = cls(registry, match, setup, autosave=autosave)
        if record:
            session._open_new_record(setup)
        match.on_event = session._on_event
        match.start()
        session.undo_barrier = "the deal"
        session._save()
        return session

    def _open_new_record(self, setup: SessionSetup) -> None:
        try:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = records.records_dir() / f"{stamp}-{setup.game.id}-{setup.seed}.jsonl"
            n = 1
            while path.exists():
                n += 1
                path = path.with_name(f"{stamp}-{setup.game.id}-{setup.seed}-{n}.jsonl")
            path.parent.mkdir(parents=True, exist_ok=True)
            self._record = open_record(path, "w")
            self.record_path = path
        except OSError as exc:
            self.record_error = f"no record is written ({os_reason(exc)})"

    @classmethod
    def resume(cls, registry: Registry, path: str | Path | None = None) -> Session:
        """The saved match at ``path`` (the autosave by default); RecordError if unreadable."""
        path = Path(path) if path else records.autosave_path()
        if not path.exists():
            raise records.RecordError(f"no saved match at {path}")
        save = records.read_save(path)
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
        unknown = sorted({s for s in match.seats if s != "human" and s not in registry.bots})
        if unknown:
            raise records.RecordError(f"{path}: the bot {unknown[0]!r} is not installed")
        session = cls(registry, match, bot_speed=save.speed)
        session.setup = SessionSetup(game, match.options, list(match.seats), match.seed,
                                     list(match.seating.names), list(match.seating.side_names))
        session.undo_barrier = "the position the match was resumed at"
        try:
            record_path = records.owned_record(save.record_path)
        except OSError:
            record_path = None
        if record_path is not None:
            session.record_path = record_path
            session._rebuild_log()
            try:
                session._record = open_record(record_path, "a")
            except OSError as exc:
                session.record_error = f"the record is not written ({os_reason(exc)})"
        match.on_event = session._on_event
        session._write({"event": "resume", "hand": match.hand_no, "decisions": match.decisions})
        return session

    def close(self) -> None:
        if self._record is not None:
            self._record.close()
            self._record = None

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

    def side_name(self, side: int) -> str:
        return self.match.seating.side_names[side]

    def bot(self, seat: int) -> Bot:
        bot: Bot = self.registry.bots[self.match.seats[seat]]()
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

    def hint(self) -> Action | None:
        """What the greedy bot would play for the human to play."""
        seat = self.to_play
        if seat is None or self.is_bot(seat):
            return None
        greedy = self.registry.bots.get("greedy")
        if greedy is None:
            from cardcore.bots.greedy import GreedyBot

            greedy = GreedyBot
        rng = random.Random(f"hint:{self.match.seed}:{self.match.hand_no}:{self.match.decisions}")
        action: Action = greedy().choose(InfoSet.of(self.game, self.state, seat), rng)
        return action

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
        """One record line; a record that cannot be written is closed and not written
        again (a record with a line missing would not replay)."""
        if self._record is None:
            return
        try:
            self._record.write(records.dumps(event) + "\n")
            self._record.flush()
        except OSError as exc:
            self.record_error = f"the record stopped ({os_reason(exc)})"
            record, self._record = self._record, None
            with contextlib.suppress(OSError):
                record.close()

    def set_speed(self, speed: str) -> None:
        """The bot speed chosen at this table; saved with the match."""
        self.bot_speed = speed
        self._save()

    def _save(self) -> None:
        """The autosave; a failure is kept in ``save_error`` (play goes on) until a save
        works again."""
        if not self.autosave:
            return
        try:
            path = records.autosave_path()
            if self.match.over:
                path.unlink(missing_ok=True)
            else:
                records.write_save(path, records.SaveFile(
                    match=self.match.snapshot(),
                    record_path=str(self.record_path) if self.record_path else None,
                    speed=self.bot_speed))
        except OSError as exc:
            self.save_error = f"the match is not being saved ({os_reason(exc)})"
            return
        self.save_error = None

    @property
    def save_problem(self) -> str | None:
        """One line for the screen while the save or the record cannot be written."""
        problems = [p for p in (self.save_error, self.record_error) if p]
        return "; ".join(problems) or None

    def _rebuild_log(self) -> None:
        """The move log of the current hand, read back from the record (undos honoured)."""
        if self.record_path is None:
            return
        try:
            events = records.read_record(self.record_path)
        except records.RecordError:
            return
        entries: list[tuple[int, LogEntry]] = []  # (decisions after it, entry)
        decisions = 0
        for event in events:
            kind = event["event"]
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


def open_record(path: Path, mode: str) -> IO[str]:
    """The record file, opened for writing (``w``) or appending (``a``)."""
    return open(path, mode, encoding="utf-8", newline="\n")  # noqa: SIM115


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


class Replay:
    """A record file as a list of positions to step through."""

    def __init__(self, registry: Registry, path: str | Path) -> None:
        self.path = Path(path)
        numbered = records.read_record_lines(path)
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
                    self.frames[-1] = Frame(last.hand, last.text + " — hand over", last.state,
                                            last.dealer)
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
