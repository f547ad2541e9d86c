"""Why a bot played its move: the table's record of it, and the words a player reads.

After each bot move the table keeps a small ``Reason`` (the last ``WHY_KEPT`` bot moves):
the move, the bot's estimate of it and of the next two candidates (``cardcore.engine.bots
.why``), and, for each candidate, which seats may read its name. The estimates come from
the bot's own information set, but a candidate the bot did not play may name cards of its
hand nobody else has seen: a seat (or a spectator) reads a candidate's name only when
none of its cards was hidden from that seat when the bot moved (a double deck's twin
counts: a card is named only when no copy of it was hidden); otherwise it reads "another
discard" (the action's step, else its label's first word when that is a plain word: no
card) or "another move". The played move is named as the move
log names it (docs/bots.md, "Why a bot played its move").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from cardcore.engine.bots.base import Bot, unseen_cards
from cardcore.engine.bots.why import Choice
from cardcore.engine.game import Action, GameState
from cardcore.language import _, ngettext

#: The bot moves a table keeps the reasons of (the oldest forgotten first).
WHY_KEPT = 32


@dataclass(frozen=True)
class Alternative:
    """A candidate the bot did not play: its name, its step, its estimate (points), and
    the seats that may read its name (None: a spectator)."""

    label: str
    #: What it is without its cards: "discard", "capture", "move".
    kind: str
    value: float
    named_for: frozenset[int | None]


@dataclass(frozen=True)
class Reason:
    """One bot move and why: ``turn`` is the table's turn counter when it was played."""

    turn: int
    hand: int
    seat: int
    label: str
    #: The bot's estimate of the move played (None: it gives none).
    value: float | None
    others: tuple[Alternative, ...]
    #: The bot's level and what it means ("Easy", "misses the best move about one time in three").
    level: str
    description: str
    #: The move was the only legal one.
    forced: bool = False


@dataclass(frozen=True)
class Why:
    """A reason as one seat may read it: one line of words and the estimates shown."""

    turn: int
    seat: int
    text: str
    #: ``{"label", "value", "chosen"}`` each, the move played first (no hidden card named).
    estimates: list[dict[str, Any]]


def reason_of(choice: Choice, bot: Bot, seat: int, turn: int, hand: int,
              before: GameState, askers: list[int | None]) -> Reason:
    """The reason of ``choice`` (played by ``seat`` at ``turn`` from ``before``), for
    ``askers``: the seats that may ask (the human seats, and None: a spectator). A bot
    seat never asks; any seat not among them reads no candidate that names a card."""
    played = choice.action
    best = choice.estimates
    value = best[0][1] if best and best[0][0] == played else None
    rest = [(action, estimate, set(_cards(action))) for action, estimate in best if action != played]
    hidden: dict[int | None, set[str]] = {}
    if any(cards for _, _, cards in rest):  # the views cost more than the rest: read once each
        export = before.export()
        hidden = {s: set(unseen_cards(before, s, export=export)) for s in askers}
    others = tuple(
        Alternative(action.label, _kind(action), estimate,
                    frozenset(s for s in askers if not cards & hidden.get(s, set())))
        for action, estimate, cards in rest)
    return Reason(turn, hand, seat, played.label, value, others,
                  bot.name or bot.id, bot.description, forced=choice.forced)


def explain(reason: Reason, name: str, asker: int | None) -> Why:
    """``reason`` as ``asker`` (a seat; None: a spectator) may read it, ``name`` the bot's seat's."""
    # a label is a command ("Discard 5♣")
    text = _("{name} chose {move}").format(name=name, move=reason.label)
    estimates: list[dict[str, Any]] = []
    if reason.value is not None:
        text += _(": it expected about {points} for its side").format(points=_points(reason.value))
        estimates.append({"label": reason.label, "value": round(reason.value, 1), "chosen": True})
    elif reason.forced:
        text += _(": it had no other move")
    else:
        what = _(", which {description}").format(description=reason.description) \
            if reason.description else ""
        text += _(". {name} is the {level} bot{what}: it gives no reasons").format(
            name=name, level=reason.level, what=what)
    said = []
    for other in reason.others:
        label = other.label if asker in other.named_for else _("another {kind}").format(kind=other.kind)
        said.append(_("{move} (about {value})").format(move=label, value=_number(other.value)))
        estimates.append({"label": label, "value": round(other.value, 1), "chosen": False})
    if said:
        text += _("; it also considered {moves}").format(moves=_(" and ").join(said))
    return Why(reason.turn, reason.seat, text + ".", estimates)


def _points(value: float) -> str:
    one = abs(round(value, 1)) == 1
    return ngettext("{value} point", "{value} points", 1 if one else 2).format(value=_number(value))


def _number(value: float) -> str:
    text = f"{value:+.1f}"
    return "0.0" if text in ("+0.0", "-0.0") else text


def _kind(action: Action) -> str:
    """The action's kind, naming no card: its step, else its label's first word if it is
    letters only (a card shows a suit or a digit), else "move"."""
    if action.step:
        return action.step
    word = action.label.split(" ", 1)[0]
    return word.lower() if word.isalpha() and word.isascii() else "move"


def _cards(action: Action) -> Iterator[str]:
    """Every string an action's JSON, hand cards and table cards hold: its cards among them."""
    yield from action.hand_cards
    yield from (card for card, _ in action.table_cards if card is not None)
    stack: list[Any] = [action.to_json()]
    while stack:
        data = stack.pop()
        if isinstance(data, str):
            yield data
        elif isinstance(data, dict):
            stack.extend(data.values())
        elif isinstance(data, list):
            stack.extend(data)
