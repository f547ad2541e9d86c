"""The score sheet drawn: hands down, sides across, each hand's items, its total, the running total."""

from __future__ import annotations

from rich.table import Table

from cardcore.scoresheet import ScoreSheet


def score_table(sheet: ScoreSheet, winner: int | None = None) -> Table:
    """The sheet as a rich Table; the ``winner`` side's column is starred."""
    variant = f" — {sheet.variant}" if sheet.variant else ""
    table = Table(title=f"Score sheet — target {sheet.target}{variant}", expand=False)
    table.add_column("Hand", justify="right")
    table.add_column("")
    for i, name in enumerate(sheet.side_names):
        mark = " ★" if winner == i else ""
        table.add_column(name + mark, justify="right")
    keys = sheet.item_keys()
    for h, (row, run) in enumerate(zip(sheet.hands, sheet.running(), strict=True), start=1):
        for k in keys:
            values = [side["items"].get(k, 0) for side in row["sides"]]
            if any(values):
                table.add_row("", k.replace("_", " "), *map(str, values))
        table.add_row(str(h), "[b]hand[/b]", *(f"[b]{s['total']}[/b]" for s in row["sides"]))
        table.add_row("", "[b]total[/b]", *(f"[b]{t}[/b]" for t in run), end_section=True)
    return table
