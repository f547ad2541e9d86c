"""The table's side of the match library: resume any match, delete (asking first), a match
held by another process, history as replays, the statistics screen."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from textual.widgets import ListView, Static

import cardcore.apps.tui
from cardcore.apps.cli import main
from cardcore.apps.tui.app import Launch
from cardcore.apps.tui.screens.launcher import LauncherScreen
from cardcore.apps.tui.screens.library import (
    ConfirmScreen,
    HistoryScreen,
    MatchItem,
    ResumeScreen,
    StatsScreen,
)
from cardcore.apps.tui.screens.replay import ReplayScreen
from cardcore.apps.tui.screens.table import TableScreen
from cardcore.apps.tui.session import Session, SessionSetup
from cardcore.services.store import open_library

SIZE = (100, 30)


def played(registry, seed, game_id="crazy_eights", seats=("human", "greedy"), moves=1):
    """An unfinished match left at the human's turn after ``moves`` moves (closed)."""
    game = registry.games[game_id]
    s = Session.new(registry, SessionSetup(game, game.Options(), list(seats), seed))
    for _ in range(moves + 1):
        while s.to_play is not None and s.is_bot(s.to_play):
            s.bot_step()
        if _ < moves:
            s.apply(s.legal_actions()[0])
    s.close()
    return s


def finished(registry, seed):
    game = registry.games["casino"]
    s = Session.new(registry, SessionSetup(game, game.Options(target=1), ["greedy", "greedy"], seed))
    while not s.over:
        s.bot_step()
    s.close()
    return s


async def wait_for(pilot, kind, tries=100):
    for _ in range(tries):
        await pilot.pause()
        if isinstance(pilot.app.screen, kind):
            return pilot.app.screen
    raise AssertionError(f"no {kind.__name__} came")


def items(screen) -> list[MatchItem]:
    return [i for i in screen.query_one("#matches", ListView).children if isinstance(i, MatchItem)]


@pytest.mark.slow
async def test_resume_each_of_two_matches_after_a_third_was_started(make_app, registry, monkeypatch):
    a, b = played(registry, 3), played(registry, 4, moves=2)
    c = played(registry, 5, game_id="casino")  # a third, started later: nothing overwritten
    app = make_app(start=Launch())
    async with app.run_test(size=SIZE) as pilot:
        for target in (a, b):
            await pilot.pause()
            assert isinstance(app.screen, LauncherScreen)
            await pilot.press("r")
            lister = await wait_for(pilot, ResumeScreen)
            ids = [i.summary.id for i in items(lister)]
            assert ids == [c.match_id, b.match_id, a.match_id][: len(ids)] or set(ids) == {
                a.match_id, b.match_id, c.match_id}
            lister.query_one("#matches", ListView).index = ids.index(target.match_id)
            await pilot.press("enter")
            table = await wait_for(pilot, TableScreen)
            assert table.session.match_id == target.match_id
            assert table.session.match.snapshot() == target.match.snapshot()
            await pilot.press("q")
            await pilot.pause()
    # and through `cardcore resume ID`
    resumed: list[int] = []

    def run(match_id: int) -> None:
        s = Session.resume(registry, match_id)
        resumed.append(s.match.decisions)
        s.close()

    monkeypatch.setattr(cardcore.apps.tui, "run_resume_match", run)
    assert main(["resume", str(a.match_id)]) == 0 and main(["resume", str(b.match_id)]) == 0
    assert resumed == [a.match.decisions, b.match.decisions]
    lib = open_library()
    assert {m.id for m in lib.list_unfinished()} == {a.match_id, b.match_id, c.match_id}
    lib.close()


