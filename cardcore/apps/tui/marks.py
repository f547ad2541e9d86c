"""What the zones are drawn with besides themselves, and what the last move changed.

No Textual here (the session layer uses it). The last move is marked by what it changed,
not by card text or group ids: :func:`moved` compares the zones before and after it, so
only the copy that arrived is marked (the double deck has two of each card), and a build
keeps no stale mark when the one before it is taken (build ids are positions).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from cardcore.engine.game import Zone


@dataclass
class Moved:
    """What one move changed on the table: by zone id, the positions of the cards that
    arrived and the indexes of the groups that are new or changed; and every zone it changed."""

    zones: set[str] = field(default_factory=set)
    cards: dict[str, set[int]] = field(default_factory=dict)
    groups: dict[str, set[int]] = field(default_factory=dict)


def moved(before: list[Zone], after: list[Zone]) -> Moved:
    """The difference the move made, zone by zone (hands are left out: a hand only loses
    the card played, and the other hands are face down).

    Cards compare as multisets: of two copies of a card, only the one that arrived (the
    last in the zone) is marked. A group is unchanged when the zone had a group of the same
    cards before, wherever it stood."""
    old = {z.id: z for z in before}
    out = Moved()
    for zone in after:
        if zone.kind == "hand":
            continue
        prev = old.get(zone.id)
        prev_cards = Counter(c for c in prev.cards if c is not None) if prev else Counter()
        now_cards = Counter(c for c in zone.cards if c is not None)
        arrived = now_cards - prev_cards
        positions: set[int] = set()
        for i in reversed(range(len(zone.cards))):
            card = zone.cards[i]
            if card is not None and arrived[card] > 0:
                positions.add(i)
                arrived[card] -= 1
        left = [Counter(g.cards) for g in prev.groups] if prev else []
        changed: set[int] = set()
        for i, group in enumerate(zone.groups):
            cards = Counter(group.cards)
            if cards in left:
                left.remove(cards)
            else:
                changed.add(i)
        if positions:
            out.cards[zone.id] = positions
        if changed:
            out.groups[zone.id] = changed
        if positions or changed or left or (prev_cards - now_cards):
            out.zones.add(zone.id)
    return out


@dataclass
class TableInfo:
    """What the zones need besides themselves: names, whose turn, the dealer, what to mark."""

    names: list[str]
    side_names: list[str]
    dealer: int | None = None
    to_play: int | None = None
    viewer: int | None = None
    targets: set[str] = field(default_factory=set)
    last_move: Moved = field(default_factory=Moved)
    palette: str = "two"
    #: The key that picks each table unit (``cardcore.apps.tui.picks.Unit.id`` -> "A").
    letters: dict[str, str] = field(default_factory=dict)
    #: The ids of the table units the player picked (drawn in [brackets]).
    picked: set[str] = field(default_factory=set)
    #: What the highlighted action takes or uses (``Action.table_cards``), underlined.
    taken: set[tuple[str | None, str]] = field(default_factory=set)
    #: The side of the viewer (its partners are marked).
    viewer_side: int | None = None
