"""The common interface every game plugin implements (docs/design.md)."""

from __future__ import annotations

import functools
import inspect
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NotRequired, TypedDict

import pydantic

from cardcore.language import CORE, N_

if TYPE_CHECKING:
    from cardcore.engine.scoresheet import ScoreSheet
    from cardcore.engine.seating import Seating
    from cardcore.language import Domain


class IllegalAction(Exception):
    """An action the rules do not allow here; the state is unchanged."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Action:
    """One move. Immutable and hashable: two actions are equal when their JSON is.

    Subclasses set ``key`` (a tuple that identifies the JSON) and may compute
    ``label`` lazily; ``SimpleAction`` covers games that need nothing faster.

    What the front end reads besides the label, all optional (defaults: nothing):
    ``hand_cards`` (the mover's cards it plays), ``targets`` (zone and group ids it
    touches), ``table_cards`` (the cards and groups on the table it takes or uses:
    the player picks them to narrow the list, and they are marked), and ``step`` (a
    recurring step of a turn, "draw", "take", "discard", ...: the front end gives
    each step a fixed key). Compute them lazily (properties): the hot path never
    reads them.
    """

    __slots__ = ("key",)

    key: tuple

    @property
    def label(self) -> str:
        """What a player reads ("Capture 3♥ 5♠ with 8♦"): distinct actions of one state
        have distinct labels."""
        raise NotImplementedError

    @property
    def hand_cards(self) -> tuple[str, ...]:
        """The mover's own cards it plays, in notation (empty for "Draw")."""
        return ()

    @property
    def targets(self) -> tuple[str, ...]:
        """Ids of the zones and groups it touches, for the front end to highlight."""
        return ()

    @property
    def table_cards(self) -> tuple[tuple[str | None, str], ...]:
        """What it takes or uses on the table, as pairs ``(card, where)``: ``card`` in
        notation, or None for a whole group or pile (the meld it adds to, the discard
        pile it takes); ``where`` the id of the zone or group that holds it (a zone id
        also finds the card in that zone's groups). Empty by default."""
        return ()

    @property
    def step(self) -> str | None:
        """The recurring step this action is, if any: "draw" (from the stock), "take"
        (the discard pile), "discard", "knock", "pass", ... The front end gives these
        fixed keys (d, t, x, ...), so they do not move with the list. None by default."""
        return None

    @property
    def shown_key(self) -> tuple | None:
        """A tuple that fixes all a front end is shown of the action (its JSON, label, hand
        cards, table cards, targets, step) in whatever state it is listed, the language
        aside; None (the default): some of it depends on the state. A server encodes the
        listing of actions that have one once per tuple and language."""
        return None

    def to_json(self) -> dict:
        """Its JSON form (records, saves, ``Game.action_from_json``); equal JSON, same action."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_json()}>"


class SimpleAction(Action):
    """An action carrying its JSON, label, hand cards, targets, table cards and step as given."""

    __slots__ = ("_data", "_label", "_hand", "_targets", "_table", "_step")

    def __init__(
        self,
        data: dict,
        label: str,
        hand_cards: tuple[str, ...] = (),
        targets: tuple[str, ...] = (),
        *,
        table_cards: tuple[tuple[str | None, str], ...] = (),
        step: str | None = None,
    ):
        self._data = data
        self._label = label
        self._hand = tuple(hand_cards)
        self._targets = tuple(targets)
        self._table = tuple(table_cards)
        self._step = step
        self.key = (json.dumps(data, sort_keys=True),)

    @property
    def label(self) -> str:
        return self._label

    @property
    def hand_cards(self) -> tuple[str, ...]:
        return self._hand

    @property
    def targets(self) -> tuple[str, ...]:
        return self._targets

    @property
    def table_cards(self) -> tuple[tuple[str | None, str], ...]:
        return self._table

    @property
    def step(self) -> str | None:
        return self._step

    def to_json(self) -> dict:
        return json.loads(self.key[0])


@dataclass
class Group:
    """A build or meld inside a zone; ``seat`` is its owner, if it has one (the TUI names them)."""

    id: str
    cards: list[str]
    badges: list[str] = field(default_factory=list)
    seat: int | None = None
    #: A group made of parts (a multiple build: 2♣ 4♠ | 6♥): the length of each part,
    #: in order; empty: one part.
    parts: list[int] = field(default_factory=list)


@dataclass
class Zone:
    """One region of the table as the TUI draws it."""

    id: str
    kind: str
    title: str
    seat: int | None = None
    side: int | None = None
    cards: list[str | None] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    badges: list[str] = field(default_factory=list)


class SideScore(TypedDict):
    """One side's part of a score row."""

    #: The seats that play for this side.
    seats: list[int]
    #: Points by item, in the game's order (casino: cards, spades, ...); every value an int.
    items: dict[str, int]
    #: The sum of ``items``.
    total: int
    #: What was counted, by name (shown beside the points; read by the statistics):
    #: ints are counts (cards 31, spades 10, sweeps 2, canastas 1, red_threes 2,
    #: going_out 0/1), a str or a list says which (aces ["AS", "AH"]). A key that is
    #: also an item names that item's count, so a tied item (cards 26-26) still shows.
    counts: NotRequired[dict[str, int | str | list[str]]]
    #: Why this side's points are not what its counts suggest (a near-target rule, ...).
    note: NotRequired[str]


