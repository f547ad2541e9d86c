"""Help: the keys and the flows."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

HELP = """\
[b]cardcore — keys[/b]

[b]Anywhere[/b]
  ?          this help               ctrl+p   command palette
  f          four-colour suits on/off ctrl+q  quit (the match is saved)

[b]Launcher[/b]
  ↑ ↓        choose a game (its rules on the right; tab to scroll them)
  enter / n  set up a new match      r        resume the saved match
  l          leagues: each league's standings and ratings
  j          join by code: a friend's table, by its code and a seat's invite

[b]Setup[/b]
  tab        next field              ctrl+s   start (once every value is valid)
  esc        back

[b]Table[/b]
  ← → ↑ ↓    move in your hand       space / enter  pick a card (narrows the actions)
  esc        drop the picked cards   tab      to the action list and back
  1 … 9      play an action          [ ] / PgUp PgDn  more actions
  h          hint (the best three)   u        undo your last move (against bots)
  s          score sheet             b        bot speed: normal → instant → slow
  q          leave (the match is saved; Resume continues it)
  Mouse: click a card to pick it, click an action to play it.
  Cards in \\[brackets] are picked; underlined cards and ▶ zones are used by the
  highlighted action; the last bot move is marked "last move".

[b]Replay[/b]
  ← →        step                    home / end  first / last position
  s          score sheet             q        leave
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "close", "Close", id="help.close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(HELP)

    def action_close(self) -> None:
        self.dismiss(None)
