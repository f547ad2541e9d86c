"""The match library at the table: unfinished matches to resume (or delete), the history of
finished ones (score sheets, replays) and the statistics. The screens read the library
through the app (``app.library()``) and ask for anything that changes it by message."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Label, ListItem, ListView, Static

from cardcore.apps.tui.plain import plain
from cardcore.apps.tui.widgets.footer import Footer
from cardcore.language import N_, _
from cardcore.services.store import MatchSummary

if TYPE_CHECKING:
    from cardcore.apps.tui.app import CardcoreApp

LOCKED = N_("being played in another cardcore")


def when(t: float) -> str:
    """Today's matches by the time, older ones by the date."""
    local = time.localtime(t)
    if time.strftime("%Y-%m-%d", local) == time.strftime("%Y-%m-%d"):
        return _("today {time}").format(time=time.strftime("%H:%M", local))
    return time.strftime("%Y-%m-%d %H:%M", local)


def totals_text(m: MatchSummary) -> str:
    pairs = zip(m.side_names, m.totals, strict=False)
    return " · ".join(f"{name} {total}" for name, total in pairs) or _("no score yet")


class MatchItem(ListItem):
    """One match: game, scores, hand and when on the first line; who plays on the second."""

    def __init__(self, summary: MatchSummary, game_name: str) -> None:
        super().__init__(classes="-locked" if summary.locked else "")
        self.summary = summary
        self.game_name = game_name

    def compose(self) -> ComposeResult:
        m = self.summary
        dim = "dim" if m.locked else ""
        line = plain(self.game_name, f"bold {dim}".strip())
        line.append_text(plain(f"  {totals_text(m)}", dim))
        if m.finished:
            won = m.side_names[m.winner] if m.winner is not None and m.winner < len(m.side_names) \
                else None
            line.append_text(plain("  " + (_("won by {side}").format(side=won) if won else _("no winner")),
                                   "green" if won else dim))
        else:
            line.append("  " + _("hand {number}").format(number=m.hand), style=dim)
        line.append(f"  {when(m.last_played)}", style="dim")
        who = plain(f"  {m.players()}", "dim")
        if m.locked:
            who.append(f"  ({_(LOCKED)})", style="italic")
        yield Label(line)
        yield Label(who)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: dismissed with True (y, or the button) or False (n, escape)."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    #confirm-box { width: 60; max-width: 95%; height: auto; border: thick $error;
                   background: $surface; padding: 0 1; }
    #confirm-text { height: auto; margin-bottom: 1; }
    #confirm-buttons { height: 1; width: auto; }
    #confirm-buttons Button { margin-right: 2; }
    """

    BINDINGS = [
        Binding("y", "answer(True)", N_("Yes"), id="confirm.yes"),
        Binding("n,escape", "answer(False)", N_("No"), id="confirm.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(plain(self.question, "bold"), id="confirm-text")
            with Horizontal(id="confirm-buttons"):
                yield Button(_("Delete (y)"), id="yes", variant="error", compact=True)
                yield Button(_("Keep it (n)"), id="no", compact=True)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


LIST_CSS = """
#library-title { height: 1; padding: 0 1; background: $panel; }
#matches { height: 1fr; border: round $primary; }
#matches > ListItem { height: 2; }
#matches > ListItem.-locked { color: $text-muted; }
#library-empty { height: auto; padding: 1 2; color: $text-muted; }
"""


class ResumeScreen(Screen[None]):
    """The unfinished matches, the most recently played first: enter continues one, d deletes
    one (asks first). A match held by another cardcore is greyed and cannot be opened."""

    app: CardcoreApp
    DEFAULT_CSS = LIST_CSS

    class Chosen(Message):
        """Continue the match with this id."""

        def __init__(self, match_id: int) -> None:
            super().__init__()
            self.match_id = match_id

    class DeleteRequested(Message):
        """Delete the match with this id (the user said yes)."""

        def __init__(self, screen: ResumeScreen, match_id: int) -> None:
            super().__init__()
            self.screen = screen
            self.match_id = match_id

    BINDINGS = [
        Binding("d,delete", "delete", N_("Delete"), id="resume.delete"),
        Binding("escape,q", "app.pop_screen", N_("Back"), id="resume.back"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(Text(_("Unfinished matches — enter: continue · d: delete"), style="bold"),
                     id="library-title")
        yield ListView(id="matches")
        yield Static(_("No unfinished match: every match played is kept here until it ends."),
                     id="library-empty")
        yield Footer()

    async def on_screen_resume(self) -> None:
        await self.reload()

    async def reload(self) -> None:
        """The list as the library has it now (locks included)."""
        matches = self.app.unfinished()
        view = self.query_one("#matches", ListView)
        index = view.index or 0
        await view.clear()
        names = {gid: g.name for gid, g in self.app.registry.games.items()}
        await view.extend(MatchItem(m, names.get(m.game, m.game)) for m in matches)
        view.display = bool(matches)
        self.query_one("#library-empty", Static).display = not matches
        if matches:
            view.index = min(index, len(matches) - 1)
            view.focus()

    def selected(self) -> MatchSummary | None:
        item = self.query_one("#matches", ListView).highlighted_child
        return item.summary if isinstance(item, MatchItem) else None

    @on(ListView.Selected, "#matches")
    def _chosen(self, event: ListView.Selected) -> None:
        if isinstance(event.item, MatchItem):
            self.choose(event.item.summary)

    def choose(self, summary: MatchSummary) -> None:
        if summary.locked:
            self.notify(_("Match {id} is {locked}: finish or leave it there first.")
                        .format(id=summary.id,
                                locked=_(LOCKED)), severity="warning", title=_("Cannot resume"))
            return
        self.post_message(self.Chosen(summary.id))

    def action_delete(self) -> None:
        summary = self.selected()
        if summary is None:
            return
        if summary.locked:
            self.notify(_("Match {id} is {locked}: it cannot be deleted now.")
                        .format(id=summary.id,
                                locked=_(LOCKED)), severity="warning", title=_("Cannot delete"))
            return
        names = {gid: g.name for gid, g in self.app.registry.games.items()}
        question = _("Delete match {id}: {game}, {totals}, hand {hand}, played {when}?"
                     "\nIt cannot be resumed afterwards.").format(
            id=summary.id, game=names.get(summary.game, summary.game), totals=totals_text(summary),
            hand=summary.hand, when=when(summary.last_played))

        def answered(yes: bool | None) -> None:
            if yes:
                self.post_message(self.DeleteRequested(self, summary.id))

        self.app.push_screen(ConfirmScreen(question), answered)


class HistoryScreen(Screen[None]):
    """Finished matches, the most recent first: enter replays one, s shows its score sheet."""

    app: CardcoreApp
    DEFAULT_CSS = LIST_CSS + """
    #history-sheet { height: auto; max-height: 8; padding: 0 1; }
    """

    class ReplayRequested(Message):
        def __init__(self, match_id: int) -> None:
            super().__init__()
            self.match_id = match_id

    BINDINGS = [
        Binding("s", "sheet", N_("Score sheet"), id="history.sheet"),
        Binding("escape,q", "app.pop_screen", N_("Back"), id="history.back"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(Text(_("History — enter: replay · s: score sheet"), style="bold"), id="library-title")
        yield ListView(id="matches")
        yield Static(_("No finished match yet."), id="library-empty")
        yield Static(id="history-sheet")
        yield Footer()

    def on_mount(self) -> None:
        matches = self.app.finished()
        view = self.query_one("#matches", ListView)
        names = {gid: g.name for gid, g in self.app.registry.games.items()}
        view.extend(MatchItem(m, names.get(m.game, m.game)) for m in matches)
        view.display = bool(matches)
        self.query_one("#library-empty", Static).display = not matches
        if matches:
            view.index = 0
            view.focus()

    def selected(self) -> MatchSummary | None:
        item = self.query_one("#matches", ListView).highlighted_child
        return item.summary if isinstance(item, MatchItem) else None

    @on(ListView.Highlighted, "#matches")
    def _highlighted(self, event: ListView.Highlighted) -> None:
        if isinstance(event.item, MatchItem):
            self.query_one("#history-sheet", Static).update(self.sheet_summary(event.item.summary))

    def sheet_summary(self, m: MatchSummary) -> Text:
        """The hands' scores in one line each (the last few)."""
        rows = self.app.score_rows(m.id)
        text = Text(_("Match {id} · {hands} hands · started {when}").format(id=m.id, hands=len(rows),
                                                                            when=when(m.started))
                    + "\n", style="bold")
        for n, row in enumerate(rows[-5:], start=max(1, len(rows) - 4)):
            sides = row.get("sides") or []
            text.append_text(plain("  " + _("hand {number}:").format(number=n) + " " + ", ".join(
                f"{name} {side.get('total', 0):+d}" for name, side in zip(m.side_names, sides, strict=False)
                if isinstance(side, dict))))
            text.append("\n")
        return text

    @on(ListView.Selected, "#matches")
    def _chosen(self, event: ListView.Selected) -> None:
        if isinstance(event.item, MatchItem):
            self.post_message(self.ReplayRequested(event.item.summary.id))

    def action_sheet(self) -> None:
        from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen
        from cardcore.engine.scoresheet import ScoreSheet, extras_of, goal_of

        m = self.selected()
        if m is None:
            return
        target = int(m.options.get("target", 0) or 0)
        sheet = ScoreSheet.from_json({"side_names": list(m.side_names), "target": target,
                                      "hands": self.app.score_rows(m.id)})
        game = self.app.registry.games.get(m.game)
        self.app.push_screen(ScoreSheetScreen(sheet=sheet, winner=m.winner, over=True,
                                              extras=extras_of(game, m.options),
                                              goal=goal_of(game, m.options, target),
                                              words=game.translate if game else None))


