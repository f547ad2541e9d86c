"""The table drawn from zones: titles with names, badges, cards, groups; targets and the
last move (:mod:`cardcore.apps.tui.marks`) marked."""

from __future__ import annotations

import re

from rich.console import Group as RichGroup
from rich.text import Text
from textual.widgets import Static

from cardcore.apps.tui.marks import Moved, TableInfo, moved
from cardcore.apps.tui.widgets.cards import FACE_DOWN, card_text, cards_text
from cardcore.apps.tui.widgets.wrap import Flow, Hanging, Tail
from cardcore.engine.game import Group, Zone
from cardcore.language import _

__all__ = ["Moved", "TableInfo", "ZonesView", "badge_text", "moved", "render_zone", "zone_title"]


def zone_title(zone: Zone, info: TableInfo) -> str:
    """The zone's title with whose it is: a hand is titled by its seat's name (you,
    partner, the side), another zone of a seat or side gets ``— name`` after its title,
    unless its title already names them ("Taken by South & North")."""
    seat, side = zone.seat, zone.side
    if seat is not None and 0 <= seat < len(info.names):
        name = info.names[seat]
        if zone.kind == "trick":  # a trick's seat is the one that took it (kit.tricks)
            return _("{zone} — taken by {name}").format(zone=zone.title, name=name)
        title = name if zone.kind == "hand" else _naming(zone.title, name)
        if seat == info.viewer and zone.kind == "hand":
            title += " " + _("(you)")
        elif (side is not None and side == info.viewer_side and zone.kind == "hand"
              and seat != info.viewer):
            return title + " " + _("(partner)")  # the side goes without saying (80 columns are few)
        if zone.kind == "hand" and side is not None and 0 <= side < len(info.side_names) \
                and len(info.side_names) < len(info.names):
            title += f" — {info.side_names[side]}"
        return title
    if side is not None and 0 <= side < len(info.side_names):
        return _naming(zone.title, info.side_names[side])
    return zone.title


def _names(text: str, name: str) -> bool:
    """``text`` says ``name`` as words of its own (not "Ann" in "Annex")."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def _naming(title: str, name: str) -> str:
    return title if _names(title, name) else f"{title} — {name}"


_ONE = re.compile(r"^1 (\w+?)s$")
_NUMBER = re.compile(r"\d+")


def badge_text(badge: str) -> str:
    """``1 cards`` reads ``1 card``."""
    return _ONE.sub(r"1 \1", badge)


def shown_badges(zone: Zone, info: TableInfo) -> list[str]:
    """The zone's badges but those the title already says (dealer, to play)."""
    said: set[str] = set()
    if zone.kind == "hand" and zone.seat is not None:
        if zone.seat == info.dealer:
            said |= {"dealer", _("dealer")}  # the game's badge, in English or as we say it
        if zone.seat == info.to_play:
            said |= {"to play", _("to play")}
    return [badge_text(b) for b in zone.badges if b not in said]


def _letter(unit: str, info: TableInfo) -> Text:
    """``A:`` before a unit the player can pick with shift+A; picked: ``[A]:``."""
    letter = info.letters.get(unit)
    if letter is None:
        return Text()
    if unit in info.picked:
        return Text(f"[{letter}]", style="bold yellow")
    return Text(f"{letter}:", style="bold yellow")


def _table_cards(cards: list[str | None], places: tuple[str, ...], info: TableInfo,
                 arrived: set[int], parts: list[int] | None = None) -> Text:
    """A row of table cards with their letters, picks, the highlighted action's cards
    (underlined, ``_`` around them: readable without colour) and the last move's ``▸``."""
    out = Text()
    breaks = set()
    if parts:
        at = 0
        for n in parts[:-1]:
            at += n
            breaks.add(at)
    down = 0  # face-down cards still to draw of a run: drawn once, as ``▒▒ ×9``
    for i, card in enumerate(cards):
        if down:
            down -= 1
            continue
        if i:
            out.append(" | " if i in breaks else " ")
        if card is None:
            run = _face_down_run(cards, i, breaks)
            out.append_text(cards_text([None] * run, info.palette, compact_hidden=run >= 3))
            down = run - 1
            continue
        out.append_text(_letter(f"{places[0]}/{card}", info))
        taken = any((card, p) in info.taken for p in places)
        if i in arrived:
            out.append("▸")
        face = card_text(card, info.palette, marked=i in arrived)
        if taken:
            face.stylize("underline")
            out.append("_", style="bold")
        out.append_text(face)
        if taken:
            out.append("_", style="bold")
    return out


