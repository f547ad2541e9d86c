"""Helpers the TUI flow tests share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.widgets import Static

from cardcore.apps.tui.screens.table import TableScreen


def text_of(app: Any, selector: str) -> str:
    """The text a Static shows (its ``plain`` when it draws a renderable of its own)."""
    widget = app.screen.query_one(selector, Static)
    plain = getattr(widget, "plain", None)
    return plain if isinstance(plain, str) and plain else str(widget.render())


def record_calls(app: Any, name: str) -> list:
    """Record the calls of ``app.<name>`` (and still make them)."""
    calls: list = []
    original = getattr(app, name)

    def recorder(*args: Any, **kwargs: Any) -> Any:
        calls.append((args, kwargs))
        return original(*args, **kwargs)

    setattr(app, name, recorder)
    return calls


async def your_turn(pilot: Any, pauses: int = 200) -> TableScreen:
    """Pause until the bots have played and the human has actions (the greedy bot opens at seed 7)."""
    for _ in range(pauses):
        await pilot.pause()
        table = pilot.app.screen
        if isinstance(table, TableScreen) and table.legal:
            return table
    raise AssertionError("the human never got the turn")


def screen_lines(app: Any) -> list[str]:
    """The screen as the terminal shows it now, one string per row (what is cut is not there)."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True,
                                                        screen_stack=app._background_screens))
    return console.export_text().splitlines()[:height]


def text_in(lines: list[str], region: Any) -> str:
    """The words shown in ``region`` of the screen, whitespace collapsed."""
    rows = lines[region.y:region.y + region.height]
    return " ".join(" ".join(row[region.x:region.x + region.width].split()) for row in rows).strip()


def first_action_key(app: Any) -> str:
    """The number of the first action the table's page can play: "1", unless the turn's
    earlier moves left marked rows before it (docs/tui.md, "Action numbers")."""
    table = app.screen
    if isinstance(table, TableScreen):
        rows = table.rows[table.page * 9:(table.page + 1) * 9]
        return next((str(n) for n, row in enumerate(rows, 1) if row.index is not None), "1")
    return "1"


async def play_first(pilot: Any) -> None:
    """Play the first playable action on the page (a key like any other off the table)."""
    await pilot.press(first_action_key(pilot.app))


async def play_to_the_sheet(pilot: Any, limit: int = 600) -> None:
    """Play the first action until the hand ends and its score sheet shows."""
    from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen

    for _ in range(limit):
        if isinstance(pilot.app.screen, ScoreSheetScreen):
            return
        await play_first(pilot)
        await pilot.pause()
    raise AssertionError("the hand never ended")


async def until(pilot: Any, condition: Callable[[], Any], what: str, pauses: int = 400) -> Any:
    """Pause (a bounded number of times) until ``condition()`` is true; its value."""
    for _ in range(pauses):
        value = condition()
        if value:
            return value
        await pilot.pause(0.01)
    raise AssertionError(f"never: {what}")
