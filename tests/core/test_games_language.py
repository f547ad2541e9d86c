"""A game that knows nothing of languages keeps working under another language (docs/plugins.md,
"Languages"): the example games have no domain, so under Indonesian their labels, zones, log
lines and rules are the English ones, and ``Game.translate`` passes their texts through."""

from __future__ import annotations

import random

import pytest

from cardcore.engine.seating import Seating
from cardcore.language import speaking


def _texts(game) -> list:
    state = game.new_hand(Seating(4), game.Options(), random.Random(7), [0, 0])
    actions = state.legal_actions()
    return [[a.label for a in actions], state.log_line(actions[0]),
            [(z.title, z.badges) for z in state.zones(state.to_play)],
            game.rules(game.Options()), game.translate(game.description)]


@pytest.mark.parametrize("which", ["crazy_eights", "whist"])
def test_an_example_game_is_english_under_indonesian(which, request):
    game = request.getfixturevalue(which)
    assert game.domain is None
    english = _texts(game)
    with speaking("id"):
        assert _texts(game) == english
