"""Step through a record: every position open (``zones(None)``), with the move that led to it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, Static

from cardcore.apps.tui.plain import plain
from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen
from cardcore.apps.tui.session import Replay
from cardcore.apps.tui.widgets.footer import Footer
from cardcore.apps.tui.widgets.zones import ZonesView
from cardcore.engine import records
from cardcore.engine.journal import HandEnd, MatchEnd, MatchEvent, start_of
from cardcore.engine.scoresheet import extras_of, goal_of
from cardcore.language import CORE, N_, _
from cardcore.services import files
from cardcore.services.plugins import Registry

if TYPE_CHECKING:
    from cardcore.apps.tui.app import CardcoreApp


class RecordMatches:
    """The matches of a record file (``simulate --record`` writes several, one after another),
    each replayed when it is asked for. RecordError if the file is no record."""

    def __init__(self, registry: Registry, path: str | Path) -> None:
        self.registry = registry
        self.path = Path(path)
        self.text = files.read_text(path, "record")
        numbered = records.parse_record_lines(self.text, str(path))
        matches = records.split_matches(numbered)
        #: The first and last line of each match.
        self.spans = [(m[0][0], m[-1][0]) for m in matches]
        #: One line a match, for the picker (read from its events: nothing replayed).
        self.lines = [_describe(i, [event for _, event in m]) for i, m in enumerate(matches)]

    def __len__(self) -> int:
        return len(self.spans)

    def replay(self, index: int) -> Replay:
        """The replay of match ``index`` (from 0); RecordError if it is not a record of its game."""
        if len(self) == 1:
            return Replay(self.registry, self.path)
        first, last = self.spans[index]
        # The lines before the match left blank, so an error names the file's own line.
        text = "\n" * (first - 1) + "\n".join(self.text.splitlines()[first - 1:last])
        return Replay.from_text(self.registry, text, self.path.name)


def _describe(index: int, events: list[MatchEvent]) -> str:
    """"2. seed 4, 3 hands, won by Player 1 (21-13)": what a picker shows of a match."""
    start, end = start_of(events[0]), events[-1]
    hands = sum(1 for e in events if isinstance(e, HandEnd))
    line = CORE.ngettext("{number}. seed {seed}, {hands} hand", "{number}. seed {seed}, {hands} hands",
                         hands).format(number=index + 1, seed=start.seed, hands=hands)
    if not isinstance(end, MatchEnd):
        return line + ", " + _("not finished")
    sides, winner = start.side_names or [], end.winner
    totals = "-".join(map(str, end.totals))
    won = (_("won by {side}").format(side=sides[winner]) if isinstance(winner,
                                                                       int) and 0 <= winner < len(sides)
           else _("no winner"))
    return f"{line}, {won} ({totals})"


class MatchPicker(ModalScreen[int | None]):
    """The matches of a record, one a line: dismissed with the one chosen (None: escape)."""

    DEFAULT_CSS = """
    MatchPicker { align: center middle; }
    #picker-box { width: 70; max-width: 95%; height: auto; max-height: 90%; border: round $accent;
                  background: $surface; padding: 0 1; }
    #picker { height: auto; max-height: 20; }
    """
    BINDINGS = [Binding("escape,q", "dismiss(None)", N_("Back"), id="picker.back")]

    def __init__(self, lines: list[str], current: int) -> None:
        super().__init__()
        self.lines = lines
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="picker-box"):
            yield Static(Text(_("The record's matches (enter: replay it)"), style="bold"))
            yield OptionList(*map(plain, self.lines), id="picker")

    def on_mount(self) -> None:
        picker = self.query_one("#picker", OptionList)
        picker.highlighted = self.current
        picker.focus()

    @on(OptionList.OptionSelected, "#picker")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)


class ReplayScreen(Screen[None]):
    app: CardcoreApp

    class Left(Message):
        """The viewer is done with the replay."""

    BINDINGS = [
        Binding("left,p", "step(-1)", N_("Back"), id="replay.back"),
        Binding("right,n,space", "step(1)", N_("Forward"), id="replay.forward"),
        Binding("home", "jump(0)", N_("First"), id="replay.first"),
        Binding("end", "jump(-1)", N_("Last"), id="replay.last"),
        Binding("s", "score_sheet", N_("Score sheet"), id="replay.sheet"),
        Binding("left_square_bracket", "match(-1)", N_("Previous match"), id="replay.previous_match"),
        Binding("right_square_bracket", "match(1)", N_("Next match"), id="replay.next_match"),
        Binding("m", "pick_match", N_("Matches"), id="replay.matches"),
        Binding("q", "leave", N_("Leave"), id="replay.leave"),
    ]

    index: reactive[int] = reactive(0)

    def __init__(self, replay: Replay, matches: RecordMatches | None = None, match: int = 0) -> None:
        super().__init__()
        self.replay = replay
        #: The record's matches when it holds several, and which of them is shown.
        self.matches = matches if matches is not None and len(matches) > 1 else None
        self.match = match

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with VerticalScroll(id="zones-scroll", can_focus=False):  # end/home step the replay
            yield ZonesView(id="zones")
        yield Static(id="message")
        yield Footer(show_command_palette=False)  # ctrl+p is in the help: 80 columns keep "? Help"

    def on_mount(self) -> None:
        self.draw()
        if self.matches is not None:
            self.notify(_("This record holds {n} matches: m lists them, ] the next, [ the previous.")
                        .format(n=len(self.matches)), timeout=6)

    def validate_index(self, value: int) -> int:
        return max(0, min(value, len(self.replay.frames) - 1))

    def watch_index(self) -> None:
        if self.is_mounted:
            self.draw()

    def draw(self) -> None:
        r = self.replay
        frame = r.frames[self.index]
        info = r.table_info(self.index, self.app.palette)  # names and sides as the match had them
        self.query_one("#zones", ZonesView).show(r.zones(self.index), info)
        status = plain(_("Replay · {game} · {name}").format(game=r.game.name, name=r.name), "bold")
        if self.matches is not None:
            status.append(" · " + _("match {number}/{count}").format(number=self.match + 1,
                                                                     count=len(self.matches)))
        status.append(" · " + _("hand {number}").format(number=frame.hand) + " · "
                      + _("position {number}/{count}").format(number=self.index + 1, count=len(r.frames)))
        if frame.hand_over:
            status.append(" · " + _("hand over"), style="bold")
        self.query_one("#status", Static).update(status)
        self.query_one("#message", Static).update(plain(frame.text, "italic"))

    def action_step(self, step: int) -> None:
        self.index += step

    def action_jump(self, where: int) -> None:
        self.index = where if where >= 0 else len(self.replay.frames) - 1

    def action_score_sheet(self) -> None:
        sheet = self.replay.sheets[self.index]
        last = self.index == len(self.replay.frames) - 1
        game, options = self.replay.game, start_of(self.replay.events[0]).options
        self.app.push_screen(ScoreSheetScreen(sheet=sheet, winner=self.replay.winner if last else None,
                                              over=last and self.replay.winner is not None,
                                              extras=extras_of(game, options),
                                              goal=goal_of(game, options, sheet.target),
                                              words=game.translate if game else None))

    def action_match(self, step: int) -> None:
        """The record's previous or next match."""
        self.show_match(self.match + step)

    def action_pick_match(self) -> None:
        if self.matches is not None:
            self.app.push_screen(MatchPicker(self.matches.lines, self.match),
                                 lambda chosen: None if chosen is None else self.show_match(chosen))

    def show_match(self, match: int) -> None:
        """Match ``match`` of the record (from 0), from its first position."""
        if self.matches is None or not 0 <= match < len(self.matches) or match == self.match:
            return
        try:
            replay = self.matches.replay(match)
        except records.RecordError as exc:
            self.notify(str(exc), severity="error", title=_("Cannot replay"))
            return
        self.replay, self.match = replay, match
        self.index = 0
        self.draw()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("match", "pick_match"):
            return self.matches is not None  # shown only for a record of several
        return True

    def action_leave(self) -> None:
        self.post_message(self.Left())
