"""Shared fixtures: the example game is importable without installing it."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "crazy_eights"
if str(EXAMPLE) not in sys.path:
    sys.path.append(str(EXAMPLE))


@pytest.fixture
def crazy_eights():
    from cardcore_crazy_eights.game import CrazyEights

    return CrazyEights()


@pytest.fixture(autouse=True)
def cardcore_home(tmp_path, monkeypatch):
    """Saves and records of a test go to its own folder."""
    home = tmp_path / "cardcore-home"
    monkeypatch.setenv("CARDCORE_HOME", str(home))
    return home
