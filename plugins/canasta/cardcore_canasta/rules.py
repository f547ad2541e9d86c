"""Canasta's cards as ints, their values, the options and the minimum first meld.

A card is an int ``slot * 4 + suit`` (suits S H D C = 0..3). Slots run in the
order export lists cards: 0 = three, 1..11 = 4 5 6 7 8 9 10 J Q K A (the
naturals that meld), 12 = deuce, 13 = joker (one id, 52). Sorting ids sorts
cards canonically: naturals low to high, then deuces, then jokers.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import pydantic

from cardcore.engine.game import GameOptions
from cardcore.engine.seating import Seating
from cardcore.language import N_

from .words import _

#: Two, three or four players; four play in two partnerships (D42, D43, D44).
PLAYER_COUNTS = (4, 2, 3)
#: The most seats, and so the most sides (each player plays alone with two or three).
MOST_SEATS = 4
#: Cards dealt to each player, by the number of players (D37, D43, D44).
HAND_SIZE = {2: 15, 3: 13, 4: 11}
#: Cards a draw from the stock takes, by the number of players (D43).
DRAW_COUNT = {2: 2, 3: 1, 4: 1}
#: Canastas a side needs to go out, by the number of players (D34, D43).
CANASTAS_TO_GO_OUT = {2: 2, 3: 1, 4: 1}

THREE, DEUCE, JOKER = 0, 12, 13
NATURALS = range(1, 12)  # 4 .. A
SLOT_NAMES = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "JK")
SLOT_OF_RANK = {name: slot for slot, name in enumerate(SLOT_NAMES) if slot < DEUCE}
SUITS = "SHDC"
JK = JOKER * 4  # 52
CARD_IDS = range(JK + 1)
RED_THREES = (1, 2)  # 3H, 3D
THREE_OF_HEARTS, THREE_OF_DIAMONDS = RED_THREES
BLACK_THREES = (0, 3)  # 3S, 3C
#: The lowest wild card id: deuces and the joker sort last (D25).
FIRST_WILD = DEUCE * 4  # 48
#: A canasta is seven cards or more (D39).
CANASTA = 7

#: A meld on the table: its sorted card ids, how many are natural, how many wild.
Meld = tuple[tuple[int, ...], int, int]

#: The rank slot of each card id (the hot paths index this; ``rank_of`` reads better elsewhere).
RANK_OF: tuple[int, ...] = tuple(c >> 2 for c in CARD_IDS)


def rank_of(card: int) -> int:
    """The rank slot of a card id."""
    return card >> 2


def is_wild(card: int) -> bool:
    """Jokers and deuces (D25)."""
    return card >= FIRST_WILD


def freezes(card: int, black_three_freezes: bool) -> bool:
    """A card that freezes the pile while it is in it (D31)."""
    if is_wild(card) or card in RED_THREES:
        return True
    return black_three_freezes and card in BLACK_THREES


#: IS_RED_THREE[card]: ``card in RED_THREES`` as a table for the hot path.
IS_RED_THREE: tuple[bool, ...] = tuple(c in RED_THREES for c in CARD_IDS)

#: FREEZES[black_three_freezes][card]: ``freezes`` as a table for the hot path.
FREEZES: tuple[tuple[bool, ...], tuple[bool, ...]] = (
    tuple(freezes(c, False) for c in CARD_IDS), tuple(freezes(c, True) for c in CARD_IDS))

#: Points of a card of each slot (a red three scores only as a bonus).
SLOT_VALUE = (5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20, 20, 50)
CARD_VALUE = tuple(0 if c in RED_THREES else SLOT_VALUE[rank_of(c)] for c in CARD_IDS)

ID_TEXT: tuple[str, ...] = tuple(
    "JK" if c == JK else SLOT_NAMES[rank_of(c)] + SUITS[c & 3] for c in CARD_IDS
)
TEXT_ID = {text: c for c, text in enumerate(ID_TEXT)}


def canasta_seating(dealer: int = 0, players: int = 4) -> Seating:
    """The table: play clockwise; with four seats partners sit across (D37, D42), with
    two or three each player is a side (D43, D44)."""
    return Seating(players, dealer=dealer, partnerships=players == 4)


def minimum(total: int) -> int:
    """Minimum count of a side's first meld by its total at the start of the hand (D36)."""
    if total < 0:
        return 15
    if total < 1500:
        return 50
    if total < 3000:
        return 90
    return 120


def _valid_table(classic: bool) -> tuple[tuple[bool, ...], ...]:
    rows = []
    for n in range(120):
        row = []
        for w in range(20):
            if w > 3 or n + w < 3:
                row.append(False)
            elif classic:
                row.append(n >= 2)
            else:
                row.append(n >= 2 * w)
        rows.append(tuple(row))
    return tuple(rows)


#: VALID[classic][naturals][wilds]: a meld of a natural rank with these counts is legal (D24).
VALID = (_valid_table(False), _valid_table(True))


#: The rule presets by name and the options each sets (D46): ``texts`` reads the
#: project's source texts (the defaults), ``classic`` is pagat's reading.
PRESETS: dict[str, dict[str, Any]] = {
    "texts": {"wild_rule": "two_per_wild", "black_three_freezes": True,
              "concealed_needs_minimum": True},
    "classic": {"wild_rule": "classic", "black_three_freezes": False,
                "concealed_needs_minimum": False},
}
Preset = Literal["texts", "classic"]


