"""What follows from a state's declared parts: ``export``, ``view`` (``None`` too),
``determinize`` and loading (``from_json``). ``CardGameState`` is one such state; a game that
keeps its own representation (cards as ints, ``__slots__``, its own ``clone``) subclasses
``DeclaredState`` and writes ``made`` (a state from loaded values), ``header`` and
``options_json`` when they are not attributes, and ``check`` for the rules loading must
enforce beyond the declaration."""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, NamedTuple, Self

from cardcore.engine.cards import standard_deck
from cardcore.engine.deal import shuffle
from cardcore.engine.game import Game, GameOptions, GameState, StateError
from cardcore.engine.kit import known as k
from cardcore.engine.kit.loading import (
    check_deck,
    load_known,
    load_options,
    load_part,
    load_seat,
    load_seating,
)
from cardcore.engine.kit.parts import HIDDEN, OWNER, Cards, Part, Place, SeatNo, _Scalar
from cardcore.engine.kit.tricks import Tricks
from cardcore.engine.seating import Seating

#: A test a card of a hidden place must pass (``must_hold``).
CardTest = Callable[[Any], bool]
#: A part's value read from a state.
Reader = Callable[[Any], Any]
#: A part's JSON from its value.
Writer = Callable[[Any], Any]


class DeclaredState(GameState):
    """A GameState whose ``parts`` say what it exports, who sees what and how it loads.

    ``cache_public``: the state keeps ``_public`` (None after every change it makes) and
    the spectator's view is made once per change, every export and view starting from a
    copy of it: a server asks for every seat's view after every move.
    """

    __slots__ = ()

    #: The game's id, the export's "game" (or override ``header``).
    game_id: ClassVar[str]
    #: Every card of the game, each as often as the deck has it.
    deck: ClassVar[tuple[str, ...]] = tuple(standard_deck())
    #: The state's parts by name, in export order.
    parts: ClassVar[dict[str, Part]] = {}
    cache_public: ClassVar[bool] = False
    #: ``parts`` as read when the class is made (a class sets ``parts`` in its body).
    _plan: ClassVar[_Plan]
    #: The names of the parts declared ``known=True`` (set for each subclass).
    known_parts: ClassVar[tuple[str, ...]] = ()
    #: The marks of each known part, per place (a tuple; per seat or side, a list of them):
    #: ``(card, to)``, ``to`` None (everyone) or the seats that know the card (kit/known.py).
    #: A dict by name, unless the class keeps them its own way (``marks_of``, ``set_marks``).
    known: Any
    _public: dict[str, Any] | None
    options: GameOptions

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "known" in cls.parts:
            raise TypeError(f"{cls.__name__}: 'known' is the export's key of known cards, "
                            "not a part name")
        cls.known_parts = tuple(n for n, p in cls.parts.items() if isinstance(p, Cards) and p.known)
        cls._plan = _plan(cls)

    @property
    def players(self) -> int:
        raise NotImplementedError

    @property
    def dealer(self) -> int:
        raise NotImplementedError

    def whole_deck(self) -> list[str]:
        """Every card in play (override when options change the deck)."""
        return list(self.deck)

    # --- JSON ---------------------------------------------------------------------

    def header(self) -> dict[str, Any]:
        """The export's first keys: the game, the seating, the seat to play."""
        return {"game": self.game_id, "players": self.players, "dealer": self.dealer,
                "to_play": self.to_play}

    def options_json(self) -> dict[str, Any]:
        return self.options.model_dump(mode="json")

    def export(self) -> dict:
        data = self._public if self.cache_public else None
        data = (data or self._cached()).copy()
        for name, read, write in self._plan.export:
            data[name] = write(read(self))
        if self.known_parts:
            marks = data["known"] = {}
            for name, part in self._plan.known:
                placed = self._placed(name, part)
                if part.per is None:
                    data[name], marks[name] = placed[0], k.write_marks(placed[1])
                else:
                    data[name] = [cards for cards, _ in placed]
                    marks[name] = [k.write_marks(live) for _, live in placed]
        return data

    def view(self, seat: int | None) -> dict:
        """The export with what ``seat`` may not see as nulls (None: the spectator)."""
        plan = self._plan
        if not plan.plain_export:  # an export of the class's own (it may add keys)
            return self._view_of_export(seat)
        data = self._public if self.cache_public else None
        data = (data or self._cached()).copy()
        if seat is not None:  # the spectator's is the cached one, known cards too
            for name, read, show in plan.by_seat:
                data[name] = show(read(self), seat)
            if self.known_parts:
                self._show_known_to(data, seat)
        return data

    def _view_of_export(self, seat: int | None) -> dict[str, Any]:
        """A view of a state whose class writes its own ``export`` (the keys it adds too):
        the export, with the parts ``seat`` sees otherwise in their view."""
        data = self.export()
        for name, read, _ in self._plan.export:
            value = read(self)
            part = self.parts[name]
            data[name] = part.view(value, seat) if seat is not None else part.spectator(value)
        if self.known_parts:
            self._show_known(data, seat)
        return data

    def _cached(self) -> dict[str, Any]:
        """The spectator's view, in export order, kept when ``cache_public``: what
        ``export`` and ``view`` start from (a copy of)."""
        data = self.header()
        for name, read, write in self._plan.spectator:
            value = read(self)
            data[name] = value if write is None else write(value)
        if self.known_parts:
            data["known"] = None
            self._show_known(data, None)
        data["options"] = self.options_json()
        if self.cache_public:
            self._public = data
        return data

    # --- known cards: a view shows the cards the viewer knows where they lie -------------

    def marks_of(self, name: str) -> Any:
        """The marks of the known part ``name``: a tuple of them, per seat or side a list of
        tuples (override with ``set_marks`` when the state keeps its known cards its own way)."""
        return self.known[name]

    def set_marks(self, name: str, marks: Any) -> None:
        """The marks of the known part ``name`` (loaded, or those a sample's seat sees)."""
        self.known[name] = marks

    def _placed(self, name: str, part: Cards) -> Any:
        """A known part as the export writes it: per place, its cards and its marks that
        count (in notation)."""
        value, marks = part.read(self, name), self.marks_of(name)
        if part.per is None:
            return _written(part, value, marks)
        return [_written(part, v, m) for v, m in zip(value, marks, strict=True)]

    def _show_known(self, data: dict[str, Any], seat: int | None) -> None:
        """Into a view's ``data``: each known part as ``seat`` sees it, and the marks it
        knows (``known``)."""
        marks: dict[str, Any] = {}
        for name, part in self._plan.known:
            placed = self._placed(name, part)
            if part.per is None:
                cards, live = placed
                data[name] = k.mask(cards, live, seat)
                marks[name] = _seen_marks(live, seat)
                continue
            own = part.shown == OWNER
            data[name] = [cards if own and s == seat else k.mask(cards, live, seat)
                          for s, (cards, live) in enumerate(placed)]
            marks[name] = [_seen_marks(live, seat) for _, live in placed]
        data["known"] = marks

    def _show_known_to(self, data: dict[str, Any], seat: int) -> None:
        """As ``_show_known``, on the spectator's view: only the places ``seat`` sees
        otherwise (its own, and those with cards known to some seats only) made again."""
        for name, part in self._plan.known:
            raw = self.marks_of(name)
            if part.per is None:
                if any(to is not None for _, to in raw):
                    self._show_known(data, seat)  # marks to some seats: the whole view
                    return
                continue
            own = part.shown == OWNER
            shown = [list(cards) for cards in data[name]]
            for s, m in enumerate(raw):
                if any(to is not None for _, to in m):
                    self._show_known(data, seat)
                    return
                if own and s == seat:
                    value = part.read(self, name)[s]
                    shown[s] = _written(part, value, m)[0]
            data[name] = shown

    def all_cards(self) -> list[str]:
        """Every card in the state's parts, in notation."""
        return [c for name, part in self.parts.items() for c in part.cards(part.read(self, name))]

    # --- samples ------------------------------------------------------------------

    def must_hold(self) -> dict[tuple[str, int | None], Sequence[CardTest]]:
        """What hidden places keep in every deal ``determinize`` makes, by place (part,
        seat or side; None for a part that is one list): one card passing each test (a
        build's owner holds a card of its value). Nothing by default."""
        return {}

    def may_not_hold(self) -> dict[tuple[str, int | None], CardTest]:
        """The cards hidden places never get in a deal ``determinize`` makes, by place as
        ``must_hold`` (``(part, None)``: every place of the part): the cards passing the
        test (a red three is never held). Each card goes to a place that may hold it; the
        places a card may go to nest (a card barred from fewer places may go wherever a
        card barred from more may). Nothing by default."""
        return {}

    def determinize(self, seat: int, rng: random.Random) -> GameState:
        """The cards ``seat`` cannot see dealt again at random into the places it cannot
        see, each place keeping its size, the cards ``seat`` knows there (known cards) and
        what ``must_hold`` and ``may_not_hold`` say."""
        twin = self.clone()
        assert isinstance(twin, DeclaredState)
        places = twin._hidden_places(seat)
        cards: list[Any] = []
        for place in places:
            cards += place[5]
        shuffle(cards, rng)
        needs, bars = self.must_hold(), self.may_not_hold()
        if bars:
            _deal_barred(places, cards, needs, bars, rng)
            return twin
        if needs:  # first what each place must keep, then the rest in order
            kept = [_pull(cards, needs.get((name, i), ())[:len(loose)])
                    for name, i, _, _, _, loose in places]
        at = 0
        for j, (_, _, ordered, held, keep, loose) in enumerate(places):
            n = len(loose)
            if needs:
                dealt = kept[j] + cards[at:at + n - len(kept[j])]
                at += n - len(kept[j])
                if not ordered:  # a hand: the kept cards anywhere in it
                    shuffle(dealt, rng)
            else:
                dealt = cards[at:at + n]
                at += n
            _put(held, keep, dealt, ordered)
        return twin

    def _hidden_places(self, seat: int) -> list[Place]:
        """The lists of this state whose cards ``seat`` cannot all see (``Place``). The
        marks ``seat`` does not see are dropped (this is a sample's state)."""
        out: list[Place] = []
        for name, part in self._plan.hidden:
            if not isinstance(part, Cards):
                out += part.hidden_places(self, name, seat)
                continue
            value = part.read(self, name)
            ordered = part.shown == HIDDEN
            marks = self.marks_of(name) if part.known else None
            if part.per is None:
                if not marks:
                    out.append((name, None, ordered, value, (), value))
                    continue
                keep, loose, unseen = _split(value, marks, seat, ordered)
                out.append((name, None, ordered, value, keep, loose))
                if unseen:
                    self.set_marks(name, _seen_by(marks, seat))
                continue
            hidden = False
            for s, v in enumerate(value):
                if s == seat and not ordered:
                    continue
                m = marks[s] if marks else ()
                if not m:
                    out.append((name, s, ordered, v, (), v))
                    continue
                keep, loose, unseen = _split(v, m, seat, ordered)
                out.append((name, s, ordered, v, keep, loose))
                hidden |= unseen
            if hidden:  # the sample's seat does not know them: they go (its own place's stay)
                assert marks is not None
                self.set_marks(name, [m if s == seat and not ordered else _seen_by(m, seat)
                                      for s, m in enumerate(marks)])
        return out

    # --- loading ------------------------------------------------------------------

    def check(self, strict: bool) -> None:
        """Refuse, with StateError naming the part, what is no position of the game beyond
        the types (a pile that may not be empty, a counter bounded by the table's size).
        Called by ``from_json`` after the types and the cards are checked."""

    @classmethod
    def made(cls, game: Game, seating: Seating, options: GameOptions, to_play: int | None,
             values: dict[str, Any]) -> Self:
        """The state of loaded ``values`` (absent parts left out: their empty values)."""
        raise NotImplementedError

    @classmethod
    def load_options(cls, game: Game, data: dict, strict: bool) -> GameOptions:
        return load_options(game, data.get("options", {}), strict)

    @classmethod
    def load_seating(cls, game: Game, data: dict, options: GameOptions, strict: bool) -> Seating:
        """The export's seating (``players``, ``dealer``); a partial position without them:
        as many players as a per-seat part has lists, the dealer whose leader is to play."""
        return load_seating(game, data, options, cls.parts, strict)

    def known_from_json(self, raw: Any, strict: bool) -> None:
        """The export's ``known`` (None: absent) into this state, its parts loaded."""
        load_known(self, raw, strict)

    @classmethod
    def first_to_play(cls, seating: Seating, values: dict[str, Any]) -> int | None:
        """The seat to play when the position leaves it out: the leader."""
        return seating.leader

    @classmethod
    def from_json(cls, game: Game, data: Any, strict: bool = False) -> Self:
        """The state ``data`` (an export) describes, or StateError naming the part.

        Partial by default: absent parts take their empty values (a ``required`` part
        excepted), an absent ``to_play`` is ``first_to_play``. ``strict``: every field
        present (the parts, ``game``, ``players``, ``dealer``, ``to_play``, ``options``;
        ``known`` excepted: saves made before known cards lack it), the whole deck.
        """
        if not isinstance(data, dict):
            raise StateError(f"position: an object, not {type(data).__name__}")
        for key in ("game", "dealer", "to_play", "options") if strict else ():
            if key not in data:
                raise StateError(f"{key}: missing (strict loading wants every part)", (key,))
        named, own = data.get("game"), getattr(cls, "game_id", game.id)
        if named is not None and named != own:
            raise StateError(f"game: a state of {named!r}, not of {own!r}", ("game",))
        options = cls.load_options(game, data, strict)
        seating = cls.load_seating(game, data, options, strict)
        values = {}
        for name, part in cls.parts.items():
            if name not in data:
                if strict or part.required:
                    why = " (strict loading wants every part)" if strict else ""
                    raise StateError(f"{name}: missing{why}", (name,))
                continue
            values[name] = load_part(name, part, data[name], seating, strict)
            if isinstance(part, SeatNo):
                load_seat(values[name], seating.players, name, True)
            elif isinstance(part, Tricks):
                part.check_seats((name,), values[name], seating.players)
        if "to_play" in data:
            to_play = load_seat(data["to_play"], seating.players, "to_play", True)
        else:
            to_play = cls.first_to_play(seating, values)
        state = cls.made(game, seating, options, to_play, values)
        check_deck(state, strict)
        state.known_from_json(data.get("known"), strict)
        state.check(strict)
        return state


