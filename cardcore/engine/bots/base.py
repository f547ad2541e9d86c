"""The Bot interface and the InfoSet a bot plays from.

An ``InfoSet`` holds what one seat may know and nothing else: its view, the legal
actions of the seat to play, which seat sits on which side, and the multiset of
the cards the seat cannot see (the deck is no secret). It never keeps the true
state: ``sample(rng)`` deals the unseen cards from a *canonical* state, the view
with its hidden places filled in a fixed order, so a sample depends on the view
and the seed alone. Re-arranging the hidden cards of a position cannot change
what a bot reads, hence cannot change what it plays.
"""

from __future__ import annotations

import json
import random
import threading
from collections import Counter, OrderedDict
from collections.abc import Generator, Iterator
from typing import Any, ClassVar

from cardcore.engine.game import Action, Game, GameState, StateError, load_state
from cardcore.engine.kit.known import NOT_CARDS

Path = tuple[Any, ...]

#: How many fillings of the hidden places ``InfoSet`` tries before giving up (a game's
#: loader may refuse some, e.g. a red three in a canasta hand): sorted, rotated, shuffled.
FILL_ATTEMPTS = 5000
#: How many repairs of a place the loader refuses (see ``canonical_state``) before the rest.
REPAIRS = 48


class InfoSet:
    """Everything a seat may know, nothing more: its view, its legal actions, samples."""

    __slots__ = ("game", "seat", "side_of", "_view", "_actions", "_unseen", "_canonical")

    def __init__(self, game: Game, seat: int, view: dict, actions: list[Action],
                 unseen: Counter, side_of: tuple[int, ...]):
        self.game = game
        self.seat = seat
        #: The side of each seat (public: who partners whom).
        self.side_of = side_of
        self._view = view
        self._actions = actions
        self._unseen = unseen
        self._canonical: GameState | None = None

    @classmethod
    def of(cls, game: Game, state: GameState, seat: int,
           side_of: tuple[int, ...] | None = None) -> InfoSet:
        """The info set of ``seat`` in ``state``: the view, the legal actions and the cards
        the seat cannot see, as a multiset. ``state`` itself is not kept."""
        view = state.view(seat)
        unseen = unseen_cards(state, seat, view)
        if side_of is None:
            side_of = _sides(game, view)
        return cls(game, seat, view, list(state.legal_actions()), unseen, side_of)

    def view(self) -> dict:
        """The seat's view (a copy the caller may keep or change)."""
        import copy

        return copy.deepcopy(self._view)

    def legal_actions(self) -> list[Action]:
        return self._actions[:]

    @property
    def sides(self) -> int:
        return max(self.side_of) + 1

    def canonical(self) -> GameState:
        """The view with its hidden places filled by the unseen cards in a fixed order:
        a state that depends on the view alone (the starting point of every sample)."""
        if self._canonical is None:
            self._canonical = canonical_state(self.game, self._view, self._unseen)
        return self._canonical

    def sample(self, rng: random.Random) -> GameState:
        """A state consistent with the view: the unseen cards dealt at random."""
        return self.canonical().determinize(self.seat, rng)

    def exact(self) -> GameState | None:
        """The canonical state when it is the position itself but for the order of one
        hand: every card the seat cannot see lies in one other seat's hand (the view's
        ``hands``), so the multiset of unseen cards is that hand (Casino's last deal, two
        players). None while any card may lie elsewhere (a stock, two hands)."""
        hands = {path[:2] for path in hidden_places(self._view)}
        if len(hands) > 1:
            return None
        if hands:
            place = next(iter(hands))
            if place[0] != "hands" or len(place) != 2 or place[1] == self.seat:
                return None
        return self.canonical()


def unseen_cards(state: GameState, seat: int | None, view: dict | None = None,
                 export: dict | None = None) -> Counter[str]:
    """The cards ``seat`` cannot see in ``state`` (None: a spectator), as a multiset: the
    state's cards at the places its view nulls (``view`` and ``export``: if read already)."""
    if view is None:
        view = state.view(seat)
    return Counter(_hidden_cards(state.export() if export is None else export, view))


def _hidden_cards(export: Any, view: Any) -> Iterator[str]:
    """The export's cards at the places the view nulls (one walk of both)."""
    stack = [(export, view)]
    while stack:
        data, seen = stack.pop()
        if isinstance(data, dict):
            stack.extend((v, seen[k]) for k, v in data.items() if k not in NOT_CARDS)
        elif isinstance(data, list):
            for d, v in zip(data, seen, strict=True):
                if v is None and isinstance(d, str):
                    yield d
                elif isinstance(d, (list, dict)):
                    stack.append((d, v))


def _sides(game: Game, view: dict) -> tuple[int, ...]:
    players = view.get("players")
    if not isinstance(players, int):
        hands = view.get("hands")
        players = len(hands) if isinstance(hands, list) else 2
    key = (type(game), players)
    sides = _SIDES.get(key)
    if sides is None:
        seating = game.seating(players, game.Options())
        sides = _SIDES[key] = tuple(seating.side_of(s) for s in range(players))
    return sides


#: The sides of each seat by game class and player count (who partners whom never changes);
#: one dict operation at a time, so safe from any thread (docs/design.md).
_SIDES: dict[tuple[type, int], tuple[int, ...]] = {}


def hidden_places(view: Any) -> list[Path]:
    """The paths of the null entries of the view's lists (options excluded), in path
    order: where hidden cards are (a hidden hand of five is five nulls)."""
    return list(_nulls(view, ()))


