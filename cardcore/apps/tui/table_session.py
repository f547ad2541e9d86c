"""What the table screens drive: one interface, two implementations.

:class:`TableSession` is everything the table, the score sheet and the app read or call
on the match being played. ``cardcore.apps.tui.session.Session`` implements it over a local
Match (hot-seat and bots, saved in the library); ``cardcore.services.net.client.RemoteSession``
implements it over a websocket to ``cardcore serve`` (the server holds the match; the
session holds the last update it sent). The screens never know which one they have.

A remote session changes between the screen's calls (an update arrives: another seat
moved, a chat line, an error): it calls the callback given to ``listen`` and the screen
redraws. A local one changes only when the screen moves, and never calls it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from cardcore.apps.tui.session import LogEntry, SessionSetup
    from cardcore.engine.bots.search import Estimate
    from cardcore.engine.game import Action, Game, GameOptions, Zone
    from cardcore.engine.journal import MatchEvent
    from cardcore.engine.scoresheet import ScoreSheet
    from cardcore.services.net.protocol import Standings

#: What ``listen`` is given: called with True when the position changed (a move, a new
#: hand), False when only something beside it did (chat, a seat's connection, an error).
Listener = Callable[[bool], None]


class TableSession(Protocol):
    """One match as the table screen sees it (see the module docstring)."""

    # --- the game and who sits where -------------------------------------------------

    @property
    def game(self) -> Game:
        """The game (``card_key``, ``name``, the rules)."""

    @property
    def options(self) -> GameOptions:
        """The match's rule options (the rules screen shows the rules with them)."""

    @property
    def seats(self) -> list[str]:
        """Each seat's kind: ``"human"`` or a bot id."""

    @property
    def names(self) -> list[str]:
        """The players' names, by seat."""

    @property
    def side_names(self) -> list[str]:
        """The sides' names."""

    @property
    def dealer(self) -> int:
        """The seat that dealt the hand being played."""

    @property
    def humans(self) -> list[int]:
        """The human seats played at this screen (remote: this client's seat, or none)."""

    def name(self, seat: int) -> str: ...

    def is_bot(self, seat: int | None) -> bool: ...

    # --- where the match is ------------------------------------------------------------

    @property
    def to_play(self) -> int | None: ...

    @property
    def over(self) -> bool: ...

    @property
    def hand_no(self) -> int: ...

    @property
    def sheet(self) -> ScoreSheet:
        """The score sheet (side names, rows, totals, target)."""

    @property
    def winner(self) -> int | None:
        """The winning side once the match is over (None: no winner, or not over)."""

    def finished_table(self) -> tuple[int | None, list[Zone]]:
        """The hand that just ended, as its last move left it: the seat whose hand is
        shown (None: all face down or all open) and the zones."""

    def table(self, revealed: int | None) -> tuple[int | None, list[Zone]]:
        """The seat whose hand is face up (or None) and the zones to draw."""

    def last_move_zones(self, revealed: int | None) -> list[Zone] | None:
        """The table before the last move of another seat, seen as ``table(revealed)``
        sees it now (None: nothing to mark)."""

    def needs_handover(self, revealed: int | None) -> bool:
        """Hide every hand until the next human at this screen is ready (hot-seat)."""

    @property
    def log(self) -> list[LogEntry]:
        """The move log (remote: chat lines too), every hand's."""

    def drain_events(self) -> list[MatchEvent]:
        """The events since the last call (``HandEnd`` is the one the table reads; a remote
        session adds a ``Note`` for what the server said)."""

    # --- playing -----------------------------------------------------------------------

    def legal_actions(self) -> list[Action]: ...

    def apply(self, action: Action) -> None:
        """The human to play plays ``action``. Local: done when it returns (IllegalAction
        or MoveFailed and nothing changed). Remote: sent; the server's answer arrives
        as an update (or an error message) through ``listen``."""

    def why_not(self, card: str) -> str | None:
        """Why the seat to play has no action with ``card`` (GameState.why_not)."""

    def lay_out(self, cards: Counter[str], key: Callable[[str], str]) -> list[Action]:
        """The legal plays that lay out ``cards`` one after the other (picks.lay_out)."""

    def hint(self) -> Action | None:
        """The search's best action for the human to play (None: no hint)."""

    def hints(self, top: int = 3) -> list[Estimate]:
        """The search's best few actions for the human to play, best first, each with the
        side's expected hand margin; from the seat's own view only (``InfoSet``)."""

    def hint_search(self, top: int = 3) -> Callable[[], list[Estimate]]:
        """``hints`` in two steps: the seat's view is read now, and the search runs when the
        returned function is called, on any thread (the table stays live meanwhile)."""

    async def why(self, turn: int | None = None) -> str:
        """Why a bot played its move at ``turn`` (a log line's ``turn``; None: the last bot
        move), in a player's words and as this screen's player may read it (no card named
        that they have not seen); a line saying so when there is nothing to explain."""

    @property
    def drives_bots(self) -> bool:
        """The screen plays the bots' moves (``bot_step``); False: someone else does."""

    def bot_step(self) -> Action:
        """The bot to play moves (only where ``drives_bots``)."""

    def why_no_undo(self) -> str | None:
        """Why ``u`` cannot take back a move now (remote: always a reason), or None."""

    def undo(self) -> None: ...

    # --- the table's surroundings ------------------------------------------------------

    @property
    def save_problem(self) -> str | None:
        """One line while the match is not being saved (or, remote, not connected)."""

    @property
    def waiting_for(self) -> str | None:
        """Whom the table waits for, when it waits for a person and not a move (remote:
        ``"North to sit"``, ``"North to come back"``); None otherwise."""

    @property
    def match_id(self) -> int | None:
        """The match's id in this machine's library (None: not in it, or remote)."""

    @property
    def setup(self) -> SessionSetup | None:
        """The match's setup as played here (None: a table on a server)."""

    @property
    def can_rematch(self) -> bool:
        """The match is over and another like it can be asked for (``rematch``)."""

    def rematch(self) -> TableSession | None:
        """The next match at this table (``TableService.rematch``: same seats, names and
        options, the deal moving on). Here: its session, this one left. On a server: the
        request is sent (None); the new match comes as updates once every player asked."""

    @property
    def league(self) -> str | None:
        """The server's league the match counts for (None: none; a match played here joins
        a league afterwards, ``cardcore league add``)."""

    async def league_standings(self) -> Standings:
        """That league's standings as the server has them now (``ClientError`` when it
        cannot say; only asked when ``league`` names one)."""

    #: The bot speed chosen at this table (the app's setting; a local save keeps it).
    bot_speed: str | None

    def set_speed(self, speed: str) -> None: ...

    @property
    def can_chat(self) -> bool:
        """Chat lines go to the other players (remote tables)."""

    def chat(self, text: str) -> None: ...

    def listen(self, callback: Listener | None) -> None:
        """Call ``callback`` whenever the session changed by itself (remote updates)."""

    def close(self) -> None:
        """Leave the table (local: the library's lock released; remote: disconnect)."""