class _Plan(NamedTuple):
    """How a class's parts are written out, made once when the class is made."""

    #: every part, in export order: (name, read, how a spectator sees it; None: as it is)
    spectator: tuple[tuple[str, Reader, Writer | None], ...]
    #: the parts some seat sees otherwise than the export: (name, read, export)
    export: tuple[tuple[str, Reader, Writer], ...]
    #: the parts a seat may see more of than a spectator (hands): (name, read, view)
    by_seat: tuple[tuple[str, Reader, Callable[[Any, int | None], Any]], ...]
    #: the parts holding cards some seat cannot see (``Part.hidden_places``; ``Cards``: the kit's)
    hidden: tuple[tuple[str, Part], ...]
    #: the parts with known cards (written by DeclaredState._placed)
    known: tuple[tuple[str, Cards], ...]
    #: ``export`` is the kit's: else views are made from the class's own (it may add keys)
    plain_export: bool


def _plan(cls: type[DeclaredState]) -> _Plan:
    def read(name: str, part: Part) -> Reader:  # a plain attribute: read without a call
        return operator.attrgetter(name) if type(part).read is Part.read else functools.partial(
            part.read, name=name)

    def spectator(part: Part) -> Writer | None:  # None: the value is its JSON
        if not part.public:
            return part.spectator
        if type(part).export is _Scalar.export:
            return None if part.per is None else list
        return part.export

    every = [(name, read(name, part), part) for name, part in cls.parts.items()]
    return _Plan(
        tuple((n, r, spectator(p)) for n, r, p in every),
        tuple((n, r, p.export) for n, r, p in every
              if not p.public and not (isinstance(p, Cards) and p.known)),
        tuple((n, r, p.view) for n, r, p in every  # known cards: DeclaredState._show_known
              if p.by_seat and not (isinstance(p, Cards) and p.known)),
        tuple((n, p) for n, _, p in every if not p.public and (
            isinstance(p, Cards) or type(p).hidden_places is not Part.hidden_places)),
        tuple((n, p) for n, _, p in every if isinstance(p, Cards) and p.known),
        cls.export is DeclaredState.export)


