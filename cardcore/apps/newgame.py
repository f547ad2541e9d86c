"""``cardcore new-game NAME``: a game plugin package to start from, built on the kit.

Writes ``./NAME``: a pyproject with the entry point, ``cardcore_NAME/game.py`` (a small
complete game on ``cardcore.engine.kit``: replace its rules with yours), the plugin module, a
test calling check_game, a README and the game's empty Indonesian catalog (its own gettext
domain, ``cardcore_NAME``: docs/languages.md), which ``catalogs --check`` passes. It
installs with pip, passes check_game and plays in the TUI before its author changes a line.
"""

from __future__ import annotations

import keyword
from pathlib import Path
from string import Template

from cardcore.apps import catalogs
from cardcore.language import _
from cardcore.services.plugins import GAME_ID

TEMPLATES = Path(__file__).with_name("templates")


class NewGameError(ValueError):
    """A NAME that cannot become a game package here."""


def check_name(name: str, where: Path) -> Path:
    """The directory to write, or NewGameError saying what is wrong with ``name``."""
    if not GAME_ID.fullmatch(name) or keyword.iskeyword(name):
        raise NewGameError(_("new-game: {name!r} is not a game id (lower-case letters, digits and _, "
                             "starting with a letter)").format(name=name))
    target = where / name
    if target.exists():
        raise NewGameError(_("new-game: {target} already exists; pick another name or remove it").format(
            target=target))
    return target


def new_game(name: str, where: Path | None = None) -> Path:
    """Write the package for game ``name`` under ``where`` (the current directory)."""
    target = check_name(name, where or Path.cwd())
    words = {"name": name, "Name": "".join(p.capitalize() for p in name.split("_")),
             "title": name.replace("_", " ").title(), "dist": "cardcore-" + name.replace("_", "-"),
             "package": f"cardcore_{name}"}
    files = {"pyproject.toml": "pyproject.toml", "README.md": "README.md",
             f"cardcore_{name}/__init__.py": "init.py", f"cardcore_{name}/game.py": "game.py",
             f"cardcore_{name}/plugin.py": "plugin.py", f"tests/test_{name}.py": "test_game.py"}
    for path, template in files.items():
        text = Template((TEMPLATES / (template + ".tmpl")).read_text()).substitute(words)
        (target / path).parent.mkdir(parents=True, exist_ok=True)
        (target / path).write_text(text)
    package = target / words["package"]
    for language in catalogs.Domain(words["package"], package).languages:
        catalogs.write(catalogs.Domain(words["package"], package), language)
    return target
