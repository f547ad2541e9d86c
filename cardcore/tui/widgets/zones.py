"""The table drawn from zones: titles with names, badges, cards, groups; targets marked."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.console import Group as RichGroup
from rich.text import Text
from textual.widgets import Static

from cardcore.game import Zone
from cardcore.tui.widgets.cards import FACE_DOWN, cards_text


@dataclass
class TableInfo:
    """What the zones need besides themselves: names, whose turn, the dealer, what to mark."""

    names: list[str]
    side_names: list[str]
    dealer: int | None = None
    to_play: int | None = None
    viewer: int | None = None
    targets: set[str] = field(default_factory=set)
    last_move: set[str] = field(default_factory=set)
    palette: str = "two"


def zone_title(zone: Zone, info: TableInfo) -> str:
    seat, side = zone.seat, zone.side
    if seat is not None and 0 <= seat < len(info.names):
        name = info.names[seat]
        title = name if zone.kind == "hand" else f"{zone.title} — {name}"
        if seat == info.viewer and zone.kind == "hand":
            title += " (you)"
        return title
    if side is not None and 0 <= side < len(info.side_names):
        return f"{zone.title} — {info.side_names[side]}"
    return zone.title


def render_zone(zone: Zone, info: TableInfo) -> Text:
    targeted = zone.id in info.targets
    head = Text()
    head.append("▶ " if targeted else "  ", style="bold yellow")
    head.append(zone_title(zone, info), style="bold reverse" if targeted else "bold")
    if zone.seat is not None and zone.kind == "hand":
        if zone.seat == info.dealer:
            head.append(" · dealer", style="italic")
        if zone.seat == info.to_play:
            head.append(" · to play ◀", style="bold green")
    if zone.id in info.last_move:
        head.append(" · last move", style="bold cyan")
    for badge in zone.badges:
        head.append(f" [{badge}]", style="dim")
    hidden = bool(zone.cards) and all(c is None for c in zone.cards)
    if hidden:
        head.append(f"  {FACE_DOWN} ×{len(zone.cards)}", style="grey50")
    lines = [head]
    if zone.cards and not hidden:
        row = Text("    ")
        row.append_text(cards_text(zone.cards, info.palette, marked=info.targets | info.last_move))
        lines.append(row)
    for group in zone.groups:
        g_targeted = group.id in info.targets
        row = Text("    ")
        row.append("▶ " if g_targeted else "", style="bold yellow")
        if group.cards:
            inner = Text("⟨")
            inner.append_text(cards_text(group.cards, info.palette))
            inner.append("⟩")
            if g_targeted:
                inner.stylize("reverse")
            row.append_text(inner)
        badges = list(group.badges)
        if group.seat is not None and 0 <= group.seat < len(info.names):
            badges.append(info.names[group.seat])
        if badges:
            row.append(" " + " · ".join(badges), style="italic")
        if group.id in info.last_move:
            row.append("  ◀ last move", style="bold cyan")
        lines.append(row)
    if not zone.cards and not zone.groups:
        empty = Text("    ")
        empty.append("(empty)", style="dim")
        lines.append(empty)
    return Text("\n").join(lines)


class ZonesView(Static):
    """Every zone but the viewer's hand, one after another."""

    def show(self, zones: list[Zone], info: TableInfo) -> None:
        self.update(RichGroup(*(render_zone(z, info) for z in zones)) if zones else Text(""))
