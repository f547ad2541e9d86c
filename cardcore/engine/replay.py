"""Records are replayed, not trusted: a record is rebuilt through the engine from its
``match_start``, and the first event that does not follow from the ones before it is
refused, naming its line. What a replay shows is what the engine rebuilt.

Undo and resume events (written by the table) are followed too: an undo must return to
a position the match really had earlier in the same hand.
"""

from __future__ import annotations

from typing import Any

from cardcore.engine.game import Game, ScoreRow
from cardcore.engine.journal import HandEnd, MatchEvent, MatchStart, Played, Resume, SeatChange, Undo
from cardcore.engine.match import Match
from cardcore.engine.records import RecordError


class Rebuild:
    """A record's match rebuilt through the engine, event by event: ``run()`` gives the
    match after the last event (RecordError naming the line of the first that does not
    follow). ``numbered``: (line, event), as ``records.parse_record_lines`` gives them."""

    def __init__(self, game: Game, numbered: list[tuple[int, MatchEvent]]):
        self.game = game
        self.numbered = numbered
        self.i = 0  # the next record event to account for
        self.emitted: list[MatchEvent] = []
        self.snapshots: dict[int, dict[str, Any]] = {}  # this hand's positions, by decisions

    def run(self) -> Match:
        match = self.start()
        while self.i < len(self.numbered):
            match = self.step(match)
        return match

    def refuse(self, why: str) -> RecordError:
        line = self.numbered[min(self.i, len(self.numbered) - 1)][0]
        return RecordError(f"line {line}: {why}")

    def start(self) -> Match:
        start = self.numbered[0][1] if self.numbered else None
        if not isinstance(start, MatchStart):
            raise self.refuse("a record begins with match_start") if self.numbered else \
                RecordError("an empty record")
        drew = len(self.numbered) > 1 and self.numbered[1][1].event == "draw"
        try:
            options = self.game.Options(**start.options)
            match = Match(self.game, options, seed=start.seed, seats=start.seats,
                          names=start.names, side_names=start.side_names, people=start.people,
                          match_no=start.match, draw_for_partners=drew,
                          first_dealer=start.first_dealer, on_event=self.emitted.append)
            match.start()
        except Exception as exc:
            raise self.refuse(f"not a match of {self.game.id} ({' '.join(str(exc).split())})") from None
        ours, theirs = self.emitted.pop(0).to_json(), start.to_json()
        if any(theirs.get(k) != v for k, v in ours.items() if k != "version" and k in theirs):
            raise self.refuse("match_start does not match the match it starts")
        self.i = 1
        self.follow()
        return match

    def follow(self) -> None:
        """The record's next events must be exactly what the engine just emitted."""
        for made in self.emitted:
            if self.i == len(self.numbered):
                break  # a record cut short (a match still in play, or a killed writer)
            theirs = self.numbered[self.i][1]
            if not _same(theirs, made):
                raise self.refuse(_difference(theirs, made))
            self.i += 1
        self.emitted.clear()

    def step(self, match: Match) -> Match:
        event = self.numbered[self.i][1]
        if isinstance(event, Played):
            self.action(match, event)
        elif isinstance(event, Undo):
            match = self.undo(match, event)
        elif isinstance(event, SeatChange):
            self.seat_change(match, event)
        elif isinstance(event, Resume):
            if (event.hand, event.decisions) != (match.hand_no, match.decisions):
                raise self.refuse("resume at a position the match was not in")
            self.i += 1
        else:
            raise self.refuse(f"a {event.event!r} event where an action was due")
        return match

    def action(self, match: Match, event: Played) -> None:
        if match.over or match.to_play is None:
            raise self.refuse("an action after the match ended")
        if event.seat != match.to_play:
            raise self.refuse(f"seat {event.seat} plays, but seat {match.to_play} is to play")
        if match.hand_no != event.hand:
            self.snapshots.clear()
        try:
            action = self.game.action_from_json(match.live_state(), event.action)
        except Exception as exc:
            raise self.refuse(f"not a legal action here ({' '.join(str(exc).split())})") from None
        if not self.snapshots or max(self.snapshots) < match.decisions:
            self.snapshots[match.decisions] = match.snapshot()
        hand = match.hand_no
        match.apply(action)
        if match.hand_no != hand:
            self.snapshots.clear()
        self.follow()

    def seat_change(self, match: Match, event: SeatChange) -> None:
        """A player took their seat under the name they chose (the match's names follow)."""
        if event.what != "named" or not 0 <= event.seat < len(match.seats):
            raise self.refuse("not a seat change of this match")
        match.rename(event.seat, event.name, event.person)
        self.i += 1

    def undo(self, match: Match, event: Undo) -> Match:
        if not 0 <= event.seat < len(match.seats):
            raise self.refuse("undo by a seat this match does not have")
        snap = self.snapshots.get(event.decisions)
        if snap is None or snap["state"] != event.state or snap["hand"] != event.hand:
            raise self.refuse("undo to a position this hand never had")
        for later in [d for d in self.snapshots if d > snap["decisions"]]:
            del self.snapshots[later]
        self.i += 1
        return Match.from_snapshot(self.game, snap, on_event=self.emitted.append)


def replay(game: Game, numbered: list[tuple[int, MatchEvent]]) -> list[MatchEvent]:
    """The record's events, each checked to follow from the ones before through the engine
    (RecordError naming the line of the first that does not). ``numbered``: (line, event)."""
    Rebuild(game, numbered).run()
    return [event for _, event in numbered]


#: Keys of a side's score row that only say what was counted (``SideScore``): a record
#: written before a game filled them still replays.
SHOWN_ONLY = ("counts", "note")


def _same(theirs: MatchEvent, ours: MatchEvent) -> bool:
    """The record's event is the engine's (a score row's SHOWN_ONLY keys aside)."""
    mine, made = theirs.to_json(), ours.to_json()
    if mine == made:
        return True
    if isinstance(theirs, HandEnd) and isinstance(ours, HandEnd):
        return {**mine, "score": _shown_only(theirs.score)} == {**made, "score": _shown_only(ours.score)}
    return False


def _shown_only(row: ScoreRow) -> dict[str, Any]:
    """The score row without its sides' SHOWN_ONLY keys."""
    sides = [{k: v for k, v in side.items() if k not in SHOWN_ONLY} for side in row["sides"]]
    return {**row, "sides": sides}


def _difference(theirs: MatchEvent, ours: MatchEvent) -> str:
    if theirs.event != ours.event:
        return f"a {theirs.event!r} event where the engine gives a {ours.event!r} event"
    mine, made = theirs.to_json(), ours.to_json()
    keys = sorted(k for k in mine.keys() | made.keys() if mine.get(k) != made.get(k))
    return f"this {theirs.event} event is not what the engine gives (it differs in {', '.join(keys)})"
