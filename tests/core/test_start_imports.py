"""Commands start at once: each loads what it uses and no more (docs/design.md, Start-up).
Told by the modules a command leaves loaded, never by the time it takes
(benches/cli_start.py times them)."""

import json
import os
import subprocess
import sys

import pytest

#: Runs ``cardcore ARGS...`` as the entry point does; then writes the modules loaded to FILE.
PROBE = """
import json, sys
from cardcore.apps.cli import main
try:
    main(sys.argv[2:])
except SystemExit:
    pass
with open(sys.argv[1], "w") as f:
    json.dump(sorted(sys.modules), f)
"""

#: The front end, the network and the event loop: only the commands that draw or connect.
SCREEN_AND_NETWORK = ("textual", "websockets", "asyncio", "cardcore.apps.tui")
#: A match's machinery: only the commands that play, replay, import or check one.
MATCH = ("cardcore.engine.match", "cardcore.engine.journal", "cardcore.engine.records")
#: The match library.
STORE = ("cardcore.services.store", "sqlite3")
#: The games: their plugins, the plugin manager, the engine's game interface and bots.
GAMES = ("cardcore_casino", "cardcore_royal_casino", "cardcore_canasta", "pluggy",
         "cardcore.engine.game", "cardcore.engine.bots")

#: pydantic and the settings file's model: only when a settings file is read (no language said).
SETTINGS_MODEL = ("pydantic", "cardcore.services.settings_model")


#: Runs ``cardcore`` (the launcher) headless to its first frame, then as PROBE.
LAUNCHER_PROBE = """
import json, sys
from cardcore.apps import cli
from cardcore.apps.tui.app import CardcoreApp

run = CardcoreApp.run
CardcoreApp.on_mount = lambda app: app.call_after_refresh(app.exit)
CardcoreApp.run = lambda app, **_: run(app, headless=True, size=(100, 30))
cli.main([])
with open(sys.argv[1], "w") as f:
    json.dump(sorted(sys.modules), f)
"""


def loaded(tmp_path, *args: str, probe: str = PROBE, lang: str | None = "en") -> set[str]:
    """The modules ``cardcore ARGS`` leaves loaded; ``lang`` None: no language said (the
    remembered one is looked for)."""
    out = tmp_path / "modules.json"
    env = {**os.environ, "CARDCORE_HOME": str(tmp_path / "home"), "CARDCORE_LANG": lang or ""}
    if lang is None:
        del env["CARDCORE_LANG"]
    subprocess.run([sys.executable, "-c", probe, str(out), *args], env=env, check=True,
                   capture_output=True, timeout=120)
    return set(json.loads(out.read_text()))


def among(modules: set[str], packages: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in packages or m.startswith(packages))


def test_help_loads_argparse_and_the_command_line_alone(tmp_path):
    modules = loaded(tmp_path, "--help", lang=None)  # no language said, no settings file
    assert "cardcore.services.home" in modules  # it looked for a remembered language
    assert among(modules, SCREEN_AND_NETWORK + MATCH + STORE + GAMES + SETTINGS_MODEL) == []
    # nor the settings module, the dataclasses (inspect), pathlib, tempfile (the data dir
    # is CARDCORE_HOME here: platformdirs would load the last two)
    assert among(modules, ("cardcore.services.settings", "cardcore.services.files", "dataclasses",
                           "pathlib", "tempfile", "platformdirs")) == []


#: Runs as PROBE, then writes the catalogs read (domain/language) with the modules.
CATALOG_PROBE = PROBE.replace("json.dump(sorted(sys.modules), f)", """from cardcore import language
    read = [f"{language.CORE.name}/{code}" for code in language.CORE._catalogs]
    json.dump(sorted(sys.modules) + ["catalog:" + r for r in read], f)""")


def test_help_in_english_reads_no_catalog_and_loads_no_babel(tmp_path):
    modules = loaded(tmp_path, "--help", probe=CATALOG_PROBE)
    assert among(modules, ("babel", "catalog:")) == []


@pytest.mark.parametrize("args", [("--lang", "id", "--help"), ("--help",)])
def test_help_in_indonesian_reads_the_core_catalog_alone(tmp_path, args):
    modules = loaded(tmp_path, *args, probe=CATALOG_PROBE, lang="id")
    assert "catalog:cardcore/id" in modules
    assert among(modules, SCREEN_AND_NETWORK + MATCH + STORE + GAMES + ("pydantic", "babel")) == []


def test_a_bad_argument_loads_nothing_more(tmp_path):
    modules = loaded(tmp_path, "simulate", "casino", "--matches", "0")
    assert among(modules, SCREEN_AND_NETWORK + MATCH + STORE + GAMES + ("pydantic",)) == []


#: What a game does in play: its state, moves, loading and heuristic (their game.py imports
#: them in the methods that deal, read or weigh a hand).
ENGINES = ("cardcore_casino.state", "cardcore_casino.moves", "cardcore_canasta.state",
           "cardcore_canasta.loading", "cardcore_canasta.heuristic", "cardcore_canasta.moves")


def test_plugins_lists_the_games_without_their_engines_and_no_match_library_or_screen(tmp_path):
    modules = loaded(tmp_path, "plugins")
    assert {"cardcore_casino.game", "cardcore_royal_casino.game", "cardcore_canasta.game"} <= modules
    assert among(modules, SCREEN_AND_NETWORK + MATCH + STORE + ENGINES) == []


def test_history_reads_the_library_without_loading_the_games(tmp_path):
    modules = loaded(tmp_path, "history", lang=None)
    assert "cardcore.services.store.sqlite" in modules
    assert among(modules, SCREEN_AND_NETWORK + MATCH + GAMES + SETTINGS_MODEL) == []


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
def test_the_launchers_first_frame_loads_no_other_screen_nor_a_match(tmp_path):
    modules = loaded(tmp_path, probe=LAUNCHER_PROBE)
    assert {"cardcore.apps.tui.screens.launcher", "cardcore.services.store.sqlite"} <= modules  # it ran
    screens = ("cardcore.apps.tui.screens.table", "cardcore.apps.tui.screens.replay",
               "cardcore.apps.tui.screens.setup", "cardcore.apps.tui.screens.library",
               "cardcore.apps.tui.session", "cardcore.apps.tui.table_session")
    assert among(modules, screens + MATCH + ("websockets",)) == []


@pytest.mark.parametrize("name", ["Game", "GameOptions", "hookimpl", "load_games"])
def test_the_package_gives_its_names_on_first_use(name):
    import cardcore

    assert name in dir(cardcore) and getattr(cardcore, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'Gaem'"):
        cardcore.Gaem  # noqa: B018
