"""The viewer's hand: a row (or rows) of cards with a cursor; pick cards by keyboard or mouse."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from cardcore.apps.tui.widgets.cards import FACE_DOWN, card_style
from cardcore.engine.cards import glyph
from cardcore.language import N_, _

SLOT = 5  # " 10♦ " / "[10♦]"


class HandView(Widget, can_focus=True):
    """Cards in slots: the cursor in reverse video, picked cards in [brackets],
    the cards of the highlighted action underlined."""

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 1; }
    """

    BINDINGS = [
        Binding("left", "move(-1)", N_("Left"), show=False, id="hand.left", tooltip=N_("move in your hand")),
        Binding("right", "move(1)", N_("Right"), show=False, id="hand.right",
                tooltip=N_("move in your hand")),
        Binding("up", "line(-1)", N_("Up"), show=False, id="hand.up", tooltip=N_("move in your hand")),
        Binding("down", "line(1)", N_("Down"), show=False, id="hand.down", tooltip=N_("move in your hand")),
        Binding("home", "jump(0)", N_("First"), show=False, id="hand.first",
                tooltip=N_("the first / last card of your hand")),
        Binding("end", "jump(-1)", N_("Last"), show=False, id="hand.last",
                tooltip=N_("the first / last card of your hand")),
        Binding("space,enter", "pick", N_("Pick card"), show=False, id="hand.pick",
                tooltip=N_("pick the card (narrows the actions to those that play it)")),
        Binding("escape", "clear", N_("Clear picks"), show=False, id="hand.clear",
                tooltip=N_("drop the picked cards")),
    ]

    cards: reactive[tuple[str | None, ...]] = reactive((), layout=True)
    cursor: reactive[int] = reactive(0)
    picked: reactive[frozenset[int]] = reactive(frozenset())
    marked: reactive[frozenset[str]] = reactive(frozenset())
    #: Positions of the cards that just arrived (a draw): ``▸`` before them.
    new: reactive[frozenset[int]] = reactive(frozenset())
    palette: reactive[str] = reactive("two")

    class Picked(Message):
        """A card was clicked or chosen with enter/space (the table decides what it means)."""

        def __init__(self, hand: HandView, index: int) -> None:
            super().__init__()
            self.hand = hand
            self.index = index

        @property
        def control(self) -> HandView:
            return self.hand

    class Cleared(Message):
        """Escape: every pick dropped."""

    # --- geometry ----------------------------------------------------------------

    def per_line(self, width: int | None = None) -> int:
        width = self.size.width if width is None else width
        return max(1, width // SLOT)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        n = self.per_line(width)
        return max(1, -(-len(self.cards) // n))

    def render(self) -> Text:
        if not self.cards:
            return Text(_("(no cards)"), style="dim")
        n = self.per_line()
        out = Text(no_wrap=True, overflow="crop")
        for i, card in enumerate(self.cards):
            if i and i % n == 0:
                out.append("\n")
            face = FACE_DOWN if card is None else glyph(card)
            picked = i in self.picked
            left, right = ("[", "]") if picked else ("▸" if i in self.new else " ", " ")
            style = card_style(card, self.palette)
            if card is not None and card in self.marked:
                style += " underline"
            if i == self.cursor and self.has_focus:
                style += " reverse"
            out.append(left, style="bold yellow" if picked else "")
            out.append(face.rjust(3), style=style)
            out.append(right, style="bold yellow" if picked else "")
        return out

    # --- reactions ---------------------------------------------------------------

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, len(self.cards) - 1)) if self.cards else 0

    def watch_cards(self) -> None:
        self.cursor = self.cursor  # clamp
        self.picked = frozenset(i for i in self.picked if i < len(self.cards))

    def watch_cursor(self) -> None:
        self._scroll_to_cursor()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def _scroll_to_cursor(self) -> None:
        parent = self.parent
        if not isinstance(parent, Widget) or not self.size.width:
            return
        line = self.cursor // self.per_line()
        region = Region(0, self.virtual_region.y + line, 1, 1)
        parent.scroll_to_region(region, animate=False, immediate=True)

    # --- actions -----------------------------------------------------------------

    def action_move(self, step: int) -> None:
        self.cursor += step

    def action_line(self, step: int) -> None:
        self.cursor += step * self.per_line()

    def action_jump(self, where: int) -> None:
        self.cursor = where if where >= 0 else len(self.cards) - 1

    def action_pick(self) -> None:
        if self.cards:
            self.post_message(self.Picked(self, self.cursor))

    def action_clear(self) -> None:
        self.post_message(self.Cleared())

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = offset.y * self.per_line() + offset.x // SLOT
        if offset.x < self.per_line() * SLOT and 0 <= index < len(self.cards):
            self.cursor = index
            self.post_message(self.Picked(self, index))
