"""The table: zones, the viewer's hand, the legal actions, the move log; bots play with a pause."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rich.console import Group as RichGroup
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import OptionList, Static

from cardcore.apps.tui import picks
from cardcore.apps.tui.picks import STEP_KEYS, STEP_NAMES, STEP_WORDS, Unit
from cardcore.apps.tui.screens.handover import HandoverScreen
from cardcore.apps.tui.screens.line import LineScreen
from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen, SheetChoice
from cardcore.apps.tui.session import HUMAN, MoveFailed
from cardcore.apps.tui.table_session import TableSession
from cardcore.apps.tui.widgets.actions import (
    PAGE,
    ActionList,
    Row,
    carried,
    coloured_label,
    rows_of,
)
from cardcore.apps.tui.widgets.footer import Footer
from cardcore.apps.tui.widgets.hand import HandView
from cardcore.apps.tui.widgets.message import MessageLine
from cardcore.apps.tui.widgets.tail import TailStatic
from cardcore.apps.tui.widgets.wrap import Hanging, PartsLine
from cardcore.apps.tui.widgets.zones import Moved, TableInfo, ZonesView, badge_text, moved
from cardcore.engine.bots.search import Estimate
from cardcore.engine.cards import glyph
from cardcore.engine.game import Action, IllegalAction, Zone
from cardcore.engine.journal import HandEnd, MatchEvent, Note
from cardcore.language import CORE, N_, _

if TYPE_CHECKING:
    from cardcore.apps.tui.app import CardcoreApp


#: What the table's marks mean (under its keys in the help).
TABLE_MARKS = N_("Cards in [brackets] are picked; the cursor is in reverse video; the cards "
               "the highlighted action uses are underlined and between _ _, its zones marked "
               "▶; the last bot move is marked \"last move\"; ▸ marks what just arrived.")


#: The status line's height at most (app.tcss ``#status``).
STATUS_LINES = 2


def matches(action: Action, picked: Counter[str], key: Callable[[str], str] = str,
            units: Iterable[Unit] = ()) -> bool:
    """The action plays every picked card (as a multiset, cards compared by the game's
    ``card_key``; card-less actions match any) and uses every picked table unit."""
    return picks.matches(action, picked, key, units)


class TableScreen(Screen[None]):
    app: CardcoreApp

    class PlayAgainRequested(Message):
        """The match is over: a new one like it (the next seed) in place of this table."""

        def __init__(self, screen: TableScreen, session: TableSession) -> None:
            super().__init__()
            self.screen = screen
            self.session = session

    class Left(Message):
        """The player left the table (the session is closed, the match saved)."""

        def __init__(self, screen: TableScreen) -> None:
            super().__init__()
            self.screen = screen

    #: Each binding's ``tooltip`` is its line in the help (``screens.help``), which lists
    #: them all: a key added here is in ``?`` at once.
    BINDINGS = [
        *(Binding(str(n), f"choose({n})", N_("Action"), show=False, id=f"table.action{n}",
                  tooltip=N_("play the action with that number (it keeps its meaning for the turn)"))
          for n in range(1, 10)),
        Binding("pagedown,right_square_bracket", "page(1)", N_("More"), id="table.next_page",
                priority=True, key_display="]", tooltip=N_("the next page of actions")),
        Binding("pageup,left_square_bracket", "page(-1)", N_("Back a page"), show=False,
                id="table.prev_page", priority=True, tooltip=N_("the page of actions before")),
        *(Binding(k, f"step('{step}')", step.capitalize(), show=False, id=f"table.step_{step}",
                  tooltip=STEP_WORDS.get(step, step))
          for step, k in STEP_KEYS.items()),
        Binding("m", "lay_out", N_("Lay out picked"), show=False, id="table.lay_out",
                tooltip=N_("lay out the picked cards in as many plays as it takes: says what it "
                        "will play, m again plays it")),
        Binding("n", "next_hand", N_("Next hand"), id="table.next_hand",
                tooltip=N_("the next hand (the last one stays on the table until then)")),
        Binding("h", "hint", N_("Hint"), id="table.hint",
                tooltip=N_("hint: the best three actions, with the points each may bring your side")),
        Binding("w", "why", N_("Why"), show=False, id="table.why",
                tooltip=N_("why the last bot move: what it expected of it, and the other moves it "
                        "considered")),
        Binding("u", "undo", N_("Undo"), id="table.undo",
                tooltip=N_("undo your last move (against bots; never past a card you had not seen)")),
        Binding("s", "score_sheet", N_("Sheet"), id="table.sheet", tooltip=N_("the score sheet")),
        Binding("r", "rules", N_("Rules"), id="table.rules",
                tooltip=N_("the rules of this game, as played here (esc comes back)")),
        Binding("b", "speed", N_("Bot speed"), show=False, id="table.speed",
                tooltip=N_("bot speed: normal → instant → slow")),
        Binding("a", "retry", N_("Try again"), id="table.retry",
                tooltip=N_("try a bot's failed move again")),
        Binding("c", "chat", N_("Chat"), id="table.chat",
                tooltip=N_("say a line to the table (a table on a server)")),
        Binding("q", "leave", N_("Leave"), id="table.leave",
                tooltip=N_("leave the table (the match is saved: Resume continues it)")),
    ]

    #: Keys the table takes that are no binding (``on_key``, the action list, the mouse).
    HELP_EXTRA = [
        ("shift+letter", N_("pick the table card, build, meld or pile marked A:, B:, … "
                            "(narrows the actions)")),
        ("tab", N_("to the action list and back (↑ ↓ and ⏎ there play an action)")),
        ("mouse", N_("click a card to pick it, click an action to play it")),
    ]

    def __init__(self, session: TableSession) -> None:
        super().__init__()
        self.session = session
        self.revealed: int | None = None  # the human whose hand is face up (hot-seat)
        self.viewer: int | None = None
        self.legal: list[Action] = []
        self.shown: list[tuple[int, Action]] = []  # the filtered list: (index in legal, action)
        #: The numbered lines (``shown`` and, unfiltered, the actions gone this turn).
        self.rows: list[Row] = []
        #: This turn's order of the actions (labels) and the turn it belongs to (the hand,
        #: the seat shown): numbers keep their meaning while the same player plays on.
        self.order: list[str] = []
        self._order_turn: tuple[object, ...] | None = None
        self.played: set[str] = set()  # the labels the player played this turn
        #: Where the actions the last move added begin in ``order`` (None: none added, or
        #: a whole new list, as after a draw).
        self._added_at: int | None = None
        #: The plan ``m`` showed, waiting for a second ``m`` (and what it was made for).
        self._lay_out_asked: tuple[tuple[object, ...], list[Action]] | None = None
        self.page = 0
        self.highlight: int | None = None  # index in legal of the highlighted action
        self.hint_index: int | None = None
        self._timer: Timer | None = None
        self._pending: int | None = None  # the token of the scheduled bot move
        self._tokens = 0
        self._sheet_pending = False
        self._bot_failed = False  # a bot's move failed: r tries again
        #: The table units the player can pick, by letter, and those picked.
        self.units: dict[str, Unit] = {}
        self.picked_units: list[Unit] = []
        #: Only the actions of this step are listed (its key was pressed with several).
        self.step_filter: str | None = None
        #: The hand just ended: its last position (the seat shown, the zones) stays on
        #: the table until ``n``.
        self.finished: tuple[int | None, list[Zone]] | None = None
        self.finished_no = 0
        #: The match was over at the last redraw (a rematch at a server table then deals
        #: the next one under this screen).
        self._over_seen = session.over
        #: Positions in the hand of the cards that just arrived (a draw), marked.
        self.new_cards: frozenset[int] = frozenset()
        #: The hand the last update showed (a remote session's new cards are marked
        #: only within a hand).
        self._hand_seen = session.hand_no
        #: The dealer of the hand on the table (once a hand ends the match has moved the
        #: deal on, but its last position stays shown with its own dealer).
        self.hand_dealer = session.dealer

    def compose(self) -> ComposeResult:
        yield PartsLine(id="status")
        yield Static(id="save-warning")
        with Horizontal(id="table-main"):
            # the scroll panes are not in the focus chain: tab goes hand -> actions -> hand
            with VerticalScroll(id="zones-scroll", can_focus=False):
                yield ZonesView(id="zones")
            with Vertical(id="side"):
                yield Static(id="actions-title")
                yield ActionList(id="actions")
                yield Static("[b]" + _("Move log") + "[/b]", id="log-title")
                with VerticalScroll(id="log-scroll", can_focus=False):
                    yield TailStatic(id="log")  # the newest entry always in view
        yield MessageLine(id="message")
        yield Static(id="hand-title")
        with VerticalScroll(id="hand-scroll", can_focus=False):
            yield HandView(id="hand")
        # the palette (ctrl+p) is in the help: 80 columns keep every key shown whole
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.session.listen(self._heard)
        self.session.drain_events()
        if self.session.needs_handover(None):
            self.redraw()
        else:
            self.revealed = self.session.to_play
            self.redraw()
        self.call_after_refresh(self.advance)

    def on_screen_resume(self) -> None:
        self.redraw()
        self.call_after_refresh(self.advance)

    def on_unmount(self) -> None:
        self._cancel_timer()
        self.session.listen(None)

    def shut(self) -> None:
        """This table goes (another takes its place): no more bot moves, the record closed;
        the match stays as last saved."""
        self._cancel_timer()
        self.session.close()

    # --- drawing -----------------------------------------------------------------------

    @property
    def hand(self) -> HandView:
        return self.query_one("#hand", HandView)

    def cards_at(self, indexes: Iterable[int]) -> Counter[str]:
        """The hand's cards at ``indexes`` (face-down cards are no one's to pick)."""
        cards = self.hand.cards
        return Counter(card for i in indexes if i < len(cards) and (card := cards[i]) is not None)

    def picked_cards(self) -> Counter[str]:
        return self.cards_at(self.hand.picked)

    def _table(self) -> tuple[int | None, list[Zone]]:
        """The seat whose hand is shown and the zones: the hand being played, or the one
        that just ended (its last position, every card where the last move left it)."""
        if self.finished is not None:
            return self.finished
        return self.session.table(self.revealed)

    def redraw(self) -> None:
        s = self.session
        if self.finished is None:
            self.hand_dealer = s.dealer
        viewer, zones = self._table()
        self.viewer = viewer
        palette = self.app.palette
        to_play = s.to_play
        hand_zone = next((z for z in zones if z.kind == "hand" and z.seat == viewer), None) \
            if viewer is not None else None
        others = [z for z in zones if z is not hand_zone]
        # the actions: only for the human whose hand is shown
        if self.finished is None and to_play is not None and to_play == viewer \
                and not s.is_bot(to_play):
            self.legal = s.legal_actions()
        else:
            self.legal = []
        self._keep_order(zones)
        self.units = picks.lettered(picks.table_units(others, self.legal))
        self.picked_units = [u for u in self.picked_units if u in self.units.values()]
        hand = self.hand
        hand.palette = palette
        new_cards = tuple(hand_zone.cards) if hand_zone else ()
        if new_cards != hand.cards:
            hand.picked = frozenset()
            hand.cards = new_cards
        hand.new = self.new_cards
        self._filter()
        self._draw_zones(others)
        self._draw_status()
        self._draw_save_warning()
        self._draw_log()
        title = self.query_one("#hand-title", Static)
        self.query_one("#hand-scroll").display = hand_zone is not None
        if hand_zone is not None and viewer is not None:
            text = Text(_("Your hand — {name}").format(name=s.name(viewer)), style="bold")
            if not hand_zone.badges:
                count = CORE.ngettext("{n} card", "{n} cards", len(new_cards)).format(n=len(new_cards))
                text.append(f"  {count}", style="dim")
            for badge in hand_zone.badges:
                text.append(f" [{badge_text(badge)}]", style="dim")
            picked = self.picked_cards()
            if picked or self.picked_units:
                names = [glyph(c) for c in sorted(picked.elements())]
                names += [unit_name(u) for u in self.picked_units]
                text.append("  " + _("picked: {cards}").format(cards=" ".join(names)), style="yellow")
            title.update(text)
        elif s.humans and len(s.humans) > 1:
            title.update(Text(_("Hands are hidden until the next player takes the seat."), style="dim"))
        elif not s.humans and HUMAN in s.seats:  # a spectator at a table on a server
            title.update(Text(_("Watching: every hand is face down."), style="dim"))
        else:
            title.update(Text(_("Open table: no human plays.") if not s.humans else "", style="dim"))
        if s.over:
            title.update(Text(_("The match is over — s: score sheet, q: leave."), style="bold"))
        elif self.finished is not None:
            title.update(Text(_("Hand {number} is over — n: next hand, s: score sheet.")
                              .format(number=self.finished_no), style="bold"))
        self.refresh_bindings()

    def _keep_order(self, zones: list[Zone]) -> None:
        """The turn's order of the actions: carried over while the same player plays on
        in the same hand (their own moves change the list), begun anew otherwise, and
        when a trick was taken (the taker's lead is a turn of its own)."""
        s = self.session
        tricks = tuple((z.title, z.seat) for z in zones if z.kind == "trick")
        turn = (s.hand_no, self.viewer, tricks)
        self._added_at = None
        if self.legal:
            if turn == self._order_turn and self.order:
                old, self.order = self.order, carried(self.order, self.legal)
                labels = {a.label for a in self.legal}
                if len(self.order) > len(old) and labels.intersection(old):
                    self._added_at = len(old)  # new actions amid old ones (a meld's adds)
            else:
                self.order, self.played, self.page = [a.label for a in self.legal], set(), 0
            self._order_turn = turn
        elif self.finished is not None or s.to_play is None or s.to_play != self.viewer:
            # another's turn (a move on its way to a server leaves the turn as it was)
            self.order, self._order_turn = [], None

    def _live(self, page: int) -> list[int]:
        """The actions still playable on ``page`` of the list (their places in ``legal``)."""
        return [r.index for r in self.rows[page * PAGE:(page + 1) * PAGE] if r.index is not None]

    def _filter(self, follow: bool = True) -> None:
        """The list as the picks narrow it; ``follow``: off the page shown when the turn's
        moves took all of its moves (not when the player paged to it)."""
        picked = self.picked_cards()
        key = self.session.game.card_key
        units = self.picked_units
        step = self.step_filter
        narrowed = bool(picked or units or step)
        self.rows = rows_of(self.order, self.legal, self.played,
                            (lambda a: matches(a, picked, key, units)
                             and (step is None or a.step == step)) if narrowed else None)
        self.shown = [(r.index, self.legal[r.index]) for r in self.rows if r.index is not None]
        pages = max(1, -(-len(self.rows) // PAGE))
        self.page = max(0, min(self.page, pages - 1))
        if follow and not self._live(self.page) and self.shown:
            # the turn's earlier moves took every move of this page: on to the first one left
            self.page = next(i for i, r in enumerate(self.rows) if r.index is not None) // PAGE
        page_ids = self._live(self.page)
        if self.highlight not in page_ids:
            self.highlight = page_ids[0] if page_ids else None
        self.query_one("#actions", ActionList).show(self.rows, self.page, self.app.palette,
                                                     hint=self.hint_index, highlight=self.highlight)
        title = Text(_("Actions"), style="bold")
        if self.finished is not None:
            title.append("  " + _("(n: next hand)"), style="dim")
        elif not self.legal:
            seat = self.session.to_play
            if self.session.waiting_for:  # for whom: the status line (this column is narrow)
                title.append("  " + _("(the table waits)"), style="dim")
            elif seat is not None and self.session.is_bot(seat):
                title.append("  " + _("({name} is playing)").format(name=self.session.name(seat)),
                             style="dim")
            elif seat is not None and seat != self.viewer:
                title.append("  " + _("(waiting for {name})").format(name=self.session.name(seat)),
                             style="dim")
        elif pages > 1:
            title.append("  " + _("page {page}/{pages} ([ ])").format(page=self.page + 1, pages=pages),
                         style="dim")
        if self.legal and len(self.shown) < len(self.legal):
            title.append("  " + _("{shown} of {all}").format(shown=len(self.shown), all=len(self.legal)),
                         style="yellow")
        self.query_one("#actions-title", Static).update(title)

    def _draw_zones(self, others: list[Zone]) -> None:
        s = self.session
        targets: set[str] = set()
        marked: set[str] = set()
        taken: set[tuple[str | None, str]] = set()
        if self.highlight is not None and self.highlight < len(self.legal):
            action = self.legal[self.highlight]
            targets = set(action.targets)
            marked = set(action.hand_cards)
            taken = set(action.table_cards)
        self.hand.marked = frozenset(marked)
        before = s.last_move_zones(self.revealed) if self.finished is None else None
        last_move = moved(before, s.table(self.revealed)[1]) if before is not None else Moved()
        viewer_side = self.viewer_side
        info = TableInfo(s.names, s.side_names,
                         dealer=self.hand_dealer, to_play=s.to_play if self.finished is None else None,
                         viewer=self.viewer, targets=targets, last_move=last_move,
                         palette=self.app.palette,
                         letters={u.id: k for k, u in self.units.items()},
                         picked={u.id for u in self.picked_units}, taken=taken,
                         viewer_side=viewer_side)
        self.query_one("#zones", ZonesView).show(others, info)

    @property
    def viewer_side(self) -> int | None:
        """The side of the seat the table is seen from (None: no seat, or no sides)."""
        return next((z.side for z in self._table()[1]
                     if z.kind == "hand" and z.seat == self.viewer), None)

    @property
    def sheet_side(self) -> int | None:
        """The side whose column on the score sheet is "we" (``side_heads``): the viewer's, in
        a game of partnerships (each player alone: the players' names)."""
        s = self.session
        return self.viewer_side if len(s.side_names) < len(s.names) else None

    def _draw_status(self) -> None:
        """Most needed first: the score and the target, whose turn, the hand, the game,
        the dealer; on a second line, whole, what 80 columns cannot hold (``Parts``). Two
        lines at most: the game's name, the hand, the league and the dealer give way, in
        that order, when long names need the room."""
        s = self.session
        sheet = s.sheet
        sides = [Text(f"{name} {total}", style="bold")
                 for name, total in zip(sheet.side_names, sheet.totals, strict=False)]
        sides[-1].append(" " + _("(to {target})").format(target=sheet.target), style="not bold")
        parts = list(sides)  # one part a side: long names break between the sides
        seat = s.to_play
        if self.finished is not None:
            parts.append(Text(_("hand {number} over").format(number=self.finished_no), style="bold green"))
        elif waiting := s.waiting_for:
            parts.append(Text(_("waiting for {name}").format(name=waiting), style="bold yellow"))
        elif seat is not None:
            who = _("you") if seat == self.viewer else (s.seats[seat] if s.is_bot(seat) else _("human"))
            turn = Text(_("to play:") + " ")
            turn.append(f"{s.name(seat)} ({who})", style="bold green")
            parts.append(turn)
        hand = len(parts)
        parts.append(Text(_("hand {number}").format(number=s.hand_no) if self.finished is None else ""))
        parts.append(Text(s.game.name, style="dim"))
        parts.append(Text(_("league {name}").format(name=s.league) if s.league else "", style="dim"))
        parts.append(Text(_("dealer {name}").format(name=s.name(self.hand_dealer)), style="dim"))
        self.query_one("#status", PartsLine).show(parts, STATUS_LINES,
                                                  spare=(hand + 1, hand, hand + 2, hand + 3),
                                                  glued=range(1, len(sides)))

    def _draw_save_warning(self) -> None:
        """A line that stays while the match cannot be saved (a notify would go away)."""
        problem = self.session.save_problem
        warning = self.query_one("#save-warning", Static)
        warning.display = problem is not None
        if problem is not None:
            warning.update(Text(f"⚠ {problem[:1].upper()}{problem[1:]}.", style="bold"))

    def _draw_log(self) -> None:
        hand_no = self.finished_no if self.finished is not None else self.session.hand_no
        entries = [e for e in self.session.log if e.hand == hand_no][-60:]
        lines = []
        moves = [n for n, entry in enumerate(entries) if not entry.note]
        for n, entry in enumerate(entries):
            last = bool(moves) and n == moves[-1]
            line = Text("▸ " if last else "  ")
            if entry.note:  # a chat line, a player's coming and going
                line.append(entry.text, style="italic magenta")
                lines.append(line)
                continue
            line.append_text(coloured_label(entry.said(), self.app.palette))
            if last:
                line.stylize("bold cyan" if entry.bot else "bold")
            lines.append(line)
        # an entry too long for the pane goes on under its own start, not at the edge
        text = RichGroup(*map(Hanging, lines)) if lines else Text(_("(no move yet this hand)"),
                                                                   style="dim")
        log = self.query_one("#log", TailStatic)
        log.plain = "\n".join(line.plain for line in lines)
        log.update(text)
        self.query_one("#log-scroll", VerticalScroll).scroll_end(animate=False)

    def say(self, message: str, error: bool = False, auto: bool = False) -> None:
        """The message line: what a key did stays until the next key or a few seconds;
        ``auto`` (a bot's move, the server's news) waits for that (``MessageLine``)."""
        self.query_one("#message", MessageLine).say(message, error=error, auto=auto)
        if error:
            self.app.bell()

    # --- the flow ----------------------------------------------------------------------

    def _cancel_timer(self) -> None:
        self._pending = None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _schedule_bot(self) -> None:
        self._tokens += 1
        token = self._pending = self._tokens
        delay = self.app.bot_delay
        if delay > 0:
            self._timer = self.set_timer(delay, lambda: self._bot_move(token))
        else:
            self.call_later(self._bot_move, token)

    def advance(self) -> None:
        """Whatever comes next: the score sheet, a bot's move, the hand-over, or wait for a human."""
        if self._pending is not None or not self.is_attached or self.app.screen is not self:
            return
        s = self.session
        if self._sheet_pending:
            self._sheet_pending = False
            self.app.push_screen(ScoreSheetScreen(s, end_of_hand=True, viewer_side=self.sheet_side),
                                 self._after_sheet)
            return
        if s.over or self.finished is not None:
            return
        seat = s.to_play
        if seat is None:
            return
        if s.is_bot(seat):
            if s.drives_bots:  # else the server plays it: its update comes through listen
                self._schedule_bot()
        elif s.needs_handover(self.revealed):
            self.app.push_screen(HandoverScreen(s.name(seat)), lambda _: self._handed_over(seat))
        else:
            self.hand.focus() if self.hand.cards else self.query_one("#actions").focus()

    def _handed_over(self, seat: int) -> None:
        self.revealed = seat
        self.redraw()

    def _bot_move(self, token: int) -> None:
        if token != self._pending:
            return
        self._pending = None
        self._timer = None
        seat = self.session.to_play
        if self.app.screen is not self or seat is None or not self.session.is_bot(seat):
            return
        try:
            action = self.session.bot_step()
        except Exception as exc:  # a plugin's bug: say so, never crash; the match is as it was
            self._bot_failed = True
            self.say(_("{name}'s move failed: {fault} — a: try again, q: leave (saved)")
                     .format(name=self.session.name(seat), fault=fault_line(exc)), error=True)
            self.redraw()
            return
        self._bot_failed = False
        self.say(f"{self.session.name(seat)} ({self.session.seats[seat]}): {action.label}",
                 auto=True)
        self.after_move()

    def action_retry(self) -> None:
        if not self._bot_failed:
            self.say(_("Nothing to try again."), error=True)
            return
        self._bot_failed = False
        self.say(_("Trying again…"))
        self.advance()

    def _heard(self, moved: bool) -> None:
        """The session's listener: called from the network's task, so the screen takes
        it in from its own message queue (in the app's context)."""
        if self.is_attached:
            self.call_later(self._changed, moved)

    def _changed(self, moved: bool) -> None:
        """The session changed by itself (a table on a server: an update, a chat line, an
        error): a new position is taken in as after a move; anything else is redrawn."""
        if not self.is_attached:
            return
        if not moved:
            self._tell(self.session.drain_events())
            self.redraw()
            return
        before = Counter(c for c in self.hand.cards if c is not None)
        same_hand = self.session.hand_no == self._hand_seen and self.finished is None
        self._hand_seen = self.session.hand_no
        self.after_move(self._positions(self._arrived(before)) if same_hand else frozenset())

    def _tell(self, events: list[MatchEvent]) -> None:
        """What the session has to say (a remote server's errors, a lost connection)."""
        for event in events:
            if isinstance(event, Note):
                self.say(event.text, error=event.error, auto=True)

    def after_move(self, new_cards: frozenset[int] = frozenset()) -> None:
        events = self.session.drain_events()
        self._tell(events)
        ended = [e for e in events if isinstance(e, HandEnd)]
        if self._over_seen and not self.session.over:  # a rematch: the new match's first hand
            self.finished, self._sheet_pending = None, False
        self._over_seen = self.session.over
        if ended:
            self._sheet_pending = True
            # the last position stays on the table (the last moves, the cards left to the
            # last capturer) until the player moves on with n
            self.finished = self.session.finished_table()
            self.finished_no = ended[-1].hand
            if len(self.session.humans) > 1:
                self.revealed = None
        self.new_cards = new_cards if not ended else frozenset()
        self._reset_picks()
        self.redraw()
        self.advance()

    def _reset_picks(self) -> None:
        if self.hand.picked or self.picked_units or self.step_filter:
            self.page = 0  # a narrowed list's page means nothing in the whole list
        self.hint_index = None
        self.highlight = None
        self.step_filter = None
        self.picked_units = []
        self.hand.picked = frozenset()

    def _after_sheet(self, result: SheetChoice | None) -> None:
        if result is SheetChoice.AGAIN:
            self.post_message(self.PlayAgainRequested(self, self.session))
        elif result is SheetChoice.MENU:
            self.action_leave()
        elif result is SheetChoice.NEXT:
            self.action_next_hand()
        # otherwise the table shows (the hand's last position, until n)

    def action_next_hand(self) -> None:
        if self.finished is None:
            self.say(_("The hand is not over yet."), error=True)
            return
        if self.session.over:
            self.say(_("The match is over — s: score sheet (play again), q: leave."), error=True)
            return
        self.finished = None
        self.new_cards = frozenset()
        self.say("")  # the new hand starts without the last hand's message
        self.redraw()
        self.advance()

    def play(self, action: Action) -> None:
        s = self.session
        if s.to_play is None or s.to_play != self.viewer or s.is_bot(s.to_play):
            self.say(_("It is not your turn."), error=True)
            return
        seat = s.to_play
        before = Counter(c for c in self.hand.cards if c is not None)
        hand_no = s.hand_no
        try:
            s.apply(action)
        except IllegalAction as exc:
            self.say(_("Not allowed: {reason}").format(reason=exc.reason), error=True)
            return
        except Exception as exc:  # an engine bug must not take the table down
            self.say(_("That move failed, nothing changed: {fault}").format(fault=fault_line(exc)),
                     error=True)
            self.redraw()
            return
        self.played.add(action.label)
        # hot-seat: the next player reads this line, so it names who played
        solo = len(s.humans) == 1
        arrived = self._arrived(before) if s.hand_no == hand_no else Counter()
        if arrived and action.step == "draw":
            drawn = " ".join(glyph(c) for c in sorted(arrived.elements()))
            line = (_("You drew {cards} (▸ in the hand)") if solo
                    else _("{name} drew {cards} (▸ in the hand)")).format(name=s.name(seat), cards=drawn)
        else:
            line = (_("You played: {action}") if solo
                    else _("{name} played: {action}")).format(name=s.name(seat), action=action.label)
        self.say(line)
        if len(s.humans) > 1 and s.to_play != self.viewer:
            self.revealed = None
        self.after_move(self._positions(arrived))
        self._say_added(line)

    def _say_added(self, line: str) -> None:
        """The move added actions after the others, on a page not shown: ``line`` says so."""
        if self._added_at is None:
            return
        pages = sorted({k // PAGE + 1 for k in range(self._added_at, len(self.rows))}
                       - {self.page + 1})
        if pages:
            self.say(line + " · " + _("new actions at the end: page {pages} (] [)")
                     .format(pages=", ".join(map(str, pages))))

    def _arrived(self, before: Counter[str]) -> Counter[str]:
        """The cards now in the viewer's hand that were not before the move (a draw)."""
        viewer, zones = self.session.table(self.revealed)
        hand = next((z for z in zones if z.kind == "hand" and z.seat == viewer), None)
        if hand is None:
            return Counter()
        return Counter(c for c in hand.cards if c is not None) - before

    def _positions(self, arrived: Counter[str]) -> frozenset[int]:
        """Where the arrived cards will sit in the hand (the last copies of each)."""
        viewer, zones = self.session.table(self.revealed)
        hand = next((z for z in zones if z.kind == "hand" and z.seat == viewer), None)
        if hand is None or not arrived:
            return frozenset()
        left = Counter(arrived)
        out = set()
        for i in reversed(range(len(hand.cards))):
            card = hand.cards[i]
            if card is not None and left[card] > 0:
                out.add(i)
                left[card] -= 1
        return frozenset(out)

    # --- messages from the widgets ---------------------------------------------------

    @on(HandView.Picked)
    def _picked(self, event: HandView.Picked) -> None:
        hand = self.hand
        if not self.legal:
            self.say(_("It is not your turn to play."), error=True)
            return
        picked = set(hand.picked)
        picked.symmetric_difference_update({event.index})
        cards = self.cards_at(picked)
        key = self.session.game.card_key
        units = self.picked_units
        if cards and not any(a.hand_cards and matches(a, cards, key, units) for a in self.legal):
            new = self.cards_at({event.index}) if event.index not in hand.picked else Counter()
            playable = {key(c) for a in self.legal if a.step is None for c in a.hand_cards}
            if len(cards) == 1 or not new or any(key(c) not in playable for c in new):
                self.say(self._why_none(new or cards), error=True)
                return
            # no one action plays them all: kept for m (laid out in several plays)
            hand.picked = frozenset(picked)
            self._narrowed()
            self.say(_("No single action plays all the picked cards: m lays them out in "
                       "several plays; esc clears."))
            return
        hand.picked = frozenset(picked)
        self._narrowed()

    def _why_none(self, cards: Counter[str]) -> str:
        """No legal action plays ``cards`` (with the table picks): say so, and why when the
        game tells (``GameState.why_not``)."""
        names = " + ".join(glyph(c) for c in sorted(cards.elements()))
        if self.picked_units:
            names = _("{cards} on {units}").format(cards=names, units=" ".join(map(unit_name,
                                                                                   self.picked_units)))
        reason = self._why_not(cards)  # short when there is one: the line has 80 columns
        return f"{names}: {reason}" if reason else _("No legal action plays {cards}.").format(cards=names)

    def _why_not(self, cards: Counter[str]) -> str | None:
        """What the game says a picked card may not do (``GameState.why_not``), for the
        first of ``cards`` it explains."""
        for card in sorted(cards):
            with contextlib.suppress(Exception):  # a plugin's bug must not take the table down
                reason = self.session.why_not(card)
                if reason:
                    return str(reason)
        return None

    def _narrowed(self) -> None:
        """The picks changed: the list, the marks and a line saying what is left."""
        self.highlight = None
        self.page = 0
        self.redraw()
        cards = self.picked_cards()
        n = len(self.shown)
        if cards or self.picked_units:
            line = (_("{n} actions fit the picks; 1-9 to choose, m lays out the "
                      "picked cards, esc clears.").format(n=n) if n != 1 else
                    _("1 action fits the picks: 1 plays it; esc clears."))
            # one card picked: what it may not do comes first ("no trail: you own ...")
            reason = self._why_not(cards) if len(cards) == 1 and not self.picked_units else None
            self.say(f"{glyph(next(iter(cards)))}: {reason} · {line}" if reason else line)
        else:
            self.say(_("Pick cards (space; table: shift+letter) to narrow the actions; 1-9 to choose."))

    def on_key(self, event: events.Key) -> None:
        """Every key (before its binding) ends the message's hold and an ``m`` that asked
        for confirmation, unless it is the second ``m``; shift+letter picks (or drops) the
        table card, group or pile with that letter."""
        self.query_one("#message", MessageLine).release()
        if event.key != "m":
            self._lay_out_asked = None
        char = event.character or ""
        if len(char) == 1 and char in picks.LETTERS and char in self.units:
            event.stop()
            self.pick_unit(char)

    def pick_unit(self, letter: str) -> None:
        unit = self.units.get(letter)
        if unit is None or not self.legal:
            self.say(_("Nothing on the table to pick now."), error=True)
            return
        chosen = list(self.picked_units)
        if unit in chosen:
            chosen.remove(unit)
        else:
            chosen.append(unit)
        key = self.session.game.card_key
        if chosen and not any(matches(a, self.picked_cards(), key, chosen) for a in self.legal):
            names = " + ".join(unit_name(u) for u in chosen)
            self.say((_("No legal action takes {units} together with the picked cards.")
                      if self.picked_cards() else _("No legal action takes {units} together."))
                     .format(units=names), error=True)
            return
        self.picked_units = chosen
        self._narrowed()

    @on(HandView.Cleared)
    def _cleared(self) -> None:
        self.hand.picked = frozenset()
        self.picked_units = []
        self.step_filter = None
        self.highlight = None
        self.redraw()

    @on(OptionList.OptionHighlighted, "#actions")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        index = int(event.option.id) if event.option.id is not None else None
        if index != self.highlight:
            self.highlight = index
            self._draw_zones([z for z in self.session.table(self.revealed)[1]
                              if not (z.kind == "hand" and z.seat == self.viewer)])

    @on(OptionList.OptionSelected, "#actions")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is None:
            return
        index = int(event.option.id)
        if index < len(self.legal):
            self.play(self.legal[index])

    # --- key actions -------------------------------------------------------------------

    def action_choose(self, n: int) -> None:
        if not self.legal:
            seat = self.session.to_play
            if self.session.over:
                self.say(_("The match is over."), error=True)
            elif seat is not None and self.session.is_bot(seat):
                self.say(_("Wait: {name} is playing.").format(name=self.session.name(seat)), error=True)
            else:
                self.say(_("Nothing to choose now."), error=True)
            return
        page_len = len(self.rows[self.page * PAGE:(self.page + 1) * PAGE])
        if n > page_len:
            self.say(_("There is no action {n} on this page (1-{last}).").format(n=n, last=page_len),
                     error=True)
            return
        row = self.rows[self.page * PAGE + n - 1]
        if row.index is None:  # the number keeps its meaning: never another action
            why = (_("{n} was “{action}”, played already: nothing played.") if row.played
                   else _("{n} was “{action}”, not possible after your last move: nothing played."))
            self.say(why.format(n=n, action=row.label), error=True)
            return
        self.play(self.legal[row.index])

    def action_step(self, step: str) -> None:
        """The step's fixed key: play it when one action of that step fits the picks;
        with several, list only them (pick the card, or 1-9)."""
        if not self.legal:
            self.say(_("Nothing to play now."), error=True)
            return
        fits = [a for a in self.legal if a.step == step
                and matches(a, self.picked_cards(), self.session.game.card_key, self.picked_units)]
        if not fits:
            self.say(_("No {step} now.").format(step=_(STEP_NAMES[step])), error=True)
            return
        if len(fits) == 1:
            self.play(fits[0])
            return
        self.step_filter = step
        self.highlight = None
        self.page = 0
        self.redraw()
        self.say(_("{n} ways to {step}: pick the card (space) then {key}, or 1-9; esc clears.")
                 .format(n=len(fits), step=_(STEP_NAMES[step]), key=STEP_KEYS[step]))

    def _lay_out_key(self) -> tuple[object, ...]:
        """What an ``m`` plan was made for: the actions, the picks."""
        return (tuple(self.legal), self.hand.picked, tuple(self.picked_units))

    def action_lay_out(self) -> None:
        """Lay out the picked hand cards: the first ``m`` finds the legal steps that play
        them and says what they are (and which picked cards they leave, and why); a second
        ``m`` at once plays them, one at a time (each recorded as usual)."""
        cards = self.picked_cards()
        if not self.legal or not cards:
            self.say(_("Pick the cards to lay out first (space), then m."), error=True)
            return
        asked, self._lay_out_asked = self._lay_out_asked, None
        if asked is not None and asked[0] == self._lay_out_key():
            self._lay_out(asked[1])
            return
        s = self.session
        try:
            plan = s.lay_out(cards, s.game.card_key)
        except Exception as exc:  # a plugin's bug: say so, change nothing
            self.say(_("Could not work out the plays: {fault}").format(fault=fault_line(exc)), error=True)
            return
        if not plan:
            self.say(self._why_none(cards), error=True)
            return
        self._lay_out_asked = (self._lay_out_key(), plan)
        self.say(lay_out_question(plan, cards, s.game.card_key, self._why_not))

    def _lay_out(self, plan: list[Action]) -> None:
        s = self.session
        line = None
        for played, action in enumerate(plan):
            if s.to_play != self.viewer or action not in s.legal_actions():
                break
            try:
                s.apply(action)
            except Exception as exc:
                self.say(_("Stopped after {n} play(s): {fault}").format(n=played, fault=fault_line(exc)),
                         error=True)
                break
            self.played.add(action.label)
        else:
            laid = sum(len(a.hand_cards) for a in plan)
            line = _("Laid out {cards} card(s) in {plays} play(s): {last}").format(
                cards=laid, plays=len(plan), last="; ".join(a.label for a in plan[-3:]))
            self.say(line)
        self.after_move()
        if line is not None:
            self._say_added(line)

    def action_page(self, step: int) -> None:
        self._lay_out_asked = None  # a priority key: on_key does not see it
        pages = max(1, -(-len(self.rows) // PAGE))
        if pages == 1:
            self.say(_("All the actions fit on one page."))
            return
        self.page = (self.page + step) % pages
        self.highlight = None
        self._filter(follow=False)
        self.say(_("Actions page {page} of {pages}.").format(page=self.page + 1, pages=pages))

    def action_hint(self) -> None:
        if not self.legal:
            self.say(_("A hint is for your own turn."), error=True)
            return
        self.say(_("Hint: thinking…"))
        self._search_hint(self.session.hint_search(top=3), list(self.legal))

    @work(thread=True, exclusive=True, group="hint")
    def _search_hint(self, search: Callable[[], list[Estimate]], legal: list[Action]) -> None:
        """The search off the screen's thread (up to a second): keys and updates go on."""
        best = search()
        self.app.call_from_thread(self.show_hint, best, legal)

    def show_hint(self, best: list[Estimate], legal: list[Action]) -> None:
        """The hint found for the actions ``legal``; nothing if the table has moved on."""
        if self.legal != legal:
            return
        if not best or best[0].action not in self.legal:
            self.say(_("No hint here."), error=True)
            return
        action = best[0].action
        index = self.legal.index(action)
        self.hand.picked = frozenset()
        self.hint_index = index
        self.highlight = index
        self._filter()
        ids = [r.index for r in self.rows]
        self.page = ids.index(index) // PAGE
        self.redraw()
        self.say(hint_text(best))

    @work(exclusive=True, group="why")
    async def action_why(self) -> None:
        """Why the last bot move, on the message line (a server's answer comes back over
        the connection meanwhile the table goes on)."""
        self.say(await self.session.why())

    def action_undo(self) -> None:
        why = self.session.why_no_undo()
        if why is not None:
            self.say(why, error=True)  # on the message line: no pop-up over it or the hand
            return
        self._cancel_timer()
        self.session.undo()
        self._order_turn = None  # the list as the position has it, numbered anew
        self.say(_("Your last move was taken back."))
        self.after_move()

    def action_score_sheet(self) -> None:
        self.app.push_screen(ScoreSheetScreen(self.session, end_of_hand=False, viewer_side=self.sheet_side),
                             self._after_sheet)

    def action_chat(self) -> None:
        if not self.session.can_chat:
            self.say(_("Chat is for tables on a server (cardcore join)."), error=True)
            return
        from cardcore.services.net.protocol import MAX_CHAT_CHARS

        self.app.push_screen(LineScreen(_("[b]Say to the table[/b] (enter sends, esc cancels)"),
                                        _("a line for everyone at the table"), MAX_CHAT_CHARS),
                             self._send_chat)

    def _send_chat(self, text: str | None) -> None:
        if not text:
            return
        try:
            self.session.chat(text)
        except ValueError as exc:
            self.say(str(exc), error=True)

    def action_rules(self) -> None:
        """The game's rules with this match's options, over the table (esc comes back; the
        bots wait meanwhile: ``advance`` plays only while the table is on top)."""
        from cardcore.apps.tui.screens.rules import RulesScreen

        self.app.push_screen(RulesScreen(self.app.registry, self.session.game, self.session.options))

    def action_speed(self) -> None:
        speed = self.app.cycle_speed()
        self.say(_("Bot speed: {speed} (b: {next}).").format(speed=_(speed), next=_(self.app.next_speed())))

    def action_leave(self) -> None:
        self._cancel_timer()
        self.session.close()
        self.post_message(self.Left(self))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # keys that can do nothing now leave the footer (80 columns keep "? Help" in view)
        if action == "hint":
            return bool(self.legal)
        if action == "page":
            return len(self.rows) > PAGE
        if action == "retry":  # shown only when there is something to try again
            return bool(self._bot_failed)
        if action == "next_hand":
            return self.finished is not None
        if action == "chat":
            return self.session.can_chat
        return True


def hint_text(best: list[Estimate]) -> str:
    """The hint in a line or two: the best action and what the search expects of it for
    the player's side, then the runners-up ("Hint: Capture 8♦ with 8♠, about +1.2 points
    for your side; next: Build 10 +0.8, Trail 3♣ -0.4"); how many deals the search tried
    is no word a player uses, and stays out."""
    first, rest = best[0], best[1:]
    text = _("Hint: {action}, about {points} points for your side").format(
        action=first.action.label, points=f"{first.margin:+.1f}")
    if rest:
        others = ", ".join(f"{e.action.label} {e.margin:+.1f}" for e in rest)
        text += "; " + _("next: {actions}").format(actions=others)
    return text


def lay_out_question(plan: list[Action], picked: Counter[str], key: Callable[[str], str],
                     why_not: Callable[[Counter[str]], str | None]) -> str:
    """What a second ``m`` will play, and the picked cards it leaves in the hand (with the
    game's reason for the first of them)."""
    plays = "; ".join(a.label for a in plan)
    used = Counter(key(c) for a in plan for c in a.hand_cards)
    left: Counter[str] = Counter()
    for card in sorted(picked.elements()):
        if used[key(card)] > 0:
            used[key(card)] -= 1
        else:
            left[card] += 1
    text = _("m again plays: {plays}").format(plays=plays)
    if left:
        names = " ".join(glyph(c) for c in sorted(left.elements()))
        reason = why_not(left)
        stay = CORE.ngettext("{cards} stays in your hand", "{cards} stay in your hand", sum(left.values()))
        text += " · " + stay.format(cards=names) + (f" ({reason})" if reason else "")
    return text + " · " + _("any other key cancels.")


def unit_name(unit: Unit) -> str:
    """A picked table unit in a line: its card, or the group or pile's id."""
    return glyph(unit.card) if unit.card is not None else unit.place


def fault_line(exc: Exception) -> str:
    """One line: the plugin and method that raised (MoveFailed says it already)."""
    if isinstance(exc, MoveFailed):
        return str(exc)
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"
