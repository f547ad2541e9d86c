"""Helpers the bot tests share."""

from __future__ import annotations

from typing import Any

from cardcore.engine.bots.base import InfoSet
from cardcore.engine.match import Match


def opening_info_set(registry: Any, game_id: str = "casino", seed: int = 3) -> InfoSet:
    """What the seat to play first sees in a two-seat match of ``game_id``."""
    game = registry.games[game_id]
    match = Match(game, game.Options(), seed=seed, seats=["human"] * 2)
    match.start()
    assert match.to_play is not None and match.state is not None
    return InfoSet.of(game, match.state, match.to_play)
