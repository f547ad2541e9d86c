"""The TUI's drawing helpers on their own: the score table, the suit colours."""

from __future__ import annotations

from rich.console import Console

from cardcore.apps.tui.widgets.cards import card_style
from cardcore.apps.tui.widgets.sheet import score_table
from cardcore.engine.scoresheet import ScoreSheet


def row(a: dict, b: dict) -> dict:
    return {"sides": [{"seats": [0], "items": a, "total": sum(a.values())},
                      {"seats": [1], "items": b, "total": sum(b.values())}]}


def test_score_table_lists_items_totals_and_winner():
    sheet = ScoreSheet(["We", "They"], target=21)
    sheet.add(row({"cards": 3, "aces": 2}, {"spades": 1}))
    console = Console(width=80, record=True)
    console.print(score_table(sheet, winner=0))
    text = console.export_text()
    assert "target 21" in text and "We ★" in text
    assert "cards" in text and "aces" in text and "spades" in text
    assert "total" in text


def test_suit_colours_two_and_four_colour_decks():
    assert card_style("QH") == card_style("10D") == "bold red"
    assert card_style("10D", "four") == "bold dodger_blue1"
    assert card_style("2C", "four") == "bold green"
    assert card_style("AS", "unknown") == "bold white"  # an unknown palette falls back to two
    assert card_style(None) == "grey50"
