"""The launcher's settings, kept across runs: ``settings.json`` in the data dir
(``CARDCORE_HOME``), checked by pydantic when read (its model: ``cardcore.services.settings_model``).

Only the language for now (docs/languages.md, "Choosing the language"): chosen in the
launcher, it is the language of the next start too unless ``--lang`` or ``CARDCORE_LANG``
says otherwise. A file that cannot be read is no setting (the defaults hold); it is set
aside (``settings.json.damaged-...``) when a setting is next written, never overwritten.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cardcore.services import files, home

if TYPE_CHECKING:
    from cardcore.services.settings_model import Settings

FILE_NAME = home.SETTINGS_FILE
MAX_FILE_BYTES = 64 * 1024


def settings_path(home: Path | None = None) -> Path:
    return (home if home is not None else files.data_dir()) / FILE_NAME


def _read(path: Path) -> Settings | None:
    """The settings (the defaults when there is no file), None when the file is no settings file."""
    from cardcore.services.settings_model import Settings

    return files.read_model(path, Settings, "settings file", MAX_FILE_BYTES)


def load(home: Path | None = None) -> Settings:
    from cardcore.services.settings_model import Settings

    return _read(settings_path(home)) or Settings()


def remembered_language(home: Path | None = None) -> str | None:
    """The language chosen in the launcher (``home``: the data dir, else ``CARDCORE_HOME``'s),
    None when none was: the command line's choice comes after ``--lang`` and ``CARDCORE_LANG``
    and before the system locale."""
    return load(home).language


def remember_language(code: str, home: Path | None = None) -> None:
    """Keep ``code`` as the launcher's language; OSError when it cannot be written."""
    from cardcore.services.settings_model import Settings

    path = settings_path(home)
    found = _read(path)
    if found is None:
        files.set_aside(path)
        found = Settings()
    kept = found.model_copy(update={"language": code})
    files.write_atomic(path, Settings.model_validate(kept.model_dump()).model_dump_json(indent=1) + "\n")
