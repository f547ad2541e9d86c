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

from typing import Any, ClassVar, Self

from cardcore.engine.game import Game, GameOptions, Zone
from cardcore.engine.kit.declared import DeclaredState
from cardcore.engine.kit.parts import HIDDEN, OWNER, Cards, Part
from cardcore.engine.seating import Seating


class CardGameState(DeclaredState):
    """A GameState declared by ``parts``; subclasses write the rules.

    Attributes: ``seating`` (the core's Seating), ``options``, ``to_play``, and one
    attribute per part (a list per seat or side for ``per`` parts). ``clone`` copies the
    parts and shares everything else: keep every changing value in a part.
    """

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

    @classmethod
    def made(cls, game: Game, seating: Seating, options: GameOptions, to_play: int | None,
             values: dict[str, Any]) -> Self:
        return cls(seating, options, to_play, **values)


class CardGame(Game):
    """A Game whose state is a CardGameState: loading comes with it."""

    State: ClassVar[type[CardGameState]]

    def state_from_json(self, data: dict, strict: bool = False) -> CardGameState:
        return self.State.from_json(self, data, strict)