def _face_down_run(cards: list[str | None], at: int, breaks: set[int]) -> int:
    """How many face-down cards follow one another from ``at`` (up to the next break): a
    hand with a known card reads ``2♦ ▒▒ ×12``, not twelve backs."""
    end = at
    while end < len(cards) and cards[end] is None and (end == at or end not in breaks):
        end += 1
    return end - at


def render_zone(zone: Zone, info: TableInfo) -> Text:
    """The zone as text: its title line, its cards, then one line per group."""
    return _joined(*zone_parts(zone, info))


def _joined(lines: list[Text], groups: list[Text]) -> Text:
    return Text("\n").join([*lines, *(Text.assemble("    ", g) for g in groups)])


def zone_parts(zone: Zone, info: TableInfo) -> tuple[list[Text], list[Text]]:
    """The zone's title line and card row, and its groups (builds, melds) one by one."""
    targeted = zone.id in info.targets or (None, zone.id) in info.taken
    head = Text()
    head.append("▶ " if targeted else "  ", style="bold yellow")
    head.append_text(_letter(zone.id, info))
    head.append(zone_title(zone, info), style="bold reverse" if targeted else "bold")
    if zone.seat is not None and zone.kind == "hand":
        if zone.seat == info.dealer:
            head.append(" · " + _("dealer"), style="italic")
        if zone.seat == info.to_play:
            head.append(" · " + _("to play") + " ◀", style="bold green")
    changed = info.last_move.groups.get(zone.id, set())
    if zone.id in info.last_move.zones and not (zone.kind == "trick" and changed):
        head.append(" · " + _("last move"), style="bold cyan")  # a trick's card says it (80 columns)
    badges = shown_badges(zone, info)
    for badge in badges:
        head.append(f" [{badge}]", style="dim")
    hidden = bool(zone.cards) and all(c is None for c in zone.cards)
    if hidden:
        counted = len(zone.cards) == 1 or any(str(len(zone.cards)) in _NUMBER.findall(b)
                                              for b in badges)
        head.append(f"  {FACE_DOWN}" if counted else f"  {FACE_DOWN} ×{len(zone.cards)}",
                    style="grey50")
    lines = [head]
    if zone.cards and not hidden:
        row = Text("    ")
        row.append_text(_table_cards(zone.cards, (zone.id,), info,
                                     info.last_move.cards.get(zone.id, set())))
        lines.append(row)
    if not zone.cards and not zone.groups and zone.kind != "tricks":  # a count says it
        # on the title's line: 80x24 has no line to spare
        head.append("  " + _("(empty)"), style="dim")
    return lines, [_group(zone, group, info, i in changed) for i, group in enumerate(zone.groups)]


def _group(zone: Zone, group: Group, info: TableInfo, changed: bool) -> Text:
    """A build or meld: ``⟨cards⟩`` with its badges and owner, marked when targeted or moved."""
    g_targeted = group.id in info.targets or (None, group.id) in info.taken
    row = Text()
    row.append("▶ " if g_targeted else "", style="bold yellow")
    row.append_text(_letter(group.id, info))
    if group.cards:
        inner = Text("⟨")
        inner.append_text(_table_cards(list(group.cards), (group.id, zone.id), info, set(),
                                       group.parts))
        inner.append("⟩")
        if g_targeted:
            inner.stylize("reverse")
        row.append_text(inner)
    badges = [badge_text(b) for b in group.badges]
    if group.seat is not None and 0 <= group.seat < len(info.names) \
            and not any(_names(b, info.names[group.seat]) for b in badges):
        badges.append(info.names[group.seat])  # the owner, unless a badge names them
    if badges:
        row.append(" " + " · ".join(badges), style="italic")
    if changed:
        row.append("  ◀ " + _("last move"), style="bold cyan")
    return row


class ZonesView(Static):
    """Every zone but the viewer's hand, one after another."""

    #: The text last shown, without styles (tests, and what a screen reader would read).
    plain = ""

    def show(self, zones: list[Zone], info: TableInfo) -> None:
        parts = [zone_parts(z, info) for z in zones]
        self.plain = "\n".join(_joined(*p).plain for p in parts)
        shown: list[Hanging | Flow | Tail] = []
        for zone, (lines, groups) in zip(zones, parts, strict=True):
            # a pile's cards (a long discard pile, a casino capture) in two lines at most
            piled = zone.kind == "pile" and len(lines) > 1
            shown.extend(Tail(line) if piled and i else Hanging(line) for i, line in enumerate(lines))
            if groups:
                shown.append(Flow(groups))
        self.update(RichGroup(*shown) if shown else Text(""))
