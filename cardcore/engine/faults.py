"""Naming the plugin code that failed: one line for the command line and the screen; plugin
code called with a time limit (``call_limited``)."""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

T = TypeVar("T")


def _is_core(module: str) -> bool:
    return module == "cardcore" or module.startswith("cardcore.")


def plugin_frame(tb: TracebackType | None) -> tuple[str, str] | None:
    """(module, qualified function) of the outermost frame outside the core: the plugin
    method the core called when the error happened."""
    while tb is not None:
        frame = tb.tb_frame
        module = frame.f_globals.get("__name__", "?")
        if not _is_core(module) and not module.startswith(("pluggy", "importlib")):
            return module, frame.f_code.co_qualname
        tb = tb.tb_next
    return None


def describe(exc: BaseException, plugin_of: dict[str, str] | None = None) -> str:
    """``plugin casino: FishingState.apply raised ZeroDivisionError: division by zero``.

    ``plugin_of`` maps a top-level package to its plugin name (the registry's origins);
    without a plugin frame the error is the core's own.
    """
    message = " ".join(str(exc).split()) or "(no message)"
    where = plugin_frame(exc.__traceback__)
    if where is None:
        return f"{type(exc).__name__}: {message}"
    module, function = where
    package = module.split(".")[0]
    plugin = (plugin_of or {}).get(package, package)
    return f"plugin {plugin}: {function} raised {type(exc).__name__}: {message}"


class PluginLoadInterrupted(Exception):
    """Ctrl+C while a slow plugin was importing."""

    def __init__(self, plugin: str):
        super().__init__(f"interrupted while loading plugin {plugin!r}")
        self.plugin = plugin


class PluginFault(Exception):
    """Plugin code raised (``__cause__``: its exception, whatever it was) or did not return
    within its time limit (no cause). ``str()``: one line naming the plugin."""


def call_limited(fn: Callable[[], T], seconds: float, what: str,
                 plugin_of: dict[str, str] | None = None,
                 slow: tuple[float, Callable[[], object]] | None = None) -> T:
    """``fn()`` on a thread of its own, waited for at most ``seconds``: its result, or
    PluginFault (``what``, e.g. "plugin casino: Casino.rules", names it if it did not return).
    ``slow`` (after, say): ``say()`` once if ``fn`` is still running ``after`` seconds in
    (the waiting thread says it: no timer thread a call).

    A thread stuck in a plugin cannot be stopped: it is a daemon, so it never keeps the
    process alive, and it is left to itself while the caller refuses the plugin (a command
    line then ends with status 2). Ctrl+C while waiting is the user's: it goes up as it is.
    """
    outcome: list[tuple[bool, Any]] = []
    context = contextvars.copy_context()  # the caller's language (``speaking``) goes along

    def run() -> None:
        try:
            outcome.append((True, context.run(fn)))
        except BaseException as exc:  # the plugin's own SystemExit or Ctrl+C included
            outcome.append((False, exc))

    thread = threading.Thread(target=run, name=what, daemon=True)
    thread.start()
    waited = 0.0
    if slow is not None and slow[0] < seconds:
        waited = slow[0]
        thread.join(waited)
        if not outcome:
            slow[1]()
    thread.join(seconds - waited)
    if not outcome:
        raise PluginFault(f"{what} did not return within {seconds:g} s")
    ok, value = outcome[0]
    if not ok:
        line = describe(value, plugin_of)
        if not line.startswith("plugin "):  # no frame of the plugin's (a SystemExit, a core call)
            line = f"{what} raised {line}"
        raise PluginFault(line) from value
    return value
