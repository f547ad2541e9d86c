"""What both ends convert: zones and groups to and from JSON, actions to JSON, and the
client's ``RemoteAction`` built from that JSON (docs/protocol.md)."""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from cardcore.engine.bots.base import InfoSet, canonical_state
from cardcore.engine.game import Action, Game, Group, SimpleAction, Zone
from cardcore.services.net.protocol import ActionJSON, ZoneJSON


def zone_json(zone: Zone) -> dict[str, Any]:
    """A zone (and its groups) as plain JSON data (``dataclasses.asdict``, written out: it is
    on the server's hot path, and asdict's deep copies cost more than all the rest)."""
    return {"id": zone.id, "kind": zone.kind, "title": zone.title, "seat": zone.seat, "side": zone.side,
            "cards": list(zone.cards), "badges": list(zone.badges),
            "groups": [{"id": g.id, "cards": list(g.cards), "badges": list(g.badges), "seat": g.seat,
                        "parts": list(g.parts)} for g in zone.groups]}


def zone_from_json(data: ZoneJSON | dict[str, Any]) -> Zone:
    """The zone a ``zone_json`` describes (checked by ZoneJSON when given a dict)."""
    model = data if isinstance(data, ZoneJSON) else ZoneJSON.model_validate(data)
    groups = [Group(g.id, list(g.cards), list(g.badges), g.seat, list(g.parts))  # type: ignore[arg-type]
              for g in model.groups]
    return Zone(model.id, model.kind, model.title, model.seat, model.side, list(model.cards),
                groups, list(model.badges))


def action_json(action: Action, label: str | None = None) -> dict[str, Any]:
    """``{action, label, cards, table_cards, targets, step}``: what the seat to play gets."""
    return {"action": action.to_json(), "label": action.label if label is None else label,
            "cards": list(action.hand_cards),
            "table_cards": [list(pair) for pair in action.table_cards],
            "targets": list(action.targets), "step": action.step}


class RemoteAction(SimpleAction):
    """A legal action as the server sent it: equal to another when their JSON is equal,
    with the label, cards, table cards, targets and step the server gave."""

    __slots__ = ()

    @classmethod
    def from_json(cls, data: ActionJSON | dict[str, Any]) -> RemoteAction:
        model = data if isinstance(data, ActionJSON) else ActionJSON.model_validate(data)
        return cls(model.action, model.label, tuple(model.cards), tuple(model.targets),
                   table_cards=tuple((c, w) for c, w in model.table_cards), step=model.step)


def view_cards(data: Any) -> Iterator[str]:
    """Every card string in a view or export (its options left out)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key != "options":
                yield from view_cards(value)
    elif isinstance(data, list):
        for value in data:
            if isinstance(value, str):
                yield value
            elif isinstance(value, (list, dict)):
                yield from view_cards(value)


def info_of_view(game: Game, seat: int, view: dict[str, Any]) -> InfoSet:
    """What a client's bot (or hint) plays from: the seat's view as the server sent it, the
    cards it does not see (the game's deck less the view's cards), and the legal actions as
    the game's own objects (their JSON is what the server listed for the seat)."""
    players = view.get("players")
    if not isinstance(players, int):
        players = len(view.get("hands") or ())
    options = json.dumps(view.get("options") or {}, sort_keys=True)
    unseen = _deck(game, players, options) - Counter(view_cards(view))
    state = canonical_state(game, view, unseen)
    seating = game.seating(players, game.Options(**json.loads(options)))
    side_of = tuple(seating.side_of(s) for s in range(players))
    return InfoSet(game, seat, view, state.legal_actions(), unseen, side_of)


@functools.lru_cache(maxsize=64)
def _deck(game: Game, players: int, options: str) -> Counter[str]:
    """The cards of one deal of ``game`` (every card of its deck, as a multiset)."""
    opts = game.Options(**json.loads(options))
    seating = game.seating(players, opts)
    hand = game.new_hand(seating, opts, random.Random(0), [0] * seating.sides)
    return Counter(view_cards(hand.export()))
