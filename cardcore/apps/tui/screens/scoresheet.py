"""The score sheet: per hand, per side, itemised; running totals; the target; the winner."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum
from typing import TYPE_CHECKING

from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from cardcore.apps.tui.screens.server_leagues import LeaguePanel
from cardcore.apps.tui.widgets.sheet import score_table, side_heads
from cardcore.apps.tui.widgets.tail import TailStatic
from cardcore.engine.scoresheet import ScoreSheet, to_target
from cardcore.language import N_, _

if TYPE_CHECKING:
    from cardcore.apps.tui.table_session import TableSession
    from cardcore.engine.game import ScoreExtra


class SheetChoice(Enum):
    """How the score sheet was closed."""

    CONTINUE = "continue"  # back to the table
    NEXT = "next"  # on to the next hand
    AGAIN = "again"  # play again (a match that is over)
    MENU = "menu"  # back to the launcher

class ScoreSheetScreen(ModalScreen[SheetChoice]):
    """Dismissed with a SheetChoice: continue, play again, or back to the launcher."""

    BINDINGS = [
        Binding("escape,s", "close", N_("Back to the table"), id="sheet.close",
                tooltip=N_("back to the table (or where the sheet was opened)")),
        Binding("n", "next", N_("Next hand"), tooltip=N_("the next hand (a hand just over)"),
                id="sheet.next"),
        Binding("a", "again", N_("Play again"), id="sheet.again",
                tooltip=N_("play again: a match like it (a match that is over)")),
        Binding("m", "menu", N_("Launcher"), id="sheet.menu",
                tooltip=N_("the launcher (leaves the table, the match saved)")),
        # a modal screen holds the app's keys back: ? is the sheet's own
        Binding("question_mark", "app.help", N_("Help"), id="sheet.help", tooltip=N_("the help")),
        # q as under the sheet: the table's "Leave" (saved), elsewhere "Back"
        Binding("q", "leave", N_("Leave"), id="sheet.leave",
                tooltip=N_("leave the table (the match is saved), or back where the sheet was opened")),
    ]

    def __init__(self, session: TableSession | None = None, end_of_hand: bool = False, *,
                 sheet: ScoreSheet | None = None, winner: int | None = None, over: bool = False,
                 title: str | None = None, extras: Sequence[ScoreExtra] = (),
                 goal: str | None = None, viewer_side: int | None = None,
                 words: Callable[[str], str] | None = None) -> None:
        super().__init__()
        #: The side of the seat the sheet is seen from (its column reads "we": ``side_heads``).
        self.viewer_side = viewer_side
        self.session = session
        if session is not None:
            sheet, winner, over = session.sheet, session.winner, session.over
            extras = session.game.score_extras(session.options)
            goal = session.game.goal(session.options)
            words = session.game.translate
        #: The game's words for its items and extras (``Game.translate``).
        self.words = words
        self.sheet = sheet
        #: The game's own rows (``Game.score_extras``).
        self.extras = extras
        #: How the match is won (``Game.goal``): ``target 21``, ``first to 3 hands won``.
        self.goal = goal or (to_target(sheet.target) if sheet is not None else "")
        self.winner = winner
        self.over = over
        self.end_of_hand = end_of_hand
        self.title_text = title

    def heading(self) -> Text:
        text = self._heading()
        if self.league is not None:  # the match counts for a server's league
            text.append(" · " + _("league {name}").format(name=self.league), style="bold")
        return text

    @property
    def league(self) -> str | None:
        return self.session.league if self.session is not None else None

    def _heading(self) -> Text:
        sheet = self.sheet
        if self.title_text:
            return Text(self.title_text, style="bold")
        if self.over:
            if self.winner is not None and sheet is not None:
                won = _("Match over — the winner: {side} ({total}, {goal})")
                return Text(won.format(side=sheet.side_names[self.winner], total=sheet.totals[self.winner],
                                       goal=self.goal), style="bold green")
            return Text(_("Match over — no winner"), style="bold")
        if self.end_of_hand and sheet and sheet.hands:
            row = sheet.hands[-1]["sides"]
            scores = ", ".join(f"{n} {s['total']:+d}" for n, s in zip(sheet.side_names, row, strict=False))
            return Text(_("Hand {number} over: {scores}").format(number=len(sheet.hands), scores=scores),
                        style="bold")
        return Text(_("Score sheet"), style="bold")

    def compose(self) -> ComposeResult:
        with Vertical(id="sheet-box"):
            yield Static(self.heading(), id="sheet-heading")
            with VerticalScroll(id="sheet-scroll"):
                if self.sheet is None or not self.sheet.hands:
                    goal = f" ({self.goal})" if self.goal else ""
                    yield Static(_("No hand has been scored yet{goal}.").format(goal=goal), id="sheet-table")
                else:
                    # the last hand in view, also when the table is taller than the box
                    table = score_table(self.sheet, self.winner if self.over else None, self.extras,
                                        self.goal, side_heads(self.sheet.side_names, self.viewer_side),
                                        self.words)
                    yield TailStatic(Group(table), id="sheet-table")
                if self.over and self.session is not None and self.league is not None:
                    # running scores do not end with the match: the league's table as it is now
                    yield LeaguePanel(self.league, self.session.league_standings, id="sheet-league")
            with Horizontal(id="sheet-buttons"):
                if self.can_play_again:
                    yield Button(_("Play again"), id="again", variant="primary", compact=True)
                if self.over and self.session is not None:
                    yield Button(_("Launcher"), id="menu", compact=True)
                yield Button(_("Table (esc)"), id="close", compact=True)
                if self.end_of_hand and not self.over:
                    yield Button(_("Next hand (n)"), id="next", variant="primary", compact=True)

    def on_mount(self) -> None:
        self._fit()
        self.query_one("#sheet-scroll").scroll_end(animate=False)
        buttons = self.query(Button)
        if buttons:
            buttons.first().focus()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """The table scrolls inside the box, and the box fits the screen (heading and buttons
        included), so the last hand and the buttons are never cut off below it."""
        room = int(self.app.size.height * 0.95) - 7  # borders, heading, buttons, margins
        self.query_one("#sheet-scroll").styles.max_height = max(3, min(22, room))

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(SheetChoice.CONTINUE)

    @on(Button.Pressed, "#next")
    def action_next(self) -> None:
        if self.end_of_hand and not self.over:
            self.dismiss(SheetChoice.NEXT)

    @property
    def can_play_again(self) -> bool:
        """A match that is over, at a table that can ask for a rematch."""
        return self.over and self.session is not None and self.session.can_rematch

    @on(Button.Pressed, "#again")
    def action_again(self) -> None:
        if self.can_play_again:
            self.dismiss(SheetChoice.AGAIN)

    @on(Button.Pressed, "#menu")
    def action_menu(self) -> None:
        self.dismiss(SheetChoice.MENU)

    def action_leave(self) -> None:
        """What q does on the screen under the sheet: a table's leaves it (MENU: the match
        saved), a replay's or the history's goes back (the sheet closes)."""
        self.dismiss(SheetChoice.MENU if self.session is not None else SheetChoice.CONTINUE)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "again":
            return self.can_play_again
        if action == "next":
            return True if self.end_of_hand and not self.over else None
        return True