class ScoreRow(TypedDict):
    """What ``GameState.score()`` returns: one entry per side, in side order.

    These are the keys every game may use; a game's rows may carry more, per row or per
    side, kept in its records as they are: it declares what they say in
    ``Game.score_extras``, and the sheet and the statistics read them from there.
    """

    sides: list[SideScore]
    #: How the hand ended, where a game tells endings apart (canasta: "going out", "stock").
    end: NotRequired[str]


#: What a score extra reads for one side in one hand: a count (an int; True counts 1),
#: what was counted (a str, or a list such as cards in notation), or None: nothing said.
ExtraValue = int | str | list[str] | None


@dataclass(frozen=True)
class ScoreExtra:
    """One thing a game's score rows say beyond the keys every game has, declared by the
    game (``Game.score_extras``): a row of its own under each hand's items on the score
    sheet, and a count per player in the statistics.

    ``read(row, side)`` takes it from a score row (a stored one too, which may predate
    it: a row that does not say it gives None) for the side at that index.
    """

    #: Its name: the statistics count it under this key.
    key: str
    read: Callable[[ScoreRow, int], ExtraValue]
    #: The sheet's words for it (default: the key, "_" as a space).
    label: str = ""
    #: Shown on the sheet, in the hands where some side has something (not None, 0, an
    #: empty list or string).
    sheet: bool = True
    #: Counted in the statistics: an int as it is, a list by its length (a str not at all).
    stats: bool = True
    #: Its text in a sheet's cell (default: an int as it is, a list as cards, a str as it is).
    show: Callable[[ExtraValue], str] | None = None


