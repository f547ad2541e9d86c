"""Bots playing a whole match: ``play_bots`` drives a match to its end, a bot in every seat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardcore.engine.bots.base import InfoSet

if TYPE_CHECKING:
    from cardcore.engine.match import Match


def play_bots(match: Match, bots: dict[int, Any], max_decisions: int = 1_000_000) -> None:
    """Drive ``match`` to its end with a bot in every seat."""
    game = match.game
    side_of = tuple(match.seating.side_of(s) for s in range(match.seating.players))
    for _ in range(max_decisions):
        seat = match.to_play
        if seat is None:
            return
        info = InfoSet.of(game, match.live_state(), seat, side_of)
        match.apply(bots[seat].choose(info, match.bot_rng(seat)))
    raise RuntimeError(f"the match did not end in {max_decisions} decisions")