DeclaredState._plan = _plan(DeclaredState)  # type: ignore[type-abstract]


def _written(part: Cards, cards: Sequence[Any], marks: Sequence[k.Mark[Any]]) -> tuple[list, list]:
    """A place of a known part as the export writes it, and its marks that count, both in
    notation; ``sort``: the known cards first, each group sorted."""
    names = part.names
    if not marks:
        if part.sort:
            cards = sorted(cards)
        return (list(cards) if names is None else [names[c] for c in cards]), []
    if part.sort:  # a multiset: any copy of a card is as good as another
        rest, live = list(cards), []
        for mark in marks:
            try:
                rest.remove(mark[0])
            except ValueError:  # its card left: the mark no longer counts
                continue
            live.append(mark)
        live.sort(key=operator.itemgetter(0))
        cards = [c for c, _ in live] + sorted(rest)
    else:
        live = k.live(cards, marks)
    if names is None:
        return list(cards), live
    return [names[c] for c in cards], [(names[c], to) for c, to in live]


def _seen_marks(live: list[k.Mark[Any]], seat: int | None) -> list[dict]:
    """A place's marks that count and ``seat`` knows, as the export writes them."""
    return k.write_marks(m for m in live if k.sees(m[1], seat))


def _seen_by(marks: tuple, seat: int) -> tuple:
    return tuple(m for m in marks if k.sees(m[1], seat))


