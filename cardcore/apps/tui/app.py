"""The cardcore App: one front end for every game, drawn from zones and action labels.

The screens never call back into the app: they post messages (nested in the screen
classes, handled here by ``on_<screen>_<message>`` methods) or dismiss with a typed result.
The first screen comes from the typed start (:data:`Start`) through ``get_default_screen``;
the other screens, the match session and the engine behind it load when first shown, so
the launcher's first frame waits for none of them (docs/design.md, Start-up).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from textual import on
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Static

from cardcore.apps.tui.screens.launcher import LauncherScreen
from cardcore.engine.names import shown
from cardcore.language import N_, _, set_language
from cardcore.services.plugins import Registry, load_registry
from cardcore.services.store import StoreError, open_library

if TYPE_CHECKING:
    from cardcore.apps.tui.screens.library import HistoryScreen, ResumeScreen
    from cardcore.apps.tui.screens.replay import RecordMatches, ReplayScreen
    from cardcore.apps.tui.screens.setup import SetupScreen
    from cardcore.apps.tui.screens.table import TableScreen
    from cardcore.apps.tui.session import Replay, Session, SessionSetup
    from cardcore.apps.tui.table_session import TableSession
    from cardcore.engine.game import Game
    from cardcore.services.store import MatchStore, MatchSummary, PlayerStats

#: The bots' pauses, in the order ``b`` goes through them: the first press makes them quicker.
SPEEDS = {"normal": 0.6, "instant": 0.0, "slow": 1.5}
#: The speeds' names, said in the language in use where shown.
SPEED_NAMES = (N_("normal"), N_("instant"), N_("slow"))


@dataclass(frozen=True)
class Launch:
    """Start at the launcher (``cardcore``); leaving a table goes back to it."""


@dataclass(frozen=True)
class Play:
    """Start a new match at once (``cardcore play``); leaving the table ends the program."""

    setup: SessionSetup


@dataclass(frozen=True)
class Resume:
    """Continue a match (``cardcore resume``); leaving the table ends the program."""

    session: Session


@dataclass(frozen=True)
class ShowReplay:
    """Step through a record (``cardcore replay``); ``matches``: the record's matches, when
    it holds several (the replay screen steps from one to another), ``replay`` the one
    numbered ``match`` (from 0)."""

    replay: Replay
    matches: RecordMatches | None = None
    match: int = 0


@dataclass(frozen=True)
class JoinTable:
    """A table on a server, joined (``cardcore join CODE``); leaving it ends the program."""

    session: TableSession


@dataclass(frozen=True)
class Lobby:
    """The tables on a server (``cardcore join --server URL``); leaving a table goes back
    to them. ``remote_only`` (the browser front end, ``cardcore web``): nothing of this
    machine's library, saves or statistics can be reached, and no match is played here."""

    server: str
    name: str | None = None
    remote_only: bool = False
    #: A seat to take at once (a web link): its table code and secret.
    seat: tuple[str, str] | None = None


Start = Launch | Play | Resume | ShowReplay | JoinTable | Lobby


def _is_screen(screen: object, module: str, name: str) -> bool:
    """Is ``screen`` a ``cardcore.apps.tui.screens.<module>.<name>``? Asked without loading
    the module: while it is not loaded, no screen of its classes can exist."""
    cls = getattr(sys.modules.get(f"cardcore.apps.tui.screens.{module}"), name, None)
    return cls is not None and isinstance(screen, cls)


def _is_table(screen: object) -> TypeGuard[TableScreen]:
    return _is_screen(screen, "table", "TableScreen")


