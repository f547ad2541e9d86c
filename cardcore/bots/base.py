"""The Bot interface and the InfoSet a bot plays from."""

from __future__ import annotations

import random
from typing import ClassVar

from cardcore.game import Action, Game, GameState


class InfoSet:
    """Everything a seat may know, nothing more: its view, its legal actions, samples."""

    __slots__ = ("_state", "seat", "game")

    def __init__(self, game: Game, state: GameState, seat: int):
        self._state = state
        self.game = game
        self.seat = seat

    def view(self) -> dict:
        return self._state.view(self.seat)

    def legal_actions(self) -> list[Action]:
        return self._state.legal_actions()

    def sample(self, rng: random.Random) -> GameState:
        """A state consistent with the view: hidden cards re-dealt at random."""
        return self._state.determinize(self.seat, rng)


class Bot:
    id: ClassVar[str]
    name: ClassVar[str] = ""
    games: ClassVar[tuple[str, ...] | None] = None

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        raise NotImplementedError

    @classmethod
    def plays(cls, game_id: str) -> bool:
        return cls.games is None or game_id in cls.games
