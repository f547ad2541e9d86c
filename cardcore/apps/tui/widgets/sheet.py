"""The score sheet drawn: hands down, sides across, each hand's items and the game's extras,
its total, the running total. Side names, notes and what a record counted are drawn as
they are (``literal``), never read as markup."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.table import Table

from cardcore.apps.tui.plain import literal
from cardcore.engine.cards import glyph
from cardcore.engine.game import ExtraValue, ScoreExtra
from cardcore.engine.scoresheet import ScoreSheet, extra_label, shown_extras, to_target
from cardcore.language import CORE, _


def side_heads(side_names: Sequence[str], viewer_side: int | None) -> list[str]:
    """The sides' column heads: in a game of two partnerships seen from one of them, as
    the language in use says "we" and "they" (Indonesian: Kami / Mereka); English keeps
    the sides' names."""
    if viewer_side is None or len(side_names) != 2 or not 0 <= viewer_side < 2:
        return list(side_names)
    # TRANSLATORS: the viewer's side's column on a partnership score sheet ("Kami"); {side}: its name
    ours = CORE.pgettext("sheet head, our side", "{side}")
    # TRANSLATORS: the other side's column on a partnership score sheet ("Mereka"); {side}: its name
    theirs = CORE.pgettext("sheet head, their side", "{side}")
    return [(ours if i == viewer_side else theirs).format(side=name) for i, name in enumerate(side_names)]


def score_table(sheet: ScoreSheet, winner: int | None = None,
                extras: Sequence[ScoreExtra] = (), goal: str | None = None,
                heads: Sequence[str] | None = None, words: Callable[[str], str] | None = None) -> Table:
    """The sheet as a rich Table; the ``winner`` side's column is starred; ``extras``: the
    game's (``Game.score_extras``), each a row under a hand's items where it says something;
    ``goal``: how the match is won (``Game.goal``; else the sheet's target); ``heads``: the
    sides' column heads (``side_heads``; else their names); ``words``: the game's words for
    its items and extras in the language in use (``Game.translate``)."""
    word = words or (lambda text: text)
    variant = f" — {sheet.variant}" if sheet.variant else ""
    goal = goal or to_target(sheet.target)
    table = Table(title=literal(_("Score sheet — {goal}").format(goal=goal) + variant), expand=False)
    table.add_column(_("Hand"), justify="right")
    table.add_column("")
    for i, name in enumerate(heads or sheet.side_names):
        mark = " ★" if winner == i else ""
        table.add_column(literal(name + mark), justify="right")
    keys = sheet.item_keys()
    notes: list[str] = []
    for h, (row, run) in enumerate(zip(sheet.hands, sheet.running(), strict=True), start=1):
        for k in keys:
            values = [side["items"].get(k, 0) for side in row["sides"]]
            counts = [side.get("counts", {}).get(k) for side in row["sides"]]
            # a row shows when it scored, or when something was counted (a 26-26 tie)
            if any(values) or any(c for c in counts if c is not None):
                table.add_row("", literal(word(k.replace("_", " "))),
                              *(cell(v, c) for v, c in zip(values, counts, strict=True)))
        for extra, said in shown_extras(row, extras):
            table.add_row("", literal(word(extra_label(extra))), *(extra_cell(extra, v) for v in said))
        table.add_row(str(h), "[b]" + literal(_("hand")) + "[/b]",
                      *(f"[b]{literal(s['total'])}[/b]" for s in row["sides"]))
        table.add_row("", "[b]" + literal(_("total")) + "[/b]", *(f"[b]{literal(t)}[/b]" for t in run),
                      end_section=True)
        notes += [literal(_("hand {number}, {side}: {note}").format(number=h, side=name, note=side["note"]))
                  for name, side in zip(sheet.side_names, row["sides"], strict=False)
                  if side.get("note")]
    if notes:
        table.caption = "\n".join(notes[-4:])
    return table


def cell(points: int, count: object) -> str:
    """``3 (31)``: the points and, dim, what was counted (``4 (A♣ A♦ A♥ A♠)`` for the
    aces), when it says more than the points: not an empty list ("aces 0"), the same
    number, or a card taken once that scored ("big casino 2")."""
    if count is None or isinstance(count, bool):
        return literal(points)
    if isinstance(count, list):
        if not count:
            return literal(points)
        shown = listed(count)
    elif count == points or (count == 1 and points):
        return literal(points)
    else:
        shown = str(count)
    return f"{literal(points)} [dim]({literal(shown)})[/dim]"


def extra_cell(extra: ScoreExtra, value: ExtraValue) -> str:
    """An extra's cell: the game's ``show`` if it has one, else an int as it is (True: ✓),
    a list as cards, a str as it is; nothing for None."""
    if extra.show is not None:
        return literal(extra.show(value))
    if value is None or value is False:
        return ""
    if value is True:
        return "✓"
    if isinstance(value, list):
        return literal(listed(value))
    return literal(value)


def listed(values: list) -> str:
    """A list as the sheet shows it: cards as cards (``A♠ 10♦``), "–" for none."""
    return " ".join(glyph(c) if isinstance(c, str) else str(c) for c in values) or "–"
