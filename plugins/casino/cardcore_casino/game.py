"""The fishing-game engine as a cardcore Game, and classic Casino configured on it.

The state and the moves are imported when a hand is dealt or read (the methods below):
``cardcore plugins`` lists the games without them (docs/design.md, Start-up)."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, cast

from cardcore.engine.cards import CardError, parse_card, standard_deck
from cardcore.engine.deal import one_at_a_time, packets, shuffled
from cardcore.engine.game import Action, Game, GameOptions, GameState, IllegalAction, ScoreExtra
from cardcore.engine.kit.scores import counts_from_items
from cardcore.engine.seating import Seating
from cardcore.language import N_
from cardcore_casino.heuristic import heuristic
from cardcore_casino.rules import (
    CASINO_VALUES,
    ID,
    CasinoOptions,
    Rules,
    direction_sign,
)
from cardcore_casino.scoring import OLDER_COUNTS, older_counts
from cardcore_casino.text import CasinoText, RulesText
from cardcore_casino.words import DOMAIN as FISHING_WORDS

if TYPE_CHECKING:
    from cardcore_casino.moves import FishingAction
    from cardcore_casino.state import FishingState


class FishingGame(Game):
    """One engine for the fishing games; a game supplies ``make_rules`` and its text."""

    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    partnerships: ClassVar[bool] = True
    #: Medium at about a seventh of its usual budget: at 1,000 iterations it stood three
    #: points a hand over greedy and half a point under hard; at 150 the two steps are even
    #: (docs/bots.md, "Spacing the fishing games' levels").
    search_settings: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "medium": {"iterations": 150, "work_budget": 37_500},
    }

    def __init__(self) -> None:
        self._rules_cache: dict[Any, Rules] = {}

    # --- configuration ---------------------------------------------------------------

    def make_rules(self, options: GameOptions) -> Rules:
        raise NotImplementedError

    def rules_for(self, options: GameOptions) -> Rules:
        key = tuple(sorted(options.model_dump(mode="json").items()))
        rules = self._rules_cache.get(key)
        if rules is None:
            rules = self._rules_cache[key] = self.make_rules(options)
        return rules

    def direction(self, options: GameOptions) -> int:
        return self.rules_for(options).direction

    def translate(self, text: str) -> str:
        """The game's own catalog, the core's, then the engine's (Casino's): the words of the
        score rows every fishing game shares."""
        said = super().translate(text)
        return FISHING_WORDS.gettext(text) if said == text else said

    def score_extras(self, options: GameOptions) -> list[ScoreExtra]:
        """The sweeps and big casinos of rows stored before the rows had ``counts``."""
        return counts_from_items(OLDER_COUNTS, older_counts)

    # --- hands ------------------------------------------------------------------------

    def new_hand(self, seating: Seating, options: GameOptions, rng: random.Random,
                 totals: list[int]) -> FishingState:
        from cardcore_casino.state import FishingState

        rules = self.rules_for(options)
        n = seating.players
        stock = [ID[c] for c in shuffled(standard_deck(), rng)]
        state = FishingState(rules, seating, None, [[] for _ in range(n)], [], [],
                             [[] for _ in range(n)], [0] * n, stock, None, list(totals))
        state._deal(first=True)
        return state

    def state_from_json(self, data: dict[str, Any], strict: bool = False) -> FishingState:
        """The state ``data`` describes (absent keys but ``hands`` take their defaults), or
        StateError naming the place. ``strict``: every key, the whole deck, each card once,
        and hand sizes that play can reach (``parts`` and ``load``)."""
        from cardcore_casino.state import FishingState

        return FishingState.from_json(self, data, strict)

    def action_from_json(self, state: GameState, data: dict[str, Any]) -> Action:
        from cardcore_casino.moves import find

        action = find(cast("list[FishingAction]", state.legal_actions()), _action_key(data))
        if action is not None:
            return action
        raise IllegalAction(f"not a legal action here: {data}")

    def heuristic(self, state: GameState, seat: int) -> float:
        return heuristic(state, seat)  # a search's hot path: no import statement here

    # --- the rules as played -------------------------------------------------------------

    #: The game's rules text: its parts of the shared text (see cardcore_casino.text).
    text: ClassVar[type[RulesText[Any]]]

    def rules(self, options: GameOptions) -> str:
        return self.text(self, options).render()


# --- Casino ------------------------------------------------------------------------------


Plan = Callable[[list[int]], list[tuple[int, int]]]


def casino_plans(options: CasinoOptions) -> tuple[Plan, Plan]:
    """The first deal's plan and the later deals'. Partials of the deal's functions, not
    lambdas: a game (its rules cache) goes to a server's bot processes pickled."""
    if options.deal_in_twos:
        return (functools.partial(packets, size=2, table=2, rounds=2),
                functools.partial(packets, size=2, rounds=2))
    return (functools.partial(packets, size=1, table=1, rounds=4),
            functools.partial(one_at_a_time, each=4))


class CasinoGame(FishingGame):
    id = "casino"
    name = "Casino"
    description = N_("The classic fishing game: capture by pairing and sums, build, sweep — to 21.")
    domain = FISHING_WORDS
    Options = CasinoOptions
    text = CasinoText

    def make_rules(self, options: GameOptions) -> Rules:
        assert isinstance(options, CasinoOptions)
        first, later = casino_plans(options)
        return Rules(
            self.id, options,
            value=CASINO_VALUES,
            max_build=10,
            court_take_all=options.court_cards_take_all,
            trail_rule="free" if options.may_trail_capturing_card else "no_capture",
            raise_own_build=True,
            direction=direction_sign(options.direction),
            first_plan=first,
            later_plan=later,
            sweeps_score=options.sweeps,
        )


# --- loading a state ------------------------------------------------------------------------


def _action_key(data: Any) -> tuple[Any, ...]:
    from cardcore_casino.moves import CAPTURE, NEW, TRAIL

    if not isinstance(data, dict):
        raise IllegalAction(f"an action is a JSON object, not {data!r}")
    try:
        kind = data.get("type")
        card = ID[parse_card(data["card"])]
        if kind == "trail":
            return (TRAIL, card)
        if kind == "capture":
            return (CAPTURE, card, _mask(data.get("taken")))
        if kind == "build":
            return (NEW, card, int(data["value"]), _mask(data.get("used")))
    except (CardError, KeyError, TypeError, ValueError) as exc:
        raise IllegalAction(f"not an action of this game: {data} ({exc})") from None
    raise IllegalAction(f"unknown action type {data.get('type')!r}")


def _mask(cards: Any) -> int:
    bits = 0
    for c in cards:
        bits |= 1 << ID[parse_card(c)]
    return bits
