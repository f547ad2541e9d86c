"""The table: zones, the viewer's hand, the legal actions, the move log; bots play with a pause."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, OptionList, Static

from cardcore.cards import glyph
from cardcore.game import Action, IllegalAction, Zone
from cardcore.tui.screens.handover import HandoverScreen
from cardcore.tui.screens.scoresheet import ScoreSheetScreen, SheetChoice
from cardcore.tui.session import MoveFailed, Session
from cardcore.tui.widgets.actions import PAGE, ActionList, coloured_label
from cardcore.tui.widgets.hand import HandView
from cardcore.tui.widgets.tail import TailStatic
from cardcore.tui.widgets.zones import Moved, TableInfo, ZonesView, badge_text, moved

if TYPE_CHECKING:
    from cardcore.tui.app import CardcoreApp


def matches(action: Action, picked: Counter[str], key: Callable[[str], str] = str) -> bool:
    """The action plays every picked card (as a multiset, cards compared by the game's
    ``card_key``); card-less actions always match."""
    if not action.hand_cards:
        return True
    return not (Counter(map(key, picked.elements())) - Counter(map(key, action.hand_cards)))


class TableScreen(Screen[None]):
    app: CardcoreApp

    class PlayAgainRequested(Message):
        """The match is over: a new one like it (the next seed) in place of this table."""

        def __init__(self, screen: TableScreen, session: Session) -> None:
            super().__init__()
            self.screen = screen
            self.session = session

    class Left(Message):
        """The player left the table (the session is closed, the match saved)."""

        def __init__(self, screen: TableScreen) -> None:
            super().__init__()
            self.screen = screen

    BINDINGS = [
        *(Binding(str(n), f"choose({n})", f"Action {n}", show=False, id=f"table.action{n}")
          for n in range(1, 10)),
        Binding("pagedown,right_square_bracket", "page(1)", "More actions", id="table.next_page",
                priority=True),
        Binding("pageup,left_square_bracket", "page(-1)", "Back a page", show=False,
                id="table.prev_page", priority=True),
        Binding("h", "hint", "Hint", id="table.hint"),
        Binding("u", "undo", "Undo", id="table.undo"),
        Binding("s", "score_sheet", "Score sheet", id="table.sheet"),
        Binding("b", "speed", "Bot speed", id="table.speed"),
        Binding("t", "retry", "Try again", id="table.retry"),
        Binding("q", "leave", "Leave", id="table.leave"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.revealed: int | None = None  # the human whose hand is face up (hot-seat)
        self.viewer: int | None = None
        self.legal: list[Action] = []
        self.shown: list[tuple[int, Action]] = []  # the filtered list: (index in legal, action)
        self.page = 0
        self.highlight: int | None = None  # index in legal of the highlighted action
        self.hint_index: int | None = None
        self._timer: Timer | None = None
        self._pending: int | None = None  # the token of the scheduled bot move
        self._tokens = 0
        self._sheet_pending = False
        self._bot_failed = False  # a bot's move failed: t tries again

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="save-warning")
        with Horizontal(id="table-main"):
            # the scroll panes are not in the focus chain: tab goes hand -> actions -> hand
            with VerticalScroll(id="zones-scroll", can_focus=False):
                yield ZonesView(id="zones")
            with Vertical(id="side"):
                yield Static(id="actions-title")
                yield ActionList(id="actions")
                yield Static("[b]Move log[/b]", id="log-title")
                with VerticalScroll(id="log-scroll", can_focus=False):
                    yield TailStatic(id="log")  # the newest entry always in view
        yield Static(id="message")
        yield Static(id="hand-title")
        with VerticalScroll(id="hand-scroll", can_focus=False):
            yield HandView(id="hand")
        yield Footer()

    def on_mount(self) -> None:
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

    def redraw(self) -> None:
        s = self.session
        match = s.match
        viewer, zones = s.table(self.revealed)
        self.viewer = viewer
        palette = self.app.palette
        to_play = s.to_play
        hand_zone = next((z for z in zones if z.kind == "hand" and z.seat == viewer), None) \
            if viewer is not None else None
        others = [z for z in zones if z is not hand_zone]
        # the actions: only for the human whose hand is shown
        if to_play is not None and to_play == viewer and not s.is_bot(to_play):
            self.legal = s.legal_actions()
        else:
            self.legal = []
        hand = self.hand
        hand.palette = palette
        new_cards = tuple(hand_zone.cards) if hand_zone else ()
        if new_cards != hand.cards:
            hand.picked = frozenset()
            hand.cards = new_cards
        self._filter()
        self._draw_zones(others)
        self._draw_status()
        self._draw_save_warning()
        self._draw_log()
        title = self.query_one("#hand-title", Static)
        self.query_one("#hand-scroll").display = hand_zone is not None
        if hand_zone is not None and viewer is not None:
            text = Text(f"Your hand — {s.name(viewer)}", style="bold")
            if not hand_zone.badges:
                text.append(f"  {len(new_cards)} card{'s' if len(new_cards) != 1 else ''}",
                            style="dim")
            for badge in hand_zone.badges:
                text.append(f" [{badge_text(badge)}]", style="dim")
            picked = self.picked_cards()
            if picked:
                text.append("  picked: " + " ".join(glyph(c) for c in sorted(picked.elements())),
                            style="yellow")
            title.update(text)
        elif s.humans and len(s.humans) > 1:
            title.update(Text("Hands are hidden until the next player takes the seat.", style="dim"))
        else:
            title.update(Text("Open table: no human plays." if not s.humans else "", style="dim"))
        if match.over:
            title.update(Text("The match is over — s: score sheet, q: leave.", style="bold"))
        self.refresh_bindings()

    def _filter(self) -> None:
        picked = self.picked_cards()
        key = self.session.game.card_key
        self.shown = [(i, a) for i, a in enumerate(self.legal) if matches(a, picked, key)]
        pages = max(1, -(-len(self.shown) // PAGE))
        self.page = max(0, min(self.page, pages - 1))
        ids = [i for i, _ in self.shown]
        if self.highlight not in ids[self.page * PAGE:(self.page + 1) * PAGE]:
            page_ids = ids[self.page * PAGE:(self.page + 1) * PAGE]
            self.highlight = page_ids[0] if page_ids else None
        self.query_one("#actions", ActionList).show(self.shown, self.page, self.app.palette,
                                                     hint=self.hint_index, highlight=self.highlight)
        title = Text("Actions", style="bold")
        if not self.legal:
            seat = self.session.to_play
            if seat is not None and self.session.is_bot(seat):
                title.append(f"  ({self.session.name(seat)} is playing)", style="dim")
            elif seat is not None and seat != self.viewer:
                title.append("  (waiting for the next player)", style="dim")
        elif pages > 1:
            title.append(f"  page {self.page + 1}/{pages} ([ ])", style="dim")
        if self.legal and len(self.shown) < len(self.legal):
            title.append(f"  {len(self.shown)} of {len(self.legal)}", style="yellow")
        self.query_one("#actions-title", Static).update(title)

    def _draw_zones(self, others: list[Zone]) -> None:
        s = self.session
        targets: set[str] = set()
        marked: set[str] = set()
        if self.highlight is not None and self.highlight < len(self.legal):
            action = self.legal[self.highlight]
            targets = set(action.targets)
            marked = set(action.hand_cards)
        self.hand.marked = frozenset(marked)
        before = s.last_move_zones(self.revealed)
        last_move = moved(before, s.table(self.revealed)[1]) if before is not None else Moved()
        info = TableInfo(list(s.match.seating.names), list(s.match.seating.side_names),
                         dealer=s.match.seating.dealer, to_play=s.to_play, viewer=self.viewer,
                         targets=targets, last_move=last_move, palette=self.app.palette)
        self.query_one("#zones", ZonesView).show(others, info)

    def _draw_status(self) -> None:
        s = self.session
        m = s.match
        text = Text(f"{s.game.name}", style="bold")
        text.append(f" · hand {m.hand_no} · dealer {s.name(m.seating.dealer)}")
        seat = s.to_play
        if seat is not None:
            who = "you" if seat == self.viewer else (m.seats[seat] if s.is_bot(seat) else "human")
            text.append(" · to play: ")
            text.append(f"{s.name(seat)} ({who})", style="bold green")
        text.append(" · " + " ".join(f"{name} {total}" for name, total in
                                     zip(m.sheet.side_names, m.totals, strict=False)))
        text.append(f" / {m.options.target}", style="dim")
        self.query_one("#status", Static).update(text)

    def _draw_save_warning(self) -> None:
        """A line that stays while the match cannot be saved (a notify would go away)."""
        problem = self.session.save_problem
        warning = self.query_one("#save-warning", Static)
        warning.display = problem is not None
        if problem is not None:
            warning.update(Text(f"⚠ Not saved: {problem}. Play goes on.", style="bold"))

    def _draw_log(self) -> None:
        entries = self.session.hand_log()[-60:]
        lines = []
        for n, entry in enumerate(entries):
            last = n == len(entries) - 1
            line = Text("▸ " if last else "  ")
            line.append_text(coloured_label(entry.text, self.app.palette))
            if last:
                line.stylize("bold cyan" if entry.bot else "bold")
            lines.append(line)
        text = Text("\n").join(lines) if lines else Text("(no move yet this hand)", style="dim")
        self.query_one("#log", Static).update(text)
        self.query_one("#log-scroll", VerticalScroll).scroll_end(animate=False)

    def say(self, message: str, error: bool = False) -> None:
        self.query_one("#message", Static).update(Text(message, style="bold red" if error else "italic"))
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
            self.app.push_screen(ScoreSheetScreen(s, end_of_hand=True), self._after_sheet)
            return
        if s.over:
            return
        seat = s.to_play
        if seat is None:
            return
        if s.is_bot(seat):
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
            self.say(f"{self.session.name(seat)}'s move failed: {fault_line(exc)} "
                     "— t: try again, q: leave (saved)", error=True)
            self.redraw()
            return
        self._bot_failed = False
        self.say(f"{self.session.name(seat)} ({self.session.match.seats[seat]}): {action.label}")
        self.after_move()

    def action_retry(self) -> None:
        if not self._bot_failed:
            self.say("Nothing to try again.", error=True)
            return
        self._bot_failed = False
        self.say("Trying again…")
        self.advance()

    def after_move(self) -> None:
        events = self.session.drain_events()
        if any(e["event"] == "hand_end" for e in events):
            self._sheet_pending = True
            self.say("")  # the new hand starts without the last hand's message
            if len(self.session.humans) > 1:
                self.revealed = None
        self.page = 0
        self.hint_index = None
        self.highlight = None
        self.hand.picked = frozenset()
        self.redraw()
        self.advance()

    def _after_sheet(self, result: SheetChoice | None) -> None:
        if result is SheetChoice.AGAIN:
            self.post_message(self.PlayAgainRequested(self, self.session))
        elif result is SheetChoice.MENU:
            self.action_leave()
        # otherwise on_screen_resume continues the match

    def play(self, action: Action) -> None:
        s = self.session
        if s.to_play is None or s.to_play != self.viewer or s.is_bot(s.to_play):
            self.say("It is not your turn.", error=True)
            return
        seat = s.to_play
        try:
            s.apply(action)
        except IllegalAction as exc:
            self.say(f"Not allowed: {exc.reason}", error=True)
            return
        except Exception as exc:  # an engine bug must not take the table down
            self.say(f"That move failed, nothing changed: {fault_line(exc)}", error=True)
            self.redraw()
            return
        # hot-seat: the next player reads this line, so it names who played
        who = "You" if len(s.humans) == 1 else s.name(seat)
        self.say(f"{who} played: {action.label}")
        if len(s.humans) > 1 and s.to_play != self.viewer:
            self.revealed = None
        self.after_move()

    # --- messages from the widgets ---------------------------------------------------

    @on(HandView.Picked)
    def _picked(self, event: HandView.Picked) -> None:
        hand = self.hand
        if not self.legal:
            self.say("It is not your turn to play.", error=True)
            return
        picked = set(hand.picked)
        picked.symmetric_difference_update({event.index})
        cards = self.cards_at(picked)
        key = self.session.game.card_key
        if cards and not any(a.hand_cards and matches(a, cards, key) for a in self.legal):
            names = " + ".join(glyph(c) for c in sorted(cards.elements()))
            self.say(f"No legal action plays {names}.", error=True)
            return
        hand.picked = frozenset(picked)
        self.highlight = None
        self.page = 0
        self.redraw()
        n_card_actions = sum(1 for _, a in self.shown if a.hand_cards)
        self.say(f"{n_card_actions} action(s) play the picked card(s); 1-9 to choose, esc to clear."
                 if cards else "Pick a card to narrow the actions; 1-9 to choose.")

    @on(HandView.Cleared)
    def _cleared(self) -> None:
        self.hand.picked = frozenset()
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
                self.say("The match is over.", error=True)
            elif seat is not None and self.session.is_bot(seat):
                self.say(f"Wait: {self.session.name(seat)} is playing.", error=True)
            else:
                self.say("Nothing to choose now.", error=True)
            return
        k = self.page * PAGE + n - 1
        page_len = len(self.shown[self.page * PAGE:(self.page + 1) * PAGE])
        if n > page_len:
            self.say(f"There is no action {n} on this page (1-{page_len}).", error=True)
            return
        self.play(self.shown[k][1])

    def action_page(self, step: int) -> None:
        pages = max(1, -(-len(self.shown) // PAGE))
        if pages == 1:
            self.say("All the actions fit on one page.")
            return
        self.page = (self.page + step) % pages
        self.highlight = None
        self._filter()
        self.say(f"Actions page {self.page + 1} of {pages}.")

    def action_hint(self) -> None:
        if not self.legal:
            self.say("A hint is for your own turn.", error=True)
            return
        action = self.session.hint()
        if action is None or action not in self.legal:
            self.say("No hint here.", error=True)
            return
        index = self.legal.index(action)
        self.hand.picked = frozenset()
        self.hint_index = index
        self.highlight = index
        self._filter()
        ids = [i for i, _ in self.shown]
        self.page = ids.index(index) // PAGE
        self.redraw()
        self.say(f"Hint (greedy): {action.label}")

    def action_undo(self) -> None:
        why = self.session.why_no_undo()
        if why is not None:
            self.say(why, error=True)
            self.notify(why, title="No undo", severity="warning")
            return
        self._cancel_timer()
        self.session.undo()
        self.say("Your last move was taken back.")
        self.after_move()

    def action_score_sheet(self) -> None:
        self.app.push_screen(ScoreSheetScreen(self.session, end_of_hand=False), self._after_sheet)

    def action_speed(self) -> None:
        speed = self.app.cycle_speed()
        self.say(f"Bot speed: {speed}.")

    def action_leave(self) -> None:
        self._cancel_timer()
        self.session.close()
        self.post_message(self.Left(self))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hint":
            return True if self.legal else None
        if action == "page":
            return True if len(self.shown) > PAGE else None
        if action == "retry":
            return bool(self._bot_failed)
        return True


def fault_line(exc: Exception) -> str:
    """One line: the plugin and method that raised (MoveFailed says it already)."""
    if isinstance(exc, MoveFailed):
        return str(exc)
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"
