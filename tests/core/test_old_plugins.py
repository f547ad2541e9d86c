"""Plugins written outside the repo keep working: the frozen examples load and conform.

Two frozen copies of the example game, never edited: ``crazy_eights_0_1`` (written against
cardcore 0.1) and ``crazy_eights_kit_1`` (the kit's example as it was when the kit came,
declared with ``parts``). Each is installed like a user would and passes today's check_game."""

import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FROZEN = FIXTURES / "crazy_eights_0_1"
KIT_1 = FIXTURES / "crazy_eights_kit_1"


def _python(code: str, path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                          env={"PYTHONPATH": str(path), "PATH": "/usr/bin:/bin"})


@pytest.mark.slow
@pytest.mark.parametrize("frozen", [FROZEN, KIT_1], ids=["0.1", "kit-1"])
def test_the_frozen_plugin_installs_loads_and_passes_check_game(tmp_path, frozen):
    target = tmp_path / "site"
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
         "--no-index", "--target", str(target), str(frozen)],
        capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr
    check = _python(
        "import cardcore, cardcore_crazy_eights\n"
        "from cardcore.services.plugins import load_registry\n"
        "from cardcore.engine.testing import check_game\n"
        f"assert cardcore_crazy_eights.__file__.startswith({str(target)!r}), cardcore_crazy_eights.__file__\n"
        "registry = load_registry()\n"
        "assert not registry.errors, registry.errors\n"
        "assert registry.origin['crazy_eights'][1:] == ('cardcore-crazy-eights', '1.0.0')\n"
        "report = check_game(registry.games['crazy_eights'], seeds=range(4))\n"
        "print('hands', report.hands, 'matches', report.matches)\n", target)
    assert check.returncode == 0, check.stderr
    assert check.stdout.startswith("hands ")


def test_the_frozen_plugin_is_the_0_1_example_untouched():
    """The fixture is what it says: it still uses the names 0.1 had (``Options``)."""
    game = (FROZEN / "cardcore_crazy_eights" / "game.py").read_text()
    assert "from cardcore import Game, GameState, Group, IllegalAction, Options," in game


def test_the_frozen_kit_plugin_is_the_first_kit_example_untouched():
    """The kit fixture declares its state with the first kit's parts and loads through the
    kit's ``check(strict)``: what a plugin written on that kit looks like."""
    game = (KIT_1 / "cardcore_crazy_eights" / "game.py").read_text()
    assert ('parts = {"hands": Cards(per="seat", shown=OWNER), "stock": Cards(shown=HIDDEN),'
            in game)
    assert "def check(self, strict: bool) -> None:" in game