class GameState(ABC):
    """One hand of one game: mutable, cheap to clone.

    The hot path (``legal_actions``, ``apply``, ``clone``) is plain Python; nothing
    here may depend on hashing order (PYTHONHASHSEED) or on anything but the state.
    """

    #: The seat to act; None exactly when the hand is over.
    to_play: int | None

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """True once the hand has ended; then ``to_play`` is None and ``score()`` is defined."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action the seat ``to_play`` may take now.

        Non-empty until ``is_over``, empty after. No duplicates (by JSON). The order is
        fixed for a given state (independent of hashing), so seeded bots replay
        exactly. No legal action leads to a state whose player to act has no action
        (no dead ends). The caller may keep or mutate the returned list.
        """

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Play ``action`` for the seat to act.

        An action that is not legal here (including one from another position, of
        another type, or forged) raises ``IllegalAction`` with a reason, and the
        state is exactly as it was: ``export()`` is unchanged.
        """

    @abstractmethod
    def clone(self) -> GameState:
        """An independent copy: applying actions to either never changes the other."""

    @abstractmethod
    def export(self) -> dict:
        """The whole state as JSON-able data (saves, records, tests; docs/design.md).

        Holds everything the rules need: ``Game.state_from_json(export())`` gives a
        state with the same export and the same legal actions. Only JSON types
        (dict with str keys, list, str, int, bool, None). Includes ``options``.
        """

    @abstractmethod
    def view(self, seat: int | None) -> dict:
        """``export()`` as ``seat`` may know it: the same shape, hidden cards ``null``.

        Lists keep their lengths (a hidden hand of five is five nulls). Hidden:
        other seats' hands and the stock, also after the hand is over; public:
        everything else (table, builds, melds, discards, captured piles, counts), unless
        the game's rules keep part of a pile out of sight (its cards ``null`` too).
        ``seat`` None is the spectator: every hand and the stock hidden, exactly the
        positions hidden from some seat. Permuting the cards at the hidden
        positions never changes the view. Bots and the front end read nothing else.
        """

    @abstractmethod
    def determinize(self, seat: int, rng: random.Random) -> GameState:
        """A state ``seat`` cannot tell from this one: the cards its view hides,
        dealt again at random (with ``rng``) into the hidden places, every count kept.

        ``determinize(seat, rng).view(seat) == view(seat)``.
        """

    @abstractmethod
    def score(self) -> ScoreRow:
        """The hand's score row, once ``is_over``: one entry per side, in side order,
        each with its ``seats``, integer ``items`` and their sum as ``total``."""

    @abstractmethod
    def zones(self, seat: int | None) -> list[Zone]:
        """The table as ``seat`` sees it, for the front end: built from ``view(seat)``,
        so a zone never shows a card the view hides. ``seat`` None: every card face up
        (replays of finished matches and tables with no human)."""

    def match_totals(self) -> list[int] | None:
        """Each side's match total before this hand (public: the score sheet's), or None
        (the default): the search levels then play the hand alone. With it they play for
        the match near its target (docs/bots.md, "Playing for the match")."""
        return None

    def why_not(self, card: str) -> str | None:
        """Why the seat to play has no action with ``card`` (from its hand), in one line
        ("70 is below the 90 minimum"), or None (the default): the front end shows it
        when the player picks such a card. Read only when asked, never on the hot path."""
        return None

    def log_line(self, action: Action) -> str:
        """What the move log says of the legal ``action`` (called before it is applied).

        Public information only: everyone at the table reads the log.
        """
        return action.label


class GameOptions(pydantic.BaseModel):
    """Base of every game's ``Game.Options``: unknown fields are refused, ``target`` is always there."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)
    target: int = pydantic.Field(21, ge=1, description=N_("points that win the match"))

    #: A target a match can reach: at most this many times the game's default target
    #: (the command line and the setup form share this bound).
    TARGET_TIMES_DEFAULT: ClassVar[int] = 20

    @classmethod
    def most_target(cls) -> int | None:
        """The highest target a match may set (None: no bound)."""
        default = cls.model_fields["target"].default
        return default * cls.TARGET_TIMES_DEFAULT if isinstance(default, int) else None

    @pydantic.field_validator("target")
    @classmethod
    def _reachable_target(cls, target: int) -> int:
        limit = cls.most_target()
        if limit is not None and target > limit:
            raise ValueError(f"{target} is out of reach: at most {limit} "
                             f"({cls.TARGET_TIMES_DEFAULT} times the usual "
                             f"{cls.model_fields['target'].default})")
        return target


#: Deprecated alias of GameOptions, kept for plugins written against cardcore 0.1.
Options = GameOptions


