"""What one connection at a table receives: its seat's ``update`` (docs/protocol.md).

Built from the seat's view only: ``zones(seat)`` and ``view(seat)`` for a seat; for a
spectator ``view(None)`` and zones with every hand face down (but for its cards known to
all) and nothing shown that ``view(None)`` hides. The legal actions and ``why_not`` go to
the seat to play alone.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, NamedTuple, cast

import orjson

from cardcore.engine.game import Action, GameState, Group, Zone
from cardcore.engine.kit.known import known_in
from cardcore.engine.match import Match
from cardcore.language import current
from cardcore.services.net.protocol import PROTOCOL_VERSION, fragment, frame
from cardcore.services.net.wire import action_json, view_cards, zone_json


def spectator_zones(state: GameState) -> list[Zone]:
    """The table for a spectator: every hand face down but for its cards known to all
    (cardcore/engine/kit/known.py), and no zone showing more copies of a card than
    ``view(None)`` shows (a game may draw some hidden thing outside its hands: it is
    turned face down too)."""
    view = state.view(None)
    budget = Counter(view_cards(view))
    out = []
    for zone in state.zones(0):
        if zone.kind == "hand":
            known = known_in(view, zone.seat) if zone.seat is not None else Counter[str]()
            cards = [_spend(budget, c) if _spend(known, c) else None for c in zone.cards]
        else:
            cards = [_spend(budget, c) for c in zone.cards]
        # a face-down card of a group is None on the wire too (GroupJSON)
        shown = budget if zone.kind != "hand" else Counter[str]()  # a hand's groups: none
        groups = [replace(g, cards=cast(list[str], [_spend(shown, c) for c in g.cards]))
                  for g in zone.groups]
        out.append(replace(zone, cards=cards, groups=groups))
    return out


def _spend(budget: Counter[str], card: str | None) -> str | None:
    if card is None or budget[card] <= 0:
        return None
    budget[card] -= 1
    return card


#: The JSON of actions that have a ``shown_key``, encoded, by (class, shown_key, language):
#: listings repeat most of their actions from move to move and table to table.
_ENCODED: dict[tuple[type, tuple, str], orjson.Fragment] = {}
#: Encoded actions kept at most (all are dropped when full): about 4 MB. Casino finds 72 %
#: of the actions it lists here (80 % at four times the size, 86 % with no bound).
ENCODED_MAX = 8192


def legal_for(state: GameState, seat: int, zones: list[Zone]) -> tuple[list[Any], dict[str, str]]:
    """The actions of the seat to play (as ``action_json``, or its encoded JSON), and why each
    of its hand cards that no action plays cannot be played (``GameState.why_not``)."""
    actions = state.legal_actions()
    used = {c for a in actions for c in a.hand_cards}
    why: dict[str, str] = {}
    hand = next((z for z in zones if z.kind == "hand" and z.seat == seat), None)
    for card in dict.fromkeys(c for c in (hand.cards if hand else []) if c is not None):
        if card not in used:
            reason = state.why_not(card)
            if reason:
                why[card] = reason
    language = current()
    return [_encoded(a, language) for a in actions], why


def _encoded(action: Action, language: str) -> orjson.Fragment | dict[str, Any]:
    """``action_json(action)`` in ``language`` (the one in use), encoded once per shown_key."""
    shown = action.shown_key
    if shown is None:
        return action_json(action)
    key = (type(action), shown, language)
    found = _ENCODED.get(key)
    if found is None:
        if len(_ENCODED) >= ENCODED_MAX:
            _ENCODED.clear()
        found = _ENCODED[key] = fragment(action_json(action))
    return found


def sheet_json(match: Match) -> dict[str, Any]:
    sheet = match.sheet
    return {"side_names": list(sheet.side_names), "rows": list(sheet.hands), "totals": sheet.totals,
            "target": sheet.target, "variant": sheet.variant}


class Common(NamedTuple):
    """The JSON every connection's update of one moment shares, encoded once: the frame's
    start (up to ``code``), the fields between ``seat`` and the seat's own, and those after
    the log."""

    start: bytes
    before: bytes
    after: bytes


def shared(code: str, match: Match, state: GameState, *, seats: list[dict[str, Any]], hand_no: int,
           dealer: int | None, hand_over: bool, sheet: orjson.Fragment, chosen_seed: bool = False,
           league: str | None = None) -> Common:
    """What every connection's update showing ``state`` has in common (``sheet``: its JSON)."""
    before = {"turn": match.decisions, "game": match.game.id, "hand_no": hand_no, "dealer": dealer,
              "to_play": None if hand_over else state.to_play,
              "names": list(match.seating.names), "side_names": list(match.seating.side_names),
              "seats": seats}
    after = {"hand_over": hand_over, "over": match.over, "winner": match.winner, "sheet": sheet,
             "chosen_seed": chosen_seed, **({"league": league} if league else {})}
    start = frame({"v": PROTOCOL_VERSION, "type": "update", "id": None, "code": code})[:-1]
    return Common(start, inner(before), inner(after))


def own(state: GameState, seat: int | None, *, hand_over: bool, may_act: bool) -> dict[str, Any]:
    """The fields of ``seat``'s update (None: a spectator) that are its own: the table as it
    sees it, its view, and, when ``may_act`` (the seat is to play and its player is here),
    its legal actions and why_not."""
    zones = spectator_zones(state) if seat is None else state.zones(seat)
    actions: list[Any] = []
    why_not: dict[str, str] = {}
    if may_act and seat is not None and state.to_play == seat and not hand_over:
        actions, why_not = legal_for(state, seat, zones)
    return {"zones": [_zone(z) for z in zones], "view": state.view(seat), "actions": actions,
            "why_not": why_not}


def inner(fields: dict[str, Any]) -> bytes:
    """The fields' JSON without the braces: a piece of a frame."""
    return frame(fields)[1:-1]


def update(seat: int | None, common: Common, mine: bytes, log: bytes) -> bytes:
    """The ``update`` frame for ``seat``: the shared pieces (``shared``) spliced around the
    seat's own fields (``inner(own(...))``) and the JSON of the log lines since the
    connection's previous update."""
    return b"".join((common.start, b',"seat":', b"null" if seat is None else str(seat).encode(), b",",
                     common.before, b",", mine, b',"log":', log, b",", common.after, b"}"))


def _zone(zone: Zone) -> Zone | dict[str, Any]:
    """A zone as the encoder takes it: a plain Zone of plain Groups as it is (orjson writes
    a dataclass's fields in C), anything else (a plugin's subclass) as ``zone_json``."""
    if type(zone) is not Zone:
        return zone_json(zone)
    for group in zone.groups:
        if type(group) is not Group:
            return zone_json(zone)
    return zone
