"""``cardcore plugins`` shows its kept listing without importing a plugin, and only while
nothing it was made from has changed (cardcore/services/plugin_listing.py)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.plugin_helpers import fake_distribution

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLE = ROOT / "examples" / "crazy_eights"

#: ``cardcore plugins`` as the entry point runs it; then the modules loaded, to FILE.
PROBE = """
import json, sys
from cardcore.apps.cli import main
main(["plugins"])
with open(sys.argv[1], "w") as f:
    json.dump(sorted(sys.modules), f)
"""

#: A game whose name is written in its module: a plugin being edited.
RENAMED = """
from cardcore import hookimpl
from cardcore_crazy_eights.game import CrazyEights

class Mine(CrazyEights):
    id = "mine"
    name = "{name}"

@hookimpl
def cardcore_register_games(register):
    register(Mine())
"""


def listing(tmp_path: Path, *pythonpath: Path, **env: str) -> tuple[str, set[str]]:
    """What ``cardcore plugins`` prints, and the modules it loaded."""
    out = tmp_path / "modules.json"
    full = {**os.environ, "CARDCORE_HOME": str(tmp_path / "home"), "CARDCORE_LANG": "en",
            "PYTHONPATH": os.pathsep.join(map(str, pythonpath)), **env}
    proc = subprocess.run([sys.executable, "-c", PROBE, str(out)], env=full, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, set(json.loads(out.read_text()))


def test_the_second_listing_is_the_first_without_a_plugin_or_pydantic_loaded(tmp_path):
    first, loaded_first = listing(tmp_path)
    second, loaded_second = listing(tmp_path)
    assert second == first
    assert {"cardcore_casino", "pydantic", "pluggy"} <= loaded_first
    assert not [m for m in loaded_second
                if m.split(".")[0] in ("cardcore_casino", "cardcore_royal_casino", "cardcore_canasta",
                                       "pydantic", "pluggy", "importlib_metadata")
                or m in ("cardcore.services.plugins", "cardcore.engine.game")]
    assert "casino " in second and "Bots (weakest first):" in second


@pytest.mark.slow  # cardcore started 2-4 times: `make test` runs it
def test_a_plugin_installed_since_is_listed(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    listing(tmp_path, site, EXAMPLE)
    fake_distribution(site, "mine", RENAMED.format(name="Mine"))  # pip adds its folders
    out, _ = listing(tmp_path, site, EXAMPLE)
    assert "mine           Mine" in out


@pytest.mark.slow  # cardcore started 2-4 times: `make test` runs it
def test_a_plugin_edited_since_is_read_again(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    fake_distribution(site, "mine", RENAMED.format(name="Mine"))
    before, _ = listing(tmp_path, site, EXAMPLE)
    assert "mine           Mine " in before
    (site / "mine_module.py").write_text(RENAMED.format(name="Yours"))  # an editable install
    after, loaded = listing(tmp_path, site, EXAMPLE)
    assert "mine           Yours " in after
    assert "mine_module" in loaded


@pytest.mark.slow  # cardcore started 2-4 times: `make test` runs it
def test_the_listing_follows_the_language_and_the_plugins_chosen(tmp_path):
    english, _ = listing(tmp_path)
    indonesian, _ = listing(tmp_path, CARDCORE_LANG="id")
    assert indonesian != english and english == listing(tmp_path)[0]
    only, loaded = listing(tmp_path, CARDCORE_PLUGINS="canasta")
    games = only.split("\n\n")[0].split("Bots")[0]
    assert "canasta " in games and "casino " not in games
    assert "cardcore_canasta" in loaded


@pytest.mark.slow  # cardcore started 2-4 times: `make test` runs it
def test_a_listing_with_a_load_error_is_never_kept_and_a_damaged_file_is_none(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    fake_distribution(site, "broken", "raise RuntimeError('boom')\n")
    first, _ = listing(tmp_path, site)
    assert "Load errors:" in first
    assert not (tmp_path / "home" / "plugins-listing.json").exists()
    good, _ = listing(tmp_path)
    kept = tmp_path / "home" / "plugins-listing.json"
    kept.write_text('{"made_from": ')  # cut short
    again, loaded = listing(tmp_path)
    assert again == good and "cardcore_casino" in loaded
