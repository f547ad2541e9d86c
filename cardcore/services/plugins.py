"""Loading plugins: entry points one at a time, failures kept as data, never fatal.

Built-in games and bots load first and win any clash of ids. A plugin that raises
anything at import (SystemExit included) is a load error; one still importing after
``SLOW_SECONDS`` is named on stderr, and Ctrl+C then ends cardcore naming it. Plugin code
called at load (the import, the register hooks) and for a game's rules must return within
``PLUGIN_SECONDS`` (``CARDCORE_PLUGIN_SECONDS`` sets it): past it the plugin is refused, named
in one line (``cardcore.engine.faults.call_limited``: the thread stuck in it is a daemon).
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardcore.engine.faults import PluginFault, PluginLoadInterrupted, call_limited

if TYPE_CHECKING:  # pluggy and the entry points' metadata load with the plugins (load_registry)
    from importlib.metadata import Distribution, EntryPoint, EntryPoints, SelectableGroups

    import pluggy

    from cardcore.engine.bots.base import Bot
    from cardcore.engine.game import Game, GameOptions

GROUP = "cardcore"
#: The distribution whose entry points are the built-in games.
BUILTIN_DIST = "cardcore"
SLOW_SECONDS = 2.0
#: The environment variable that tells pydantic to load no plugin of its own.
PYDANTIC_OFF = "PYDANTIC_DISABLE_PLUGINS"


def _limit() -> float:
    try:
        seconds = float(os.environ.get("CARDCORE_PLUGIN_SECONDS", "10"))
    except ValueError:
        return 10.0
    return seconds if 0 < seconds < 1e6 else 10.0


#: How long plugin code called at load or for a game's rules may run (seconds).
PLUGIN_SECONDS = _limit()
GAME_ID = re.compile(r"[a-z][a-z0-9_]*")


def make_plugin_manager() -> pluggy.PluginManager:
    import pluggy

    from cardcore.engine import hookspecs

    pm = pluggy.PluginManager("cardcore")
    pm.add_hookspecs(hookspecs)
    return pm


@dataclass
class LoadError:
    plugin: str
    distribution: str | None
    error: str


@dataclass
class Registry:
    """What the plugins registered, and which plugin brought each piece."""

    pm: pluggy.PluginManager
    games: dict[str, Game] = field(default_factory=dict)
    bots: dict[str, type[Bot]] = field(default_factory=dict)
    #: game or bot id -> (plugin name, distribution name, distribution version)
    origin: dict[str, tuple[str, str | None, str | None]] = field(default_factory=dict)
    errors: list[LoadError] = field(default_factory=list)
    #: Games whose rules() did not return in time: not called again (its thread is stuck).
    stuck: dict[str, str] = field(default_factory=dict)

    def plugin_of_packages(self) -> dict[str, str]:
        """Top-level package -> plugin name, for naming the plugin in an error."""
        found = {}
        for key, (plugin, _dist, _version) in self.origin.items():
            thing: object = self.bots[key[4:]] if key.startswith("bot:") else self.games[key]
            module = thing.__module__ if isinstance(thing, type) else type(thing).__module__
            found[module.split(".")[0]] = plugin
        return found

    def rules(self, game: Game, options: GameOptions) -> str:
        """``game.rules(options)`` within ``PLUGIN_SECONDS``: PluginFault (one line naming
        the plugin) if it raises, gives no text or has not returned by then."""
        if game.id in self.stuck:
            raise PluginFault(self.stuck[game.id])
        plugin = self.origin.get(game.id, (type(game).__module__.split(".")[0],))[0]
        what = f"plugin {plugin}: {type(game).__name__}.rules"
        try:
            text = call_limited(lambda: game.rules(options), PLUGIN_SECONDS, what,
                                self.plugin_of_packages())
        except PluginFault as exc:
            if exc.__cause__ is None:
                self.stuck[game.id] = str(exc)
            raise
        if not isinstance(text, str):
            raise PluginFault(f"{what} gave {type(text).__name__}, not text")
        return text

    def game(self, game_id: str) -> Game:
        try:
            return self.games[game_id]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none"
            raise KeyError(f"unknown game {game_id!r} (installed: {known})") from None


def _selected(eps: list[EntryPoint]) -> list[EntryPoint]:
    only = os.environ.get("CARDCORE_PLUGINS")
    if not only:
        return eps
    wanted = {name.strip() for name in only.split(",") if name.strip()}
    return [ep for ep in eps if ep.name in wanted]


def _dist(dist: Distribution | None) -> tuple[str | None, str | None]:
    """The distribution's name and version, from one read of its metadata (each read parses
    the whole file)."""
    if dist is None:
        return None, None
    metadata = dist.metadata
    return metadata["Name"], metadata["Version"]


def load_registry(extra_plugins: Iterable[tuple[str, object]] = (),
                  notify: Callable[[str], None] | None = None) -> Registry:
    """A fresh plugin manager with every entry point (and ``extra_plugins``) registered.

    ``notify`` hears "loading plugin X…" for an import that is slow (default: stderr).
    """
    from importlib.metadata import entry_points

    every = entry_points()  # every group's: read once, for pydantic's group too
    registry = Registry(make_plugin_manager())
    with _pydantic_told_of(every):
        from cardcore.engine.bots import builtin
        from cardcore.services import search_pool

        _register(registry, "cardcore.bots", builtin, (None, None))  # the plugin's name (relayout: keep)
        search_pool.install()  # the expert searches on every core (docs/bots.md)
        _load_entry_points(registry, every.select(group=GROUP), notify or _to_stderr)
    for name, plugin in extra_plugins:
        _register(registry, name, plugin, (None, None))
    return registry


@contextlib.contextmanager
def _pydantic_told_of(every: EntryPoints | SelectableGroups) -> Iterator[None]:
    """While the plugins load, pydantic does not read every distribution's entry points again
    to find its own plugins when ``every`` (that same read, just made) holds none: it is told
    so by ``PYDANTIC_DISABLE_PLUGINS``, the variable it reads at each model it builds. An
    installed pydantic plugin is in ``every``, and then nothing is set, nor when the user set
    the variable. It is unset afterwards: a model built later, or a child process, looks for
    itself."""
    if PYDANTIC_OFF in os.environ or every.select(group="pydantic"):
        yield
        return
    os.environ[PYDANTIC_OFF] = "1"
    try:
        yield
    finally:
        os.environ.pop(PYDANTIC_OFF, None)


def _load_entry_points(registry: Registry, eps: Iterable[EntryPoint],
                       notify: Callable[[str], None]) -> None:
    seen: set[str] = set()
    for ep, dist in _in_load_order(_selected(list(eps))):
        if ep.name in seen:  # the same distribution found twice on sys.path
            continue
        seen.add(ep.name)
        try:
            module = _import(ep, notify)
        except PluginLoadInterrupted:
            raise
        except BaseException as exc:  # a broken plugin must not take the others down
            registry.errors.append(LoadError(ep.name, dist[0], _load_error(exc)))
            continue
        _register(registry, ep.name, module, dist)


def _in_load_order(eps: Iterable[EntryPoint]) -> list[tuple[EntryPoint, tuple[str | None, str | None]]]:
    """Each entry point with its distribution's name and version (read once a distribution),
    the built-in games first, so a third-party id clash is refused on the third party."""
    named: dict[int, tuple[str | None, str | None]] = {}  # by the distribution object
    found = []
    for ep in eps:
        dist = getattr(ep, "dist", None)
        if id(dist) not in named:
            named[id(dist)] = _dist(dist)
        found.append((ep, named[id(dist)]))
    return sorted(found, key=lambda pair: (pair[1][0] != BUILTIN_DIST, pair[0].name))


def _to_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _import(ep: EntryPoint, notify: Callable[[str], None]) -> object:
    """``ep.load()`` within ``PLUGIN_SECONDS``, naming the plugin if it takes long; Ctrl+C
    after that names it too. The plugin's own exception goes up as it was raised."""
    started = time.monotonic()
    say = functools.partial(notify, f"loading plugin {ep.name}… (Ctrl+C to stop)")
    try:
        return call_limited(ep.load, PLUGIN_SECONDS, f"plugin {ep.name}: its import",
                            slow=(SLOW_SECONDS, say))
    except PluginFault as exc:
        if exc.__cause__ is None:
            notify(f"cardcore: {exc}: skipped")
            raise
        raise exc.__cause__ from None
    except KeyboardInterrupt:  # the user's (the plugin's own comes as the cause above)
        if time.monotonic() - started >= SLOW_SECONDS:
            raise PluginLoadInterrupted(ep.name) from None
        raise


