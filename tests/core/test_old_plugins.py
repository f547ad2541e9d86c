"""A plugin written against cardcore 0.1 keeps working: the frozen example loads and conforms."""

import subprocess
import sys
from pathlib import Path

import pytest

FROZEN = Path(__file__).resolve().parent.parent / "fixtures" / "crazy_eights_0_1"


def _python(code: str, path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                          env={"PYTHONPATH": str(path), "PATH": "/usr/bin:/bin"})


@pytest.mark.slow
def test_the_frozen_0_1_plugin_installs_loads_and_passes_check_game(tmp_path):
    target = tmp_path / "site"
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
         "--no-index", "--target", str(target), str(FROZEN)],
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
