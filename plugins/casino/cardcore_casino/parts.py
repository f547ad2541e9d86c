"""The fishing state declared with the kit: cards as ints (``rules.NAMES``) inside, notation in
the export; the table, loose cards and builds, is a part of the game's own (``Table``).
Export, view, the spectator's view, determinize and loading follow (cardcore.engine.kit)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardcore.engine.game import StateError
from cardcore.engine.kit import HIDDEN, OWNER, Cards, Count, Part, SeatNo
from cardcore.engine.kit.parts import Path, key_of, require, where
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
        require(path, value, dict, "an object")
        loose = CARDS.load_one((*path, "loose"), key_of(path, value, "loose", [], strict), strict)
        at = (*path, "builds")
        builds = key_of(path, value, "builds", None, strict) or []
        require(at, builds, list, "a list of builds")
        return loose, [_build((*at, i), b, strict) for i, b in enumerate(builds)]


def _build(path: Path, data: Any, strict: bool) -> Build:
    require(path, data, dict, "an object")
    value = INT.load_one((*path, "value"), data.get("value"), strict)
    owner = INT.load_one((*path, "owner"), data.get("owner"), strict)
    groups = data.get("groups")
    if groups is None:
        raise StateError(f"{where((*path, 'groups'))}: missing", (*path, "groups"))
    require((*path, "groups"), groups, list, "a list of groups")
    loaded = tuple(tuple(CARDS.load_one((*path, "groups", j), g, strict))
                   for j, g in enumerate(groups))
    bits = 0
    for g in loaded:
        for c in g:
            bits |= BIT[c]
    return Build(value, owner, loaded, bits)


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
