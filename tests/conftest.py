"""Shared fixtures: the example games are importable without installing them."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
for EXAMPLE in (ROOT / "examples" / "crazy_eights", ROOT / "examples" / "whist"):
    if str(EXAMPLE) not in sys.path:
        sys.path.append(str(EXAMPLE))


@pytest.fixture
def crazy_eights():
    from cardcore_crazy_eights.game import CrazyEights

    return CrazyEights()


@pytest.fixture
def whist():
    from cardcore_whist.game import Whist

    return Whist()


@pytest.fixture(autouse=True)
def cardcore_home(tmp_path, monkeypatch):
    """Saves and records of a test go to its own folder."""
    home = tmp_path / "cardcore-home"
    monkeypatch.setenv("CARDCORE_HOME", str(home))
    return home
