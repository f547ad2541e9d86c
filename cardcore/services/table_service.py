"""One table's life: the table on this machine and a server's tables are this, adapted.

A ``TableService`` owns a match as played at a table: who sits where and who is human,
whose turn it is, the bots' turns (a bot seat, or a stand-in bot for a person who is
away), the move log, the undo stack and what undo may not go back across, the
transaction around a move, and keeping the match in the library through a ``Keeper``.
It knows no screen and no connection: pacing the bots, drawing the table and telling
connections belong to the adapters (``cardcore.apps.tui.session.Session`` on this machine,
``cardcore.services.net.tables.Table`` on a server).

A move is all or nothing: the match's events are held while it is applied; when the
game's (or a bot's) code raises, the match is put back from the snapshot taken after
the last move, nothing is logged, kept or undone, and ``MoveFailed`` names the plugin
and method (an illegal action is ``IllegalAction``, the match as it was).

Undo never lets a player peek: after every move each human seat's view before and after
is compared (``reveal_of``); a move that showed a human a card it had not seen (a draw
from the stock, a deal, a card turned up, a card another seat played from its hidden
hand) is a barrier undo does not go back across, whoever made it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardcore.engine.bots.base import Bot, InfoSet
from cardcore.engine.bots.search import SearchBot
from cardcore.engine.bots.why import Choice, decide
from cardcore.engine.faults import describe
from cardcore.engine.game import Action, Game, GameState, IllegalAction, Zone
from cardcore.engine.journal import HandEnd, MatchEvent, Played, Resume, SeatChange, Undo
from cardcore.engine.match import Match
from cardcore.engine.match_setup import HUMAN, MatchSetup, draw_seed
from cardcore.language import ENGLISH, current, speaking
from cardcore.services.bot_why import WHY_KEPT, Reason, Why, explain, reason_of
from cardcore.services.plugins import Registry


class MoveFailed(Exception):
    """The game's (or a bot's) code raised during a move; the match is as it was before it.

    ``str()`` is one line naming the plugin and method (``cardcore.engine.faults.describe``)."""


class Refused(Exception):
    """A move the table does not take: an error ``code`` (docs/protocol.md's codes) and one
    line. Nothing changed."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


class Keeper(Protocol):
    """Where a table keeps its match: each move's events and the snapshot after it."""

    def commit(self, events: list[MatchEvent], snapshot: dict[str, Any]) -> None:
        """Keep ``events`` and ``snapshot`` together (one transaction in the library)."""


@dataclass
class LogEntry:
    hand: int
    seat: int | None
    text: str
    bot: bool = False
    #: Not a move: a chat line, a player's coming and going (tables on a server).
    note: bool = False
    #: A bot's move: the table's turn counter when it was played (what ``why`` asks about).
    turn: int | None = None
    #: The line in the table's other languages (``TableService.languages``), said when the
    #: move was played; ``text`` is English, as the record keeps it.
    texts: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    def said(self) -> str:
        """The line in the language in use: English as kept (the record's label), another as
        the move was said in it, else English (a line read back from a record)."""
        if not self.texts:
            return self.text
        language = current()
        return self.text if language == ENGLISH else self.texts.get(language, self.text)

    def to_json(self) -> dict[str, Any]:
        out = {"hand": self.hand, "seat": self.seat, "text": self.said(), "bot": self.bot}
        if self.bot and self.turn is not None:
            out["turn"] = self.turn
        return out


#: A log line said in English alone (shared: a line's ``texts`` are never changed).
_SAID_IN_ENGLISH: dict[str, str] = {}


def log_text(name: str, label: str) -> str:
    """A move as the log says it: ``"Ann: Capture 3♥ with 3♠"``."""
    return f"{name}: {label}"


def reveal_of(before: GameState, after: GameState, seat: int) -> str | None:
    """What a move showed ``seat`` that it had not seen, or None; generic, from views only.

    A move reveals when the stock's length changed (the view's ``stock`` list: a draw, a
    deal, a card turned up from it); when a card shows face up in the seat's zones more
    times than just before (a card drawn or dealt to it, or played by another seat from
    its hidden hand: the views just before and after are compared, so a card seen earlier
    and hidden since counts as new); or when face-down cards left a zone and did not all
    go to zones that show no face-up card (a double deck's card played onto its twin,
    which went face down).
    """
    stock_before, stock_after = before.view(seat).get("stock"), after.view(seat).get("stock")
    if isinstance(stock_before, list) and isinstance(stock_after, list) \
            and len(stock_before) != len(stock_after):
        return "a card taken from the stock"
    was, now = before.zones(seat), after.zones(seat)
    if _faces(now) - _faces(was):
        return "a card you had not seen"
    hidden_was, hidden_now = _face_down(was), _face_down(now)
    left = sum(max(0, n - hidden_now.get(zone, 0)) for zone, n in hidden_was.items())
    blind = {z.id for z in now if all(c is None for c in zone_cards(z))}
    stayed_down = sum(max(0, n - hidden_was.get(zone, 0)) for zone, n in hidden_now.items()
                      if zone in blind)
    if left > stayed_down:
        return "a card you had not seen"
    return None


def _faces(zones: list[Zone]) -> Counter[str]:
    """The face-up cards of ``zones``, counted (a double deck has two of each)."""
    return Counter(c for z in zones for c in zone_cards(z) if c is not None)


def _face_down(zones: list[Zone]) -> dict[str, int]:
    """Each zone's face-down cards, counted."""
    return {z.id: sum(1 for c in zone_cards(z) if c is None) for z in zones}


def zone_cards(zone: Zone) -> list[str | None]:
    """Every card of a zone: its own and its groups'."""
    return [*zone.cards, *(c for g in zone.groups for c in g.cards)]


@dataclass
class _UndoPoint:
    snapshot: dict[str, Any]
    log_len: int
    seat: int


@dataclass
class LastBotMove:
    """The last move a bot made, and the hand as it was before it (the table marks it)."""

    action: Action
    seat: int
    before: GameState | None


@dataclass
class TableService:
    """One match at one table (see the module docstring)."""

    registry: Registry
    match: Match
    #: Where the match is kept (None: nowhere, e.g. a benchmark's throwaway table).
    keeper: Keeper | None = None
    #: Undo of a human's moves against bots (a table on this machine).
    undo_allowed: bool = True
    #: The bot that plays a person's seat while they are away.
    standin: str = "greedy"
    log: list[LogEntry] = field(default_factory=list)
    #: The languages besides English the log says each move in (``LogEntry.texts``): the
    #: process's when it is another, and a server table's clients' as they come.
    languages: set[str] = field(default_factory=lambda: {current()} - {ENGLISH})
    #: Human seats a stand-in bot plays now (their player is away).
    away: set[int] = field(default_factory=set)
    #: The decisions a stand-in bot made for an absent player (the record does not say who
    #: chose; a server's table row keeps these, so a resumed log marks them a bot's).
    standin_turns: list[int] = field(default_factory=list)
    #: What undo cannot go back across when the stack is empty (a deal, a draw, ...).
    undo_barrier: str | None = "the deal"
    last_bot: LastBotMove | None = None
    #: Why each of the last bot moves was played, by turn counter (``why``; docs/bots.md).
    reasons: dict[int, Reason] = field(default_factory=dict)
    #: Called with each move's events once they are kept (the adapters tell their screen
    #: or connections).
    on_events: Callable[[list[MatchEvent]], None] | None = None
    _undo: list[_UndoPoint] = field(default_factory=list)
    _snapshot: dict[str, Any] | None = None

    # --- starting ---------------------------------------------------------------------------

    @classmethod
    def new(cls, registry: Registry, match: Match, **kwargs: Any) -> TableService:
        """The table of a new ``match``, dealt (``start``)."""
        service = cls(registry, match, **kwargs)
        service.start()
        return service

    def start(self) -> None:
        """Deal the match's first hand; its first events are kept and told like a move's."""
        match = self.match
        events: list[MatchEvent] = []
        emit, match.on_event = match.on_event, events.append
        try:
            match.start()
        finally:
            match.on_event = emit
        self._kept(events)

    def resumed(self, record_events: Iterable[MatchEvent], reason: str,
                standin_turns: Iterable[int] = ()) -> None:
        """A match taken up again where it was: its log rebuilt from its record (the moves of
        ``standin_turns`` a stand-in bot's), undo stopped at ``reason``."""
        self.rebuild_log(record_events, standin_turns)
        self.undo_barrier = reason
        self._snapshot = self.match.snapshot()

    # --- who sits where ----------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def humans(self) -> list[int]:
        return [s for s, who in enumerate(self.match.seats) if who == HUMAN]

    def is_bot(self, seat: int | None) -> bool:
        """The seat is a bot's (not a person's, even one away)."""
        return seat is not None and self.match.seats[seat] != HUMAN

    def name(self, seat: int) -> str:
        return self.match.seating.names[seat]

    def rename(self, seat: int, name: str, person: str | None = None) -> None:
        """``seat``'s player is called ``name`` (sides named after their seats follow);
        ``person``: their person key (``cardcore.engine.people``), kept in the record."""
        self.match.rename(seat, name, person)
        extra = {"person": person} if person is not None else {}
        self._keep([SeatChange.make(seat=seat, what="named", name=name, **extra)])

    def set_away(self, seat: int, away: bool) -> None:
        """A stand-in bot plays ``seat`` (a human seat) until its player is back."""
        if away:
            self.away.add(seat)
        else:
            self.away.discard(seat)

    # --- playing ---------------------------------------------------------------------------

    @property
    def to_play(self) -> int | None:
        return self.match.to_play

    def bot_to_play(self) -> int | None:
        """The seat to play if a bot plays it now (a bot seat, or a stand-in), else None."""
        seat = self.match.to_play
        if seat is None:
            return None
        return seat if self.is_bot(seat) or seat in self.away else None

    def act(self, seat: int, data: Any, turn: int) -> list[MatchEvent]:
        """A move sent as JSON for ``seat`` at turn ``turn`` (a server's player): Refused
        when it is not that seat's to make there or is no action of the game, else as
        ``play`` (IllegalAction, MoveFailed)."""
        match = self.match
        if match.over:
            raise Refused("not_your_turn", "the match is over")
        if turn != match.decisions:
            raise Refused("stale", f"turn {turn} is not the table's: it is at turn {match.decisions}")
        if match.to_play != seat:
            raise Refused("not_your_turn", "it is not your turn")
        try:
            action = self.game.action_from_json(match.live_state(), data)
        except IllegalAction as exc:
            raise Refused("illegal_action", exc.reason) from None
        except Exception as exc:  # a plugin choking on forged JSON: still just not legal
            raise Refused("illegal_action", f"not an action of {self.game.id} "
                          f"({type(exc).__name__})") from None
        extra = _unknown_keys(data, action.to_json())
        if extra:  # one rule for every game: an action with a key it does not have is refused whole
            raise Refused("illegal_action", f"not an action of {self.game.id}: no key {extra!r}")
        return self.play(seat, action)

    def play(self, seat: int, action: Action, *, bot: bool = False,
             why: tuple[Choice, Bot] | None = None) -> list[MatchEvent]:
        """``seat`` (the seat to play) plays ``action``: applied, logged, kept (its events
        returned). IllegalAction or MoveFailed: the match, log and library as they were.
        ``why``: the bot's choice and the bot (its reason is kept for ``why``)."""
        match = self.match
        if match.to_play != seat:
            raise Refused("not_your_turn", f"seat {seat + 1} is not to play")
        before, hand, turn = match.live_state().clone(), match.hand_no, match.decisions
        point = _UndoPoint(self._before(), len(self.log), seat)
        events = self._apply(point.snapshot, lambda: match.apply(action))
        by_standin = bot and not self.is_bot(seat)
        if by_standin:
            self.standin_turns.append(turn)
        if not bot and self._undoable():
            self._undo.append(point)
        self._barrier(before, hand, seat, action)
        self.last_bot = LastBotMove(action, seat, before if match.hand_no == hand else None) if bot else None
        if bot:
            self._remember(seat, turn, hand, before, why)
        self._kept(events, bot=bot, texts=self._said(before, seat, action) if self.languages else None)
        return events

    def _said(self, before: GameState, seat: int, action: Action) -> dict[str, str]:
        """``seat``'s move as the log says it in each of the table's other languages (the
        game's ``log_line`` of the position before it, public information only)."""
        texts = {}
        for language in self.languages:
            with speaking(language):
                texts[language] = log_text(self.name(seat), before.log_line(action))
        return texts

    def _remember(self, seat: int, turn: int, hand: int, before: GameState,
                  why: tuple[Choice, Bot] | None) -> None:
        """Keep why the bot at ``seat`` played at ``turn`` (the last ``WHY_KEPT`` moves)."""
        if why is None:
            return
        choice, bot = why
        self.reasons[turn] = reason_of(choice, bot, seat, turn, hand, before, [*self.humans, None])
        while len(self.reasons) > WHY_KEPT:
            del self.reasons[next(iter(self.reasons))]

    def why(self, turn: int | None, asker: int | None) -> Why:
        """Why the bot move at ``turn`` (None: the last bot move) was played, as ``asker``
        (a seat; None: a spectator) may read it. Refused when no reason of it is kept."""
        if turn is None:
            turn = next(reversed(self.reasons), None) if self.reasons else None
        reason = self.reasons.get(turn) if turn is not None else None
        if reason is None:
            which = "no bot move to explain" if turn is None else f"no bot move at turn {turn} to explain"
            raise Refused("bad_field", f"{which}: the table keeps the reasons of its last {WHY_KEPT} "
                          "bot moves since it opened")
        return explain(reason, self.name(reason.seat), asker)

    def bot_for(self, seat: int) -> Bot:
        """The bot that plays ``seat`` now: its own, or the stand-in for an absent person; a
        search stops at its level's table time cap on a slow machine."""
        kind = self.match.seats[seat]
        if kind == HUMAN:
            kind = self.standin
        bots = self.registry.bots
        bot_class = bots.get(kind)
        if bot_class is None or not bot_class.plays(self.game.id):
            bot_class = bots["random"]
        bot: Bot = bot_class()
        if isinstance(bot, SearchBot) and bot.max_seconds is None:
            bot.max_seconds = bot.table_seconds
        return bot

    def bot_turn(self, seat: int) -> tuple[Bot, InfoSet, random.Random]:
        """What ``seat``'s bot chooses from (``bot.choose(info, rng)``, on any thread)."""
        match = self.match
        return self.bot_for(seat), InfoSet.of(self.game, match.live_state(), seat), match.bot_rng(seat)

    def bot_step(self) -> Action:
        """The bot to play chooses and plays, here and now; its action is returned
        (MoveFailed, the match as it was, when the bot or the game raised)."""
        seat = self.bot_to_play()
        if seat is None:
            raise RuntimeError("no bot is to play")
        bot, info, rng = self.bot_turn(seat)
        try:
            choice = decide(bot, info, rng)
        except Exception as exc:
            self.match.restore(self._before())  # the bot's draws from its stream
            raise MoveFailed(describe(exc, self.registry.plugin_of_packages())) from exc
        self.play(seat, choice.action, bot=True, why=(choice, bot))
        return choice.action

    # --- the transaction ---------------------------------------------------------------------

    def _before(self) -> dict[str, Any]:
        """The match's snapshot as it is now (kept after each move: not taken twice)."""
        if self._snapshot is None:
            self._snapshot = self.match.snapshot()
        return self._snapshot

    def _apply(self, snapshot: dict[str, Any], move: Callable[[], None]) -> list[MatchEvent]:
        try:
            with self.match.transaction(snapshot) as events:
                move()
        except IllegalAction:
            raise
        except Exception as exc:
            raise MoveFailed(describe(exc, self.registry.plugin_of_packages())) from exc
        return events

    def _kept(self, events: list[MatchEvent], *, bot: bool = False,
              texts: dict[str, str] | None = None) -> None:
        """After a move (``texts``: the move's line in the table's other languages): the log
        and the undo barrier follow its events; they are kept."""
        for event in events:
            if isinstance(event, Played):
                seat = event.seat
                by_bot = bot or self.is_bot(seat)
                turn = self.match.decisions - 1 if by_bot else None
                self.log.append(LogEntry(event.hand, seat, log_text(self.name(seat), event.label), by_bot,
                                         turn=turn, texts=texts or _SAID_IN_ENGLISH))
                texts = None  # the move's own line: any later one was no choice of the seat
            elif isinstance(event, HandEnd):
                self._undo.clear()
                self.undo_barrier = "the deal"
        self.commit_position(events)

    def commit_position(self, events: list[MatchEvent]) -> None:
        """Keep the match as it is now, with ``events`` that are not moves (a resume)."""
        self._keep(events)
        if self.on_events is not None and events:
            self.on_events(events)

    def _keep(self, events: list[MatchEvent]) -> None:
        self._snapshot = self.match.snapshot()
        if self.keeper is not None:
            self.keeper.commit(events, self._snapshot)

    # --- undo ------------------------------------------------------------------------------

    def _undoable(self) -> bool:
        return self.undo_allowed and len(self.humans) == 1

    def _barrier(self, before: GameState, hand: int, seat: int, action: Action) -> None:
        """After ``seat``'s ``action``: if it showed a human a card, undo stops here (each
        human's own view; several humans have no undo, but the rule is the same)."""
        if not self.undo_allowed or not self.humans:
            return
        match = self.match
        reason: str | None = None
        if match.hand_no != hand or match.state is None:
            reason = "the deal"
        else:
            for human in self.humans:
                reason = reveal_of(before, match.state, human)
                if reason is not None:
                    break
        if reason is None:
            return
        self._undo.clear()
        if reason != "the deal" and seat not in self.humans:
            reason = f"{self.name(seat)}'s move ({action.label}): {reason}"
        self.undo_barrier = f"{reason} (going back past it would show you cards again)"

    def why_no_undo(self) -> str | None:
        """Why undo cannot take back a move now, or None when it can."""
        humans = self.humans
        if not humans:
            return "No undo: nobody plays at this table but the bots."
        if len(humans) > 1:
            return "No undo between human players: a move is taken back only against bots."
        if not self.undo_allowed:
            return "No undo at this table."
        if self.match.over:
            return "No undo: the match is over."
        if self._undo and self._undo[-1].snapshot["hand"] == self.match.hand_no:
            return None
        if self.undo_barrier is not None:
            return f"Nothing to undo: undo stops at {self.undo_barrier}."
        return "Nothing to undo: you have not moved yet."

    def undo(self) -> Undo:
        """Take back the human's last move and the bots' replies since (the event kept)."""
        if self.why_no_undo() is not None:
            raise RuntimeError("nothing to undo")
        point = self._undo.pop()
        self.match.restore(point.snapshot)
        del self.log[point.log_len:]
        self.last_bot = None
        match = self.match
        self.reasons = {t: r for t, r in self.reasons.items() if t < match.decisions}
        event = Undo.make(hand=match.hand_no, seat=point.seat, decisions=match.decisions,
                          state=match.live_state().export())
        self._keep([event])
        return event

    # --- the log ----------------------------------------------------------------------------

    def hand_log(self) -> list[LogEntry]:
        return [e for e in self.log if e.hand == self.match.hand_no]

    def rebuild_log(self, events: Iterable[MatchEvent], standin_turns: Iterable[int] = ()) -> None:
        """The move log read back from a record (undos and resumes honoured); the moves of
        ``standin_turns`` (decision numbers) were a stand-in bot's."""
        self.standin_turns = list(standin_turns)
        by_standin = set(self.standin_turns)
        entries: list[tuple[int, LogEntry]] = []  # (decisions after it, entry)
        decisions = 0
        for event in events:
            if isinstance(event, Played):
                seat = event.seat
                bot = self.is_bot(seat) or decisions in by_standin
                entry = LogEntry(event.hand, seat, log_text(self.name(seat), event.label), bot,
                                 turn=decisions if bot else None)
                decisions += 1
                entries.append((decisions, entry))
            elif isinstance(event, Undo | Resume):
                decisions = event.decisions
                entries = [(d, e) for d, e in entries if d <= decisions]
        self.log = [e for _, e in entries]

    # --- a rematch -----------------------------------------------------------------------------

    def rematch(self) -> MatchSetup:
        """The next match at this table, once this one is over: the same seats, names,
        partnerships (as the draw left them) and options, a new deal, the first deal
        passing on from the last hand's dealer."""
        match = self.match
        if not match.over:
            raise Refused("not_over", "a rematch comes once the match is over")
        seating = match.seating
        return MatchSetup(game=self.game.id, options=match.options.model_dump(mode="json"),
                          seats=list(match.seats), names=list(seating.names),
                          side_names=list(seating.side_names), seed=draw_seed(),
                          first_dealer=seating.rotated().dealer,
                          people=list(match.people) if any(match.people) else None)


def _unknown_keys(sent: Any, canonical: Any) -> str | None:
    """The first key of ``sent`` (an action's JSON, nested dicts too) the action's own JSON
    does not have."""
    if isinstance(sent, dict) and isinstance(canonical, dict):
        for key, value in sent.items():
            if key not in canonical:
                return str(key)[:40]
            inner = _unknown_keys(value, canonical[key])
            if inner is not None:
                return inner
    return None
