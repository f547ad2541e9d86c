"""The generic table draws a trick with no code of the game's (Whist, the kit's example): who
played which card, the suit led, trumps, the last trick and who took it, the tricks each
side took, at 80x24 with four players; the status line keeps to its two lines with long
names; q on the end-of-hand sheet leaves the table, as the footer says."""

from __future__ import annotations

import pytest
from rich.text import Text

from cardcore.apps.tui.app import Play
from cardcore.apps.tui.screens.help import HelpScreen
from cardcore.apps.tui.screens.scoresheet import ScoreSheetScreen
from cardcore.apps.tui.screens.table import TableScreen
from cardcore.apps.tui.session import SessionSetup
from cardcore.apps.tui.widgets.wrap import Parts
from cardcore.apps.tui.widgets.zones import TableInfo, render_zone
from cardcore.engine.cards import glyph
from cardcore.engine.kit.tricks import suit_glyph
from cardcore.language import _
from cardcore.services.plugins import load_registry

from .helpers import first_action_key, record_calls, screen_lines, text_of, until
from .test_narrow import check_80x24, render_at

NAMES = ["South", "West", "North", "East"]


@pytest.fixture
def whist_registry(registry):
    """The registry with Whist (installed by the Makefile; here also when it is not)."""
    if "whist" in registry.games:
        return registry
    import cardcore_whist.plugin

    return load_registry(extra_plugins=[("whist", cardcore_whist.plugin)])


def test_a_trick_zone_names_each_card_s_player_the_lead_trumps_and_the_taker(whist):
    state = whist.state_from_json({
        "game": "whist", "players": 4, "dealer": 3, "to_play": 1,
        "hands": [["2C"], ["3C"], ["4C"], ["5C"]],
        "trick": {"plays": [], "trump": "H", "done": [
            {"winner": 1, "plays": [[0, "QD"], [1, "3H"], [2, "KD"], [3, "2D"]]}]}})
    info = TableInfo(NAMES, ["South & North", "West & East"])
    trick, *taken = [render_zone(z, info).plain for z in state.zones(0)[4:]]
    assert trick.splitlines() == ["  Trick 1 — taken by West [led ♦] [trump ♥]", "    ⟨Q♦⟩ South",
                                  "    ⟨3♥⟩ West", "    ⟨K♦⟩ North", "    ⟨2♦⟩ East"]
    assert taken == ["  Tricks — South & North [0 tricks]", "  Tricks — West & East [1 trick]"]


def test_the_status_line_keeps_to_two_lines_leaving_out_what_matters_least():
    long = "Alexandra Konstantinova & Christopher Robin Milne"
    parts = [Text(f"{long} 0"), Text("Bartholomew & Dominique 0 (to 5)"),
             Text("to play: Alexandra Konstantinova (you)"), Text("hand 1"), Text("Whist"),
             Text(""), Text("dealer Dominique")]
    assert render_at(78, Parts(parts)) == [  # unbounded: three lines, the third was cut
        f"{long} 0", "Bartholomew & Dominique 0 (to 5) · to play: Alexandra Konstantinova (you)",
        "hand 1 · Whist · dealer Dominique"]
    assert render_at(78, Parts(parts, 2, spare=(4, 3, 5, 6))) == [
        f"{long} 0", "Bartholomew & Dominique 0 (to 5) · to play: Alexandra Konstantinova (you)"]
    # what cannot fit even so ends in "…", never cut without a word
    assert render_at(30, Parts(parts[:3], 2)) == ["Alexandra Konstantinova &", "Christopher Robin Milne 0…"]
    short = [Text("South & North 0"), Text("West & East 0 (to 5)"), Text("to play: Alexandra (you)"),
             *parts[3:]]
    assert render_at(78, Parts(short, 2, spare=(4, 3, 5, 6))) == [
        "South & North 0 · West & East 0 (to 5) · to play: Alexandra (you) · hand 1",
        "Whist · dealer Dominique"]  # room enough: everything


