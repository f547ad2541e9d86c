"""``cardcore plugins`` at once when nothing changed: the listing is kept, with what it was
made from, and shown again without importing a plugin (docs/plugins.md, Loading).

What it was made from, checked before it is shown again: the interpreter, the language,
``CARDCORE_PLUGINS``, each ``sys.path`` folder (its own modification time: installing or
removing a distribution adds or removes an entry there) and every file of the packages the
listing names (cardcore's own and each plugin's: an edited plugin, installed editable, is
seen). A listing with a load error is never kept (the error may be passing: a slow import).
The file is the data dir's ``plugins-listing.json``; one that cannot be read is no listing.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable

from cardcore.services import home

FILE_NAME = "plugins-listing.json"
#: Bumped when the file's layout changes.
LAYOUT = 1
MAX_FILE_BYTES = 1 << 20


def _path() -> str:
    return os.path.join(home.data_dir_name(), FILE_NAME)


def _made_from(language: str) -> dict[str, object]:
    """What any listing depends on, read at once (no package walked)."""
    folders = []
    for entry in sys.path:
        try:
            folders.append([entry, os.stat(entry or ".").st_mtime_ns])
        except OSError:
            folders.append([entry, None])
    return {"layout": LAYOUT, "python": sys.executable, "language": language,
            "only": os.environ.get("CARDCORE_PLUGINS"), "path": folders}


def _files(where: str) -> list[list[object]]:
    """Every file of a package's folder (its compiled caches aside), or a lone module's
    file: name, modification time, size."""
    if os.path.isfile(where):
        st = os.stat(where)
        return [[os.path.basename(where), st.st_mtime_ns, st.st_size]]
    out: list[list[object]] = []
    for root, dirs, names in os.walk(where):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            st = os.stat(os.path.join(root, name))
            out.append([os.path.relpath(os.path.join(root, name), where), st.st_mtime_ns, st.st_size])
    return out


def kept(language: str) -> str | None:
    """The listing kept for this language, if nothing it was made from has changed."""
    try:
        with open(_path(), "rb") as f:
            data = json.loads(f.read(MAX_FILE_BYTES + 1))
        if data["made_from"] != _made_from(language):
            return None
        for folder, files in data["packages"].items():
            if _files(folder) != files:
                return None
        text = data["text"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return text if isinstance(text, str) else None


def keep(language: str, text: str, modules: Iterable[str]) -> None:
    """Keep ``text``, the listing made from the packages of ``modules`` (their top-level
    packages' files are read); a listing that cannot be written is simply not kept."""
    sources = sorted({where for m in modules for where in _sources(m)})
    data = {"made_from": _made_from(language), "packages": {w: _files(w) for w in sources},
            "text": text}
    from cardcore.services.files import write_atomic  # after a full load: its imports are paid

    try:
        write_atomic(_path(), json.dumps(data))
    except OSError:
        return


def _sources(module: str) -> list[str]:
    """Where a module's top-level package lives: its folders (a compiled build's too), or
    a lone module's file."""
    top = sys.modules.get(module.split(".")[0])
    if top is None:
        return []
    folders = getattr(top, "__path__", None)
    if folders is not None:
        return [os.path.abspath(f) for f in folders]
    where = getattr(top, "__file__", None)
    return [os.path.abspath(where)] if where else []
