"""The hooks a cardcore plugin may implement (documented in docs/plugins.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from cardcore.engine.bots.base import Bot
    from cardcore.engine.game import Game, ScoreRow
    from cardcore.engine.match import Match

hookspec = pluggy.HookspecMarker("cardcore")
#: What a plugin decorates its hook implementations with (``from cardcore import hookimpl``).
hookimpl = pluggy.HookimplMarker("cardcore")


@hookspec
def cardcore_register_games(register: Callable[[Game], Any]) -> None:
    """Call ``register(game)`` once for each Game this plugin adds."""


@hookspec
def cardcore_register_bots(register: Callable[[type[Bot]], Any]) -> None:
    """Call ``register(bot_class)`` once for each Bot class this plugin adds."""


@hookspec
def cardcore_hand_finished(match: Match, row: ScoreRow) -> None:
    """A hand of ``match`` was scored; ``row`` is its score sheet row."""


@hookspec
def cardcore_match_finished(match: Match) -> None:
    """``match`` has a winner."""