def _pull(cards: list[Any], tests: Sequence[CardTest], bar: CardTest | None = None) -> list[Any]:
    """Out of ``cards``, the first card passing each test in turn (none when none does),
    but a card ``bar`` refuses."""
    got = []
    for test in tests:
        for j, c in enumerate(cards):
            if test(c) and not (bar and bar(c)):
                got.append(cards.pop(j))
                break
    return got


def _split(cards: list[Any], marks: Sequence[k.Mark[Any]], seat: int,
           ordered: bool) -> tuple[list[Any], list[Any], bool]:
    """A place's cards ``seat`` knows and those dealt again, and whether some of its marks
    are not ``seat``'s to know. Kept: in a stock the indices of the cards (they stay where
    they lie), in a hand the cards (first, in the order of their marks: a hand keeps its
    known cards first; any copy of a card is as good as another)."""
    unseen = False
    if ordered:
        keep = []
        for at, to in k.claimed(cards, marks):
            if to is None or seat in to:
                keep.append(at)
            else:
                unseen = True
        kept = set(keep)
        return keep, [c for i, c in enumerate(cards) if i not in kept], unseen
    loose, known, back = list(cards), [], []
    for c, to in marks:
        try:
            loose.remove(c)
        except ValueError:  # its card left: the mark no longer counts
            continue
        if to is None or seat in to:
            known.append(c)
        else:
            back.append(c)
            unseen = True
    return known, loose + back if back else loose, unseen