def _register(registry: Registry, name: str, plugin: object, dist: tuple[str | None, str | None]) -> None:
    games: list[Game] = []
    bots: list[type[Bot]] = []
    try:
        registry.pm.register(plugin, name=name)
        _call(registry.pm, plugin, name, "cardcore_register_games", games.append)
        _call(registry.pm, plugin, name, "cardcore_register_bots", bots.append)
        for game in games:
            _check_game(game)
    except Exception as exc:
        if registry.pm.is_registered(plugin):
            registry.pm.unregister(plugin)
        registry.errors.append(LoadError(name, dist[0], _load_error(exc)))
        return
    for game in games:
        if game.id in registry.games:
            other = registry.origin[game.id][0]
            registry.errors.append(LoadError(
                name, dist[0], f"game id {game.id!r} is already registered by plugin {other!r}"
                f"; refused from {name!r}"))
            continue
        registry.games[game.id] = game
        registry.origin[game.id] = (name, *dist)
    for bot in bots:
        if bot.id in registry.bots:
            other = registry.origin["bot:" + bot.id][0]
            registry.errors.append(LoadError(
                name, dist[0], f"bot id {bot.id!r} is already registered by plugin {other!r}"
                f"; refused from {name!r}"))
            continue
        registry.bots[bot.id] = bot
        registry.origin["bot:" + bot.id] = (name, *dist)


