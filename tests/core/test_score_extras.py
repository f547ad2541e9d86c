"""Games own their score extras (Game.score_extras): the core's score types hold the keys every
game has; a game's own keys reach the sheet and the statistics through its declaration."""

from __future__ import annotations

import ast
import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from cardcore import ScoreExtra
from cardcore.apps.tui.widgets.sheet import score_table
from cardcore.engine.bots import RandomBot
from cardcore.engine.bots.base import InfoSet
from cardcore.engine.bots.play import play_bots
from cardcore.engine.cards import glyph
from cardcore.engine.game import Group, ScoreRow, SideScore, Zone
from cardcore.engine.match import Match
from cardcore.engine.scoresheet import ScoreSheet
from cardcore.services.plugins import load_registry
from cardcore.services.store.sqlite import SqliteStore
from cardcore_crazy_eights.game import CrazyEights, CrazyEightsState

ROOT = Path(__file__).resolve().parents[2]
#: The keys every game's score rows may use: what the core's types name.
COMMON_ROW = {"sides", "end"}
COMMON_SIDE = {"seats", "items", "total", "counts", "note"}


# --- a third-party style game: its rows carry two keys the core has never heard of ----------


class HeldState(CrazyEightsState):
    def score(self) -> ScoreRow:
        row = super().score()
        for side, entry in enumerate(row["sides"]):
            entry["cards_held"] = list(self.hands[side])
        row["went_out"] = [s for s in range(self.players) if not self.hands[s]]
        return row


def _held(row, side):
    return row["sides"][side]["cards_held"]


def _went_out(row, side):
    return side in row["went_out"]


class HeldEights(CrazyEights):
    id = "held_eights"
    name = "Held Eights"
    State = HeldState

    def score_extras(self, options):
        return [ScoreExtra("cards_held", _held), ScoreExtra("went_out", _went_out, label="went out")]


def played(game, seed, players=3, on_event=None):
    match = Match(game, game.Options(target=60), seed=seed, players=players,
                  seats=["random"] * players, on_event=on_event)
    match.start()
    play_bots(match, {s: RandomBot() for s in range(players)})
    return match


def text(table) -> str:
    out = io.StringIO()
    Console(file=out, width=400, color_system=None).print(table)
    return out.getvalue()


def cells(shown: str, label: str) -> list[list[str]]:
    """The cells after ``label`` of each sheet line that has it."""
    return [[c.strip() for c in line.split("│")[3:-1]] for line in shown.splitlines()
            if line.split("│")[2:3] and line.split("│")[2].strip() == label]


def test_a_games_own_extras_show_on_the_sheet_with_no_core_change():
    game = HeldEights()
    match = played(game, seed=4)
    hands = match.sheet.hands
    assert len(hands) >= 2 and any(row["went_out"] for row in hands)
    shown = text(score_table(match.sheet, match.winner, game.score_extras(match.options)))
    # a row per hand where some side held cards, each side's cards as the table shows them
    assert cells(shown, "cards held") == [
        [" ".join(glyph(c) for c in side["cards_held"]) or "–" for side in row["sides"]]
        for row in hands if any(side["cards_held"] for side in row["sides"])]
    # a row per hand someone went out in, ticked for that side
    assert cells(shown, "went out") == [["✓" if s in row["went_out"] else "" for s in range(3)]
                                        for row in hands if row["went_out"]]
    # without the game's declaration the sheet shows neither (nothing in the core knows them)
    plain = text(score_table(match.sheet, match.winner))
    assert "cards held" not in plain and "went out" not in plain
    assert cells(plain, "cards left") == cells(shown, "cards left") != []


def test_a_games_own_extras_are_counted_in_the_statistics(tmp_path):
    game = HeldEights()
    store = SqliteStore(tmp_path / "library.sqlite")
    expected = {}
    for seed in (4, 5):
        seats = ["random"] * 3
        play = store.create(game.id, game.Options(target=60).model_dump(mode="json"), seed, seats)
        match = Match(game, game.Options(target=60), seed=seed, seats=seats, on_event=play.append_event)
        match.start()
        while not match.over:
            seat = match.to_play
            match.apply(RandomBot().choose(InfoSet.of(game, match.state, seat), match.bot_rng(seat)))
            play.save_snapshot(match.snapshot())
        play.close()
        for row in match.sheet.hands:
            for side, entry in enumerate(row["sides"]):
                expected["cards_held"] = expected.get("cards_held", 0) + len(entry["cards_held"])
                expected["went_out"] = expected.get("went_out", 0) + int(side in row["went_out"])
    (st,) = store.stats(games={game.id: game})  # one player: the random bot in every seat
    assert st.matches == 2 and st.hands > 2
    assert {k: st.counts[k] for k in expected} == expected
    assert expected["went_out"] > 0 and expected["cards_held"] > 0
    (bare,) = store.stats()  # without the game installed: only the rows' own counts
    assert not set(expected) & set(bare.counts)
    store.close()


def test_an_extra_that_a_stored_row_lacks_says_nothing():
    game = HeldEights()
    extras = game.score_extras(game.Options())
    old = {"sides": [{"seats": [0], "items": {"cards_left": 5}, "total": 5},
                     {"seats": [1], "items": {"cards_left": 0}, "total": 0}]}
    sheet = ScoreSheet(["A", "B"], 60, [old])
    assert text(score_table(sheet, None, extras)) == text(score_table(sheet))
    from cardcore.services.store.stats import side_counts

    assert side_counts(old, 0, extras) == {}


