import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardcore import hookimpl
from cardcore.engine import hookspecs
from cardcore.services.plugins import load_registry, make_plugin_manager
from tests.plugin_helpers import fake_distribution

ROOT = Path(__file__).resolve().parents[2]


def _game_plugin(game):
    class Plugin:
        @hookimpl
        def cardcore_register_games(self, register):
            register(game)

    return Plugin()


def test_every_hook_is_documented_with_its_signature():
    docs = (ROOT / "docs" / "plugins.md").read_text()
    hooks = [name for name in dir(hookspecs) if name.startswith("cardcore_")]
    assert len(hooks) == 4
    for name in hooks:
        params = ", ".join(inspect.signature(getattr(hookspecs, name)).parameters)
        assert f"### {name}({params})" in docs, f"{name}({params}) is not in docs/plugins.md"


def test_factory_gives_independent_managers():
    a, b = make_plugin_manager(), make_plugin_manager()
    a.register(object(), name="x")
    assert a.get_plugin("x") is not None and b.get_plugin("x") is None


def _renamed(game, game_id):
    """The same game under another id, so tests never clash with installed plugins."""
    return type("Renamed", (type(game),), {"id": game_id})()


def test_a_plugin_registers_a_game(crazy_eights):
    game = _renamed(crazy_eights, "test_game")
    registry = load_registry(extra_plugins=[("mine", _game_plugin(game))])
    assert registry.games["test_game"] is game
    assert registry.origin["test_game"] == ("mine", None, None)


def test_a_duplicate_game_id_is_refused_naming_both_plugins(crazy_eights):
    first, second = _renamed(crazy_eights, "twice"), _renamed(crazy_eights, "twice")
    registry = load_registry(extra_plugins=[("first", _game_plugin(first)),
                                            ("second", _game_plugin(second))])
    assert registry.games["twice"] is first
    errors = [e for e in registry.errors if "twice" in e.error]
    assert len(errors) == 1
    assert errors[0].plugin == "second"
    assert errors[0].error == "game id 'twice' is already registered by plugin 'first'; refused from 'second'"


def test_a_plugin_that_fails_to_register_is_kept_as_an_error(crazy_eights):
    class Broken:
        @hookimpl
        def cardcore_register_games(self, register):
            raise RuntimeError("boom")

    registry = load_registry(extra_plugins=[("broken", Broken()),
                                            ("good", _game_plugin(_renamed(crazy_eights, "good")))])
    assert [(e.plugin, e.error) for e in registry.errors] == [("broken", "RuntimeError: boom")]
    assert "good" in registry.games
    assert registry.bots.keys() >= {"random", "greedy"}


def test_an_invalid_game_is_refused(crazy_eights):
    class NoTarget:
        id, name, description, player_counts = "x", "X", "x", (2,)
        Options = type(crazy_eights).Options.__base__.__base__  # pydantic.BaseModel

    registry = load_registry(extra_plugins=[("bad", _game_plugin(NoTarget()))])
    assert "x" not in registry.games
    assert any(e.plugin == "bad" and "target" in e.error for e in registry.errors)


def _run(args, pythonpath, **env):
    full = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, pythonpath)), **env}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=full,
                          timeout=300)


def test_a_broken_entry_point_is_listed_and_every_other_game_loads(tmp_path):
    dist = tmp_path / "broken_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[cardcore]\nbroken = no_such_module_for_cardcore\n")
    out = _run(["-m", "cardcore", "plugins"], [tmp_path])
    assert out.returncode == 0, out.stderr
    assert "Load errors:" in out.stdout
    assert "broken (broken-plugin): ModuleNotFoundError" in out.stdout
    games = out.stdout.split("Bots:")[0]
    for gid in ("casino", "royal_casino", "canasta"):
        assert gid in games


def test_cardcore_plugins_env_restricts_loading(tmp_path):
    out = _run(["-m", "cardcore", "plugins"], [], CARDCORE_PLUGINS="canasta")
    games = out.stdout.split("Bots:")[0]
    assert "canasta" in games and "casino" not in games