class StatsScreen(Screen[None]):
    """Per game and variant, per person (a human by profile or name, a bot by id) and per
    partnership: matches, wins, win share, hands, mean hand score and the game's own counts,
    as the library computes them, laid out for the screen's width (``stats_text``)."""

    app: CardcoreApp
    DEFAULT_CSS = """
    #stats-scroll { height: 1fr; padding: 0 1; }
    #library-title { height: 1; padding: 0 1; background: $panel; }
    """

    BINDINGS = [Binding("escape,q", "app.pop_screen", N_("Back"), id="stats.back")]

    #: Styles of the kinds of lines (``stats_text.Line.kind``).
    STYLES = {"title": "bold", "head": "bold dim", "counts": "dim", "note": ""}

    def compose(self) -> ComposeResult:
        yield Static(Text(_("Statistics — finished matches, per person and partnership"), style="bold"),
                     id="library-title")
        with VerticalScroll(id="stats-scroll"):
            yield Static(id="stats")
        yield Footer()

    def on_mount(self) -> None:
        self.people = self.app.stats()
        self.partnerships = self.app.stats(partnerships=True) if self.people else []
        self.show()

    def on_resize(self) -> None:
        if hasattr(self, "people"):
            self.show()

    def show(self) -> None:
        # the scroll's padding (2) and a vertical scrollbar's width (1) off the screen's
        width = max(self.size.width or self.app.size.width, 20) - 3
        self.query_one("#stats", Static).update(self.render_stats(width))

    def render_stats(self, width: int) -> RenderableType:
        from cardcore.apps.stats_text import stats_lines

        text = Text(no_wrap=True, overflow="ignore")
        for n, line in enumerate(stats_lines(self.app.registry, self.people, self.partnerships, width)):
            if n:
                text.append("\n")
            text.append_text(plain(line.text, self.STYLES.get(line.kind, "")))
        return text
