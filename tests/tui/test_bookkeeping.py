"""Issue 21, item 8, as a player meets it: a record of several matches replays one by one,
and the seed a setup form shows is the seed the match is dealt from."""

from __future__ import annotations

from cardcore.cli import main
from cardcore.tui.app import ShowReplay
from cardcore.tui.screens.replay import RecordMatches, ReplayScreen

from .helpers import text_of

SIZE = (100, 30)


async def test_a_record_of_several_matches_replays_each(make_app, registry, tmp_path):
    path = tmp_path / "x.jsonl"
    assert main(["simulate", "casino", "--matches", "3", "--seed", "3", "--record", str(path)]) == 0
    matches = RecordMatches(registry, path)
    assert len(matches) == 3
    app = make_app(start=ShowReplay(matches.replay(1), matches, 1))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert "match 2/3" in text_of(app, "#status")
        assert screen.replay.events[0]["seed"] == 4  # the second match (seeds 3, 4, 5)
        await pilot.press("end", "right_square_bracket")
        await pilot.pause()
        assert "match 3/3" in text_of(app, "#status") and screen.index == 0
        assert screen.replay.events[0]["seed"] == 5
        await pilot.press("right_square_bracket")  # no fourth: it stays
        await pilot.pause()
        assert "match 3/3" in text_of(app, "#status")
        await pilot.press("left_square_bracket", "left_square_bracket")
        await pilot.pause()
        assert "match 1/3" in text_of(app, "#status") and screen.replay.events[0]["seed"] == 3
        last = screen.replay.events[-1]
        assert last["event"] == "match_end"  # the first match alone, not the file's last line


async def test_a_record_of_one_match_shows_no_match_keys(make_app, registry, tmp_path):
    path = tmp_path / "one.jsonl"
    assert main(["simulate", "casino", "--matches", "1", "--seed", "3", "--record", str(path)]) == 0
    matches = RecordMatches(registry, path)
    app = make_app(start=ShowReplay(matches.replay(0), matches))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "match 1/" not in text_of(app, "#status")
        assert not app.screen.check_action("match", (1,))


def test_a_forged_match_of_several_is_named_by_the_files_own_line(registry, tmp_path):
    import pytest

    from cardcore.records import RecordError

    path = tmp_path / "x.jsonl"
    assert main(["simulate", "casino", "--matches", "2", "--seed", "3", "--record", str(path)]) == 0
    lines = path.read_text().splitlines(keepends=True)
    second = next(i for i, line in enumerate(lines) if '"match":1' in line and "match_start" in line)
    at = second + 3  # the second action of the second match
    assert '"event":"action","hand":1,"seat":' in lines[at]
    seat = lines[at].split('"seat":')[1][0]
    lines[at] = lines[at].replace(f'"seat":{seat}', f'"seat":{1 - int(seat)}', 1)  # the other's move
    path.write_text("".join(lines))
    matches = RecordMatches(registry, path)
    matches.replay(0)  # the first is sound
    with pytest.raises(RecordError, match=f"^x.jsonl: line {at + 1}: "):
        matches.replay(1)
