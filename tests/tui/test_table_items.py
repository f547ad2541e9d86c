"""Issue 23's table items 4, 5, 6 and 8, read off the screen at 80x24: every key of the
table in ``?`` and the rules one key away; nothing cut (the status line, the actions'
title, the footer, the help); words instead of decision numbers and sample counts, the
first-meld minimum and the frozen pile's reason; the setup form's focus seen without
colour, Tab row by row, checkboxes drawn differently on and off."""

from __future__ import annotations

import pytest
from textual.widgets import Checkbox, Markdown, Select
from textual.widgets._footer import FooterKey

from cardcore.apps.tui.app import CardcoreApp, Play, Resume
from cardcore.apps.tui.screens.help import HelpScreen, key_names
from cardcore.apps.tui.screens.rules import RulesScreen
from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen
from cardcore.apps.tui.screens.setup import SetupScreen
from cardcore.apps.tui.screens.table import TableScreen
from cardcore.apps.tui.session import SessionSetup
from cardcore.apps.tui.widgets.hand import HandView
from cardcore.apps.tui.widgets.zones import ZonesView
from cardcore.language import _

from .helpers import screen_lines, text_in, text_of, until, your_turn
from .test_frictions import session_at

SMALL = (80, 24)

#: Casino, the last card of the hand each: the human captures, the bot trails, the hand is over.
LAST_CARDS = {"players": 2, "dealer": 1, "to_play": 0, "hands": [["9H"], ["QS"]],
              "table": {"loose": ["4C", "5D"], "builds": []}, "stock": []}

#: Canasta, four seats: the pile frozen by the deuce in it, neither side has melded.
FROZEN = {"players": 4, "dealer": 3, "to_play": 0, "phase": "draw",
          "hands": [["7H", "9C", "9S", "KS", "4D"], ["5H", "6C"], ["8C", "QC"], ["10S", "JD"]],
          "stock": ["4C", "5D", "6D", "8D", "6H", "JS"], "discard": ["KC", "2C", "7D"],
          "melds": [[], []]}


# --- what the screen shows, whole --------------------------------------------------------


def status_problems(app, table: TableScreen) -> list[str]:
    """Each part of the status line ("Casino", "dealer Player 1") whole on one of its rows."""
    status = table.query_one("#status")
    rows = screen_lines(app)[status.region.y:status.region.bottom]
    parts = table.query_one("#status").plain.split(" · ")
    return [f"status: {part!r} not whole in {rows}" for part in parts
            if not any(part in row for row in rows)] + \
        [f"status cut: {row!r}" for row in rows if "…" in row]


def _footer_now(app) -> list[str]:
    last = screen_lines(app)[-1]
    keys = [k for k in app.screen.query(FooterKey) if k.display]
    shown = [f"{k.key_display} {k.description}" for k in keys]
    return [f"footer lacks {s!r}: {last!r}" for s in shown if s not in last] + \
        ([] if shown else ["no footer keys"])


async def footer_problems(pilot, pauses: int = 20) -> list[str]:
    """Every key the footer shows, whole on the last row ("f 4-co" was cut). The footer
    recomposes its keys after the bindings change, so a blank row just after is given a
    few pauses to be drawn; what is still missing after them is a problem."""
    problems = _footer_now(pilot.app)
    while problems and pauses:
        await pilot.pause()
        problems, pauses = _footer_now(pilot.app), pauses - 1
    return problems


async def help_rows(pilot) -> list[str]:
    """The help's lines as the 80x24 screen shows them, the box scrolled page by page."""
    box = pilot.app.screen.query_one("#help-box")
    content = box.content_region
    text = pilot.app.screen.query_one("#help-text").region  # its columns: not the scrollbar's
    rows: dict[int, str] = {}
    for y in range(0, box.max_scroll_y + content.height, content.height):
        box.scroll_to(y=y, animate=False, immediate=True)
        await pilot.pause()
        lines = screen_lines(pilot.app)
        for i in range(content.height):
            rows[int(box.scroll_y) + i] = lines[content.y + i][text.x:text.right].rstrip()
    return [rows[i] for i in sorted(rows)]


def entry_problems(rows: list[str], keys: list[str], words: str) -> list[str]:
    """``words`` whole in the help (wrapped at words: its rows joined say it as written),
    on the row whose key column holds every one of ``keys``."""
    flat = [" ".join(r.split()) for r in rows]
    start = words[:18]
    at = next((i for i, r in enumerate(flat) if start in r), None)
    if at is None:
        return [f"help lacks {words!r}"]
    column = flat[at][:flat[at].index(start)].split()
    digits = column[0].split("–") if column and "–" in column[0] else None
    missing = [k for k in keys if k not in column
               and not (digits and k.isdigit() and digits[0] <= k <= digits[1])]
    joined = " ".join(flat[at:at + 4])
    return ([f"{words!r}: keys {missing} not beside it ({flat[at]!r})"] if missing else []) + \
        ([] if words in joined else [f"{words!r} broken: {joined!r}"])