def _put(held: list[Any], keep: Sequence[Any], dealt: list[Any], ordered: bool) -> None:
    """``dealt`` into the place ``held`` around what it keeps (``_split``)."""
    if keep:
        if ordered:
            fresh = iter(dealt)
            dealt = [c if x in keep else next(fresh) for x, c in enumerate(held)]
        else:
            dealt = [*keep, *dealt]
    held[:] = dealt


def _deal_barred(places: list[Place], cards: list[Any], needs: dict, bars: dict,
                 rng: random.Random) -> None:
    """``cards`` (shuffled) into ``places``: first what ``needs`` says each keeps, then the
    places that may not hold some cards, the most barred first, each taking the first cards
    of the deck it may hold (those it skips stay in the deck's order), then the others in
    order."""
    get = bars.get
    room = [len(place[5]) for place in places]
    bar = [get(place[:2]) or get((place[0], None)) for place in places]
    got = None
    if needs:
        got = [_pull(cards, needs.get(place[:2], ())[:room[j]], bar[j])
               for j, place in enumerate(places)]
        room = [n - len(g) for n, g in zip(room, got, strict=True)]
    groups: dict[int, list[int]] = {}  # the places of one test: one pass over the deck for them
    for j, test in enumerate(bar):
        if test is not None:
            groups.setdefault(id(test), []).append(j)
    order = list(groups.values())
    if len(order) > 1:  # the most barred first
        order.sort(key=lambda js: -sum(map(bar[js[0]], cards)))  # type: ignore[arg-type]
    dealt: list[Any] = [None] * len(places)
    deck = cards
    for js in order:
        taken, deck = _first(deck, sum(room[j] for j in js), bar[js[0]])
        at = 0
        for j in js:
            dealt[j] = taken[at:at + room[j]]
            at += room[j]
    at = 0
    for j, test in enumerate(bar):
        if test is None:
            dealt[j] = deck[at:at + room[j]]
            at += room[j]
    for j, (_, _, ordered, held, keep, _) in enumerate(places):
        hand = dealt[j] if got is None else got[j] + dealt[j]
        if keep:
            _put(held, keep, hand, ordered)
        else:
            held[:] = hand


def _first(deck: list[Any], n: int, refuses: CardTest | None) -> tuple[list[Any], list[Any]]:
    """The first ``n`` cards of ``deck`` that ``refuses`` lets through, and the others in
    their order."""
    if refuses is None or not any(map(refuses, deck[:n])):  # the usual case: none tested past n
        return deck[:n], deck[n:]
    flags = list(map(refuses, deck))
    through = [i for i, f in enumerate(flags) if not f]
    if len(through) < n:
        raise ValueError(f"determinize: too few cards for a place that refuses some: {n} wanted")
    cut = through[n - 1] + 1 if n else 0
    head = deck[:cut]
    return ([c for c, f in zip(head, flags, strict=False) if not f],
            [c for c, f in zip(head, flags, strict=False) if f] + deck[cut:])
