"""The cardcore App: one front end for every game, drawn from zones and action labels.

The screens never call back into the app: they post messages (nested in the screen
classes, handled here with ``@on``) or dismiss with a typed result. The first screen
comes from the typed start (:data:`Start`) through ``get_default_screen``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual import on
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from cardcore import records
from cardcore.game import Game
from cardcore.plugins import Registry, load_registry
from cardcore.tui.screens.launcher import LauncherScreen
from cardcore.tui.screens.replay import ReplayScreen
from cardcore.tui.screens.setup import SetupScreen
from cardcore.tui.screens.table import TableScreen
from cardcore.tui.session import Replay, Session, SessionSetup

SPEEDS = {"instant": 0.0, "normal": 0.6, "slow": 1.5}


@dataclass(frozen=True)
class Launch:
    """Start at the launcher (``cardcore``); leaving a table goes back to it."""


@dataclass(frozen=True)
class Play:
    """Start a new match at once (``cardcore play``); leaving the table ends the program."""

    setup: SessionSetup


@dataclass(frozen=True)
class Resume:
    """Continue a saved match (``cardcore resume``); leaving the table ends the program."""

    session: Session


@dataclass(frozen=True)
class ShowReplay:
    """Step through a record (``cardcore replay``)."""

    replay: Replay


Start = Launch | Play | Resume | ShowReplay


class BaseScreen(Screen[None]):
    """The empty first screen under a table started by ``cardcore play/resume``.

    A table is never the first screen: Textual cannot switch away from the first screen
    (textual#2650), and a table must be replaceable (one table at a time)."""

    def compose(self) -> ComposeResult:
        yield Static("")


class CardcoreApp(App[None]):
    """One front end for every game; ``start`` chooses the first screen."""

    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: subclasses elsewhere keep it
    TITLE = "cardcore"

    BINDINGS = [
        Binding("question_mark", "help", "Help", id="app.help"),
        Binding("f", "colours", "4-colour", id="app.colours"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", show=False, priority=True),
    ]

    def __init__(self, registry: Registry | None = None, *, start: Start | None = None,
                 bot_delay: float | None = None, speed: str = "normal", animations: bool = True,
                 four_colour: bool = False, seed: int | None = None) -> None:
        super().__init__()
        self.registry = registry if registry is not None else load_registry()
        self.start: Start = start if start is not None else Launch()
        self.fixed_delay = bot_delay
        self.speed = speed if speed in SPEEDS else "normal"
        self.palette = "four" if four_colour else "two"
        self.fixed_seed = seed
        if not animations:
            self.animation_level = "none"

    # --- settings --------------------------------------------------------------------

    @property
    def bot_delay(self) -> float:
        return self.fixed_delay if self.fixed_delay is not None else SPEEDS[self.speed]

    def cycle_speed(self) -> str:
        names = list(SPEEDS)
        self.speed = names[(names.index(self.speed) + 1) % len(names)]
        table = self.current_table()
        if table is not None:
            table.session.set_speed(self.speed)
        return self.speed

    def save_exists(self) -> bool:
        return records.autosave_path().exists()

    # --- the first screen ------------------------------------------------------------

    def get_default_screen(self) -> Screen[None]:
        """The launcher or the replay; for a table, an empty base screen with the table
        pushed on it once the app runs (see :class:`BaseScreen`)."""
        match self.start:
            case Play(setup):
                session = self.new_session(setup)
                if session is not None:
                    self.call_later(self.open_table, session)
                    return BaseScreen()
            case Resume(session):
                self.call_later(self.open_table, session)
                return BaseScreen()
            case ShowReplay(replay):
                return ReplayScreen(replay)
        return LauncherScreen()

    # --- flows -------------------------------------------------------------------------

    def new_session(self, setup: SessionSetup) -> Session | None:
        """The new match, or None (and the reason shown) when the game cannot deal it."""
        try:
            return Session.new(self.registry, setup)
        except Exception as exc:  # a plugin that cannot deal: say so and stay
            self.notify(f"The match could not start: {type(exc).__name__}: {exc}", severity="error")
            return None

    def open_setup(self, game: Game) -> None:
        self.push_screen(SetupScreen(game, seed=self.fixed_seed))

    def start_match(self, setup: SessionSetup, replace: Screen[None] | None = None) -> None:
        session = self.new_session(setup)
        if session is not None:
            self.open_table(session, replace)

    def open_table(self, session: Session, replace: Screen[None] | None = None) -> None:
        """One table at a time: every screen above the first (the launcher or the base
        screen) goes, each table on the way left (its match is saved), then the new table
        comes on top. ``replace`` is kept for the callers' sake: it always goes."""
        if session.bot_speed in SPEEDS:
            self.speed = session.bot_speed
        else:
            session.bot_speed = self.speed
        while len(self.screen_stack) > 1:
            screen = self.screen_stack[-1]
            if isinstance(screen, TableScreen):
                screen.shut()
            self.pop_screen()
        self.push_screen(TableScreen(session))

    def resume_match(self, path: str | Path | None = None) -> None:
        if path is None and not self.save_exists():
            self.notify("There is no saved match to resume.", severity="warning",
                        title="Cannot resume")
            return
        table = self.current_table()
        if table is not None and table.session.save_error is not None:
            self.notify("This match is not saved, so the save is older than the table: "
                        "resuming it would go back. Play on, or leave the table.",
                        severity="warning", title="Cannot resume")
            return
        try:  # the save may be this table's match: its record only grows once the table goes
            session = Session.resume(self.registry, path)
        except (records.RecordError, OSError) as exc:
            reason = str(exc) if isinstance(exc, records.RecordError) else f"{exc.strerror or exc}"
            self.notify(reason, severity="error", title="Cannot resume")
            return
        self.open_table(session)

    def play_again(self, session: Session, replace: Screen[None] | None = None) -> None:
        session.close()
        setup = session.setup
        if setup is None:
            self.leave_table(replace)
            return
        seed = setup.seed + 1 if isinstance(setup.seed, int) else f"{setup.seed}+"
        again = SessionSetup(setup.game, setup.options, setup.seats, seed, setup.names,
                             setup.side_names, setup.draw_for_partners)
        self.start_match(again, replace=replace)

    def leave_table(self, screen: Screen[None] | None) -> None:
        if not isinstance(self.start, Launch):  # `cardcore play/resume`: leaving ends the program
            self.exit()
            return
        if screen is not None and self.screen is screen:
            self.pop_screen()

    # --- what the screens ask for ------------------------------------------------------

    @on(LauncherScreen.SetupRequested)
    def _setup_requested(self, event: LauncherScreen.SetupRequested) -> None:
        self.open_setup(event.game)

    @on(LauncherScreen.ResumeRequested)
    def _resume_requested(self) -> None:
        self.resume_match()

    @on(SetupScreen.StartRequested)
    def _start_requested(self, event: SetupScreen.StartRequested) -> None:
        self.start_match(event.setup, replace=event.screen)

    @on(TableScreen.PlayAgainRequested)
    def _play_again_requested(self, event: TableScreen.PlayAgainRequested) -> None:
        self.play_again(event.session, replace=event.screen)

    @on(TableScreen.Left)
    def _table_left(self, event: TableScreen.Left) -> None:
        self.leave_table(event.screen)

    @on(ReplayScreen.Left)
    def _replay_left(self) -> None:
        self.exit()

    # --- keys and the command palette ------------------------------------------------

    def action_help(self) -> None:
        from cardcore.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_colours(self) -> None:
        self.palette = "two" if self.palette == "four" else "four"
        self.notify("Four-colour suits" if self.palette == "four" else "Two-colour suits", timeout=2)
        if isinstance(self.screen, TableScreen):
            self.screen.redraw()
        elif isinstance(self.screen, ReplayScreen):
            self.screen.draw()

    def current_table(self) -> TableScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                return screen
        return None

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("New match", "Choose a game and set up a match", self.command_new_match)
        if self.save_exists():
            yield SystemCommand("Resume", "Continue the saved match", self.resume_match)
        yield SystemCommand("Rules", "The rules of the current game", self.command_rules)
        if self.current_table() is not None:
            yield SystemCommand("Score sheet", "The score sheet of this match", self.command_sheet)

    def command_new_match(self) -> None:
        """At a table: the setup of the game being played (starting it leaves this table).
        Elsewhere: the launcher's highlighted game, or the launcher."""
        table = self.current_table()
        if table is not None:
            while self.screen is not table:
                self.pop_screen()
            self.open_setup(table.session.game)
            return
        while not isinstance(self.screen, LauncherScreen) and len(self.screen_stack) > 1:
            self.pop_screen()
        if isinstance(self.screen, LauncherScreen):
            self.screen.action_new_match()
        else:  # started at a replay: the launcher comes on top
            self.push_screen(LauncherScreen())

    def command_rules(self) -> None:
        from cardcore.tui.screens.rules import RulesScreen

        table = self.current_table()
        if table is not None:
            self.push_screen(RulesScreen(table.session.game, table.session.match.options))
            return
        launcher = next((s for s in self.screen_stack if isinstance(s, LauncherScreen)), None)
        game = launcher.selected_game() if launcher is not None else None
        if game is None:
            self.notify("No game chosen.", severity="warning")
            return
        self.push_screen(RulesScreen(game))

    def command_sheet(self) -> None:
        table = self.current_table()
        if table is not None:
            table.action_score_sheet()
