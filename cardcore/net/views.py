"""What one connection at a table receives: its seat's ``update`` (docs/protocol.md).

Built from the seat's view only: ``zones(seat)`` and ``view(seat)`` for a seat; for a
spectator ``view(None)`` and zones with every hand face down and nothing shown that
``view(None)`` hides. The legal actions and ``why_not`` go to the seat to play alone.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, cast

from cardcore.game import GameState, Zone
from cardcore.match import Match
from cardcore.net.protocol import PROTOCOL_VERSION, encode
from cardcore.net.wire import action_json, view_cards, zone_json


def spectator_zones(state: GameState) -> list[Zone]:
    """The table for a spectator: every hand face down, and no zone showing more copies
    of a card than ``view(None)`` shows (a game may draw some hidden thing outside its
    hands: it is turned face down too)."""
    budget = Counter(view_cards(state.view(None)))
    out = []
    for zone in state.zones(0):
        shown = budget if zone.kind != "hand" else Counter[str]()  # a hand shows nothing
        cards = [_spend(shown, c) for c in zone.cards]
        # a face-down card of a group is None on the wire too (GroupJSON)
        groups = [replace(g, cards=cast(list[str], [_spend(shown, c) for c in g.cards]))
                  for g in zone.groups]
        out.append(replace(zone, cards=cards, groups=groups))
    return out


def _spend(budget: Counter[str], card: str | None) -> str | None:
    if card is None or budget[card] <= 0:
        return None
    budget[card] -= 1
    return card


def legal_for(state: GameState, seat: int, zones: list[Zone]) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The actions of the seat to play, and why each of its hand cards that no action
    plays cannot be played (``GameState.why_not``)."""
    actions = state.legal_actions()
    used = {c for a in actions for c in a.hand_cards}
    why: dict[str, str] = {}
    hand = next((z for z in zones if z.kind == "hand" and z.seat == seat), None)
    for card in dict.fromkeys(c for c in (hand.cards if hand else []) if c is not None):
        if card not in used:
            reason = state.why_not(card)
            if reason:
                why[card] = reason
    return [action_json(a) for a in actions], why


def sheet_json(match: Match) -> dict[str, Any]:
    sheet = match.sheet
    return {"side_names": list(sheet.side_names), "rows": list(sheet.hands), "totals": sheet.totals,
            "target": sheet.target, "variant": sheet.variant}


def update(code: str, match: Match, state: GameState, seat: int | None, *,
           seats: list[dict[str, Any]], log: list[dict[str, Any]], hand_no: int,
           dealer: int | None, hand_over: bool, may_act: bool) -> dict[str, Any]:
    """The ``update`` for ``seat`` (None: a spectator) showing ``state``, without its
    ``sheet`` (the same for everyone: ``sheet_json``, added by ``encode_update``);
    ``may_act``: the seat is to play and its player is here (actions and why_not are sent)."""
    zones = spectator_zones(state) if seat is None else state.zones(seat)
    actions: list[dict[str, Any]] = []
    why_not: dict[str, str] = {}
    if may_act and seat is not None and state.to_play == seat and not hand_over:
        actions, why_not = legal_for(state, seat, zones)
    return {
        "v": PROTOCOL_VERSION, "type": "update", "id": None, "code": code, "seat": seat,
        "turn": match.decisions, "game": match.game.id, "hand_no": hand_no, "dealer": dealer,
        "to_play": None if hand_over else state.to_play,
        "names": list(match.seating.names), "side_names": list(match.seating.side_names),
        "seats": seats, "zones": [zone_json(z) for z in zones], "view": state.view(seat),
        "actions": actions, "why_not": why_not, "log": log,
        "hand_over": hand_over, "over": match.over, "winner": match.winner,
    }


def encode_update(body: dict[str, Any], sheet: str) -> str:
    """The update's frame with the sheet's JSON (encoded once for everyone) spliced in."""
    text = encode(body)
    return f'{text[:-1]},"sheet":{sheet}}}'
