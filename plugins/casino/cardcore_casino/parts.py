"""The fishing state declared with the kit: cards as ints (``rules.NAMES``) inside, notation in
the export; the table, loose cards and builds, is a part of the game's own (``Table``).
Export, view, the spectator's view, determinize and loading follow (cardcore.engine.kit)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardcore.engine.game import StateError
from cardcore.engine.kit import HIDDEN, OWNER, Cards, Count, Part, SeatNo
from cardcore.engine.kit.parts import Path, where
from cardcore_casino.moves import Build
from cardcore_casino.rules import BIT, NAMES

#: A list of cards of the 52-card deck, ints inside.
CARDS = Cards(names=NAMES)
#: An integer, any (a build's value and owner: the state's ``check`` bounds them).
INT = Count(least=None)

#: The loose cards (in the order laid) and the builds (``moves.Build``).
TableValue = tuple[list[int], list[Build]]


@dataclass(frozen=True)
class Table(Part):
    """``{"loose": [cards], "builds": [{"value", "owner", "groups": [[cards], ...]}]}``,
    the state's ``loose`` and ``builds``. Loading checks the shape; the rules (a build's
    value, owner and sums) are the state's ``check``."""

    def empty(self) -> TableValue:
        return [], []

    def read(self, state: Any, name: str) -> TableValue:
        return state.loose, state.builds

    def export(self, value: TableValue) -> dict[str, Any]:
        loose, builds = value
        return {"loose": [NAMES[c] for c in loose],
                "builds": [{"value": b.value, "owner": b.owner,
                            "groups": [[NAMES[c] for c in g] for g in b.groups]} for b in builds]}

    def cards_one(self, value: TableValue) -> list[str]:
        loose, builds = value
        return [NAMES[c] for c in loose] + [NAMES[c] for b in builds for g in b.groups for c in g]

    def load_one(self, path: Path, value: Any, strict: bool) -> TableValue:
        _shape(path, value, dict, "an object")
        loose = CARDS.load_one((*path, "loose"), _key(path, value, "loose", [], strict), strict)
        at = (*path, "builds")
        builds = _key(path, value, "builds", None, strict) or []
        _shape(at, builds, list, "a list of builds")
        return loose, [_build((*at, i), b, strict) for i, b in enumerate(builds)]


def _build(path: Path, data: Any, strict: bool) -> Build:
    _shape(path, data, dict, "an object")
    value = INT.load_one((*path, "value"), data.get("value"), strict)
    owner = INT.load_one((*path, "owner"), data.get("owner"), strict)
    groups = data.get("groups")
    if groups is None:
        raise StateError(f"{where((*path, 'groups'))}: missing", (*path, "groups"))
    _shape((*path, "groups"), groups, list, "a list of groups")
    loaded = tuple(tuple(CARDS.load_one((*path, "groups", j), g, strict))
                   for j, g in enumerate(groups))
    bits = 0
    for g in loaded:
        for c in g:
            bits |= BIT[c]
    return Build(value, owner, loaded, bits)


def _key(path: Path, data: dict, key: str, default: Any, strict: bool) -> Any:
    if key in data:
        return data[key]
    if strict:
        raise StateError(f"{where((*path, key))}: missing (strict loading wants every part)",
                         (*path, key))
    return default


def _shape(path: Path, value: Any, kind: type, words: str) -> None:
    if not isinstance(value, kind):
        raise StateError(f"{where(path)}: {words}, not {type(value).__name__}", path)


#: The fishing state's parts, in export order.
PARTS: dict[str, Part] = {
    "hands": Cards(per="seat", shown=OWNER, names=NAMES, required=True),
    "table": Table(),
    "captured": Cards(per="seat", names=NAMES),
    "sweeps": Count(per="seat"),
    "stock": Cards(shown=HIDDEN, names=NAMES),
    "last_capture": SeatNo(),
    "totals_before": Count(per="side", least=None),
}
