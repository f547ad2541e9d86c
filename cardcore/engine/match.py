"""A match: hands until a side wins, as a step machine that simulate and the TUI drive.

Randomness is derived from the seed, so a match replays exactly: hand h deals
with ``Random(f"{seed}:{h}")``, the bot in seat s plays hand h with
``Random(f"{seed}:{h}:{s}")``, and the first dealer (or the draw for partners)
comes from ``Random(f"{seed}:0")``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pydantic

from cardcore.engine import __version__, journal
from cardcore.engine.game import Action, Game, GameState, IllegalAction, load_state
from cardcore.engine.name_fields import Name, SideName
from cardcore.engine.people import PersonKey
from cardcore.engine.records import first_error
from cardcore.engine.scoresheet import ScoreSheet
from cardcore.engine.seating import Draw, Seating, default_side_names, partnership_draw, seats_from_draw
from cardcore.language import in_english


class SetupError(ValueError):
    """A setup that cannot be played: one line for whoever asked for it."""


def check_players(game: Game, players: int) -> None:
    """SetupError unless ``game`` is played by ``players`` players."""
    if players not in game.player_counts:
        counts = ", ".join(map(str, game.player_counts))
        raise SetupError(f"{game.name} is for {counts} players, not {players}")


class Match:
    def __init__(
        self,
        game: Game,
        options: Any = None,
        *,
        seed: int | str = 0,
        players: int | None = None,
        seats: list[str] | None = None,
        names: list[str] | None = None,
        side_names: list[str] | None = None,
        people: Sequence[str | None] | None = None,
        draw_for_partners: bool = False,
        first_dealer: int | None = None,
        max_hands: int | None = None,
        match_no: int = 0,
        on_event: Callable[[journal.MatchEvent], None] | None = None,
        pm: Any = None,
    ):
        self.game = game
        self.options = options if options is not None else game.Options()
        self.seed = seed
        players = players or (len(seats) if seats else game.player_counts[0])
        check_players(game, players)
        self.seats = list(seats) if seats else ["human"] * players
        if len(self.seats) != players:
            raise SetupError(f"{len(self.seats)} seats named for {players} players")
        self.max_hands = max_hands
        self.match_no = match_no
        self.on_event = on_event
        self.pm = pm
        self.seating = game.seating(players, self.options,
                                    names=tuple(names) if names else (),
                                    side_names=tuple(side_names) if side_names else ())
        # a draw for partners needs partners (canasta for two or three: D45)
        self.draw_for_partners = draw_for_partners and game.has_partnership_draw and self.seating.partnerships
        self.draw: Draw | None = None
        #: Each seat's person key (``cardcore.engine.people``), None where the name is the person.
        self.people: list[str | None] = list(people or [])[:players]
        self.people += [None] * (players - len(self.people))
        #: The first hand's dealer when the setup chose it (a rematch), else the game's choice.
        self.first_dealer = first_dealer
        self.sheet = ScoreSheet(list(self.seating.side_names), self.options.target,
                                variant=in_english(lambda: game.variant(self.options)))
        self.hand_no = 0
        self.state: GameState | None = None
        self.finished_hand: GameState | None = None
        self.winner: int | None = None
        self.over = False
        self.decisions = 0
        self._bot_rngs: dict[int, random.Random] = {}

    # --- driving -------------------------------------------------------------

    def start(self) -> None:
        """Seat the players, choose the first dealer, deal the first hand."""
        if self.on_event is not None:
            self.on_event(journal.MatchStart.make(
                match=self.match_no, game=self.game.id, seed=self.seed, seats=self.seats,
                names=list(self.seating.names), side_names=list(self.seating.side_names),
                options=self.options.model_dump(mode="json"), version=__version__,
                **({"first_dealer": self.first_dealer} if self.first_dealer is not None else {}),
                **({"people": list(self.people)} if any(self.people) else {})))
        rng = random.Random(f"{self.seed}:0")
        if self.draw_for_partners:
            self._seat_by_draw(rng)
        dealer = self.game.first_dealer(self.seating, self.options, rng)
        if self.first_dealer is not None:
            dealer = self.first_dealer
        self.seating = self.seating.with_dealer(dealer)
        self._deal()

    @property
    def to_play(self) -> int | None:
        return None if self.over or self.state is None else self.state.to_play

    def legal_actions(self) -> list[Action]:
        return [] if self.over or self.state is None else self.state.legal_actions()

    def apply(self, action: Action) -> None:
        """Apply ``action`` for the seat to play (IllegalAction leaves everything as it was)."""
        state = self.live_state()
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {type(action).__name__}")
        seat = state.to_play
        label = in_english(lambda: state.log_line(action))  # the record's words are English
        state.apply(action)
        self.decisions += 1
        if self.on_event is not None:
            self.on_event(journal.Played.make(hand=self.hand_no, seat=seat, action=action.to_json(),
                                      label=label, state=state.export()))
        if state.is_over:
            self._finish_hand()

    def bot_rng(self, seat: int) -> random.Random:
        """The random stream of the bot in ``seat`` for this hand."""
        rng = self._bot_rngs.get(seat)
        if rng is None:
            rng = self._bot_rngs[seat] = random.Random(f"{self.seed}:{self.hand_no}:{seat}")
        return rng

    @property
    def totals(self) -> list[int]:
        return self.sheet.totals

    # --- between hands ---------------------------------------------------------

    def _deal(self) -> None:
        self.hand_no += 1
        self._bot_rngs = {}
        rng = random.Random(f"{self.seed}:{self.hand_no}")
        self.state = self.game.new_hand(self.seating, self.options, rng, self.sheet.totals)
        if self.on_event is not None:
            self.on_event(journal.Deal.make(hand=self.hand_no, dealer=self.seating.dealer,
                                    state=self.state.export()))

    def _finish_hand(self) -> None:
        state = self.live_state()
        row = state.score()
        self.sheet.add(row)
        self.finished_hand = state
        if self.on_event is not None:
            self.on_event(journal.HandEnd.make(hand=self.hand_no, score=row, totals=self.sheet.totals))
        if self.pm is not None:
            self.pm.hook.cardcore_hand_finished(match=self, row=row)
        self.winner = self.game.match_winner(self.sheet, self.options)
        capped = self.max_hands is not None and self.hand_no >= self.max_hands
        if self.winner is not None or capped:
            self.over = True
            if self.on_event is not None:
                self.on_event(journal.MatchEnd.make(winner=self.winner, totals=self.sheet.totals))
            if self.pm is not None:
                self.pm.hook.cardcore_match_finished(match=self)
            return
        self.seating = self.seating.rotated()
        self._deal()

    def _seat_by_draw(self, rng: random.Random) -> None:
        draw = partnership_draw(self.seating.players, rng)
        where = seats_from_draw(draw)
        order = sorted(range(len(where)), key=where.__getitem__)  # player at each new seat
        self.seats = [self.seats[p] for p in order]
        self.people = [self.people[p] for p in order]
        names = tuple(self.seating.names[p] for p in order)
        self._reseat(replace(self.seating, names=names, side_names=(),
                             draw=tuple(where[p] for p in draw.ranking)))
        self.draw = draw
        if self.on_event is not None:
            self.on_event(journal.Draw.make(cards=[{str(p): c for p, c in r.items()} for r in draw.rounds],
                                    seats=where))

    def rename(self, seat: int, name: str, person: str | None = None) -> None:
        """Give ``seat`` a new name (and ``person``'s key, when given); sides named after
        their seats (the default) follow it."""
        if person is not None:
            self.people[seat] = person
        old = self.seating
        names = list(old.names)
        names[seat] = name
        sides = () if old.side_names == default_side_names(old) else old.side_names
        self._reseat(replace(old, names=tuple(names), side_names=sides))

    def _reseat(self, seating: Seating) -> None:
        """The new seating, and the sheet's side names with it."""
        self.seating = seating
        self.sheet.side_names = list(seating.side_names)

    def live_state(self) -> GameState:
        """The hand in play (RuntimeError when the match is over or not started)."""
        if self.over or self.state is None:
            raise RuntimeError("the match is over" if self.over else "the match has not started")
        return self.state

    # --- the transaction around a move ------------------------------------------------

    @contextmanager
    def transaction(self, snapshot: dict[str, Any] | None = None) -> Iterator[list[journal.MatchEvent]]:
        """What is done inside is all or nothing: its events are held (the list yielded)
        and go to ``on_event`` once it is done; if it raises, the match is put back as
        ``snapshot`` (this match's snapshot as it is now; taken here when not given) has it
        and the held events are dropped."""
        if snapshot is None:
            snapshot = self.snapshot()
        emit, held = self.on_event, list[journal.MatchEvent]()
        self.on_event = held.append
        try:
            yield held
        except BaseException:
            self.on_event = emit
            self.restore(snapshot)
            raise
        self.on_event = emit
        if emit is not None:
            for event in held:
                emit(event)

    def restore(self, snapshot: dict[str, Any]) -> None:
        """Put this match back where ``snapshot`` (one of its own) says, in place."""
        back = Match.from_snapshot(self.game, snapshot, on_event=self.on_event, pm=self.pm)
        back.first_dealer = self.first_dealer
        self.__dict__.update(back.__dict__)

    # --- snapshots: saves, resume, undo --------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to continue exactly where the match is (JSON-able)."""
        return {
            "game": self.game.id,
            "options": self.options.model_dump(mode="json"),
            "seed": self.seed,
            "seats": self.seats,
            "names": list(self.seating.names),
            "side_names": list(self.seating.side_names),
            "dealer": self.seating.dealer,
            "draw": list(self.seating.draw) if self.seating.draw else None,
            "match_no": self.match_no,
            "max_hands": self.max_hands,
            "hand": self.hand_no,
            "sheet": self.sheet.to_json(),
            "state": self.state.export() if self.state is not None else None,
            "winner": self.winner,
            "over": self.over,
            "decisions": self.decisions,
            "bot_rngs": {str(s): _rng_state(r) for s, r in sorted(self._bot_rngs.items())},
            **({"people": list(self.people)} if any(self.people) else {}),
        }

    @classmethod
    def from_snapshot(cls, game: Game, data: Any, **kwargs: Any) -> Match:
        """The match a ``snapshot()`` describes; ValueError naming the field when the data
        is no snapshot of a match of ``game`` (wrong types, sizes, ranges, impossible state)."""
        snap = _snapshot_of(game, data)
        options = game.Options(**snap.options)
        match = cls(game, options, seed=snap.seed, seats=snap.seats,
                    names=snap.names, side_names=snap.side_names, people=snap.people,
                    max_hands=snap.max_hands, match_no=snap.match_no, **kwargs)
        match.seating = replace(match.seating, dealer=snap.dealer,
                                draw=tuple(snap.draw) if snap.draw else None)
        match.sheet = ScoreSheet(list(match.seating.side_names), options.target,
                                 list(snap.sheet.hands),  # type: ignore[arg-type]  # checked below
                                 variant=in_english(lambda: game.variant(options)))
        match.hand_no = snap.hand
        match.state = load_state(game, snap.state, strict=True) if snap.state else None
        match.winner = snap.winner
        match.over = snap.over
        match.decisions = snap.decisions
        _check_snapshot(match, snap)
        match._bot_rngs = {int(s): _rng_from(v) for s, v in snap.bot_rngs.items()}
        return match


class _Sheet(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="ignore", strict=True)
    hands: list[dict[str, Any]]


class Snapshot(pydantic.BaseModel):
    """The shape of ``Match.snapshot()``: checked before any of it is used."""

    model_config = pydantic.ConfigDict(extra="forbid", strict=True)

    game: str
    options: dict[str, Any]
    seed: int | str
    seats: list[str] = pydantic.Field(min_length=2, max_length=16)
    names: list[Name]
    side_names: list[SideName]
    dealer: int = pydantic.Field(ge=0)
    draw: list[int] | None = None
    match_no: int = pydantic.Field(0, ge=0)
    max_hands: int | None = pydantic.Field(None, ge=1)
    hand: int = pydantic.Field(ge=0)
    sheet: _Sheet
    state: dict[str, Any] | None
    winner: int | None = None
    over: bool = False
    decisions: int = pydantic.Field(0, ge=0)
    bot_rngs: dict[str, list[Any]] = {}
    people: list[PersonKey | None] | None = pydantic.Field(None, max_length=16)


def _snapshot_of(game: Game, data: Any) -> Snapshot:
    try:
        snap = Snapshot.model_validate(data)
    except pydantic.ValidationError as exc:
        raise ValueError(f"match.{first_error(exc)}") from None
    if snap.game != game.id:
        raise ValueError(f"match.game: {snap.game!r}, not {game.id!r}")
    return snap


def _check_snapshot(match: Match, snap: Snapshot) -> None:
    """What the types cannot say: sizes against the table, ranges, a playable position."""
    seating = match.seating
    if len(snap.names) != seating.players:
        raise ValueError(f"match.names: {len(snap.names)} names for {seating.players} seats")
    if snap.people is not None and len(snap.people) != seating.players:
        raise ValueError(f"match.people: {len(snap.people)} person keys for {seating.players} seats")
    if len(snap.side_names) != seating.sides:
        raise ValueError(f"match.side_names: {len(snap.side_names)} names for {seating.sides} sides")
    if snap.draw is not None and sorted(snap.draw) != list(range(seating.players)):
        raise ValueError("match.draw: not a ranking of the seats")
    for h, row in enumerate(snap.sheet.hands):
        sides = row.get("sides")
        if (not isinstance(sides, list) or len(sides) != seating.sides
                or not all(isinstance(x, dict) and type(x.get("total")) is int for x in sides)):
            raise ValueError(f"match.sheet.hands.{h}: not a score row of {seating.sides} sides")
    if snap.winner is not None and not 0 <= snap.winner < seating.sides:
        raise ValueError(f"match.winner: no side {snap.winner}")
    if any(not s.isdigit() or int(s) >= seating.players for s in snap.bot_rngs):
        raise ValueError("match.bot_rngs: keys are seats")
    state = match.state
    if not snap.over and (state is None or state.is_over):
        raise ValueError("match.state: a match that is not over needs a hand in play")
    if state is not None and state.to_play is not None and state.to_play >= seating.players:
        raise ValueError(f"match.state: seat {state.to_play} to play at a table of {seating.players}")


def _rng_state(rng: random.Random) -> list:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from(data: Sequence[Any]) -> random.Random:
    rng = random.Random()
    try:
        rng.setstate((data[0], tuple(data[1]), data[2]))
    except (TypeError, ValueError, IndexError, OverflowError):
        raise ValueError("match.bot_rngs: not the state of a random generator") from None
    return rng
