"""The statistics laid out as lines of text for a width: ``cardcore stats`` prints them, the
TUI's statistics screen draws them. Per game and variant, the people, then the partnerships
(docs/library.md, "Statistics"). Nothing is cut: a name longer than its column goes on a
line of its own, the counts wrap between items ("big casino 2 · sweeps 5").
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from cardcore.apps.args import fit
from cardcore.engine.scoresheet import extras_of
from cardcore.language import N_, _, number, percent
from cardcore.services.plugins import Registry
from cardcore.services.store import PlayerStats

#: The figures' headers and their widths (each right-aligned, two spaces before it; a
#: column is as wide as its translated header, at least).
FIGURES = ((N_("matches"), 7), (N_("wins"), 4), (N_("share"), 5), (N_("hands"), 5), (N_("mean hand"), 9))
INDENT = "  "
COUNTS_INDENT = "    "


@dataclass(frozen=True)
class Line:
    """One line: its text and what it is ("title", "head", "row", "counts", "note")."""

    text: str
    kind: str = "row"


def variant(registry: Registry, game_id: str, options: dict[str, Any]) -> str:
    """The options that differ from the game's defaults ("standard" when none do)."""
    try:
        defaults = registry.games[game_id].Options().model_dump(mode="json")
    except KeyError:
        defaults = {}
    differ = {k: v for k, v in sorted(options.items()) if defaults.get(k, object()) != v}
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in differ.items()) or _("standard")


def count_words(registry: Registry, st: PlayerStats) -> dict[str, str]:
    """Each count's name in words: the game's label for it ("big casino"), else its key
    with spaces for "_"."""
    extras = extras_of(registry.games.get(st.game), st.options)
    labels = {e.key: e.label for e in extras if e.label}
    return {k: labels.get(k) or k.replace("_", " ") for k in st.counts}


def stats_lines(registry: Registry, people: list[PlayerStats], partnerships: list[PlayerStats],
                width: int) -> list[Line]:
    """The statistics for ``width`` columns (at least 48 lay out without a line longer)."""
    if not people:
        return [Line(_("No finished matches in the library yet."), "note")]
    groups: dict[tuple[str, str], tuple[list[PlayerStats], list[PlayerStats]]] = {}
    for st in people:
        groups.setdefault(_group(registry, st), ([], []))[0].append(st)
    for st in partnerships:
        groups.setdefault(_group(registry, st), ([], []))[1].append(st)
    out: list[Line] = []
    for (game_id, options), (persons, pairs) in groups.items():
        game = registry.games.get(game_id)
        if out:
            out.append(Line("", "note"))
        out.append(Line(f"{game.name if game else game_id} ({options})", "title"))
        out.extend(_table(registry, _("person"), persons, width))
        if pairs:
            out.extend(_table(registry, _("partnership"), pairs, width))
    return out


def _group(registry: Registry, st: PlayerStats) -> tuple[str, str]:
    return st.game, variant(registry, st.game, st.options)


def _table(registry: Registry, head: str, rows: list[PlayerStats], width: int) -> Iterator[Line]:
    labels = [_("{name} (bot)").format(name=st.player) if st.bot else st.player for st in rows]
    columns = [(_(h), max(w, len(_(h)))) for h, w in FIGURES]
    room = max(len(head), width - len(INDENT) - sum(w + 2 for _h, w in columns))
    name_w = min(max(len(x) for x in [head, *labels]), room)
    yield Line(INDENT + head.ljust(name_w) + "".join(f"  {h:>{w}}" for h, w in columns), "head")
    for st, label in zip(rows, labels, strict=True):
        figures = (st.matches, st.wins, percent(st.win_share), st.hands,
                   number(st.mean_hand_score, 1, grouping=False))
        cells = "".join(f"  {v:>{w}}" for v, (_h, w) in zip(figures, columns, strict=True))
        if len(label) > name_w:  # a long name on its own line, never cut
            yield Line(INDENT + label)
            label = ""
        yield Line(INDENT + label.ljust(name_w) + cells)
        words = count_words(registry, st)
        items = [f"{words[k]} {v}" for k, v in st.counts.items() if v]
        if items:  # " · " between them, a line broken between two (args.fit)
            yield from (Line(text, "counts") for text in
                        fit(items, width, lead=COUNTS_INDENT, indent=len(COUNTS_INDENT), sep=" · "))
