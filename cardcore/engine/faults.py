"""Naming the plugin code that failed: one line for the command line and the screen."""

from __future__ import annotations

from types import TracebackType


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
