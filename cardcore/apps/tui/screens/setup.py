"""Match setup: seats (human or a bot), names, partners, the draw, seed, the rule options."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from cardcore.apps.tui.plain import plain
from cardcore.apps.tui.session import HUMAN, SessionSetup
from cardcore.apps.tui.widgets.footer import Footer
from cardcore.apps.tui.widgets.options_form import OptionsForm, Tick
from cardcore.engine.bots.builtin import by_strength
from cardcore.engine.game import Game, GameOptions
from cardcore.engine.match_setup import MatchSetup, SetupError
from cardcore.engine.names import MAX_NAME_CHARS, check_name
from cardcore.engine.seating import Seating, said_names
from cardcore.language import N_, _
from cardcore.services.profiles import known_names

if TYPE_CHECKING:
    from cardcore.apps.tui.app import CardcoreApp


#: A seed as the form takes it: ASCII digits, no leading zero, an optional minus; so the
#: text shown is the seed's own (``int`` would also take "007", "٣" or "1_000", and "²"
#: passes ``isdigit`` but not ``int``).
SEED = re.compile(r"-?(0|[1-9][0-9]{0,29})")


def seed_of(text: str) -> int | None:
    """The seed ``text`` names (see ``SEED``), or None."""
    text = text.strip()
    return int(text) if SEED.fullmatch(text) and text != "-0" else None


class SetupScreen(Screen[None]):
    """A form; nothing starts until every value is valid. Who sits with whom is the game's
    ``seating()``'s to say, not the form's."""

    app: CardcoreApp

    class StartRequested(Message):
        """Start the match ``setup`` (in place of this screen); the screen stays if it cannot start."""

        def __init__(self, screen: SetupScreen, setup: SessionSetup) -> None:
            super().__init__()
            self.screen = screen
            self.setup = setup

    #: Whether the seed is chosen in this form (at a server, the server draws its own).
    chooses_seed = True

    BINDINGS = [
        Binding("ctrl+s", "start", N_("Start"), id="setup.start",
                tooltip=N_("start the match (once every value is valid)")),
        Binding("escape", "back", N_("Back"), id="setup.back", tooltip=N_("back, nothing started")),
    ]

    #: The form's keys that are no binding of the screen (the help lists them).
    HELP_EXTRA = [("tab", N_("the next field, row by row (shift+tab back); a bot's name box is "
                             "skipped: click it to name the bot")),
                  ("⏎ space", N_("open a list, tick a box"))]

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__()
        self.game = game
        self.seed = seed if seed is not None else int(time.time())
        self.max_players = max(game.player_counts)
        self.valid = False

    def bot_ids(self) -> list[str]:
        """The bots that may take a seat (this game's, from the registry)."""
        return [bid for bid, bot in self.app.registry.bots.items() if bot.plays(self.game.id)]

    def bot_choices(self) -> list[tuple[str, str]]:
        """Human, then the bots weakest first (``by_strength``)."""
        return [(_("human"), HUMAN), *((_("bot: {name}").format(name=bid),
                                        bid) for bid in by_strength(self.bot_ids()))]

    def levels(self) -> list[str]:
        """What the levels in the seats mean, a line each, weakest first (the bot's
        ``description``; a bot this program does not know is named alone)."""
        chosen = {str(self.query_one(f"#who-{i}", Select).value) for i in range(self.players)} - {HUMAN}
        bots = self.app.registry.bots
        return [f"{bid}: {bots[bid].description}" if bid in bots and bots[bid].description else bid
                for bid in by_strength(chosen)]

    def compose(self) -> ComposeResult:
        game = self.game
        yield Static(Text.assemble(plain(_("New match — {game}").format(game=game.name), "bold"), "   ",
                                   plain(game.description)), id="setup-title")
        choices = self.bot_choices()
        # the local profiles' names, offered as a seat's name is typed (→ takes one); not
        # in a browser's front end, whose data dir is the host's
        known = None if self.app.remote_only else SuggestFromList(known_names(), case_sensitive=False)
        default_bot = "greedy" if any(v == "greedy" for _, v in choices) else choices[-1][1]
        with VerticalScroll(id="setup-form"):
            with Horizontal(classes="form-row"):
                yield Label(_("Players"), classes="form-label")
                yield Select([(str(n), n) for n in game.player_counts], value=game.player_counts[0],
                             allow_blank=False, id="players", compact=True, classes="form-control")
            for i in range(self.max_players):
                with Horizontal(classes="form-row seat-row", id=f"seat-row-{i}"):
                    yield Label(_("Seat {number}").format(number=i + 1), classes="form-label")
                    yield Select(choices, value=HUMAN if i == 0 else default_bot, allow_blank=False,
                                 id=f"who-{i}", compact=True, classes="form-control")
                    yield Input(id=f"name-{i}", compact=True, classes="form-name",
                                max_length=MAX_NAME_CHARS, suggester=known)
            with Horizontal(classes="form-row", id="levels-row"):
                yield Label(_("Levels"), classes="form-label")
                yield Static(id="levels")
            with Horizontal(classes="form-row", id="sides-row"):
                yield Label(_("Side names"), classes="form-label")
                yield Input(id="side-0", compact=True, classes="form-name", max_length=MAX_NAME_CHARS)
                yield Input(id="side-1", compact=True, classes="form-name", max_length=MAX_NAME_CHARS)
            yield Tick(_("Draw for partners"), False, id="draw", compact=True)
            yield Static(id="partners")
            with Horizontal(classes="form-row", id="seed-row"):
                yield Label(_("Seed"), classes="form-label")
                if self.chooses_seed:
                    yield Input(str(self.seed), id="seed", compact=True, classes="form-control")
                    yield Static("", id="seed-error", classes="form-error")
                else:
                    yield Static(_("drawn by the server when the table is made (a seed known "
                                   "beforehand would tell every hand)"), id="seed-note")
            yield Static("[b]" + _("Rules") + "[/b]", classes="form-section")
            yield OptionsForm(game.Options, id="options")
        with Horizontal(id="setup-buttons"):
            yield Button(_("Start"), id="start", variant="primary", compact=True)
            yield Button(_("Back"), id="back", compact=True)
            yield Static("", id="setup-status")
        yield Footer()

    def on_mount(self) -> None:
        self.update_seats()
        self.query_one("#players", Select).focus()

    # --- the form --------------------------------------------------------------------

    @property
    def focus_chain(self) -> list[Widget]:
        """Tab goes row by row and skips a bot seat's name box (a bot is named by its seat;
        a click still reaches the box): with one human, seat 3 is four Tabs from the
        player count (it was five)."""
        return [w for w in super().focus_chain if w is self.focused or not self._bot_name(w)]

    def _bot_name(self, widget: Widget) -> bool:
        """The name box of a seat a bot takes."""
        wid = widget.id or ""
        if not isinstance(widget, Input) or not wid.startswith("name-"):
            return False
        return self.query_one(f"#who-{wid.removeprefix('name-')}", Select).value != HUMAN

    @property
    def players(self) -> int:
        value = self.query_one("#players", Select).value
        return value if isinstance(value, int) else self.game.player_counts[0]

    def options(self) -> GameOptions:
        """The rule options as the form stands, the defaults while they are invalid."""
        options = self.query_one("#options", OptionsForm).options
        return options if options is not None else self.game.Options()

    def seating(self) -> Seating:
        """The game's table for the chosen players, with the names typed so far."""
        return self.game.seating(self.players, self.options(), names=tuple(self.names()))

    def default_names(self, players: int) -> tuple[str, ...]:
        """The game's default names for ``players`` seats, as the person setting up reads them."""
        return said_names(self.game.seating(players, self.options()).names)

    def names(self) -> list[str]:
        defaults = self.default_names(self.players)
        return [self.query_one(f"#name-{i}", Input).value.strip() or defaults[i]
                for i in range(self.players)]

    def update_seats(self) -> None:
        seating = self.seating()
        n = seating.players
        defaults = self.default_names(n)
        for i in range(self.max_players):
            self.query_one(f"#seat-row-{i}").display = i < n
            if i < n:
                self.query_one(f"#name-{i}", Input).placeholder = defaults[i]
        draw_possible = bool(self.game.has_partnership_draw) and seating.partnerships
        levels = self.levels()
        self.query_one("#levels-row").display = bool(levels)
        self.query_one("#levels", Static).update(Text("\n").join(plain(line) for line in levels))
        self.query_one("#draw", Checkbox).display = draw_possible
        drawing = draw_possible and self.query_one("#draw", Checkbox).value
        self.query_one("#sides-row").display = seating.partnerships and not drawing
        partners = self.query_one("#partners", Static)
        if seating.partnerships:
            if drawing:
                partners.update(_("Partners: drawn at the table (the two highest cards play together)."))
            else:
                for side in range(seating.sides):
                    self.query_one(f"#side-{side}", Input).placeholder = seating.side_names[side]
                pairs = "; ".join(_(" with ").join(_("{name} (seat {number})").format(name=seating.names[s],
                                                                                     number=s + 1)
                                                   for s in seating.seats_of(side))
                                  for side in range(seating.sides))
                partners.update(plain(_("Partners sit opposite: {pairs}.").format(pairs=pairs)))
        else:
            partners.update(_("Each player for themselves.") if n > 2 else "")
        self.check_valid()

    def check_valid(self) -> None:
        problems = []
        if self.chooses_seed:
            seed_error = ("" if self.chosen_seed() is not None
                          else _("the seed is a whole number (digits, no leading 0)"))
            self.query_one("#seed-error", Static).update(seed_error)
            if seed_error:
                problems.append(_("seed"))
        form = self.query_one("#options", OptionsForm)
        if form.options is None:
            problems.extend(sorted(form.errors) or [_("options")])
        problems += self.name_problems()
        self.valid = not problems
        self.query_one("#start", Button).disabled = not self.valid
        status = self.query_one("#setup-status", Static)
        fix = ", ".join(p or _("options") for p in problems)
        status.update("" if self.valid else plain(_("Fix: {problems}").format(problems=fix), "red"))
        self.refresh_bindings()

    def name_problems(self) -> list[str]:
        """Each name typed that is no name (``names.check_name``), with why, in one line."""
        fields = [(f"#name-{i}", _("seat {number}'s name").format(number=i + 1)) for i in range(self.players)]
        if self.query_one("#sides-row").display:
            fields += [(f"#side-{side}", _("side {number}'s name")
                        .format(number=side + 1)) for side in range(2)]
        out = []
        for selector, what in fields:
            typed = self.query_one(selector, Input).value.strip()
            try:
                if typed:
                    check_name(typed)
            except ValueError as exc:
                out.append(f"{what} ({exc})")
        return out

    @on(Select.Changed, "#players")
    @on(Select.Changed, ".seat-row Select")
    @on(Checkbox.Changed, "#draw")
    @on(Input.Changed, ".form-name")
    def _seats_changed(self) -> None:
        self.update_seats()

    @on(Input.Changed, "#seed")
    @on(OptionsForm.Changed)
    def _values_changed(self) -> None:
        if self.is_mounted:
            self.check_valid()

    def chosen_seed(self) -> int | None:
        """The seed typed in the form (None while it is not one; the proposed one where the
        form has no seed field)."""
        if not self.chooses_seed:
            return self.seed
        return seed_of(self.query_one("#seed", Input).value)

    def session_setup(self) -> SessionSetup | None:
        form = self.query_one("#options", OptionsForm)
        seed = self.chosen_seed()
        if not self.valid or form.options is None or seed is None:
            return None
        n = self.players
        seats = [str(self.query_one(f"#who-{i}", Select).value) for i in range(n)]
        drawing = self.query_one("#draw", Checkbox).display and self.query_one("#draw", Checkbox).value
        seating = self.seating()
        side_names = None
        if seating.partnerships and not drawing:
            side_names = [self.query_one(f"#side-{side}", Input).value.strip()
                          or seating.side_names[side] for side in range(seating.sides)]
        try:
            request = MatchSetup.of(game=self.game.id, options=form.options.model_dump(mode="json"),
                                    seats=seats, names=list(seating.names), side_names=side_names,
                                    seed=seed, draw_for_partners=bool(drawing))
            return self.checked(request)
        except SetupError as exc:
            self.notify(str(exc), severity="error", title=_("Cannot start"))
            return None

    def checked(self, request: MatchSetup) -> SessionSetup:
        """The setup checked as every setup is (``MatchSetup.check``)."""
        return request.check(self.app.registry)

    # --- actions ---------------------------------------------------------------------

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        setup = self.session_setup()
        if setup is None:
            self.notify(_("Fix the values marked in red first."), severity="error")
            return
        self.post_message(self.StartRequested(self, setup))

    @on(Button.Pressed, "#back")
    def action_back(self) -> None:
        self.dismiss()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "start":
            return True if self.valid else None
        return True
