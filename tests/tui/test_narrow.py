"""At 80x24 (and 100x30) everything needed is on screen: the setup form's option
descriptions whole, and at the table the score, the target, the hand, the actions, the
table's cards and the footer's help key."""

from __future__ import annotations

import pytest

from cardcore.apps.tui.app import Play
from cardcore.apps.tui.screens.setup import SetupScreen
from cardcore.apps.tui.screens.table import TableScreen
from cardcore.apps.tui.session import SessionSetup
from cardcore.apps.tui.widgets.options_form import OptionsForm, help_line
from cardcore.engine.cards import glyph
from cardcore.language import _

from .helpers import first_action_key, play_to_the_sheet, screen_lines, text_in, text_of

GAMES = ("casino", "royal_casino", "canasta")


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_setup_option_descriptions_are_whole_at_80_and_100_columns(make_app, registry, size, spoken):
    for game_id in GAMES:
        game = registry.games[game_id]
        app = make_app()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            app.push_screen(SetupScreen(game, seed=7))
            await pilot.pause()
            screen = app.screen
            form = screen.query_one("#setup-form")
            options = screen.query_one("#options", OptionsForm)
            for name, info in game.Options.model_fields.items():
                help_static = options.query_one(f"#help-{name}")
                form.scroll_to_widget(help_static, animate=False)
                await pilot.pause()
                region = help_static.region
                assert form.region.contains_region(region), (game_id, name, region)
                kind = options.kinds[name][0]
                default = info.get_default(call_default_factory=True)
                default = getattr(default, "value", default)
                want = " ".join(help_line(info.description, default, kind).split())
                assert text_in(screen_lines(app), region) == want, (game_id, name)


def sides_and_target(session) -> list[str]:
    m = session.match
    return [f"{name} {total}" for name, total in zip(m.sheet.side_names, m.totals, strict=True)] \
        + [_("(to {target})").format(target=m.options.target)]


def check_80x24(app, table) -> list[str]:
    """What a player needs, on the screen as shown: the score, the target, the help key, the
    hand, the first action and every zone of the table; the problems found."""
    lines = screen_lines(app)
    problems = [f"status lacks {want!r}" for want in sides_and_target(table.session)
                if want not in lines[0]]
    if f"? {_('Help')}" not in lines[-1]:
        problems.append(f"footer lacks '? {_('Help')}': {lines[-1]!r}")
    hand = " ".join(lines[table.hand.region.y:table.hand.region.bottom])
    problems += [f"hand card {glyph(c)} not shown" for c in table.hand.cards
                 if c is not None and glyph(c) not in hand]
    actions = table.query_one("#actions")
    shown = " ".join(row[actions.region.x:] for row in lines[actions.region.y:actions.region.bottom])
    first = table.shown[0][1].label.split()[0] if table.shown else ""
    if first not in shown:
        problems.append(f"first action {first!r} not shown")
    scroll = table.query_one("#zones-scroll")
    if scroll.max_scroll_y > 0:
        problems.append(f"the table needs scrolling ({scroll.max_scroll_y} lines)")
    return problems


async def play_hand_at_80x24(pilot, app) -> list[str]:
    """Play the human's turns of one hand (draw when it can, else action 1); check the
    screen at every turn."""
    problems: list[str] = []
    table = None
    for _turn in range(400):
        await pilot.pause()
        screen = app.screen
        if not isinstance(screen, TableScreen):  # the end-of-hand sheet
            break
        if not screen.legal:
            continue
        table = screen
        await pilot.pause()  # laid out and drawn before the screen is read
        problems += check_80x24(app, table)
        draws = [a for a in table.legal if a.step == "draw"]
        await pilot.press("d" if draws else first_action_key(app))
    assert table is not None and table.session.match.hand_no > 1 or table.finished is not None
    return problems


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "seats"), [
    ("casino", ("human", "greedy")),
    ("royal_casino", ("human", "greedy", "greedy", "greedy")),
    ("canasta", ("human", "greedy", "greedy", "greedy")),
])
async def test_a_whole_hand_at_80x24_shows_what_a_player_needs(make_app, registry, game_id, seats, spoken):
    game = registry.games[game_id]
    app = make_app(start=Play(SessionSetup(game, game.Options(), list(seats), 3)))
    async with app.run_test(size=(80, 24)) as pilot:
        problems = await play_hand_at_80x24(pilot, app)
    assert not problems, sorted(set(problems))


@pytest.mark.slow
async def test_the_final_table_of_a_hand_names_its_own_dealer(make_app, registry):
    """Once a hand ends the match deals the next one: its last position, still on the table,
    keeps the dealer it was played with (status line and zones) until n."""
    game = registry.games["crazy_eights"]
    app = make_app(start=Play(SessionSetup(game, game.Options(), ["human", "greedy"], 7)))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        session = table.session
        dealer = session.name(session.match.seating.dealer)
        await play_to_the_sheet(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert table.finished is not None
        next_dealer = session.name(session.match.seating.dealer)
        assert next_dealer != dealer
        assert text_of(app, "#status").endswith(f"dealer {dealer}")
        await pilot.press("n")
        await pilot.pause()
        assert text_of(app, "#status").endswith(f"dealer {next_dealer}")


def render_at(width: int, renderable) -> list[str]:
    import io

    from rich.console import Console

    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return [line.rstrip() for line in console.export_text().splitlines()]


def test_a_long_zone_line_goes_on_under_its_start_and_groups_share_lines():
    from rich.text import Text

    from cardcore.apps.tui.widgets.wrap import Flow, Hanging
    from cardcore.apps.tui.widgets.zones import TableInfo, zone_parts
    from cardcore.engine.game import Group, Zone

    head = Text("  Captured — South & North [cards 12] [spades 3] [sweeps 1] [last capture]")
    assert render_at(46, Hanging(head)) == [
        "  Captured — South & North [cards 12] [spades",
        "    3] [sweeps 1] [last capture]"]
    melds = Zone("melds-0", "melds", "Melds", side=0, groups=[
        Group(f"meld-0-{r}", [f"{r}S", f"{r}H", f"{r}D"], [r]) for r in ("4", "5", "6", "7", "8")])
    lines, groups = zone_parts(melds, TableInfo(["S", "W", "N", "E"], ["S & N", "W & E"]))
    assert render_at(46, Flow(groups)) == [
        "    ⟨4♠ 4♥ 4♦⟩ 4   ⟨5♠ 5♥ 5♦⟩ 5   ⟨6♠ 6♥ 6♦⟩ 6",
        "    ⟨7♠ 7♥ 7♦⟩ 7   ⟨8♠ 8♥ 8♦⟩ 8"]


def test_a_long_pile_keeps_its_newest_cards_in_two_lines():
    from rich.text import Text

    from cardcore.apps.tui.widgets.wrap import Tail

    row = Text("    " + " ".join(f"{r}♣" for r in range(2, 11)) + " " +
               " ".join(f"{r}♥" for r in range(2, 11)) + " ▸A♠")
    assert render_at(30, Tail(row)) == ["    …6 more 8♣ 9♣ 10♣ 2♥ 3♥ 4♥", "      5♥ 6♥ 7♥ 8♥ 9♥ 10♥ ▸A♠"]
    assert render_at(80, Tail(row)) == [str(row)]  # room enough: every card
