"""The engine modules compiled with mypyc, used in place of their .py when built, current and
not turned off (docs/design.md, Engine speed).

``mypyc_build.py`` (``make native``, a step of ``make play`` and ``make test``) compiles a
plugin's hot modules into build/native/<package>/, beside SOURCES.json: the SHA-256 of each
module's source. Such a package ends its ``__init__`` with
``__path__ = compiled.path(__name__, __path__)``: the build's folder goes first on the
package's path, so its extension modules are found before the .py files, when every hash
still matches its source (an edited module runs as Python until the next build) and
CARDCORE_PURE is not set (the tests of the pure path set it). Nothing else changes: the
other modules of the package are found in its own folder as before.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

#: build/native/ of the tree this cardcore was imported from (an editable install); an
#: installed wheel has none, and runs as Python.
ROOT = Path(__file__).resolve().parent.parent / "build" / "native"
MANIFEST = "SOURCES.json"
#: Set (to anything but "" or "0"): every module runs as Python, built or not.
PURE = "CARDCORE_PURE"

#: The modules running compiled, by package: what ``path`` put first (the benches print it).
USED: dict[str, list[str]] = {}


def digest(source: Path) -> str:
    return hashlib.sha256(source.read_bytes()).hexdigest()


def current(package: str, source_dir: Path) -> list[str]:
    """The modules of ``package`` whose build matches their source in ``source_dir``; none
    when any of them was edited since the build (or nothing was built)."""
    try:
        sources = json.loads((ROOT / package / MANIFEST).read_text())
        if all(digest(source_dir / f"{module}.py") == sha for module, sha in sources.items()):
            return sorted(sources)
    except (OSError, ValueError):  # no build, or one of its modules is gone
        pass
    return []


def path(package: str, package_path: list[str]) -> list[str]:
    """``package_path`` (a package's ``__path__``) with its compiled modules' folder first,
    when they are built, current and wanted."""
    if os.environ.get(PURE, "") not in ("", "0"):
        return package_path
    modules = current(package, Path(package_path[0]))
    if not modules:
        return package_path
    USED[package] = modules
    return [str(ROOT / package), *package_path]
