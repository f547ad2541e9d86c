"""Statistics fit the width: at 80 columns every header, count name and person's name is
whole, in `cardcore stats` (COLUMNS=80, stdout not a terminal) and on the TUI's statistics
screen at 80x24 (issue 23: "matc…", "casi…", "litt…" before)."""

from __future__ import annotations

import pytest

from cardcore.apps.cli import main
from cardcore.apps.tui.app import Launch
from cardcore.apps.tui.screens.library import StatsScreen
from cardcore.services.store import open_library
from tests.core.test_people import played

from .helpers import screen_lines, until

LONG_A, LONG_B = "Alexandrina Montgomery", "Maximiliana Featherstone"  # 22 and 24 characters
HEADERS = ("person", "matches", "wins", "share", "hands", "mean hand", "partnership")
COUNTS = ("big casino", "little casino", "spades", "cards")  # (none swept)
NAMES = (f"{LONG_B} · aaaa", f"{LONG_B} · bbbb", LONG_A, "Bob", "Dee", f"{LONG_B} · aaaa & {LONG_A}")


def library(registry) -> None:
    """Two matches of four people: two of them share a 24-character name."""
    store = open_library()
    four = ["human"] * 4
    keys = ["p:" + c * 16 for c in "abcd"]
    played(store, registry, four, [LONG_B, "Bob", LONG_A, "Dee"], keys, seed=1)
    played(store, registry, four, ["Bob", LONG_B, "Dee", LONG_A],
           [keys[1], "p:" + "b" * 15 + "0", keys[3], keys[2]], seed=2)
    store.close()


def whole(lines: list[str]) -> list[str]:
    """What is missing or cut in ``lines``."""
    text = "\n".join(lines)
    missing = [w for w in (*HEADERS, *NAMES) if w not in text]
    cut = [line for line in lines if "…" in line]
    return missing + cut


def test_cardcore_stats_at_80_columns_cuts_nothing(registry, capsys, monkeypatch):
    library(registry)
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert whole(lines) == []
    assert max(map(len, lines)) <= 80
    counts = " · ".join(x.strip() for x in lines if x.startswith("    "))
    assert all(c in counts for c in COUNTS) and "_" not in counts and "sample" not in counts
    assert lines[0] == "Casino (target=1)"


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_the_statistics_screen_at_80x24_cuts_nothing(make_app, registry):
    library(registry)
    app = make_app(start=Launch())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, StatsScreen), "the statistics")
        await pilot.pause()
        seen = screen_lines(app)[1:-1]  # below the title, above the footer
        scroll = app.screen.query_one("#stats-scroll")
        scroll.scroll_end(animate=False)
        await pilot.pause()
        seen += screen_lines(app)[1:-1]
        assert whole(seen) == []
        assert "big casino" in "\n".join(seen) and "big_casino" not in "\n".join(seen)