def _load_error(exc: BaseException) -> str:
    """What a load error says: the plugin's exception (``Type: message``), or that it did not
    return in time."""
    if isinstance(exc, PluginFault):
        cause = exc.__cause__
        return f"{type(cause).__name__}: {cause}" if cause is not None else str(exc).partition(": ")[2]
    return f"{type(exc).__name__}: {exc}"


def _call(pm: pluggy.PluginManager, plugin: object, name: str, hook: str,
          register: Callable[[Any], None]) -> None:
    """Call one plugin's implementation of ``hook`` alone (so errors name that plugin),
    within ``PLUGIN_SECONDS`` (PluginFault)."""
    for impl in getattr(pm.hook, hook).get_hookimpls():
        if impl.plugin is plugin:
            call = functools.partial(impl.function, **{arg: register for arg in impl.argnames})
            call_limited(call, PLUGIN_SECONDS, f"plugin {name}: {hook}")


def _check_game(game: Any) -> None:
    """Refuse, at load, a registration the front end would trip over later."""
    if isinstance(game, type):
        raise TypeError(f"{game.__name__}: register an instance (register({game.__name__}())), "
                        "not the class")
    kind = type(game).__name__
    for attr in ("id", "name", "description", "player_counts", "Options"):
        if not getattr(game, attr, None):
            raise TypeError(f"{kind} has no {attr!r}")
    if not isinstance(game.id, str) or not GAME_ID.fullmatch(game.id):
        raise TypeError(f"{kind}: game id {game.id!r} is not lower-case letters, digits and _")
    for attr in ("name", "description"):
        if not isinstance(getattr(game, attr), str):
            raise TypeError(f"{game.id}: {attr} must be text, not {type(getattr(game, attr)).__name__}")
    counts = game.player_counts
    if not isinstance(counts, tuple) or not all(isinstance(n, int) and n >= 2 for n in counts):
        raise TypeError(f"{game.id}: player_counts must be a non-empty tuple of counts >= 2")
    if "target" not in getattr(game.Options, "model_fields", {}):
        raise TypeError(f"{game.id}: Options has no 'target'")
    from cardcore.engine.game import Game, GameOptions

    if not (isinstance(game.Options, type) and issubclass(game.Options, GameOptions)):
        raise TypeError(f"{game.id}: Options must derive from cardcore.GameOptions")
    try:
        game.Options()
    except Exception as exc:
        raise TypeError(f"{game.id}: Options cannot be built with its defaults ({exc})") from None
    if not isinstance(game, Game):
        raise TypeError(f"{game.id}: {kind} does not derive from cardcore.Game")


def load_games() -> dict[str, Game]:
    """Every loaded game by id (load errors are kept in the registry: ``load_registry().errors``)."""
    return load_registry().games