async def test_long_names_at_80x24_keep_the_score_and_the_turn_whole_in_two_lines(make_app,
                                                                                whist_registry, spoken):
    game = whist_registry.games["whist"]
    names = ["Alexandra Konstantinova", "Bartholomew", "Christopher Robin Milne", "Dominique"]
    setup = SessionSetup(game, game.Options(), ["human", "greedy", "greedy", "greedy"], 3, names=names)
    app = make_app(registry=whist_registry, start=Play(setup))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.legal
                            and app.screen, "the human's turn")
        await pilot.pause()
        status = table.query_one("#status").region
        lines = [line.strip() for line in screen_lines(app)[status.y:status.bottom]]
    target, turn = _("(to {target})").format(target=5), _("to play:")
    assert lines == ["Alexandra Konstantinova & Christopher Robin Milne 0",
                     f"Bartholomew & Dominique 0 {target} · {turn} Alexandra Konstantinova ({_('you')})"]


async def test_q_on_the_score_sheet_leaves_the_table_as_at_the_table(make_app, registry):
    game = registry.games["crazy_eights"]
    app = make_app(start=Play(SessionSetup(game, game.Options(), ["human", "greedy"], 7)))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen,
                            "the table")
        left = record_calls(app, "leave_table")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, ScoreSheetScreen), "the sheet")
        await pilot.press("question_mark")  # the help over the sheet lists the sheet's keys first
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        words = " ".join(text_of(app, "#help-text").split())
        assert words.startswith("Score sheet") and "q leave the table (the match is saved)" in words
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ScoreSheetScreen), "the sheet again")
        await pilot.press("q")
        await until(pilot, lambda: left, "the table left")
        assert left[0][0] == (table,)


def trick_problems(lines: list[str], table: TableScreen) -> tuple[list[str], str]:
    """What the zones must show of the trick: each card with its player, the suit led, trumps,
    the last trick's taker (until the next lead), the tricks each side took; and which
    trick it showed ("in play", "last" or "none")."""
    zones = table.query_one("#zones-scroll").region
    text = " ".join(" ".join(row[zones.x:zones.right].split()) for row in lines[zones.y:zones.bottom])
    trick = table.session.state.trick
    names = table.session.names
    problems = []
    if f"[trump {suit_glyph(trick.trump)}]" not in text:
        problems.append(f"no trumps in {text!r}")
    taker, plays = trick.last or (None, tuple(trick.plays))
    for seat, card in plays:
        if f"⟨{glyph(card)}⟩ {names[seat]}" not in text:
            problems.append(f"{glyph(card)} of {names[seat]} not shown: {text!r}")
    if plays and f"[led {suit_glyph(plays[0][1][-1])}]" not in text:
        problems.append(f"no suit led in {text!r}")
    if taker is not None and _("{zone} — taken by {name}").format(zone="", name=names[taker]) not in text:
        problems.append(f"the last trick's taker not shown: {text!r}")
    for side, count in zip(table.session.side_names, trick.taken_by_side(table.session.state.seating),
                           strict=True):
        if f"Tricks — {side} [{count} trick" not in text:
            problems.append(f"{side}'s {count} tricks not shown: {text!r}")
    return problems, "last" if taker is not None else "in play" if plays else "none"


@pytest.mark.slow
async def test_a_hand_of_whist_at_80x24_shows_the_trick_trumps_and_who_took_the_last(
        make_app, whist_registry, spoken):
    game = whist_registry.games["whist"]
    setup = SessionSetup(game, game.Options(), ["human", "greedy", "greedy", "greedy"], 3)
    app = make_app(registry=whist_registry, start=Play(setup))
    problems: list[str] = []
    seen: set[str] = set()
    async with app.run_test(size=(80, 24)) as pilot:
        for _turn in range(400):
            await pilot.pause()
            table = app.screen
            if not isinstance(table, TableScreen):
                break
            if not table.legal:
                continue
            await pilot.pause()  # laid out and drawn before the screen is read
            lines = screen_lines(app)
            found, shown = trick_problems(lines, table)
            problems += found + check_80x24(app, table)
            # each trick is a turn of its own: nothing listed as played before, numbered anew
            problems += [f"{row.label} still listed at trick {len(table.session.state.trick.done)}"
                         for row in table.rows if row.index is None]
            seen.add(shown)
            await pilot.press(first_action_key(app))
        assert isinstance(app.screen, ScoreSheetScreen), "the hand never ended"
        left = record_calls(app, "leave_table")
        await pilot.press("q")  # as the footer under the sheet says: leave (saved)
        await until(pilot, lambda: left, "the table left")
    assert not problems, sorted(set(problems))[:5]
    assert {"in play", "last"} <= seen  # following a lead, leading after a trick taken
