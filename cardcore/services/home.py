"""Where cardcore keeps its files (the data dir), found with the least imported: every start
looks for the launcher's settings file here before anything else (docs/design.md, Start-up)."""

from __future__ import annotations

import os

#: The launcher's settings, in the data dir (``cardcore.services.settings``).
SETTINGS_FILE = "settings.json"


def data_dir_name() -> str:
    """The data dir: ``CARDCORE_HOME``, else the platform's data dir for cardcore
    (platformdirs, imported only then: it loads pathlib and tempfile, 17 ms of a start)."""
    home = os.environ.get("CARDCORE_HOME")
    if home:
        return home
    import platformdirs

    return platformdirs.user_data_dir("cardcore", appauthor=False)


def has_settings() -> bool:
    """Whether there is a settings file to read (the start reads it only then)."""
    return os.path.exists(os.path.join(data_dir_name(), SETTINGS_FILE))