class Game(ABC):
    """One game, as a plugin registers it."""

    id: ClassVar[str]
    name: ClassVar[str]
    description: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    Options: ClassVar[type[GameOptions]]
    #: With four players, seats 0+2 play 1+3.
    partnerships: ClassVar[bool] = True
    #: The setup offers "draw for partners" (the game's first_dealer reads seating.draw).
    has_partnership_draw: ClassVar[bool] = False
    #: Every card of the deck is dealt by the end of every hand (no stock is left):
    #: check_game then fails a hand that ends with cards hidden from every seat.
    deck_dealt_out: ClassVar[bool] = False
    #: The game's gettext domain (docs/languages.md), or None: the game speaks English
    #: only. Its sentences (labels, log lines, why-not reasons, zones, ``rules()``) the game
    #: translates itself where it builds them; its texts declared as data (``description``,
    #: the options' descriptions, the score extras' labels) the front ends pass through
    #: ``translate``.
    domain: ClassVar[Domain | None] = None
    #: The search levels as this game plays them: for a level's id (``medium``, ``hard``,
    #: ``expert``), settings the level lets change (``SearchBot.tunable``) and their values,
    #: chosen by a tuning run of the game (docs/bots.md, "A game's own settings"). Empty:
    #: every level as the core defines it.
    search_settings: ClassVar[Mapping[str, Mapping[str, Any]]] = {}

    def translate(self, text: str) -> str:
        """One of the game's texts declared as data (its ``description``, an option's
        description, a score extra's label) in the language in use: from the game's catalog,
        else the core's (the ``target`` every game has), else as it is."""
        said = text if self.domain is None else self.domain.gettext(text)
        return CORE.gettext(text) if said == text else said

    @abstractmethod
    def rules(self, options: GameOptions) -> str:
        """The rules as this engine plays them with ``options``, in Markdown."""

    def direction(self, options: GameOptions) -> int:
        """1: play goes to seat i+1 (clockwise); -1: to seat i-1."""
        return 1

    def seating(self, players: int, options: GameOptions, dealer: int = 0,
                names: tuple[str, ...] = (), side_names: tuple[str, ...] = ()) -> Seating:
        """The table of this game for ``players``: its direction; partners with four."""
        from cardcore.engine.seating import Seating

        return Seating(players, dealer=dealer, direction=self.direction(options),
                       partnerships=self.partnerships and players == 4,
                       names=names, side_names=side_names)

    def variant(self, options: GameOptions) -> str:
        """One line naming the rules ``options`` select (say, a preset and what differs
        from it), shown on the score sheet; empty (the default): nothing to name."""
        return ""

    def goal(self, options: GameOptions) -> str:
        """How the match is won, in a few words at the head of the score sheet."""
        from cardcore.engine.scoresheet import to_target

        return to_target(options.target)

    def score_extras(self, options: GameOptions) -> list[ScoreExtra]:
        """What this game's score rows say beyond the keys of ``ScoreRow`` and ``SideScore``
        (the score sheet shows them and the statistics count them); none by default."""
        return []

    def first_dealer(self, seating: Seating, options: GameOptions, rng: random.Random) -> int:
        """The seat that deals the first hand, drawn with ``rng`` (the match's own)."""
        return rng.randrange(seating.players)

    @abstractmethod
    def new_hand(
        self,
        seating: Seating,
        options: GameOptions,
        rng: random.Random,
        totals: list[int],
    ) -> GameState:
        """A freshly dealt hand: ``seating`` names the dealer and the sides, ``rng`` is this
        hand's own (the deal depends on nothing else), ``totals`` the match totals per
        side before the hand. The state's export carries ``options``."""

    @abstractmethod
    def state_from_json(self, data: dict, strict: bool = False) -> GameState:
        """The state whose export is ``data``: the inverse of ``GameState.export``.

        Accepts a partial position (absent lists and counters take their empty or
        default values) so tests can write down just what they need. Rejects data that
        is no state of the game (unknown cards, too many copies of a card, wrong types,
        impossible sizes) with ``StateError`` naming the field; never another exception.
        ``strict``: also the whole deck present (each card as often as the deck has it),
        every field the export writes present, sizes and counters possible, integers
        that are ints (not floats, bools or strings). Everything loaded from a file or
        the network loads strictly (``load_state`` below); a game written before
        ``strict`` existed may leave it out of its signature.
        """

    def action_from_json(self, state: GameState, data: dict) -> Action:
        """The legal action whose JSON is ``data``, or IllegalAction."""
        for action in state.legal_actions():
            if action.to_json() == data:
                return action
        raise IllegalAction(f"not a legal action here: {json.dumps(data)}")

    def match_winner(self, sheet: ScoreSheet, options: GameOptions) -> int | None:
        """The highest total at or above the target; equal highest totals play on."""
        from cardcore.engine.scoresheet import leader

        return leader(sheet.totals, options.target)

    def heuristic(self, state: GameState, seat: int) -> float:
        """How good ``state`` looks for ``seat``'s side (higher is better): what the greedy
        bot maximises. It must read only what ``seat`` may know."""
        return 0.0

    def card_key(self, card: str) -> str:
        """Cards the rules cannot tell apart share a key; the front end picks by it.

        The default tells every card apart. A game whose actions name one card
        for several equivalent ones (canasta: any 7 is a 7) returns a coarser key.
        """
        return card



class StateError(ValueError):
    """Data that is not a possible state of the game (state_from_json).

    ``path`` names the place at fault in the export, as keys and indices
    (``("hands", 2)``; empty: the position as a whole). The bots' sampler reads it to
    repair a filling of hidden cards that does not load.
    """

    def __init__(self, message: str, path: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.path = path


def load_state(game: Game, data: Any, *, strict: bool = True) -> GameState:
    """``game.state_from_json(data, strict=...)``: everything loaded from a file or the
    network goes through here, strictly where the game can.

    A game written before ``strict`` existed (cardcore 0.1) promised less: its loading
    errors of any kind become StateError here, so bad data is still one clear line.
    """
    if _knows_strict(game):
        return game.state_from_json(data, strict=strict)
    try:
        return game.state_from_json(data)
    except StateError:
        raise
    except (TypeError, KeyError, AttributeError, IndexError, ValueError, RecursionError) as exc:
        raise StateError(f"not a {game.id} position ({type(exc).__name__}: "
                         f"{' '.join(str(exc).split())})") from None


def _knows_strict(game: Game) -> bool:
    return _takes_strict(type(game))


@functools.cache
def _takes_strict(game_class: type[Game]) -> bool:
    try:
        return "strict" in inspect.signature(game_class.state_from_json).parameters
    except (TypeError, ValueError):
        return False