def _nulls(data: Any, path: Path) -> Iterator[Path]:
    if isinstance(data, dict):
        for k, v in data.items():
            if k not in NOT_CARDS:
                yield from _nulls(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            if v is None:
                yield path + (i,)
            else:
                yield from _nulls(v, path + (i,))


#: Canonical states of recent views (the hint and the bot at the table read the same view):
#: a pure function of the view and the unseen cards, so caching it changes nothing. One
#: table for the process (bots on the server's thread pool, hints on a worker thread), so
#: every read and write holds ``_CANONICAL_LOCK``; a state in it is shared and only read
#: (``determinize`` and ``legal_actions``, whose lazy listing any thread computes alike).
_CANONICAL: OrderedDict[tuple, GameState] = OrderedDict()
_CANONICAL_LOCK = threading.Lock()
CANONICAL_CACHE = 32


def canonical_state(game: Game, view: dict, unseen: Counter) -> GameState:
    """``view`` with its hidden places filled from ``unseen``, loaded (not strictly).

    The first filling is the sorted cards in path order. When the game's loader refuses a
    filling and names the place at fault (``StateError.path``: ``("hands", 2)``), the cards
    there are swapped for others (the largest other hidden place first), and so on; then
    rotations of the sorted order, then orders shuffled with fixed seeds. Each try depends
    on the view, the multiset and the refusals of the tries before it: on the view alone.
    """
    places = hidden_places(view)
    cards = sorted(unseen.elements())
    if len(cards) != len(places):
        raise ValueError(f"{game.id}: the view hides {len(places)} places but {len(cards)} "
                         "cards are unseen")
    frozen = json.dumps(view)
    key = (game.id, frozen, tuple(cards))
    with _CANONICAL_LOCK:
        cached = _CANONICAL.get(key)
        if cached is not None:
            _CANONICAL.move_to_end(key)
            return cached
    last: Exception | None = None
    tries = _fillings(cards, places)
    order = next(tries)
    while True:
        data = json.loads(frozen)
        for path, card in zip(places, order, strict=True):
            target = data
            for p in path[:-1]:
                target = target[p]
            target[path[-1]] = card
        try:
            state = load_state(game, data, strict=False)
        except (StateError, ValueError) as exc:
            last = exc
            try:
                order = tries.send(exc)
            except StopIteration:
                raise ValueError(f"{game.id}: no filling of the hidden cards loads ({last})") from None
            continue
        with _CANONICAL_LOCK:  # two threads may both have made it: the first one stays
            state = _CANONICAL.setdefault(key, state)
            _CANONICAL.move_to_end(key)
            if len(_CANONICAL) > CANONICAL_CACHE:
                _CANONICAL.popitem(last=False)
        return state


def _fillings(cards: list[str], places: list[Path]) -> Generator[list[str], Exception, None]:
    """The orders to try, each after the refusal of the one before (sent in)."""
    order = cards
    refusal = yield order
    turns: Counter = Counter()
    for _ in range(REPAIRS):
        region = _refused_region(places, refusal)
        if region is None:
            break
        outside = _outside(places, region)
        # the k-th repair of a place takes cards spread over the others (a run of equal
        # ranks lies together in the sorted order): offset k, every ``stride``-th
        stride = len(outside) // len(region)
        k = turns[region[0]]
        turns[region[0]] += 1
        if k >= stride:  # every other place tried: give up repairing
            break
        order = order[:]
        for j, i in enumerate(region):
            o = outside[k + j * stride]
            order[i], order[o] = order[o], order[i]
        refusal = yield order
    for order in _orders(cards):
        yield order


def _refused_region(places: list[Path], refusal: Exception) -> list[int] | None:
    """The hidden places under the path a refusal names (``StateError.path``), if any
    (and not all of them)."""
    prefix = tuple(getattr(refusal, "path", ()))
    n = len(prefix)
    if not n:
        return None
    region = [i for i, path in enumerate(places) if path[:n] == prefix]
    return region if region and len(region) < len(places) else None


def _outside(places: list[Path], region: list[int]) -> list[int]:
    """The other hidden places, the largest group first (a stock), each group in path order."""
    inside = set(region)
    groups: dict[Path, list[int]] = {}
    for i, path in enumerate(places):
        if i not in inside:
            groups.setdefault(path[:-1], []).append(i)
    ordered = sorted(groups.values(), key=lambda g: (-len(g), g[0]))
    return [i for g in ordered for i in g]


def _orders(cards: list[str]) -> Iterator[list[str]]:
    n = len(cards)
    if n < 2:
        return
    step = max(1, n // 16)
    for k in range(step, n, step):
        yield cards[k:] + cards[:k]
    for i in range(FILL_ATTEMPTS):
        shuffled = cards[:]
        random.Random(f"cardcore.fill:{i}").shuffle(shuffled)
        yield shuffled


class Bot:
    id: ClassVar[str]
    name: ClassVar[str] = ""
    #: What the level means to a player, in a few words ("misses the best move about one
    #: time in three"): the setup form and ``cardcore plugins`` show it.
    description: ClassVar[str] = ""
    games: ClassVar[tuple[str, ...] | None] = None
    #: A choice takes long (a search: up to seconds). A server runs a heavy bot's moves in
    #: worker processes, so the bot, its info set and its random stream must pickle; a
    #: light one's on its threads (docs/bots.md).
    heavy: ClassVar[bool] = False
    #: Settings a variant may change (``cardcore/engine/bots/variant.py``: ``hard[exploration=0.5]``
    #: in a tournament), and the words a string setting may take.
    tunable: ClassVar[tuple[str, ...]] = ()
    choices: ClassVar[dict[str, tuple[str, ...]]] = {}

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        raise NotImplementedError

    @classmethod
    def plays(cls, game_id: str) -> bool:
        return cls.games is None or game_id in cls.games