@pytest.mark.slow
async def test_delete_asks_first_and_deletes(make_app, registry):
    a, b = played(registry, 3), played(registry, 4)
    app = make_app(start=Launch())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r")
        lister = await wait_for(pilot, ResumeScreen)
        first = items(lister)[0].summary.id
        await pilot.press("d")
        await wait_for(pilot, ConfirmScreen)
        await pilot.press("n")  # keep it
        await wait_for(pilot, ResumeScreen)
        assert len(app.unfinished()) == 2
        await pilot.press("d")
        await wait_for(pilot, ConfirmScreen)
        await pilot.press("y")
        await wait_for(pilot, ResumeScreen)
        await pilot.pause()
        assert [m.id for m in app.unfinished()] == [x for x in (b.match_id, a.match_id) if x != first]
        assert len(items(lister)) == 1
        await pilot.press("d")
        await wait_for(pilot, ConfirmScreen)
        await pilot.press("y")
        await wait_for(pilot, LauncherScreen)  # the list is empty: back to the launcher
        assert not app.unfinished()


HOLDER = """
import sys, time
from cardcore.services.store import open_library
play = open_library().open(int(sys.argv[1]))
print("held", flush=True)
time.sleep(60)
"""


@pytest.mark.slow  # 2-3 s of CPU: `make test` runs it, the quick loop does not
async def test_a_match_held_by_another_process_is_greyed_and_refused(make_app, registry, capsys):
    a = played(registry, 3)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(a.match_id)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        app = make_app(start=Launch())
        notes: list[str] = []
        real = app.notify
        app.notify = lambda message, **kw: (notes.append(message), real(message, **kw))  # type: ignore
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("r")
            lister = await wait_for(pilot, ResumeScreen)
            (item,) = items(lister)
            assert item.summary.locked and item.has_class("-locked")
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, ResumeScreen)  # no table
            assert any("being played in another cardcore" in n for n in notes)
            await pilot.press("d")
            await pilot.pause()
            assert isinstance(app.screen, ResumeScreen)  # not even asked
            app.resume_match(a.match_id)  # straight to the id: refused with the holder's pid
            await pilot.pause()
            assert any(f"pid {holder.pid}" in n for n in notes)
        capsys.readouterr()
        assert main(["resume", str(a.match_id)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "being played in another cardcore" in err
    finally:
        holder.kill()
        holder.wait(timeout=10)
    t = time.monotonic()  # the kernel dropped the lock with the process
    s = Session.resume(registry, a.match_id)
    assert s.match.snapshot() == a.match.snapshot() and time.monotonic() - t < 5
    s.close()


@pytest.mark.slow
async def test_history_opens_a_finished_match_as_a_replay_and_stats_show_the_stores_figures(
        make_app, registry):
    done = finished(registry, 3)
    played(registry, 4)  # unfinished: not in the history, not in the statistics
    app = make_app(start=Launch())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("h")
        history = await wait_for(pilot, HistoryScreen)
        (item,) = items(history)
        assert item.summary.id == done.match_id and item.summary.finished
        sheet = str(history.query_one("#history-sheet", Static).render())
        assert f"Match {done.match_id} · {len(done.match.sheet.hands)} hands" in sheet
        await pilot.press("enter")
        replay = await wait_for(pilot, ReplayScreen)
        assert replay.replay.winner == done.match.winner
        assert replay.replay.final_sheet.hands == done.match.sheet.hands
        await pilot.press("q")
        await wait_for(pilot, HistoryScreen)  # back to the history, the app goes on
        assert app.is_running
        await pilot.press("escape")
        await wait_for(pilot, LauncherScreen)
        await pilot.press("s")
        stats = await wait_for(pilot, StatsScreen)
        text = stats.query_one("#stats", Static).content
        from rich.console import Console

        console = Console(width=200, record=True)
        console.print(text)
        shown = console.export_text()
        lib = open_library()
        (row,) = lib.stats()
        lib.close()
        assert row.player == "greedy" and row.bot and row.matches == 1
        assert "greedy (bot)" in shown
        line = next(x for x in shown.splitlines() if "greedy (bot)" in x)
        cells = line.split()[2:7]
        assert cells == [str(row.matches), str(row.wins), f"{row.win_share:.0%}", str(row.hands),
                         f"{row.mean_hand_score:.1f}"]
