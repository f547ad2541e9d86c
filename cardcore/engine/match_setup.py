"""The setup of a match, checked in one place.

``MatchSetup`` is what anyone asks for: the command line (``cardcore play``/``simulate``),
the setup form, a server's ``create_table``, the tournament and the library's rematch.
``MatchSetup.check(registry)`` turns it into a ``Setup`` the match is built from, or
raises ``SetupError``: one line naming what is wrong, whoever asked.

The seed is part of the setup: one that is not given is drawn here (``draw_seed``), so
the seed a form shows, the seed the match deals with and the seed the library keeps are
one number.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Protocol

import pydantic
from pydantic import ConfigDict, Field

from cardcore.engine.bots.base import Bot
from cardcore.engine.bots.variant import MAX_SPEC, VariantError, resolve
from cardcore.engine.complaints import option_complaint
from cardcore.engine.game import Game, GameOptions
from cardcore.engine.match import Match, SetupError, check_players
from cardcore.engine.name_fields import Name
from cardcore.engine.people import PersonKey
from cardcore.engine.records import first_error


class Installed(Protocol):
    """What a setup is checked against: the installed games and bots by id (the plugin
    registry, ``cardcore.services.plugins.Registry``, is one)."""

    @property
    def games(self) -> Mapping[str, Game]: ...

    @property
    def bots(self) -> Mapping[str, type[Bot]]: ...

HUMAN = "human"
#: Seats a setup names at most (no built-in game seats more than 4).
MAX_SEATS = 8
SeatKind = Annotated[str, Field(min_length=1, max_length=MAX_SPEC)]


#: The bits of a seed nobody chose: no search over the seeds finds a deal from what a seat sees.
SECRET_SEED_BITS = 128


def draw_seed() -> str:
    """A seed nobody chose, from the system's CSPRNG (a server's deals, a rematch's): 128
    bits as hex. Hand ``h`` is dealt from ``Random(f"{seed}:{h}")`` as with any seed, so the
    match replays from its record, where the seed is kept (players never receive it)."""
    return secrets.token_hex(SECRET_SEED_BITS // 8)


class MatchSetup(pydantic.BaseModel):
    """A match as asked for: everything is checked against the installed games and bots
    by ``check``. ``seats`` holds ``"human"`` or a bot id per seat."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    game: str = Field(max_length=64)
    options: dict[str, Any] = {}
    seats: list[SeatKind] = Field(min_length=1, max_length=MAX_SEATS)
    names: list[Name] | None = Field(None, max_length=MAX_SEATS)
    side_names: list[Name] | None = Field(None, max_length=MAX_SEATS)
    #: Each seat's person key (``cardcore.engine.people``: a local profile's), None for a
    #: seat whose name is the person.
    people: list[PersonKey | None] | None = Field(None, max_length=MAX_SEATS)
    seed: int | str | None = None
    #: The match's target (the ``target`` option) when given apart from the options.
    target: int | None = None
    draw_for_partners: bool = False
    #: The first hand's dealer (a rematch: the deal moves on); None: the game chooses.
    first_dealer: int | None = Field(None, ge=0)
    #: Humans may sit (a table); False: bots only (simulate, tournaments).
    humans_allowed: bool = True

    @classmethod
    def of(cls, **fields: Any) -> MatchSetup:
        """``MatchSetup(**fields)``, a bad field being a SetupError naming it."""
        try:
            return cls(**fields)
        except pydantic.ValidationError as exc:
            raise SetupError(first_error(exc)) from None

    def check(self, registry: Installed) -> Setup:
        """The setup with its game, options and seed resolved (SetupError: why not)."""
        game = registry.games.get(self.game)
        if game is None:
            raise SetupError(f"no game {self.game!r} (games: {', '.join(sorted(registry.games))})")
        options = self._options(game)
        players = len(self.seats)
        check_players(game, players)
        for kind in self.seats:
            self._check_seat(registry, game, kind)
        if self.names is not None and len(self.names) != players:
            raise SetupError(f"{len(self.names)} names for {players} seats")
        if self.people is not None and len(self.people) != players:
            raise SetupError(f"{len(self.people)} person keys for {players} seats")
        sides = game.seating(players, options).sides
        if self.side_names is not None and len(self.side_names) != sides:
            raise SetupError(f"{len(self.side_names)} side names for {sides} sides")
        if self.first_dealer is not None and self.first_dealer >= players:
            raise SetupError(f"no seat {self.first_dealer + 1} to deal at a table of {players}")
        seed = self.seed if self.seed is not None else draw_seed()
        return Setup(game, options, list(self.seats), seed, self.names, self.side_names,
                     self.draw_for_partners, self.first_dealer, self.people)

    def _options(self, game: Game) -> GameOptions:
        values = dict(self.options)
        if self.target is not None:
            values["target"] = self.target
        return game_options(game, values)

    def _check_seat(self, registry: Installed, game: Game, kind: str) -> None:
        if kind == HUMAN and self.humans_allowed:
            return
        bot = registry.bots.get(kind)
        if bot is None and not self.humans_allowed and "[" in kind:  # bots only: a variant
            try:
                bot = resolve(registry.bots, kind)
            except VariantError as exc:
                raise SetupError(str(exc)) from None
        if bot is None:
            extra = "human or " if self.humans_allowed else ""
            known = ", ".join(sorted(registry.bots))
            raise SetupError(f"unknown seat {kind[:40]!r} (use {extra}a bot: {known})")
        if not bot.plays(game.id):
            raise SetupError(f"bot {kind!r} does not play {game.id}")


def game_options(game: Game, values: Mapping[str, Any]) -> GameOptions:
    """``game.Options(**values)``, or SetupError in one line: an unknown key named with the
    game's keys, a bad value with what its key takes (``complaints.option_complaint``)."""
    try:
        return game.Options(**values)
    except pydantic.ValidationError as exc:
        raise SetupError(option_complaint(game.id, game.Options, exc)) from None


@dataclass(frozen=True)
class Setup:
    """A checked setup: what ``Match`` is built from (``new_match``)."""

    game: Game
    options: GameOptions
    seats: list[str]
    seed: int | str
    names: list[str] | None = None
    side_names: list[str] | None = None
    draw_for_partners: bool = False
    first_dealer: int | None = None
    people: list[str | None] | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    def new_match(self, *, pm: Any = None, match_no: int = 0, max_hands: int | None = None) -> Match:
        """The match of this setup, not started (``Match.start`` deals)."""
        return Match(self.game, self.options, seed=self.seed, seats=list(self.seats),
                     names=self.names or None, side_names=self.side_names or None,
                     people=self.people or None, draw_for_partners=self.draw_for_partners,
                     first_dealer=self.first_dealer,
                     match_no=match_no, max_hands=max_hands, pm=pm)

    def request(self) -> MatchSetup:
        """The setup as asked for (the options as JSON): what a rematch or a form starts from."""
        return MatchSetup(game=self.game.id, options=self.options.model_dump(mode="json"),
                          seats=list(self.seats), names=self.names or None,
                          side_names=self.side_names or None, seed=self.seed,
                          draw_for_partners=self.draw_for_partners, first_dealer=self.first_dealer,
                          people=self.people or None)
