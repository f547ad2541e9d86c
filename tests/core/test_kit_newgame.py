"""``cardcore new-game NAME`` writes a package that installs, loads, conforms and plays."""

import os
import subprocess
import sys

import pytest

from cardcore.apps.cli import main


def _cardcore(args, cwd, pythonpath=None):
    env = {**os.environ, "PYTHONPATH": str(pythonpath or "")}
    return subprocess.run([sys.executable, "-m", "cardcore", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_new_game_installs_lists_simulates_and_passes_check_game(tmp_path):
    made = _cardcore(["new-game", "fishing_test"], tmp_path)
    assert made.returncode == 0, made.stderr
    root = tmp_path / "fishing_test"
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()) == [
        "README.md", "cardcore_fishing_test/__init__.py", "cardcore_fishing_test/game.py",
        "cardcore_fishing_test/locale/id/LC_MESSAGES/cardcore_fishing_test.mo",
        "cardcore_fishing_test/locale/id/LC_MESSAGES/cardcore_fishing_test.po",
        "cardcore_fishing_test/plugin.py", "pyproject.toml", "tests/test_fishing_test.py"]
    site = tmp_path / "site"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                          "--no-build-isolation", "--no-index", "--target", str(site), str(root)],
                         capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr
    listed = _cardcore(["plugins"], tmp_path, site)
    line = next(ln for ln in listed.stdout.splitlines() if ln.strip().startswith("fishing_test"))
    assert "cardcore-fishing-test 0.1.0" in line and "Load errors" not in listed.stdout
    sim = _cardcore(["simulate", "fishing_test", "--matches", "3", "--seed", "1"], tmp_path, site)
    assert sim.returncode == 0 and "3 matches" in sim.stdout, sim.stderr
    test = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-p", "no:randomly", str(root / "tests")], cwd=root, capture_output=True,
                          text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(site)})
    assert test.returncode == 0, test.stdout + test.stderr
    assert "1 passed" in test.stdout


def test_a_bad_name_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken").mkdir()
    for name, words in [("Bad-Name", "is not a game id"), ("1st", "is not a game id"),
                        ("class", "is not a game id"), ("taken", "already exists")]:
        assert main(["new-game", name]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


def test_a_new_game_has_its_own_domain_a_complete_catalog_and_speaks_english_under_id(
        tmp_path, monkeypatch):
    """The scaffold's wiring (docs/authors.md, "Adding a language"): its Domain, an empty
    Indonesian catalog that the catalogs tool finds current, English until translated."""
    import importlib
    import random

    from cardcore.apps import catalogs
    from cardcore.apps.newgame import new_game
    from cardcore.engine.seating import Seating
    from cardcore.language import speaking

    root = new_game("worded_game", tmp_path)
    package = root / "cardcore_worded_game"
    assert catalogs.main(["--check", "--domain", f"cardcore_worded_game={package}"]) == 0
    monkeypatch.syspath_prepend(str(root))
    game = importlib.import_module("cardcore_worded_game.game").WordedGame()
    assert game.domain is not None and game.domain.name == "cardcore_worded_game"
    state = game.new_hand(Seating(2), game.Options(), random.Random(1), [0, 0])
    english = [a.label for a in state.legal_actions()]
    with speaking("id"):
        assert [a.label for a in state.legal_actions()] == english
        assert game.translate(game.description) == game.description
        assert game.translate("points that win the match") == "poin untuk memenangkan partai"
    assert all(label.startswith("Play ") for label in english)