def _is_replay(screen: object) -> TypeGuard[ReplayScreen]:
    return _is_screen(screen, "replay", "ReplayScreen")


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
        Binding("question_mark", "help", N_("Help"), id="app.help",
                tooltip=N_("this help: every key of every screen")),
        Binding("f", "colours", N_("4-colour"), id="app.colours", show=False,  # in the help
                tooltip=N_("four-colour suits on/off")),
        Binding("ctrl+q", "quit", N_("Quit"), id="app.quit", show=False, priority=True,
                tooltip=N_("quit (a match here is saved)")),
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
        self._store: MatchStore | None = None
        self.library_problem: str | None = None
        #: The browser front end: the server's tables only (see :class:`Lobby`).
        self.remote_only = isinstance(self.start, Lobby) and self.start.remote_only

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """A toast, always plain text: toasts carry paths, names and errors (``markup`` is
        ignored; a screen's ``notify`` comes here too)."""
        lines = "\n".join(map(shown, message.split("\n")))
        super().notify(lines, title=shown(title), severity=severity, timeout=timeout, markup=False)

    # --- the library -------------------------------------------------------------------

    def library(self) -> MatchStore | None:
        """The match library, opened once (None while it cannot be: ``library_problem`` says
        why; it is tried again on the next call). Its notice is shown once."""
        if self.remote_only:
            self.library_problem = _("this front end plays on the server only")
            return None
        if self._store is None:
            try:
                self._store = open_library()
            except StoreError as exc:
                self.library_problem = str(exc)
                return None
            self.library_problem = None
            if self._store.notice:
                self.notify(self._store.notice, severity="warning", title=_("Match library"), timeout=10)
        return self._store

    def _read(self, what: str, read: Any, default: Any) -> Any:
        """A read of the library, or ``default`` (and one notify) when it fails."""
        store = self.library()
        if store is None:
            return default
        try:
            return read(store)
        except StoreError as exc:
            self.notify(str(exc), severity="error", title=what)
            return default

    def unfinished(self) -> list[MatchSummary]:
        """The matches to resume, the most recently played first (not this table's own)."""
        table = self.current_table()
        own = table.session.match_id if table is not None else None
        found: list[MatchSummary] = self._read(_("Unfinished matches"),
                                               lambda s: s.list_unfinished(limit=50), [])
        return [m for m in found if m.id != own]

    def finished(self) -> list[MatchSummary]:
        found: list[MatchSummary] = self._read(_("History"), lambda s: s.finished(limit=200), [])
        return found

    def score_rows(self, match_id: int) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self._read(_("History"), lambda s: s.score_sheet(match_id), [])
        return rows

    def stats(self, *, partnerships: bool = False) -> list[PlayerStats]:
        """Per person (``partnerships``: per partnership), from the library."""
        rows: list[PlayerStats] = self._read(
            _("Statistics"), lambda s: s.stats(games=self.registry.games, partnerships=partnerships), [])
        return rows

    def on_mount(self) -> None:
        if self.remote_only:  # a browser's app: it goes when the web server that started it goes
            parent = os.getppid()
            self.set_interval(2.0, lambda: self.exit() if os.getppid() != parent else None)

    def on_unmount(self) -> None:
        """Quitting: the table's match is left (its lock released) and the library closed."""
        for screen in self.screen_stack:
            if _is_table(screen):
                screen.shut()
        if isinstance(self.start, Resume):
            self.start.session.close()
        if self._store is not None:
            self._store.close()
            self._store = None

    # --- settings --------------------------------------------------------------------

    @property
    def bot_delay(self) -> float:
        return self.fixed_delay if self.fixed_delay is not None else SPEEDS[self.speed]

    def next_speed(self) -> str:
        names = list(SPEEDS)
        return names[(names.index(self.speed) + 1) % len(names)]

    def cycle_speed(self) -> str:
        self.speed = self.next_speed()
        table = self.current_table()
        if table is not None:
            table.session.set_speed(self.speed)
        return self.speed

    def choose_language(self, code: str) -> None:
        """Speak ``code`` from now on (screens drawn from now on say it) and keep it for the
        next start; a setting that cannot be written is said, the language changes all the same."""
        from cardcore.services.settings import remember_language

        set_language(code)
        try:
            remember_language(code)
        except OSError as exc:
            self.notify(_("The language is not kept for the next start: {reason}")
                        .format(reason=exc.strerror or exc), severity="warning")

    def save_exists(self) -> bool:
        """Is there an unfinished match to resume (other than this table's)?"""
        return bool(self.unfinished())

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
            case ShowReplay(replay, matches, match):
                from cardcore.apps.tui.screens.replay import ReplayScreen

                return ReplayScreen(replay, matches, match)
            case JoinTable(session):
                self.call_later(self.open_table, session)
                return BaseScreen()
            case Lobby(server, name, _, seat):
                from cardcore.apps.tui.screens.lobby import LobbyScreen

                return LobbyScreen(server, name, seat=seat)
        return LauncherScreen()

    # --- flows -------------------------------------------------------------------------

    def local_only(self, what: str) -> bool:
        """True (and a notify) when ``what`` needs this machine's library or plays a match
        here, and the app is the browser front end (remote only)."""
        if self.remote_only:
            self.notify(_("{what} is not available here: this front end plays on the server only.")
                        .format(what=what), severity="warning")
        return self.remote_only

    def new_session(self, setup: SessionSetup) -> Session | None:
        """The new match, or None (and the reason shown) when the game cannot deal it."""
        from cardcore.apps.tui.session import Session
        from cardcore.services.profiles import with_people

        if self.local_only(_("A match on this machine")):
            return None
        try:
            return Session.new(self.registry, with_people(setup), store=self.library())
        except Exception as exc:  # a plugin that cannot deal: say so and stay
            self.notify(_("The match could not start: {fault}").format(fault=f"{type(exc).__name__}: {exc}"),
                        severity="error")
            return None

    def open_setup(self, game: Game) -> None:
        from cardcore.apps.tui.screens.setup import SetupScreen

        if self.local_only(_("A match on this machine")):
            return
        self.push_screen(SetupScreen(game, seed=self.fixed_seed))

    def start_match(self, setup: SessionSetup, replace: Screen[None] | None = None) -> None:
        session = self.new_session(setup)
        if session is not None:
            self.open_table(session, replace)

    def open_table(self, session: TableSession, replace: Screen[None] | None = None) -> None:
        """One table at a time: every screen above the first (the launcher or the base
        screen) goes, each table on the way left (its match is saved), then the new table
        comes on top. ``replace`` is kept for the callers' sake: it always goes."""
        from cardcore.apps.tui.screens.table import TableScreen

        if session.bot_speed in SPEEDS:
            self.speed = session.bot_speed
        else:
            session.bot_speed = self.speed
        while len(self.screen_stack) > 1:
            screen = self.screen_stack[-1]
            if _is_table(screen):
                screen.shut()
            self.pop_screen()
        self.push_screen(TableScreen(session))

    def resume_match(self, target: int | str | Path | None = None) -> None:
        """Continue a library match (its id) or a save file; the table in play (if any) is
        left as last saved. MatchLocked and other faults: a notify, nothing changes."""
        from cardcore.apps.tui.session import Session
        from cardcore.engine.records import RecordError
        from cardcore.services.store import MatchLocked

        if target is None:
            self.open_resume_list()
            return
        if self.local_only(_("Resume")):
            return
        try:
            session = Session.resume(self.registry, target, store=self.library())
        except MatchLocked as exc:
            self.notify(f"{exc}.", severity="warning", title=_("Being played elsewhere"))
            return
        except (RecordError, StoreError, OSError) as exc:
            reason = f"{exc.strerror or exc}" if isinstance(exc, OSError) else str(exc)
            self.notify(reason, severity="error", title=_("Cannot resume"))
            return
        self.open_table(session)

    def open_resume_list(self) -> None:
        """The unfinished matches (from the launcher, or the palette during a match: picking
        one leaves this table, as last saved, for that one)."""
        from cardcore.apps.tui.screens.library import ResumeScreen

        if self.local_only(_("Resume")):
            return
        if not self.unfinished():
            problem = f" ({self.library_problem})" if self.library_problem else ""
            self.notify(_("There is no unfinished match to resume{problem}.").format(problem=problem),
                        severity="warning", title=_("Cannot resume"))
            return
        if not isinstance(self.screen, ResumeScreen):
            self.push_screen(ResumeScreen())

    def delete_match(self, match_id: int) -> bool:
        store = self.library()
        if store is None:
            self.notify(self.library_problem or _("The library cannot be opened."), severity="error")
            return False
        try:
            store.delete(match_id)
        except StoreError as exc:
            self.notify(str(exc), severity="error", title=_("Cannot delete"))
            return False
        self.notify(_("Match {id} deleted.").format(id=match_id), timeout=3)
        return True

    def open_history(self) -> None:
        from cardcore.apps.tui.screens.library import HistoryScreen

        if not self.local_only(_("The history")):
            self.push_screen(HistoryScreen())

    def open_stats(self) -> None:
        from cardcore.apps.tui.screens.library import StatsScreen

        if not self.local_only(_("Statistics")):
            self.push_screen(StatsScreen())

    def replay_match(self, match_id: int) -> None:
        """A finished library match as a replay (on top; leaving it comes back here)."""
        from cardcore.apps.tui.screens.replay import ReplayScreen
        from cardcore.apps.tui.session import Replay
        from cardcore.engine.records import RecordError

        if self.local_only(_("A replay")):
            return
        store = self.library()
        if store is None:
            return
        try:
            replay = Replay.from_text(self.registry, store.export_record(match_id), f"match {match_id}")
        except (StoreError, RecordError) as exc:
            self.notify(str(exc), severity="error", title=_("Cannot replay"))
            return
        self.push_screen(ReplayScreen(replay))

    def play_again(self, session: TableSession, replace: Screen[None] | None = None) -> None:
        """A rematch (``TableSession.rematch``): here, the new match's table in place of this
        one; at a server, the request is sent and the table stays until the new match comes."""
        try:
            again = session.rematch()
        except Exception as exc:  # the library or a plugin could not deal it: say so, stay
            self.notify(_("No rematch: {reason}").format(reason=exc), severity="error")
            return
        if again is not None:
            self.open_table(again, replace)

    def leave_table(self, screen: Screen[None] | None) -> None:
        if not isinstance(self.start, Launch | Lobby):  # `cardcore play/resume`: leaving ends the program
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
        self.open_resume_list()

    @on(LauncherScreen.HistoryRequested)
    def _history_requested(self) -> None:
        self.open_history()

    @on(LauncherScreen.StatsRequested)
    def _stats_requested(self) -> None:
        self.open_stats()

    @on(LauncherScreen.LeaguesRequested)
    def _leagues_requested(self) -> None:
        from cardcore.apps.tui.screens.league import LeagueScreen

        if not self.local_only(_("Leagues")):
            self.push_screen(LeagueScreen())

    # The other screens' messages come to methods named for them (``on_<screen>_<message>``,
    # Textual's names), so that the screens load when first shown, not with the app.

    def on_resume_screen_chosen(self, event: ResumeScreen.Chosen) -> None:
        self.resume_match(event.match_id)

    async def on_resume_screen_delete_requested(self, event: ResumeScreen.DeleteRequested) -> None:
        if self.delete_match(event.match_id):
            if self.unfinished():
                await event.screen.reload()
            elif self.screen is event.screen:
                self.pop_screen()

    def on_history_screen_replay_requested(self, event: HistoryScreen.ReplayRequested) -> None:
        self.replay_match(event.match_id)

    def on_setup_screen_start_requested(self, event: SetupScreen.StartRequested) -> None:
        from cardcore.apps.tui.screens.lobby import LobbyScreen, RemoteSetupScreen

        if isinstance(event.screen, RemoteSetupScreen):  # a new table on the server
            lobby = next((s for s in self.screen_stack if isinstance(s, LobbyScreen)), None)
            if lobby is not None:
                if self.screen is event.screen:
                    self.pop_screen()
                lobby.create(event.setup, public=event.screen.public,
                             standin_open=event.screen.standin_open, league=event.screen.league)
            return
        self.start_match(event.setup, replace=event.screen)

    def on_table_screen_play_again_requested(self, event: TableScreen.PlayAgainRequested) -> None:
        self.play_again(event.session, replace=event.screen)

    def on_table_screen_left(self, event: TableScreen.Left) -> None:
        self.leave_table(event.screen)

    def on_replay_screen_left(self) -> None:
        if isinstance(self.start, ShowReplay) and len(self.screen_stack) <= 1:
            self.exit()  # `cardcore replay`: leaving ends the program
        elif _is_replay(self.screen):
            self.pop_screen()

    # --- keys and the command palette ------------------------------------------------

    def action_help(self) -> None:
        from cardcore.apps.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    def action_colours(self) -> None:
        self.palette = "two" if self.palette == "four" else "four"
        self.notify(_("Four-colour suits") if self.palette == "four" else _("Two-colour suits"), timeout=2)
        if _is_table(self.screen):
            self.screen.redraw()
        elif _is_replay(self.screen):
            self.screen.draw()

    def current_table(self) -> TableScreen | None:
        for screen in reversed(self.screen_stack):
            if _is_table(screen):
                return screen
        return None

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if self.remote_only:  # the browser front end: the server's tables, nothing of this machine
            yield SystemCommand(_("Rules"), _("The rules of the current game"), self.command_rules)
            if self.current_table() is not None:
                yield SystemCommand(_("Score sheet"), _("The score sheet of this match"), self.command_sheet)
            return
        yield SystemCommand(_("New match"), _("Choose a game and set up a match"), self.command_new_match)
        if self.save_exists():
            yield SystemCommand(_("Resume"), _("Continue an unfinished match (pick it from the list)"),
                                self.open_resume_list)
        yield SystemCommand(_("History"), _("Finished matches: score sheets and replays"), self.open_history)
        yield SystemCommand(_("Statistics"), _("Wins, scores and counts per player"), self.open_stats)
        yield SystemCommand(_("Rules"), _("The rules of the current game"), self.command_rules)
        if self.current_table() is not None:
            yield SystemCommand(_("Score sheet"), _("The score sheet of this match"), self.command_sheet)

    def command_new_match(self) -> None:
        """At a table: the setup of the game being played (starting it leaves this table).
        Elsewhere: the launcher's highlighted game, or the launcher."""
        if self.local_only(_("A new match on this machine")):
            return
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
        from cardcore.apps.tui.screens.rules import RulesScreen

        table = self.current_table()
        if table is not None:
            self.push_screen(RulesScreen(self.registry, table.session.game, table.session.options))
            return
        launcher = next((s for s in self.screen_stack if isinstance(s, LauncherScreen)), None)
        game = launcher.selected_game() if launcher is not None else None
        if game is None and self.remote_only:
            self.notify(_("The rules show at a table: ctrl+p, Rules."), severity="warning")
            return
        if game is None:
            self.notify(_("No game chosen."), severity="warning")
            return
        self.push_screen(RulesScreen(self.registry, game))

    def command_sheet(self) -> None:
        table = self.current_table()
        if table is not None:
            table.action_score_sheet()
