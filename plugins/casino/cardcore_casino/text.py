"""The rules as the engine plays them, written from the same configuration it plays by.

``RulesText`` writes what the fishing games share; a game supplies its own parts (the
deal, the values, the sweeps) in a subclass: ``CasinoText`` here, Royal Casino's in its
own package. Every sentence is marked for translation (``_``): the text is in the language in
use, English where a catalog lacks it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

from cardcore.engine.game import GameOptions
from cardcore_casino.rules import CasinoOptions
from cardcore_casino.words import _

if TYPE_CHECKING:
    from cardcore_casino.game import FishingGame

OptionsT = TypeVar("OptionsT", bound=GameOptions)


class RulesText(Generic[OptionsT]):
    """The rules text of one fishing game under one set of options."""

    def __init__(self, game: FishingGame, options: OptionsT):
        self.game = game
        self.options = options
        self.rules = game.rules_for(options)

    # --- the parts a game supplies -------------------------------------------------------

    def deal(self) -> list[str]:
        """How the cards are dealt (one bullet)."""
        raise NotImplementedError

    def values(self) -> list[str]:
        """The card values and the highest build."""
        raise NotImplementedError

    def sweeps(self, sweeps: str) -> list[str]:
        """How sweeps score (``sweeps``: "Sweeps score 1 each" or "... do not score")."""
        raise NotImplementedError

    # --- the whole text -------------------------------------------------------------------

    def render(self) -> str:
        game = self.game
        lines = [f"# {game.name}", "", game.translate(game.description), ""]
        lines += self._players_and_deal()
        lines += ["", _("## Values"), *self.values(), ""]
        lines += self._a_turn()
        lines += self._end_and_scoring()
        lines += [
            "",
            _("## Winning"),
            _("- The target is {target}. When sides reach it (at or above) in one hand, the "
              "highest total wins; equal highest totals play another hand.").format(
                target=self.options.target),
        ]
        return "\n".join(lines) + "\n"

    def _players_and_deal(self) -> list[str]:
        if self.rules.direction == 1:
            direction = _("- Play goes clockwise. The dealer's neighbour in that direction "
                          "leads after every deal.")
        else:
            direction = _("- Play goes counter-clockwise. The dealer's neighbour in that "
                          "direction leads after every deal.")
        return [
            _("## Players and deal"),
            _("- 2, 3 or 4 players; with 4, seats 0+2 play seats 1+3 and pool their captures; "
              "3 players play each for themselves."),
            _("- The first dealer is drawn at random; the deal then passes to the left "
              "(seat + 1)."),
            direction,
            *self.deal(),
            _("- When every hand is empty the same packets give four more each (none to the "
              "table) until the stock is gone. The last deal is announced: \"last\"."),
        ]

    def _a_turn(self) -> list[str]:
        r = self.rules
        if r.raise_own_build:
            raising = _(" — any single build, your own too")
        else:
            raising = _(" — only a build owned by an opponent")
        backing = _(" (one ace backs either a build of 1 or a build of 14, not both)") \
            if r.ace_dual else ""
        lines = [
            _("## A turn: play one card from the hand"),
            _("- **Capture**: take one or more disjoint groups of the played card's value — a "
              "loose card of that value, loose cards adding up to it, or a whole build of that "
              "value (a build is never part of a sum). Every loose card of the value is a group "
              "of its own. Taking everything on the table is a sweep; the next player can only "
              "trail."),
            _("- **Build**: the played card with at least one card already on the table. A new "
              "build is the card, alone or with loose cards, making its value, and may take in "
              "further loose groups of that value at once (a multiple build: a 5 played on a "
              "loose 5 builds fives). A single build may be raised by one card from the hand "
              "(loose cards never raise it, but loose groups of the new value may be taken in, "
              "making it multiple){raising}. A card, alone or with loose cards, making the value "
              "of a build joins it (it becomes or stays multiple), with any further loose "
              "groups of that value. Multiple builds never change value; builds never merge; "
              "builds of the same value may stand side by side.").format(raising=raising),
            _("- The owner of a build is the last player to create, raise or add to it. No move "
              "may leave a player owning a build without holding a card that captures its "
              "value{backing}. Only the current owner is bound; an owner may own several "
              "builds.").format(backing=backing),
            _("- With 4 players, partners may not raise or add to each other's builds, but may "
              "capture them."),
        ]
        trail = _("- **Trail**: lay the card on the table. An owner of a build may not trail.")
        if r.trail_rule == "no_match":
            trail += _(" A card of the same value as a loose card may not be trailed "
                       "(capturing stays optional otherwise).")
        elif r.trail_rule == "no_capture":
            trail += _(" A card that could capture may not be trailed.")
        else:
            trail += _(" A card that could capture may still be trailed.")
        lines.append(trail)
        return lines

    def _end_and_scoring(self) -> list[str]:
        sweeps = _("Sweeps score 1 each") if self.rules.sweeps_score else \
            _("Sweeps do not score")
        return [
            "",
            _("## End of the hand and scoring"),
            _("- Cards left on the table go to the last player who captured (never a sweep); "
              "if nobody captured, to nobody. A capture with the hand's last card that empties "
              "the table is a sweep."),
            _("- Most cards 3 and most spades 1 (strictly more than every other side; a tie "
              "scores nobody), big casino (10♦) 2, little casino (2♠) 1, each ace 1."),
            *self.sweeps(sweeps),
        ]


class CasinoText(RulesText[CasinoOptions]):
    """Casino's parts: packets of two or one at a time, valueless court cards, sweeps that
    never cancel."""

    def deal(self) -> list[str]:
        if self.options.deal_in_twos:
            return [_("- Deal in packets of two: the non-dealers, two face up to the table, the "
                      "dealer; twice, so four each and four on the table.")]
        return [_("- Deal one card at a time: the non-dealers, one to the table, the dealer; "
                  "four rounds, so four each and four on the table.")]

    def values(self) -> list[str]:
        if self.options.court_cards_take_all:
            court = _("a court card takes every loose card of its rank it chooses")
        else:
            court = _("a court card captures exactly one loose court card of the same rank")
        return [_("- Ace 1, number cards their pips. J, Q and K have no value: they never sum "
                  "and never build; {court}.").format(court=court),
                _("- The highest build is 10.")]

    def sweeps(self, sweeps: str) -> list[str]:
        return [_("- {sweeps}; sweeps never cancel.").format(sweeps=sweeps)]
