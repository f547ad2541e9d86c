"""The cardcore App: one front end for every game, drawn from zones and action labels."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from cardcore import records
from cardcore.plugins import Registry, load_registry
from cardcore.tui.screens.launcher import LauncherScreen
from cardcore.tui.session import Session, SessionSetup

SPEEDS = {"instant": 0.0, "normal": 0.6, "slow": 1.5}


class CardcoreApp(App):
    """``start`` is "launcher", or ("play", SessionSetup), ("resume", Session), ("replay", Replay)."""

    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: subclasses elsewhere keep it
    TITLE = "cardcore"

    BINDINGS = [
        Binding("question_mark", "help", "Help", id="app.help"),
        Binding("f", "colours", "4-colour", id="app.colours"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", show=False, priority=True),
    ]

    def __init__(self, registry: Registry | None = None, *, start: Any = "launcher",
                 bot_delay: float | None = None, speed: str = "normal", animations: bool = True,
                 four_colour: bool = False, seed: int | None = None) -> None:
        super().__init__()
        self.registry = registry if registry is not None else load_registry()
        self.start_with = start
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
        return self.speed

    def save_exists(self) -> bool:
        return records.autosave_path().exists()

    # --- flows -------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.push_screen(LauncherScreen())
        start = self.start_with
        if isinstance(start, tuple):
            kind, what = start
            if kind == "play":
                self.start_match(what)
            elif kind == "resume":
                self.open_table(what)
            elif kind == "replay":
                from cardcore.tui.screens.replay import ReplayScreen

                self.push_screen(ReplayScreen(what))

    def open_setup(self, game: Any) -> None:
        from cardcore.tui.screens.setup import SetupScreen

        self.push_screen(SetupScreen(game, seed=self.fixed_seed))

    def start_match(self, setup: SessionSetup, replace: Screen | None = None) -> None:
        try:
            session = Session.new(self.registry, setup)
        except Exception as exc:  # a plugin that cannot deal: say so and stay
            self.notify(f"The match could not start: {type(exc).__name__}: {exc}", severity="error")
            return
        self.open_table(session, replace)

    def open_table(self, session: Session, replace: Screen | None = None) -> None:
        from cardcore.tui.screens.table import TableScreen

        screen = TableScreen(session)
        if replace is not None and self.screen is replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def resume_match(self, path: str | Path | None = None) -> None:
        try:
            session = Session.resume(self.registry, path)
        except records.RecordError as exc:
            self.notify(str(exc), severity="error", title="Cannot resume")
            return
        self.open_table(session)

    def play_again(self, session: Session, replace: Screen | None = None) -> None:
        session.close()
        setup = session.setup
        if setup is None:
            self.leave_table(replace)
            return
        seed = setup.seed + 1 if isinstance(setup.seed, int) else f"{setup.seed}+"
        again = SessionSetup(setup.game, setup.options, setup.seats, seed, setup.names,
                             setup.side_names, setup.draw_for_partners)
        self.start_match(again, replace=replace)

    def leave_table(self, screen: Screen | None) -> None:
        if isinstance(self.start_with, tuple):  # `cardcore play/resume`: leaving ends the program
            self.exit()
            return
        if screen is not None and self.screen is screen:
            self.pop_screen()

    # --- keys and the command palette ------------------------------------------------

    def action_help(self) -> None:
        from cardcore.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_colours(self) -> None:
        self.palette = "two" if self.palette == "four" else "four"
        self.notify("Four-colour suits" if self.palette == "four" else "Two-colour suits", timeout=2)
        redraw = getattr(self.screen, "redraw", None) or getattr(self.screen, "draw", None)
        if redraw is not None:
            redraw()

    def current_table(self) -> Any:
        from cardcore.tui.screens.table import TableScreen

        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                return screen
        return None

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("New match", "Choose a game and set up a match", self.command_new_match)
        if self.save_exists():
            yield SystemCommand("Resume", "Continue the saved match", self.resume_match)
        yield SystemCommand("Rules", "The rules of the current game", self.command_rules)
        if self.current_table() is not None:
            yield SystemCommand("Score sheet", "The score sheet of this match", self.command_sheet)

    def command_new_match(self) -> None:
        while not isinstance(self.screen, LauncherScreen) and len(self.screen_stack) > 2:
            self.pop_screen()
        if isinstance(self.screen, LauncherScreen):
            self.screen.action_new_match()

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