# --- Royal Casino: its aces and outright win are its own ----------------------------------------


@pytest.fixture(scope="module")
def registry():
    return load_registry()


@pytest.mark.slow
def test_royal_casino_sheet_is_unchanged_by_its_extras_and_its_statistics_count_them(registry, tmp_path):
    game = registry.games["royal_casino"]
    extras = game.score_extras(game.Options())
    store = SqliteStore(tmp_path / "library.sqlite")
    aces = outright = 0
    for seed in range(3, 9):
        seats = ["greedy", "random"]
        play = store.create(game.id, game.Options().model_dump(mode="json"), seed, seats)
        match = played(game, seed, players=2, on_event=play.append_event)
        play.save_snapshot(match.snapshot())
        play.close()
        shown = text(score_table(match.sheet, match.winner, extras))
        assert shown == text(score_table(match.sheet, match.winner))  # it looks as it did
        assert cells(shown, "aces") and "won outright" not in shown
        for row in match.sheet.hands:
            aces += sum(len(side["ace_cards"]) for side in row["sides"])
            outright += len(row["outright"])
    assert outright > 0  # some match was won by the near-target rule
    got = store.stats(games=registry.games)
    assert sum(st.counts["aces"] for st in got) == aces
    assert sum(st.counts["outright"] for st in got) == outright
    assert all("aces" not in st.counts for st in store.stats())  # the core alone: no aces count
    store.close()


# --- the core names no game's keys ---------------------------------------------------------------


def test_the_core_score_types_hold_only_the_keys_every_game_has():
    assert set(ScoreRow.__annotations__) == COMMON_ROW
    assert set(SideScore.__annotations__) == COMMON_SIDE


def game_keys(registry) -> set[str]:
    """Every key the installed games put in their score rows (row, side, items, counts) that
    is not a common key nor a name the core gives its own things, and the games' ids."""
    keys: set[str] = set()
    for game in registry.games.values():
        for players in game.player_counts:
            match = Match(game, game.Options(), seed=1, players=players, seats=["random"] * players,
                          max_hands=2)
            match.start()
            play_bots(match, {s: RandomBot() for s in range(players)})
            for row in match.sheet.hands:
                keys |= set(row)
                for side in row["sides"]:
                    keys |= set(side) | set(side["items"]) | set(side.get("counts", {}))
    core = set(Zone.__dataclass_fields__) | set(Group.__dataclass_fields__)  # "cards" is a zone's
    return (keys - COMMON_ROW - COMMON_SIDE - core) | set(registry.games)


def names_in(path: Path) -> list[tuple[int, str]]:
    """The string constants (docstrings aside) and identifiers of a module, with their lines."""
    tree = ast.parse(path.read_text())
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            out.append((node.lineno, node.value))
        for name in (getattr(node, "id", None), getattr(node, "attr", None), getattr(node, "arg", None),
                     getattr(node, "name", None)):
            if isinstance(name, str):
                out.append((node.lineno, name.strip("_")))
    return out


def test_the_core_sheet_statistics_and_front_end_name_no_games_score_key(registry):
    keys = game_keys(registry)
    assert {"ace_cards", "outright", "sweeps", "red_threes", "royal_casino"} <= keys  # it sees them
    core = ROOT / "cardcore"
    files = [core / "engine" / "game.py", core / "engine" / "scoresheet.py",
             *sorted((core / "services" / "store").rglob("*.py")),
             *sorted((core / "apps" / "tui").rglob("*.py"))]
    assert all(path.exists() for path in files) and len(files) > 10
    found = [f"{path.relative_to(ROOT)}:{line}: {name}" for path in files
             for line, name in names_in(path) if name in keys]
    assert found == []


def test_the_scan_finds_a_game_key_where_one_is_named(tmp_path, registry):
    sample = tmp_path / "sample.py"
    sample.write_text('class Row:\n    """outright"""\n    ace_cards: list\n'
                      'def f(row):\n    return row.get("sweeps"), DERIVED["royal_casino"]\n')
    keys = game_keys(registry)
    assert sorted(name for _, name in names_in(sample) if name in keys) == [
        "ace_cards", "royal_casino", "sweeps"]


def test_score_rows_keep_their_json(registry):
    """A Royal Casino row's JSON keeps ``ace_cards`` and ``outright`` where they were."""
    game = registry.games["royal_casino"]
    match = played(game, seed=3, players=2)
    row = match.sheet.hands[0]
    assert list(row) == ["sides", "outright"]
    assert list(row["sides"][0]) == ["seats", "items", "total", "counts", "ace_cards"]
    assert json.loads(json.dumps(row)) == row


# --- check_game holds a game's extras to reading its own rows -------------------------------------


@pytest.mark.slow
def test_check_game_passes_a_game_whose_extras_read_its_rows():
    from cardcore.engine.testing import check_game

    assert check_game(HeldEights(), seeds=range(1)).matches > 0


@pytest.mark.slow
@pytest.mark.parametrize(("read", "message"), [
    (lambda row, side: row["sides"][side]["cards_kept"], "cannot read hand 1, side 0: KeyError"),
    (lambda row, side: {"held": 1}, "read {'held': 1}"),
])
def test_check_game_catches_an_extra_that_cannot_read_the_games_rows(read, message):
    from cardcore.engine.testing import check_game

    class Broken(HeldEights):
        def score_extras(self, options):
            return [ScoreExtra("cards_kept", read)]

    with pytest.raises(AssertionError, match=message.replace("{", r"\{").replace("}", r"\}")):
        check_game(Broken(), seeds=range(1))