def test_the_help_is_made_of_every_binding(registry):
    """Item 4, quick: the help's text (as drawn at 68 columns, the box's width at 80)
    holds each binding of the table, the hand and the app, its keys and its words."""
    import io

    from rich.console import Console

    from cardcore.apps.tui.screens.help import section, sections

    app = CardcoreApp(registry)
    console = Console(width=68, file=io.StringIO(), record=True, color_system=None)
    for title, lines, note in sections(app, None):
        console.print(section(title, lines, note))
    rows = console.export_text().splitlines()
    problems: list[str] = []
    for binding in [*TableScreen.BINDINGS, *HandView.BINDINGS, *app.BINDINGS]:
        problems += entry_problems(rows, key_names(app, binding).split(),
                                   binding.tooltip or binding.description)
    assert not problems, problems


@pytest.mark.slow  # the help read page by page off the screen
async def test_every_table_key_is_in_the_help_and_the_rules_are_r_away(make_app, registry):
    """Item 4 (and item 5's help): each binding of the table (its own, the hand's, the
    app's) is in ``?`` with its words, whole at 80x24; ``r`` opens this game's rules over
    the table and esc comes back to it."""
    app = make_app(start=Resume(session_at(registry, "casino", LAST_CARDS)))
    async with app.run_test(size=SMALL) as pilot:
        table = await your_turn(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        rows = await help_rows(pilot)
        assert rows[2].strip() == "Table"  # the keys of the screen it was opened over first
        problems: list[str] = []
        for binding in [*TableScreen.BINDINGS, *HandView.BINDINGS, *app.BINDINGS]:
            keys = key_names(app, binding).split()
            problems += entry_problems(rows, keys, binding.tooltip or binding.description)
        for keys, words in TableScreen.HELP_EXTRA:  # shift+letter, tab, the mouse
            problems += entry_problems(rows, [keys], words)
        assert not problems, problems
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        rules = app.screen
        assert isinstance(rules, RulesScreen) and rules.game.id == "casino"
        session = table.session
        assert rules.query_one(Markdown).source == registry.rules(session.game, session.options)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is table


async def test_casino_at_80x24_the_status_footer_and_the_hand_over_are_whole(make_app, registry, spoken):
    """Item 5: the status line breaks between its parts, never in one ("· dealer Pl…"); the
    footer's keys are whole; the finished hand's actions title says its key whole."""
    app = make_app(start=Resume(session_at(registry, "casino", LAST_CARDS)))
    async with app.run_test(size=SMALL) as pilot:
        table = await your_turn(pilot)
        assert not status_problems(app, table) and not await footer_problems(pilot)
        assert f"r {_('Rules')}" in screen_lines(app)[-1] and f"? {_('Help')}" in screen_lines(app)[-1]
        await pilot.press("1")
        await until(pilot, lambda: isinstance(app.screen, ScoreSheetScreen), "the hand's sheet")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is table and table.finished is not None
        title = table.query_one("#actions-title")
        rows = screen_lines(app)[title.region.y:title.region.bottom]
        title_words = f"{_('Actions')} {_('(n: next hand)')}"
        assert title_words in " ".join(" ".join(r[title.region.x:].split()) for r in rows)
        over = _("hand {number} over").format(number=1)
        assert not status_problems(app, table) and over in table.query_one("#status").plain
        assert not await footer_problems(pilot) and f"n {_('Next hand')}" in screen_lines(app)[-1]


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["royal_casino", "canasta"])
async def test_four_seats_as_teams_at_80x24_are_whole(make_app, registry, game_id, spoken):
    """Item 5 for the partnership games: the status line with both sides' names, the turn,
    the hand, the game and the dealer, each part whole; the footer whole."""
    game = registry.games[game_id]
    setup = SessionSetup(game, game.Options(), ["human", "greedy", "greedy", "greedy"], 3)
    app = make_app(start=Play(setup))
    async with app.run_test(size=SMALL) as pilot:
        table = await your_turn(pilot)
        assert not status_problems(app, table) and not await footer_problems(pilot)
        plain = table.query_one("#status").plain
        first, second = table.session.side_names
        dealer = _("dealer {name}").format(name=table.session.name(table.hand_dealer))
        assert f"{first} 0 · {second} 0" in plain and f"{game.name} · {dealer}" in plain


# --- words -----------------------------------------------------------------------------------


async def test_canasta_says_the_first_meld_minimum_and_why_the_pile_is_frozen(make_app, registry):
    """Item 6: the melds zone says what the 50 is, the pile why it is frozen (the deuce in
    it, seen in the open pile), and a picked card's reason comes in words, no D-number."""
    session = session_at(registry, "canasta", FROZEN, ("human", "greedy", "greedy", "greedy"))
    app = make_app(start=Resume(session))
    async with app.run_test(size=SMALL) as pilot:
        table = await your_turn(pilot)
        zones = table.query_one("#zones", ZonesView).plain
        assert "[first meld needs 50 points]" in zones and "[frozen: 2♣ in it]" in zones
        shown = text_in(screen_lines(app), table.query_one("#zones-scroll").region)
        assert "[first meld needs 50 points]" in shown and "[frozen: 2♣ in it]" in shown, shown
        table.hand.cursor = table.hand.cards.index("7H")
        await pilot.press("space")
        await pilot.pause()
        message = text_of(app, "#message")
        assert message.startswith("7♥: draw first (d): the pile is frozen: it takes two natural 7s")
        assert "(D" not in message


