"""A few snapshots at a fixed seed and size, animations off, bot delay 0 (review before --snapshot-update)."""

from __future__ import annotations

import pytest

from cardcore.apps.tui.app import CardcoreApp, Play
from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen
from cardcore.apps.tui.session import SessionSetup
from cardcore.services.plugins import load_registry

from .helpers import play_first

SIZE = (100, 30)


def app_for(registry, **kwargs) -> CardcoreApp:
    return CardcoreApp(registry, bot_delay=0, animations=False, seed=7, **kwargs)


@pytest.fixture
def example_registry(monkeypatch):
    """Only the example game, so other games' texts do not move these pictures."""
    monkeypatch.setenv("CARDCORE_PLUGINS", "crazy_eights")
    return load_registry()


def test_launcher(snap_compare, example_registry):
    assert snap_compare(app_for(example_registry), terminal_size=SIZE)


def test_setup(snap_compare, example_registry):
    assert snap_compare(app_for(example_registry), press=["enter"], terminal_size=SIZE)


@pytest.mark.parametrize("game_id", ["crazy_eights", "casino", "royal_casino", "canasta"])
def test_table(snap_compare, registry, need_game, game_id):
    game = need_game(game_id)
    n = game.player_counts[0]
    setup = SessionSetup(game, game.Options(), ["human"] + ["greedy"] * (n - 1), 7)
    app = app_for(registry, start=Play(setup))
    assert snap_compare(app, terminal_size=SIZE)


@pytest.mark.slow
def test_score_sheet(snap_compare, registry):
    game = registry.games["crazy_eights"]
    setup = SessionSetup(game, game.Options(), ["human", "greedy"], 7)
    app = app_for(registry, start=Play(setup))

    async def play_hand(pilot):
        for _ in range(500):
            if isinstance(pilot.app.screen, ScoreSheetScreen):
                break
            await play_first(pilot)
            await pilot.pause()
        assert isinstance(pilot.app.screen, ScoreSheetScreen)

    assert snap_compare(app, run_before=play_hand, terminal_size=SIZE)
