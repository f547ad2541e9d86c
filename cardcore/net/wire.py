"""What both ends convert: zones and groups to and from JSON, actions to JSON, and the
client's ``RemoteAction`` built from that JSON (docs/protocol.md)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from cardcore.game import Action, Group, SimpleAction, Zone
from cardcore.net.protocol import ActionJSON, ZoneJSON


def zone_json(zone: Zone) -> dict[str, Any]:
    """A zone (and its groups) as plain JSON data."""
    return asdict(zone)


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