class CanastaOptions(GameOptions):
    """Canasta's rule variants (D24-D47); the default of each comes first. A preset
    fills the options it names unless they are given too (D46)."""

    target: int = pydantic.Field(5000, ge=1, description=N_("points that win the match"))
    preset: Preset = pydantic.Field(
        "texts", description=N_("texts: the rules as the source texts read them; classic: "
                                "wild_rule=classic, black_three_freezes=false, "
                                "concealed_needs_minimum=false (options given one by one win)"))
    wild_rule: Literal["two_per_wild", "classic"] = pydantic.Field(
        "two_per_wild",
        description=N_("two_per_wild: two naturals for each wild card, at most three wild "
                       "cards; classic: at least two naturals, at most three wild cards"))
    black_three_freezes: bool = pydantic.Field(
        True, description=N_("a discarded black three freezes the pile (false: it only stops "
                             "the next player)"))
    concealed_needs_minimum: bool = pydantic.Field(
        True, description=N_("going out concealed before the side's first meld must meet "
                             "the minimum count"))
    browse_pile: bool = pydantic.Field(
        True, description=N_("anyone may look through the whole discard pile (false: it is "
                             "kept squared, only its top card and how many cards it holds "
                             "are seen)"))

    @pydantic.model_validator(mode="before")
    @classmethod
    def _fill_preset(cls, data: Any) -> Any:
        """The preset's values for the options not given (D46)."""
        if isinstance(data, dict):
            preset = data.get("preset", "texts")
            values = PRESETS.get(preset) if isinstance(preset, str) else None
            if values is not None:  # an unknown preset: the field refuses it
                data = {**values, **data}
        return data


def variant(options: CanastaOptions) -> str:
    """The preset and every option that differs from it, in one line (D46)."""
    base = CanastaOptions(preset=options.preset).model_dump(mode="json")
    now = options.model_dump(mode="json")
    diffs = [f"{k}={json.dumps(v)}".replace('"', "") for k, v in now.items() if v != base[k]]
    return f"preset {options.preset}" + (f"; differs: {', '.join(diffs)}" if diffs else "")


#: The rules text (``rules_text``), translated whole: each language words it in its own way.
RULES = N_("""\
Rules: {variant}.

Canasta for four players in two partnerships (seats 0+2 against 1+3), or for two
or three each playing alone, with two decks and four jokers (108 cards). Where
this text says "side", with two or three players it is the player.

Start. The partnership draw (rank, then S > H > D > C; only tied players draw
again) gives the first player; the dealer sits at their right and deals 11 cards
each (13 with three players, 15 with two), one at a time, clockwise. The upcard
is turned from the stock; while it is a joker, a deuce or a three another is
turned on top (a wild card or red three turned this way freezes the pile{b3_up}).
Red threes dealt are laid out and replaced from the stock before the first turn,
in play order from the first player. Later hands: the deal passes left and the
dealer's left plays first.

Cards. Jokers (50) and deuces (20) are wild. Aces 20, K-8 10, 7-4 5, black threes 5.
Red threes are bonuses: 100 each, 800 for all four on one side, negative for a
side that has not melded.

A turn. Draw from the stock (a red three is laid out and replaced at once) or take
the discard pile; lay new melds and add to your side's melds; discard one card.
A meld is 3+ cards of one rank from 4 to A, with {wild_text} and never more than
three wild cards; it holds whenever cards are added. A side has one meld of a rank.
Black threes meld only when going out: 3 or 4 of them, no wild cards.

First meld. A side's first melds, laid in one step, must count at least 15 (side
total below 0), 50 (0-1495), 90 (1500-2995) or 120 (3000 and more); bonuses and
pile cards other than the top card do not count.

The pile. Before its first meld a side may take the pile only with a natural pair
matching the top card, meeting the minimum with the top card and cards from the
hand. A wild card, a red three{b3_frz} in the pile freezes it: then it is taken only
with a natural pair matching a natural top card. Otherwise it is taken with a natural
pair, a natural and a wild card, or by laying the top card on your side's meld of
its rank. The top card is melded at once; the rest goes into the hand (red threes
in it are laid out, not replaced). A wild card or black three on top can never be
taken. A player holding one card may not take a pile of one card.
{browse}

Going out needs a canasta (7+ cards; natural without wild cards) on your side:
meld every card, with or without a final discard. Concealed: the whole hand melded
in one turn by a player who had not melded before, all in new melds, a canasta among
them{conc}.

Two players. A draw from the stock takes the top two cards (the last card alone);
red threes among them are laid out and replaced; one card is still discarded.
Going out, concealed or not, needs two canastas (a concealed hand holds both).
Three players draw one card and need one canasta, as four do.

Empty stock. A player who cannot draw may take the pile if allowed (and must if its
top card goes on a meld of their side); otherwise the hand ends. A red three drawn
as the last stock card is laid out and the hand ends. No going-out bonus then.

Score per side: melded cards + 500 per natural canasta + 300 per mixed canasta +
red threes + 100 for going out (+100 concealed) - cards left in both partners' hands.
The first side on {target} or more wins; if both, the higher; equal totals play on.
""")


def rules_text(options: CanastaOptions) -> str:
    """The rules as played with ``options``, in the language in use."""
    freezes = options.black_three_freezes
    return _(RULES).format(
        b3_up=_(", and a black three too") if freezes else "",
        b3_frz=_(" or a black three") if freezes else "",
        wild_text=_("at least two natural cards for each wild card")
        if options.wild_rule == "two_per_wild" else _("at least two natural cards"),
        conc=_("; before the side's first meld it must meet the minimum")
        if options.concealed_needs_minimum else _("; it need not meet the minimum"),
        target=options.target,
        browse=_("Anyone may look through the whole pile, so the cards a player takes with "
                 "it\nare known to all: they show in that hand while it holds them.")
        if options.browse_pile else
        _("The pile is kept squared: only its top card and how many cards it holds are "
          "seen\n(the card that froze it lies crosswise: a frozen pile is seen to be "
          "frozen)."),
        variant=variant(options),
    )
