"""Records are replayed, not trusted: a record is rebuilt through the engine from its
``match_start``, and the first event that does not follow from the ones before it is
refused, naming its line. What a replay shows is what the engine rebuilt.

Undo and resume events (written by the table) are followed too: an undo must return to
a position the match really had earlier in the same hand.
"""

from __future__ import annotations

from typing import Any

from cardcore.engine.game import Game
from cardcore.engine.match import Match
from cardcore.engine.records import RecordError

Event = dict[str, Any]


class _Rebuild:
    def __init__(self, game: Game, numbered: list[tuple[int, Event]]):
        self.game = game
        self.numbered = numbered
        self.i = 0  # the next record event to account for
        self.emitted: list[Event] = []
        self.snapshots: dict[int, dict[str, Any]] = {}  # this hand's positions, by decisions

    def refuse(self, why: str) -> RecordError:
        line = self.numbered[min(self.i, len(self.numbered) - 1)][0]
        return RecordError(f"line {line}: {why}")

    def start(self) -> Match:
        start = self.numbered[0][1]
        drew = len(self.numbered) > 1 and self.numbered[1][1].get("event") == "draw"
        try:
            options = self.game.Options(**start["options"])
            match = Match(self.game, options, seed=start["seed"], seats=start["seats"],
                          names=start.get("names"), side_names=start.get("side_names"),
                          match_no=start.get("match", 0), draw_for_partners=drew,
                          on_event=self.emitted.append)
            match.start()
        except Exception as exc:
            raise self.refuse(f"not a match of {self.game.id} ({' '.join(str(exc).split())})") from None
        ours = self.emitted.pop(0)
        if any(start.get(k) != v for k, v in ours.items() if k != "version" and k in start):
            raise self.refuse("match_start does not match the match it starts")
        self.i = 1
        self.follow()
        return match

    def follow(self) -> None:
        """The record's next events must be exactly what the engine just emitted."""
        for ours in self.emitted:
            if self.i == len(self.numbered):
                break  # a record cut short (a match still in play, or a killed writer)
            theirs = self.numbered[self.i][1]
            if theirs != ours and _shown_only(theirs) != _shown_only(ours):
                raise self.refuse(_difference(theirs, ours))
            self.i += 1
        self.emitted.clear()

    def step(self, match: Match) -> Match:
        event = self.numbered[self.i][1]
        kind = event.get("event")
        if kind == "action":
            self.action(match, event)
        elif kind == "undo":
            match = self.undo(event)
        elif kind == "resume":
            if (event.get("hand"), event.get("decisions")) != (match.hand_no, match.decisions):
                raise self.refuse("resume at a position the match was not in")
            self.i += 1
        else:
            raise self.refuse(f"a {kind!r} event where an action was due")
        return match

    def action(self, match: Match, event: Event) -> None:
        if match.over or match.to_play is None:
            raise self.refuse("an action after the match ended")
        if event.get("seat") != match.to_play:
            raise self.refuse(f"seat {event.get('seat')} plays, but seat {match.to_play} is to play")
        if match.hand_no != event.get("hand"):
            self.snapshots.clear()
        try:
            action = self.game.action_from_json(match._live_state(), event["action"])
        except Exception as exc:
            raise self.refuse(f"not a legal action here ({' '.join(str(exc).split())})") from None
        if not self.snapshots or max(self.snapshots) < match.decisions:
            self.snapshots[match.decisions] = match.snapshot()
        hand = match.hand_no
        match.apply(action)
        if match.hand_no != hand:
            self.snapshots.clear()
        self.follow()

    def undo(self, event: Event) -> Match:
        decisions = event.get("decisions")
        snap = self.snapshots.get(decisions) if isinstance(decisions, int) else None
        if snap is None or snap["state"] != event.get("state") or snap["hand"] != event.get("hand"):
            raise self.refuse("undo to a position this hand never had")
        for later in [d for d in self.snapshots if d > snap["decisions"]]:
            del self.snapshots[later]
        self.i += 1
        return Match.from_snapshot(self.game, snap, on_event=self.emitted.append)


def replay(game: Game, numbered: list[tuple[int, Event]]) -> list[Event]:
    """The record's events, each checked to follow from the ones before through the engine
    (RecordError naming the line of the first that does not). ``numbered``: (line, event)."""
    rebuild = _Rebuild(game, numbered)
    match = rebuild.start()
    while rebuild.i < len(numbered):
        match = rebuild.step(match)
    return [event for _, event in numbered]


#: Keys of a side's score row that only say what was counted (``SideScore``): a record
#: written before a game filled them still replays.
SHOWN_ONLY = ("counts", "note")


def _shown_only(event: Event) -> Event:
    """``event`` without the score rows' SHOWN_ONLY keys (other events as they are)."""
    score = event.get("score")
    if event.get("event") != "hand_end" or not isinstance(score, dict):
        return event
    sides = [{k: v for k, v in side.items() if k not in SHOWN_ONLY} if isinstance(side, dict)
             else side for side in score.get("sides", [])]
    return {**event, "score": {**score, "sides": sides}}


def _difference(theirs: Event, ours: Event) -> str:
    kind = theirs.get("event")
    if kind != ours["event"]:
        return f"a {kind!r} event where the engine gives a {ours['event']!r} event"
    keys = sorted(k for k in ours.keys() | theirs.keys() if theirs.get(k) != ours.get(k))
    return f"this {kind} event is not what the engine gives (it differs in {', '.join(keys)})"
