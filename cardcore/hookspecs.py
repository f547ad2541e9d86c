"""The hooks a cardcore plugin may implement (documented in docs/plugins.md)."""

import pluggy

hookspec = pluggy.HookspecMarker("cardcore")
#: What a plugin decorates its hook implementations with (``from cardcore import hookimpl``).
hookimpl = pluggy.HookimplMarker("cardcore")


@hookspec
def cardcore_register_games(register):
    """Call ``register(game)`` once for each Game this plugin adds."""


@hookspec
def cardcore_register_bots(register):
    """Call ``register(bot_class)`` once for each Bot class this plugin adds."""


@hookspec
def cardcore_hand_finished(match, row):
    """A hand of ``match`` was scored; ``row`` is its score sheet row."""


@hookspec
def cardcore_match_finished(match):
    """``match`` has a winner."""
