"""The match controller the screens drive: no Textual here, so it is tested on its own.

A Session owns one Match, the bots of its seats, the record file (JSON Lines),
the autosave written after every action, the undo stack and the move log.
A Replay steps through a record file.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from cardcore import records
from cardcore.bots.base import Bot, InfoSet
from cardcore.game import Action, Game, GameOptions, GameState, Zone
from cardcore.match import Match
from cardcore.plugins import Registry
from cardcore.replay import replay
from cardcore.scoresheet import ScoreSheet

if TYPE_CHECKING:
    from cardcore.cli import MatchSetup

HUMAN = "human"


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
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = records.records_dir() / f"{stamp}-{setup.game.id}-{setup.seed}.jsonl"
            n = 1
            while path.exists():
                n += 1
                path = path.with_name(f"{stamp}-{setup.game.id}-{setup.seed}-{n}.jsonl")
            path.parent.mkdir(parents=True, exist_ok=True)
            session.record_path = path
            session._record = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        match.on_event = session._on_event
        match.start()
        session._save()
        return session

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
        session = cls(registry, match)
        session.setup = SessionSetup(game, match.options, list(match.seats), match.seed,
                                     list(match.seating.names), list(match.seating.side_names))
        record_path = records.owned_record(save.record_path)
        if record_path is not None:
            session.record_path = record_path
            session._rebuild_log()
            session._record = open(session.record_path, "a", encoding="utf-8", newline="\n")  # noqa: SIM115
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
        """A human's move (IllegalAction leaves everything as it was)."""
        seat = self.to_play
        if seat is None:
            raise RuntimeError("nobody is to play")
        if self.is_bot(seat):
            raise RuntimeError(f"seat {seat + 1} is a bot's")
        snap = Snapshot(self.match.snapshot(), len(self.log), seat)
        self.match.apply(action)
        self._undo.append(snap)
        self.last_bot_action = None
        self._save()

    def bot_step(self) -> Action:
        """The bot to play chooses and plays; returns its action."""
        seat = self.to_play
        if seat is None or not self.is_bot(seat):
            raise RuntimeError("no bot is to play")
        action = self.bot(seat).choose(InfoSet.of(self.game, self.state, seat), self.match.bot_rng(seat))
        self.match.apply(action)
        self.last_bot_action, self.last_bot_seat = action, seat
        self._save()
        return action

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

    def can_undo(self) -> bool:
        """Undo of one's own last move: against bots only (one human), within the hand."""
        if len(self.humans) != 1 or self.over or not self._undo:
            return False
        return self._undo[-1].match["hand"] == self.match.hand_no

    def undo(self) -> None:
        if not self.can_undo():
            raise RuntimeError("nothing to undo")
        snap = self._undo.pop()
        self.match = Match.from_snapshot(self.game, snap.match, on_event=self._on_event,
                                         pm=self.registry.pm)
        del self.log[snap.log_len:]
        self.last_bot_action = None
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

    def _write(self, event: dict[str, Any]) -> None:
        if self._record is not None:
            self._record.write(records.dumps(event) + "\n")
            self._record.flush()

    def _save(self) -> None:
        if not self.autosave:
            return
        path = records.autosave_path()
        if self.match.over:
            path.unlink(missing_ok=True)
            return
        records.write_save(path, records.SaveFile(
            match=self.match.snapshot(),
            record_path=str(self.record_path) if self.record_path else None))

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
        self.seats: list[str] = list(start.get("seats") or [])
        try:
            self._read_frames(start)
        except (KeyError, TypeError, ValueError) as exc:  # a damaged or foreign record
            raise records.RecordError(f"{path}: not a record of {game_id} ({exc!r})") from None
        if not self.frames:
            raise records.RecordError(f"{path}: the record has no positions to show")

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
                who = f"Seat {event['seat'] + 1}"
                self.frames.append(Frame(event["hand"], f"{who}: {event['label']}", event["state"],
                                         dealer))
            elif kind == "undo":
                self.frames.append(Frame(event["hand"], "Undo", event["state"], dealer))
            elif kind == "hand_end":
                row = event["score"]
                if sheet is None:
                    sheet = ScoreSheet([f"Side {i + 1}" for i in range(len(row["sides"]))], target)
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
