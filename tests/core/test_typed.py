"""cardcore is a typed package (``cardcore/py.typed``): a game written outside the repository
(the scaffold of ``cardcore new-game``, the kit's example) passes ``mypy --strict`` run
as its author would, from its own directory with cardcore installed beside it."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cardcore
from cardcore.apps.newgame import new_game

ROOT = Path(__file__).resolve().parents[2]
#: Where cardcore is imported from: the only thing on the outside package's path.
SITE = Path(cardcore.__file__).resolve().parents[1]


def test_cardcore_ships_its_type_marker():
    assert (SITE / "cardcore" / "py.typed").is_file()


def _mypy(package: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MYPY")}
    env["PYTHONPATH"] = str(SITE)
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
                           "--cache-dir", str(cache), "."], cwd=package, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.slow
@pytest.mark.parametrize("which", ["scaffold", "crazy_eights", "whist"])
def test_a_game_outside_the_repo_passes_mypy_strict(tmp_path, which):
    if which == "scaffold":
        package = new_game("typed_game", tmp_path)
    else:  # the kit's examples
        package = tmp_path / which
        shutil.copytree(ROOT / "examples" / which, package)
    done = _mypy(package, tmp_path / "cache")
    assert done.returncode == 0, done.stdout + done.stderr