@pytest.mark.slow
def test_the_example_installs_like_a_user_would_and_conforms(tmp_path):
    target = tmp_path / "site"
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
         "--no-index", "--target", str(target), str(ROOT / "examples" / "crazy_eights")],
        capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr
    out = _run(["-m", "cardcore", "plugins"], [target])
    assert out.returncode == 0, out.stderr
    line = next(ln for ln in out.stdout.splitlines() if "crazy_eights" in ln)
    assert "cardcore-crazy-eights 1.0.0" in line
    check = _run(["-c", (
        "import cardcore_crazy_eights, cardcore\n"
        "from cardcore.engine.testing import check_game\n"
        f"assert cardcore_crazy_eights.__file__.startswith({str(target)!r})\n"
        "report = check_game(cardcore.load_games()['crazy_eights'], seeds=range(4))\n"
        "print('hands', report.hands)\n")], [target])
    assert check.returncode == 0, check.stderr
    assert check.stdout.startswith("hands ")


# --- plugins that misbehave ------------------------------------------------------------


def _games_listed(stdout: str) -> str:
    return stdout.split("Bots:")[0]


def test_a_plugin_exiting_or_interrupting_at_import_is_a_load_error(tmp_path):
    fake_distribution(tmp_path, "quitter", "raise SystemExit(3)\n")
    fake_distribution(tmp_path, "stopper", "raise KeyboardInterrupt\n")
    out = _run(["-m", "cardcore", "plugins"], [tmp_path])
    assert out.returncode == 0, out.stderr
    assert "quitter (quitter-plugin): SystemExit: 3" in out.stdout
    assert "stopper (stopper-plugin): KeyboardInterrupt" in out.stdout
    assert "casino" in _games_listed(out.stdout)


