"""Issue 27: a partnership sheet seen from a seat reads "Kami" (we) over the viewer's side's
column and "Mereka" (they) over the other in Indonesian; English keeps the sides' names. A
four-player Canasta position, seen from each side in turn."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from cardcore import language
from cardcore.apps.tui.app import Resume
from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen
from cardcore.apps.tui.widgets.sheet import side_heads

from .helpers import screen_lines, your_turn
from .test_frictions import session_at
from .test_table_items import FROZEN

#: One hand of the four-player match scored, so the sheet has its columns.
ROW = {"sides": [{"items": {"melds": 120}, "total": 120}, {"items": {"melds": 80}, "total": 80}]}


def test_the_heads_say_we_and_they_only_where_the_language_does():
    names = ["South & North", "West & East"]
    assert side_heads(names, None) == names  # no seat (a replay, the history): the names
    assert side_heads(["A", "B", "C"], 0) == ["A", "B", "C"]  # no partnership of two sides
    with language.speaking("en"):
        assert side_heads(names, 0) == names
    with language.speaking("id"):
        assert side_heads(names, 0) == ["Kami", "Mereka"]
        assert side_heads(names, 1) == ["Mereka", "Kami"]


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
@pytest.mark.parametrize(("seat", "heads"), [(0, ("Kami", "Mereka")), (1, ("Mereka", "Kami"))])
async def test_a_four_player_canasta_sheet_seen_from_each_side(make_app, registry, spoken, seat,
                                                               heads):
    seats = ["greedy"] * 4
    seats[seat] = "human"
    position = dict(FROZEN, to_play=seat)
    session = session_at(registry, "canasta", position, seats=tuple(seats))
    session.match.sheet.add(ROW)
    names = list(session.sheet.side_names)
    app = make_app(start=Resume(session))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await your_turn(pilot)
        assert table.viewer_side == table.sheet_side == seat % 2
        await pilot.press("s")
        await pilot.pause()
        sheet = app.screen
        assert isinstance(sheet, ScoreSheetScreen)
        table_text = sheet.query_one("#sheet-table", Static)
        row = next(line for line in screen_lines(app)[table_text.region.y:table_text.region.bottom]
                   if "Hand" in line or "Ronde" in line)
        want = heads if spoken == "id" else tuple(names)
        assert row.index(want[0]) < row.index(want[1]), row
        if spoken == "id":  # the names give way to the words
            assert not any(name in row for name in names), row


@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_two_players_alone_keep_their_names_on_the_sheet(make_app, registry):
    """Casino for two: each player a side of their own, no "we" (Kami is a partnership's)."""
    from .test_table_items import LAST_CARDS

    app = make_app(start=Resume(session_at(registry, "casino", LAST_CARDS)))
    with language.speaking("id"):
        async with app.run_test(size=(80, 24)) as pilot:
            table = await your_turn(pilot)
            assert table.viewer_side == 0 and table.sheet_side is None


def test_the_sheet_says_the_games_items_and_extras_in_the_language_in_use():
    """Issue 27: a casino hand's rows read "kartu", "sekop", "sapu bersih" in Indonesian
    (``Game.translate``), the items' keys as they are in English."""
    from rich.console import Console

    from cardcore.apps.tui.widgets.sheet import score_table
    from cardcore.engine.scoresheet import ScoreSheet
    from cardcore.services.plugins import load_games

    casino = load_games()["casino"]
    row = {"sides": [{"items": {"cards": 3, "spades": 1, "sweeps": 2}, "total": 6},
                     {"items": {"cards": 0, "spades": 0, "sweeps": 1}, "total": 1}]}
    sheet = ScoreSheet.from_json({"side_names": ["Ana", "Budi"], "target": 21, "hands": [row]})

    def drawn() -> list[str]:
        console = Console(width=100, record=True)
        console.print(score_table(sheet, words=casino.translate))
        return [line.split("│")[2].strip() for line in console.export_text().splitlines()
                if line.count("│") > 3]

    with language.speaking("en"):
        assert drawn() == ["cards", "spades", "sweeps", "hand", "total"]
    with language.speaking("id"):
        assert drawn() == ["kartu", "sekop", "sapu bersih", "ronde", "total"]
