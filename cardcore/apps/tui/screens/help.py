"""Help: the keys of every screen, read from the screens' own bindings (a key added to a
screen shows here without a second list to keep), the screen it was opened over first."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from cardcore.language import N_, _

if TYPE_CHECKING:
    from textual.app import App

#: A line of the help: the keys as shown ("pgdn ]") and what they do.
Entry = tuple[str, str]

#: Keys every screen has that are no binding of ours (Textual's own).
ANYWHERE_EXTRA: list[Entry] = [("^p", N_("command palette (new match, resume, rules, score sheet)"))]


def key_names(app: App[object], binding: Binding) -> str:
    """Each of the binding's keys as Textual names them for display ("pgdn ]")."""
    keys = [app.get_key_display(Binding(k.strip(), "")) for k in binding.key.split(",")]
    return " ".join(keys)


def entries(app: App[object], bindings: Iterable[BindingType],
            extra: Sequence[Entry] = ()) -> list[Entry]:
    """One line per thing a key does (its ``tooltip``, else its ``description``, in the
    language in use): bindings that do the same share the line ("1–9 play the action
    with that number")."""
    keys: dict[str, list[str]] = {}
    for binding in bindings:
        if not isinstance(binding, Binding) or binding.system:
            continue
        keys.setdefault(binding.tooltip or binding.description, []).append(key_names(app, binding))
    return [(_joined(names), _(words)) for words, names in keys.items()] + [(k, _(w)) for k, w in extra]


def _joined(names: list[str]) -> str:
    """The keys of one line: a run of digits as "1–9"."""
    if len(names) > 2 and all(n.isdigit() for n in names):
        return f"{names[0]}–{names[-1]}"
    return " ".join(names)


def section(title: str, lines: Sequence[Entry], note: str = "") -> RenderableType:
    """A heading, the keys in a column and their words beside them (wrapped at words, under
    their own start), and a note under them."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True, min_width=10)
    grid.add_column(ratio=1)
    for keys, words in lines:
        grid.add_row(Text(keys, style="bold"), Text(words))
    parts: list[RenderableType] = [Text(title, style="bold underline"), grid]
    if note:
        parts.append(Text(note, style="dim"))
    return Group(*parts, Text(""))


def sections(app: App[object], under: Screen[Any] | None) -> list[tuple[str, list[Entry], str]]:
    """Every screen's keys: the one under the help first, then anywhere, then the others."""
    from cardcore.apps.tui.screens.launcher import LauncherScreen
    from cardcore.apps.tui.screens.lobby import LobbyScreen
    from cardcore.apps.tui.screens.replay import ReplayScreen
    from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen
    from cardcore.apps.tui.screens.setup import SetupScreen
    from cardcore.apps.tui.screens.table import TABLE_MARKS, TableScreen
    from cardcore.apps.tui.widgets.hand import HandView

    screens: list[tuple[type[Screen[Any]] | None, str, list[Entry], str]] = [
        (None, _("Anywhere"), entries(app, app.BINDINGS, ANYWHERE_EXTRA), ""),
        (TableScreen, _("Table"),
         entries(app, [*HandView.BINDINGS, *TableScreen.BINDINGS], TableScreen.HELP_EXTRA), _(TABLE_MARKS)),
        (LauncherScreen, _("Launcher"), entries(app, LauncherScreen.BINDINGS, LAUNCHER_EXTRA), ""),
        (SetupScreen, _("Setup"), entries(app, SetupScreen.BINDINGS, SetupScreen.HELP_EXTRA), ""),
        (ReplayScreen, _("Replay"), entries(app, ReplayScreen.BINDINGS), ""),
        (ScoreSheetScreen, _("Score sheet"), entries(app, ScoreSheetScreen.BINDINGS), ""),
        (LobbyScreen, _("Tables on a server"), entries(app, LobbyScreen.BINDINGS), ""),
    ]
    first = [s for s in screens if s[0] is not None and under is not None and isinstance(under, s[0])]
    rest = [s for s in screens if s not in first]
    return [(title, lines, note) for _screen, title, lines, note in first + rest]


#: The launcher's keys that are no binding of its own (the game list's).
LAUNCHER_EXTRA: list[Entry] = [("↑ ↓", N_("choose a game (its rules on the right; tab to scroll them)")),
                               ("⏎", N_("set up a match of the game"))]


class HelpText(Static):
    """The help drawn; ``plain``: its lines as text (each key beside its words)."""

    plain = ""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "close", N_("Close"), id="help.close")]

    def __init__(self, under: Screen[Any] | None = None) -> None:
        super().__init__()
        #: The screen the help was opened over: its keys come first.
        self.under = under

    def compose(self) -> ComposeResult:
        found = sections(self.app, self.under)
        parts: list[RenderableType] = [Text(_("cardcore — keys (esc closes)"), style="bold"), Text("")]
        parts += [section(*s) for s in found]
        text = HelpText(Group(*parts), id="help-text")
        text.plain = "\n".join(f"{title}\n" + "".join(f"{k}  {w}\n" for k, w in lines) + note
                                for title, lines, note in found)
        with VerticalScroll(id="help-box"):
            yield text

    def on_mount(self) -> None:
        self.query_one("#help-box").focus()

    def action_close(self) -> None:
        self.dismiss(None)