def test_the_sheet_and_the_hint_use_words_not_counts_of_nothing(registry):
    """Item 6: "aces 0" (not "0 (–)") beside "big casino 2" (not "2 (1)"), the aces taken
    listed; a hint says the points it expects, not how many deals it tried."""
    from rich.console import Console

    from cardcore.apps.tui.screens.table import hint_text
    from cardcore.apps.tui.widgets.sheet import score_table
    from cardcore.engine.bots.search import Estimate
    from cardcore.engine.game import SimpleAction
    from cardcore.engine.scoresheet import ScoreSheet

    sheet = ScoreSheet(["Ann", "Bob"], 21)
    sheet.add({"sides": [
        {"items": {"cards": 0, "big_casino": 2, "aces": 0}, "total": 2,
         "counts": {"cards": 10, "big_casino": 1, "aces": []}},
        {"items": {"cards": 3, "big_casino": 0, "aces": 2}, "total": 5,
         "counts": {"cards": 42, "big_casino": 0, "aces": ["AS", "AH"]}}]})
    console = Console(width=80, record=True, color_system=None)
    console.print(score_table(sheet))
    rows = {" ".join(line.replace("│", " ").split()) for line in console.export_text().splitlines()}
    assert {"cards 0 (10) 3 (42)", "big casino 2 0", "aces 0 2 (A♠ A♥)"} <= rows, rows
    best = [Estimate(SimpleAction({"c": 1}, "Capture 8♦ with 8♠"), 1.24, 269, 0.0),
            Estimate(SimpleAction({"t": 3}, "Trail 3♣"), -0.4, 31, 0.0)]
    assert hint_text(best) == "Hint: Capture 8♦ with 8♠, about +1.2 points for your side; " \
                              "next: Trail 3♣ -0.4"


# --- the setup form ----------------------------------------------------------------------


def marked_rows(app) -> list[str]:
    """The rows of the screen the focus mark (▌ at a row's left) is on."""
    return [row for row in screen_lines(app) if row.lstrip().startswith("▌")]


@pytest.mark.slow  # the setup form's widgets take a second or two to compose
async def test_setup_tab_by_row_focus_marked_in_plain_text_boxes_on_and_off(make_app, registry,
                                                                            monkeypatch):
    """Item 8, without colour (NO_COLOR): with four seats (a human, three bots) seat 3's
    control is four Tabs from the player count (a bot seat's name box is skipped: it was
    five; a click still reaches it); the focused row, and only it, is marked by a
    character (▌); a checkbox draws ▐X▌ ticked and ▐ ▌ not (Textual's drew ▐X▌ both ways)."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        assert app.no_color
        app.push_screen(SetupScreen(registry.games["casino"], seed=7))
        await pilot.pause()
        setup = app.screen
        setup.query_one("#players", Select).value = 4
        await pilot.pause()
        assert app.focused is setup.query_one("#players")
        tabs = 0
        while app.focused is not setup.query_one("#who-2") and tabs < 10:
            await pilot.press("tab")
            tabs += 1
        assert tabs == 4  # players -> seat 1 -> its name (a human's) -> seat 2 -> seat 3
        await pilot.pause()
        marked = marked_rows(app)
        assert len(marked) == 1 and "Seat 3" in marked[0] and "bot: greedy" in marked[0], marked
        await pilot.click("#name-2")  # a bot's name box: one click away
        assert app.focused is setup.query_one("#name-2")
        sweeps = setup.query_one("#opt-sweeps", Checkbox)
        sweeps.focus()
        setup.query_one("#setup-form").scroll_to_widget(sweeps, animate=False)
        await pilot.pause()
        line = next(r for r in screen_lines(app) if "sweeps" in r and "▐" in r)
        assert "▐X▌ yes" in line and marked_rows(app) == [line]
        await pilot.press("space")
        await pilot.pause()
        line = next(r for r in screen_lines(app) if "sweeps" in r and "▐" in r)
        assert not sweeps.value and "▐ ▌ no" in line


@pytest.mark.slow  # every theme's CSS applied in turn: seconds
async def test_setup_focus_mark_has_a_colour_of_its_own_in_every_theme(make_app, registry):
    """Item 8: the focused row's mark is drawn in a colour unlike the background and the
    unmarked rows' in each of Textual's themes."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        app.push_screen(SetupScreen(registry.games["casino"], seed=7))
        await pilot.pause()
        row = app.screen.query_one("#players").parent.region
        assert len(app.available_themes) > 10
        for theme in app.available_themes:
            app.theme = theme
            await pilot.pause()
            mark, unmarked = (app.screen.get_style_at(row.x, y) for y in (row.y, row.y + 1))
            assert mark.color not in (None, mark.bgcolor, unmarked.color), theme
