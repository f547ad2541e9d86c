"""A game state declared by its parts: who may see each, from which everything else follows.

A game lists its state's parts once, as a class-level ``parts`` dict of specs::

    class MyState(CardGameState):
        game_id = "my_game"
        deck = tuple(standard_deck())
        parts = {"hands": Cards(per="seat", shown=OWNER), "stock": Cards(shown=HIDDEN),
                 "discard": Cards(), "passes": Count(most=4)}

and gets ``export``, ``view`` (``None`` too), ``determinize``, ``clone``, ``zones`` and
loading (``from_json``: types checked, ``StateError`` naming the part; ``strict``: every
part present and the whole deck) for free. The seating travels in the export as
``players`` and ``dealer``, with the ``options``; loading rebuilds the core's Seating
from them with ``game.seating``. The game writes its rules: ``legal_actions``, ``apply``,
``score``, and ``check`` for what loading must refuse beyond types.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from cardcore.engine.cards import standard_deck
from cardcore.engine.game import Game, GameOptions, GameState, StateError, Zone
from cardcore.engine.kit.loading import check_deck, load_options, load_part, load_seat, load_seating
from cardcore.engine.kit.parts import HIDDEN, OWNER, PUBLIC, Cards, Part, SeatNo
from cardcore.engine.seating import Seating


class CardGameState(GameState):
    """A GameState declared by ``parts``; subclasses write the rules.

    Attributes: ``seating`` (the core's Seating), ``options``, ``to_play``, and one
    attribute per part (a list per seat or side for ``per`` parts). ``clone`` copies the
    parts and shares everything else: keep every changing value in a part.
    """

    #: The game's id, the export's "game".
    game_id: ClassVar[str]
    #: Every card of the game, each as often as the deck has it.
    deck: ClassVar[tuple[str, ...]] = tuple(standard_deck())
    #: The state's parts by name, in export order.
    parts: ClassVar[dict[str, Part]] = {}

    def __init__(self, seating: Seating, options: GameOptions, to_play: int | None,
                 **values: Any) -> None:
        self.seating = seating
        self.options = options
        self.to_play = to_play
        unknown = set(values) - set(self.parts)
        if unknown:
            raise TypeError(f"{type(self).__name__}: no part {sorted(unknown)[0]!r}")
        for name, part in self.parts.items():
            value = values[name] if name in values else self._empty(part)
            setattr(self, name, value)

    def _empty(self, part: Part) -> Any:
        if part.per is None:
            return part.empty()
        return [part.empty() for _ in range(self._count(part))]

    def _count(self, part: Part) -> int:
        return self.seating.players if part.per == "seat" else self.seating.sides

    @property
    def players(self) -> int:
        return self.seating.players

    @property
    def dealer(self) -> int:
        return self.seating.dealer

    @property
    def is_over(self) -> bool:
        return self.to_play is None

    def whole_deck(self) -> list[str]:
        """Every card in play (override when options change the deck)."""
        return list(self.deck)

    # --- copies and JSON ----------------------------------------------------------

    def clone(self) -> CardGameState:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        for name, part in self.parts.items():
            value = getattr(self, name)
            if part.per is not None and isinstance(part, Cards):
                setattr(twin, name, [list(v) for v in value])
            elif isinstance(value, list):
                setattr(twin, name, list(value))
        return twin

    def export(self) -> dict:
        data: dict[str, Any] = {"game": self.game_id, "players": self.players,
                                "dealer": self.dealer, "to_play": self.to_play}
        for name, part in self.parts.items():
            value = getattr(self, name)
            if part.per is not None and isinstance(part, Cards):
                value = [list(v) for v in value]
            elif isinstance(value, list):
                value = list(value)
            data[name] = value
        data["options"] = self.options.model_dump(mode="json")
        return data

    def view(self, seat: int | None) -> dict:
        """The export with what ``seat`` may not see as nulls (None: the spectator)."""
        data = self.export()
        for name, part in self.parts.items():
            if not isinstance(part, Cards) or part.shown == PUBLIC:
                continue
            if part.shown == HIDDEN and part.per is None:
                data[name] = [None] * len(data[name])
            elif part.shown == HIDDEN:
                data[name] = [[None] * len(v) for v in data[name]]
            else:
                data[name] = [v if s == seat else [None] * len(v) for s, v in enumerate(data[name])]
        return data

    def _hidden_lists(self, seat: int) -> list[list[str]]:
        """The lists (of this state) whose cards ``seat`` cannot see."""
        out: list[list[str]] = []
        for name, part in self.parts.items():
            if not isinstance(part, Cards) or part.shown == PUBLIC:
                continue
            value = getattr(self, name)
            if part.per is None:
                out.append(value)
            else:
                out += [v for s, v in enumerate(value) if part.shown == HIDDEN or s != seat]
        return out

    def determinize(self, seat: int, rng: random.Random) -> CardGameState:
        twin = self.clone()
        hidden = twin._hidden_lists(seat)
        cards = [c for cards in hidden for c in cards]
        rng.shuffle(cards)
        at = 0
        for cards_list in hidden:
            cards_list[:] = cards[at:at + len(cards_list)]
            at += len(cards_list)
        return twin

    def all_cards(self) -> list[str]:
        """Every card in the state's parts."""
        out: list[str] = []
        for name, part in self.parts.items():
            if isinstance(part, Cards):
                value = getattr(self, name)
                out += [c for v in value for c in v] if part.per else value
        return out

    # --- the table ----------------------------------------------------------------

    def zones(self, seat: int | None) -> list[Zone]:
        """One zone per card part (a hand per seat, a stock shown as its count, piles face
        up), built from the view. Override to draw the table your way."""
        data = self.export() if seat is None else self.view(seat)
        zones: list[Zone] = []
        for name, part in self.parts.items():
            if isinstance(part, Cards):
                zones += self._part_zones(name, part, data[name])
        return zones

    def _part_zones(self, name: str, part: Cards, value: list) -> list[Zone]:
        title = name.replace("_", " ").capitalize()
        if part.per is None:
            if part.shown == HIDDEN:
                return [Zone(name, part.zone or "stock", title, cards=[None] * min(len(value), 1),
                             badges=[f"{name.replace('_', ' ')} {len(value)}"])]
            return [Zone(name, part.zone or "pile", title, cards=list(value),
                         badges=[f"{len(value)} cards"])]
        zones = []
        for i, cards in enumerate(value):
            kind = part.zone or ("hand" if part.shown == OWNER else "pile")
            if part.per == "seat":
                side = self.seating.side_of(i)
                zones.append(Zone(f"{name}-{i}", kind, title, seat=i,
                                  side=side, cards=list(cards), badges=[f"{len(cards)} cards"]))
            else:
                zones.append(Zone(f"{name}-{i}", kind, title, side=i, cards=list(cards),
                                  badges=[f"{len(cards)} cards"]))
        return zones

    # --- loading ------------------------------------------------------------------

    def check(self, strict: bool) -> None:
        """Refuse, with StateError naming the part, what is no position of the game beyond
        the types (a pile that may not be empty, a counter bounded by the table's size).
        Called by ``from_json`` after the types and the cards are checked."""

    @classmethod
    def from_json(cls, game: Game, data: Any, strict: bool = False) -> CardGameState:
        """The state ``data`` (an export) describes, or StateError naming the part.

        Partial by default: absent parts take their empty values, an absent ``to_play``
        is the dealer's neighbour. ``strict``: every field present (the parts, ``game``,
        ``players``, ``dealer``, ``to_play``, ``options``), the whole deck.
        """
        if not isinstance(data, dict):
            raise StateError(f"position: an object, not {type(data).__name__}")
        for key in ("game", "dealer", "to_play", "options") if strict else ():
            if key not in data:
                raise StateError(f"{key}: missing (strict loading wants every part)", (key,))
        if data.get("game", cls.game_id) != cls.game_id:
            raise StateError(f"game: {data['game']!r}, not {cls.game_id!r}", ("game",))
        options = load_options(game, data.get("options", {}), strict)
        seating = load_seating(game, data, options, cls.parts, strict)
        to_play = load_seat(data.get("to_play", seating.leader), seating.players, "to_play", True)
        values = {}
        for name, part in cls.parts.items():
            if name not in data:
                if strict:
                    raise StateError(f"{name}: missing (strict loading wants every part)", (name,))
                continue
            values[name] = load_part(name, part, data[name], seating, strict)
            if isinstance(part, SeatNo):
                load_seat(values[name], seating.players, name, True)
        state = cls(seating, options, to_play, **values)
        check_deck(state, strict)
        state.check(strict)
        return state


class CardGame(Game):
    """A Game whose state is a CardGameState: loading comes with it."""

    State: ClassVar[type[CardGameState]]

    def state_from_json(self, data: dict, strict: bool = False) -> CardGameState:
        return self.State.from_json(self, data, strict)

