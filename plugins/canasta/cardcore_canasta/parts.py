"""A Canasta hand declared with the kit: cards as ints (``rules.ID_TEXT``) inside, notation in
the export; the stock kept top last, the pile squared or open (D47), the melds and the turn
parts of the game's own. Export, view, the spectator's view, determinize and loading follow
(cardcore.engine.kit); loading.py keeps the rules the declaration cannot say."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardcore.engine.game import StateError
from cardcore.engine.kit import HIDDEN, OWNER, Cards, Choice, Count, Flag, Part, SeatNo
from cardcore.engine.kit.parts import Path, Place, key_of, require, where

from .rules import ID_TEXT, RED_THREES, SLOT_NAMES, SLOT_OF_RANK, Meld

PHASES = ("draw", "play", "over")
#: A list of cards of the canasta deck, ints inside.
CARDS = Cards(names=ID_TEXT)


@dataclass(frozen=True)
class Phase(Choice):
    """The phase, an int inside (``moves.DRAW_PHASE`` ...), its name in the export."""

    def read(self, state: Any, name: str) -> str:
        return PHASES[state.phase]


@dataclass(frozen=True)
class Stock(Cards):
    """The stock: kept top last (a draw pops it), written top first."""

    def export(self, value: list[int]) -> list[str]:
        names = ID_TEXT
        return [names[c] for c in reversed(value)]

    def export_one(self, value: list[int]) -> list[str]:
        return self.export(value)

    def load_one(self, path: Path, value: Any, strict: bool) -> list[int]:
        return super().load_one(path, value, strict)[::-1]


@dataclass(frozen=True)
class Pile(Part):
    """The discard pile, top last: everyone sees all of it with ``browse_pile``, else only
    its top card (squared, D47): ``determinize`` deals the cards under it again."""

    def empty(self) -> list[int]:
        return []

    def read(self, state: Any, name: str) -> tuple[list[int], bool]:
        return state.pile, state.setup.browse_pile

    @property
    def public(self) -> bool:
        return False  # a squared pile hides all but its top, from every seat alike

    @property
    def by_seat(self) -> bool:
        return False

    def export(self, value: tuple[list[int], bool]) -> list[str]:
        names = ID_TEXT
        return [names[c] for c in value[0]]

    def spectator(self, value: tuple[list[int], bool]) -> list[Any]:
        pile, browse = value
        if browse or len(pile) < 2:
            return self.export(value)
        return [None] * (len(pile) - 1) + [ID_TEXT[pile[-1]]]

    def view(self, value: tuple[list[int], bool], seat: int | None) -> list[Any]:
        return self.spectator(value)

    def cards_one(self, value: tuple[list[int], bool]) -> list[str]:
        return self.export(value)

    def load_one(self, path: Path, value: Any, strict: bool) -> list[int]:
        return CARDS.load_one(path, value, strict)

    def hidden_places(self, state: Any, name: str, seat: int) -> list[Place]:
        pile = state.pile
        if state.setup.browse_pile or len(pile) < 2:
            return []
        return [(name, None, True, pile, (len(pile) - 1,), pile[:-1])]  # the top card stays


@dataclass(frozen=True)
class Hands(Cards):
    """The hands: never a red three (laid out at once, D28). Refused as the hand loads: a
    bot's sample tries fillings of the hidden cards until one loads (cardcore.engine.bots)."""

    def load_one(self, path: Path, value: Any, strict: bool) -> list[int]:
        hand = super().load_one(path, value, strict)
        if RED_THREES[0] in hand or RED_THREES[1] in hand:
            raise StateError(f"{where(path)}: a red three is never held (it is laid out at once)",
                             path)
        return hand


#: A side's melds: its rank slot -> (cards, naturals, wilds).
SideMelds = dict[int, Meld]


@dataclass(frozen=True)
class Melds(Part):
    """A side's melds, ``[{"rank": "K", "cards": [...]}, ...]`` by rank. Loading checks the
    shape and the rank; the meld rule is the state's ``check``."""

    def empty(self) -> SideMelds:
        return {}

    def export_one(self, value: SideMelds) -> list[dict[str, Any]]:
        names = ID_TEXT
        return [{"rank": SLOT_NAMES[s], "cards": [names[c] for c in value[s][0]]}
                for s in sorted(value)]

    def cards_one(self, value: SideMelds) -> list[str]:
        return [ID_TEXT[c] for cards, _, _ in value.values() for c in cards]

    def load_one(self, path: Path, value: Any, strict: bool) -> SideMelds:
        require(path, value, list, "a list of melds")
        melds: SideMelds = {}
        for i, meld in enumerate(value):
            at = (*path, i)
            require(at, meld, dict, "an object")
            if "cards" not in meld:
                raise StateError(f"{where((*at, 'cards'))}: missing", (*at, "cards"))
            cards = tuple(sorted(CARDS.load_one((*at, "cards"), meld["cards"], strict)))
            rank = key_of(at, meld, "rank", None, strict)
            if rank is None:  # left out: the rank of its first card
                rank = SLOT_NAMES[cards[0] >> 2] if cards else "?"
            slot = SLOT_OF_RANK.get(rank.upper()) if isinstance(rank, str) else None
            if slot is None:
                raise StateError(f"{where(at)}: {rank!r} is not a rank that melds", at)
            if slot in melds:
                raise StateError(f"{where(at)}: two melds of {rank}", at)
            melds[slot] = (cards, 0, 0)  # counted by the state's check
        return melds


#: This turn's new melds (rank slots) and whether it added to earlier ones.
TurnValue = tuple[tuple[int, ...], bool]


@dataclass(frozen=True)
class Turn(Part):
    """``{"new_ranks": ["K"], "added_to_earlier": false}``: what the mover melded this turn
    (going out concealed, D34)."""

    def empty(self) -> TurnValue:
        return (), False

    def read(self, state: Any, name: str) -> TurnValue:
        return state.turn_new_ranks, state.turn_added_to_earlier

    def export(self, value: TurnValue) -> dict[str, Any]:
        ranks, added = value
        return {"new_ranks": [SLOT_NAMES[s] for s in sorted(ranks)], "added_to_earlier": added}

    def load_one(self, path: Path, value: Any, strict: bool) -> TurnValue:
        require(path, value, dict, "an object")
        ranks = key_of(path, value, "new_ranks", [], strict)
        at = (*path, "new_ranks")
        require(at, ranks, list, "a list of ranks")
        slots = []
        for i, rank in enumerate(ranks):
            slot = SLOT_OF_RANK.get(rank.upper()) if isinstance(rank, str) else None
            if slot is None:
                raise StateError(f"{where((*at, i))}: {rank!r} is not a rank", (*at, i))
            slots.append(slot)
        added = FLAG.load_one((*path, "added_to_earlier"),
                              key_of(path, value, "added_to_earlier", False, strict), strict)
        return tuple(sorted(slots)), added


FLAG = Flag()


#: A hand's parts, in export order.
PARTS: dict[str, Part] = {
    "phase": Phase(choices=PHASES),
    "hands": Hands(per="seat", shown=OWNER, names=ID_TEXT, known=True, sort=True),
    "stock": Stock(shown=HIDDEN, names=ID_TEXT),
    "discard": Pile(),
    "frozen": Flag(),
    "melds": Melds(per="side"),
    "red_threes": Cards(per="side", names=ID_TEXT, sort=True),
    "initial_meld_done": Flag(per="side"),
    "has_melded": Flag(per="seat"),
    "turn": Turn(),
    "totals_before": Count(per="side", least=None),
    "went_out": SeatNo(),
    "concealed": Flag(),
}
