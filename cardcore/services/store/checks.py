"""What goes into the library from outside is checked through the engine first."""

from __future__ import annotations

from typing import Any

from cardcore.engine.game import Game
from cardcore.engine.journal import MatchEvent, Resume
from cardcore.engine.match import Match
from cardcore.engine.records import RecordError
from cardcore.engine.replay import Rebuild
from cardcore.services.store import MatchStore, OpenMatch, StoreError


def rebuild(game: Game, numbered: list[tuple[int, MatchEvent]]) -> Match:
    """The match a record describes, every event checked as ``cardcore.engine.replay.replay`` does
    (RecordError naming the first line that does not follow)."""
    return Rebuild(game, numbered).run()


def import_checked(store: MatchStore, game: Game, numbered: list[tuple[int, MatchEvent]]) -> int:
    """Add a record to the library once the engine has rebuilt it; a forged or damaged
    record raises RecordError and nothing is added. An unfinished record can be resumed
    (its bots continue with fresh random streams for the hand in play)."""
    match = rebuild(game, numbered)
    return store.import_record([event for _, event in numbered], match.snapshot())


def resume(play: OpenMatch, game: Game, **kwargs: Any) -> Match:
    """The held match as a Match (``Match.from_snapshot`` checks the snapshot), with the
    ``resume`` event the table writes already appended; StoreError if it cannot continue."""
    snap = play.snapshot()
    if snap is None:
        raise StoreError(f"match {play.id} was never saved past its start")
    try:
        match = Match.from_snapshot(game, snap, **kwargs)
    except (ValueError, RecordError) as exc:
        raise StoreError(f"match {play.id} cannot continue ({exc})") from None
    play.append_event(Resume.make(hand=match.hand_no, decisions=match.decisions))
    return match