@pytest.mark.slow  # a cardcore process started and interrupted (the in-process limits: quick)
def test_a_hanging_plugin_is_named_and_ctrl_c_ends_cardcore_naming_it(tmp_path):
    import signal
    import time

    fake_distribution(tmp_path, "sleeper", "import time\ntime.sleep(120)\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "CARDCORE_PLUGIN_SECONDS": "60"}
    proc = subprocess.Popen([sys.executable, "-m", "cardcore", "plugins"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        line = ""
        while "sleeper" not in line and time.monotonic() < deadline:
            line = proc.stderr.readline()
        assert line.strip() == "loading plugin sleeper… (Ctrl+C to stop)"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert err.strip() == "cardcore: interrupted while loading plugin 'sleeper'"


@pytest.mark.slow  # a cardcore process waits out the limit (the in-process hooks: quick)
def test_a_plugin_still_importing_past_the_time_limit_is_skipped_naming_it(tmp_path):
    # its import never returns: past CARDCORE_PLUGIN_SECONDS it is a load error, the
    # command goes on (the thread stuck in it is a daemon: the process still ends)
    fake_distribution(tmp_path, "sleeper", "import time\nwhile True:\n    time.sleep(1)\n")
    out = _run(["-m", "cardcore", "plugins"], [tmp_path], CARDCORE_PLUGIN_SECONDS="3")
    assert out.returncode == 0, out.stderr
    assert "sleeper (sleeper-plugin): its import did not return within 3 s" in out.stdout
    assert "cardcore: plugin sleeper: its import did not return within 3 s: skipped" in out.stderr
    assert "casino" in _games_listed(out.stdout)
    assert "Traceback" not in out.stderr


SHADOW = """
from cardcore import hookimpl
from cardcore_crazy_eights.game import CrazyEights

class Shadow(CrazyEights):
    id = "casino"

@hookimpl
def cardcore_register_games(register):
    register(Shadow())
"""


def test_a_third_party_game_cannot_shadow_a_built_in_one(tmp_path):
    fake_distribution(tmp_path, "aaa_shadow", SHADOW)
    out = _run(["-m", "cardcore", "plugins"], [tmp_path, ROOT / "examples" / "crazy_eights"])
    assert out.returncode == 0, out.stderr
    casino = next(ln for ln in out.stdout.splitlines() if ln.strip().startswith("casino "))
    assert "plugin casino (cardcore" in casino
    assert ("aaa_shadow (aaa_shadow-plugin): game id 'casino' is already registered by plugin "
            "'casino'; refused from 'aaa_shadow'") in out.stdout


def test_a_duplicate_bot_id_is_a_load_error_naming_both():
    from cardcore.engine.bots import GreedyBot

    class Mine:
        @hookimpl
        def cardcore_register_bots(self, register):
            register(type("Other", (GreedyBot,), {}))

    registry = load_registry(extra_plugins=[("mine", Mine())])
    assert registry.bots["greedy"] is GreedyBot
    taken = "bot id 'greedy' is already registered by plugin 'cardcore.bots'"  # relayout: keep
    assert [(e.plugin, e.error) for e in registry.errors] == [("mine", f"{taken}; refused from 'mine'")]


def _refusal(game) -> str:
    registry = load_registry(extra_plugins=[("bad", _game_plugin(game))])
    assert [e.plugin for e in registry.errors] == ["bad"]
    return registry.errors[0].error


def test_broken_registrations_are_refused_at_load_naming_the_mistake(crazy_eights):
    import pydantic

    game_class = type(crazy_eights)
    assert _refusal(type("Empty", (game_class,), {"id": "empty", "player_counts": ()})) == (
        "TypeError: Empty: register an instance (register(Empty())), not the class")
    assert _refusal(type("Empty", (game_class,), {"id": "empty", "player_counts": ()})()) == (
        "TypeError: Empty has no 'player_counts'")
    assert _refusal(type("One", (game_class,), {"id": "one", "player_counts": (1, 2)})()) == (
        "TypeError: one: player_counts must be a non-empty tuple of counts >= 2")
    assert _refusal(type("Bad", (game_class,), {"id": "Bad-Id"})()) == (
        "TypeError: Bad: game id 'Bad-Id' is not lower-case letters, digits and _")
    needy = pydantic.create_model("Needy", __base__=game_class.Options, seats_per_team=(int, ...))
    message = _refusal(type("Needy", (game_class,), {"id": "needy", "Options": needy})())
    assert message.startswith("TypeError: needy: Options cannot be built with its defaults (")


def test_more_broken_registrations_are_refused_naming_the_mistake(crazy_eights):
    import pydantic

    game_class = type(crazy_eights)
    assert _refusal(type("Named", (game_class,), {"id": "named", "name": 3})()) == (
        "TypeError: named: name must be text, not int")
    plain = pydantic.create_model("Plain", target=(int, 5))
    assert _refusal(type("Plain", (game_class,), {"id": "plain", "Options": plain})()) == (
        "TypeError: plain: Options must derive from cardcore.GameOptions")

    class Duck:
        id, name, description, player_counts = "duck", "Duck", "d", (2,)
        Options = game_class.Options

    assert _refusal(Duck()) == "TypeError: duck: Duck does not derive from cardcore.Game"


# --- plugin code called at load and for the rules: one line, a time limit -------------


def _waiting_plugin(release, game=None, hook="cardcore_register_games"):
    """A plugin whose ``hook`` waits for ``release`` (at most 5 s: bounded on any version)."""

    class Plugin:
        pass

    def waits(self, register):
        release.wait(5)
        if game is not None:
            register(game)

    setattr(Plugin, hook, hookimpl(waits))
    return Plugin()


@pytest.mark.parametrize("hook", ["cardcore_register_games", "cardcore_register_bots"])
def test_a_register_hook_that_does_not_return_in_time_is_a_load_error(monkeypatch, crazy_eights, hook):
    import threading

    from cardcore.services import plugins

    monkeypatch.setattr(plugins, "PLUGIN_SECONDS", 0.2)
    release = threading.Event()
    try:
        game = _renamed(crazy_eights, "late_game") if hook.endswith("games") else None
        registry = load_registry(extra_plugins=[("late", _waiting_plugin(release, game, hook))])
    finally:
        release.set()
    assert [(e.plugin, e.error) for e in registry.errors if e.plugin == "late"] == [
        ("late", f"{hook} did not return within 0.2 s")]
    assert "late_game" not in registry.games and "casino" in registry.games
    assert registry.pm.get_plugin("late") is None


def test_a_register_hook_exiting_is_a_load_error_not_the_end_of_cardcore(crazy_eights):
    class Quitter:
        @hookimpl
        def cardcore_register_games(self, register):
            raise SystemExit(4)

    registry = load_registry(extra_plugins=[("quits", Quitter())])
    assert [(e.plugin, e.error) for e in registry.errors] == [("quits", "SystemExit: 4")]
    assert "casino" in registry.games


def _troubled(crazy_eights, game_id, rules):
    """A game whose rules() raise or wait (at most 5 s) for the test to let them go."""

    class Troubled(type(crazy_eights)):
        pass

    Troubled.id, Troubled.rules = game_id, rules
    return Troubled()


def _rules_cli(monkeypatch, capsys, game, *argv):
    from cardcore.apps import cli

    monkeypatch.setattr(cli, "load_registry",
                        lambda: load_registry(extra_plugins=[("troubled", _game_plugin(game))]))
    status = cli.main(["rules", game.id, *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_cardcore_rules_says_in_one_line_which_plugin_raised(monkeypatch, capsys, crazy_eights):
    def rules(self, options):
        return 1 / 0

    game = _troubled(crazy_eights, "raising_rules", rules)
    status, out, err = _rules_cli(monkeypatch, capsys, game)
    assert (status, out) == (2, "")
    assert re.fullmatch(r"cardcore: error: plugin troubled: \S*\.rules raised "
                        r"ZeroDivisionError: division by zero\n", err)


def test_cardcore_rules_gives_up_on_rules_that_do_not_return(monkeypatch, capsys, crazy_eights):
    import threading

    from cardcore.services import plugins

    release = threading.Event()
    calls = []

    def rules(self, options):
        calls.append(1)
        release.wait(5)
        return "# the rules, late"

    monkeypatch.setattr(plugins, "PLUGIN_SECONDS", 0.2)
    game = _troubled(crazy_eights, "slow_rules", rules)
    try:
        status, out, err = _rules_cli(monkeypatch, capsys, game)
        assert (status, out) == (2, "")
        assert err == "cardcore: error: plugin troubled: Troubled.rules did not return within 0.2 s\n"
    finally:
        release.set()


def test_a_game_whose_rules_hung_is_not_asked_again(monkeypatch, crazy_eights):
    import threading

    from cardcore.engine.faults import PluginFault
    from cardcore.services import plugins

    release = threading.Event()
    calls = []

    def rules(self, options):
        calls.append(1)
        release.wait(5)
        return "late"

    monkeypatch.setattr(plugins, "PLUGIN_SECONDS", 0.2)
    game = _troubled(crazy_eights, "stuck_rules", rules)
    registry = load_registry(extra_plugins=[("troubled", _game_plugin(game))])
    try:
        for _ in range(2):
            with pytest.raises(PluginFault, match=r"^plugin troubled: Troubled.rules did not return"):
                registry.rules(game, game.Options())
    finally:
        release.set()
    assert len(calls) == 1  # the launcher showing it twice does not wait twice
    assert registry.rules(registry.games["casino"], registry.games["casino"].Options()).strip()


# --- pydantic's own plugins --------------------------------------------------------------

#: Lists the plugins, then says whether pydantic looked for its own plugins, and the variable.
PYDANTIC_PROBE = """
import os
from pydantic.plugin import _loader
from cardcore.services.plugins import load_registry
registry = load_registry()
print(sorted(registry.games), _loader._plugins, os.environ.get("PYDANTIC_DISABLE_PLUGINS"))
"""

#: A pydantic plugin: it says so on stdout for each model pydantic builds with it.
PYDANTIC_PLUGIN = """
class Plugin:
    def new_schema_validator(self, schema, schema_type, *args, **kwargs):
        print("pydantic plugin saw", schema_type.__name__)
        return None, None, None

plugin = Plugin()
"""


def _this_tree(*first: Path) -> list[str]:
    """The PYTHONPATH that runs this tree's cardcore, with ``first`` before it."""
    return [*map(str, first), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]


def test_pydantic_does_not_read_the_entry_points_again_when_it_has_no_plugin():
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    out = subprocess.run([sys.executable, "-c", PYDANTIC_PROBE], capture_output=True, text=True,
                         env=env, timeout=120, check=True)
    assert out.stdout.split("] ")[1].split() == ["None", "None"]  # it never looked; unset after
    assert "'casino'" in out.stdout


@pytest.mark.slow  # a cardcore process: the quick loop has the case without one (above)
def test_an_installed_pydantic_plugin_still_sees_the_plugins_models(tmp_path):
    fake_distribution(tmp_path, "spy", PYDANTIC_PLUGIN, dist="pyd-plugin", group="pydantic",
                      attribute="plugin")
    out = _run(["-m", "cardcore", "plugins"], _this_tree(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "pydantic plugin saw GameOptions" in out.stdout
    assert "pydantic plugin saw CasinoOptions" in out.stdout


def test_a_slow_call_is_said_once_and_a_quick_one_not_at_all():
    import time

    from cardcore.engine.faults import call_limited

    said: list[str] = []

    def slow() -> str:
        time.sleep(0.15)
        return "done"

    assert call_limited(slow, 5, "slow", slow=(0.03, lambda: said.append("slow"))) == "done"
    assert call_limited(lambda: "quick", 5, "quick", slow=(0.03, lambda: said.append("quick"))) == "quick"
    assert said == ["slow"]
