"""The public paths that plugins written outside the repo import still work after the split
into engine/, services/ and apps/ (docs/design.md, Where things are): each old path re-exports
the module that now holds it, the same objects, and the entry points still load.

relayout: keep-file (these are the old paths on purpose: the rewrite script leaves this file alone)
"""

import importlib
import random
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())

#: The public path -> the module it re-exports.
PUBLIC = {
    "cardcore.cards": "cardcore.engine.cards",
    "cardcore.deal": "cardcore.engine.deal",
    "cardcore.seating": "cardcore.engine.seating",
    "cardcore.game": "cardcore.engine.game",
    "cardcore.scoresheet": "cardcore.engine.scoresheet",  # Game.match_winner is handed a ScoreSheet
    "cardcore.kit": "cardcore.engine.kit",
    "cardcore.testing": "cardcore.engine.testing",
    "cardcore.plugins": "cardcore.services.plugins",
    "cardcore.bots": "cardcore.engine.bots",
    "cardcore.bots.base": "cardcore.engine.bots.base",
}


@pytest.mark.parametrize("old", sorted(PUBLIC))
def test_a_public_path_is_the_module_it_names(old: str) -> None:
    public, real = importlib.import_module(old), importlib.import_module(PUBLIC[old])
    names = getattr(real, "__all__", None) or [n for n in vars(real) if not n.startswith("_")]
    assert names
    missing = [n for n in names if getattr(public, n, None) is not getattr(real, n)]
    assert missing == []


def test_the_package_exports_the_game_interface_hooks_and_games() -> None:
    import cardcore
    from cardcore.engine import game

    assert [n for n in cardcore.__all__ if not hasattr(cardcore, n)] == []
    assert cardcore.Game is game.Game and cardcore.ScoreRow is game.ScoreRow
    assert cardcore.__version__ == PYPROJECT["project"]["version"]
    assert {"casino", "royal_casino", "canasta"} <= set(cardcore.load_games())

    @cardcore.hookimpl
    def cardcore_register_games(register: object) -> None: ...

    assert cardcore_register_games.cardcore_impl == {  # type: ignore[attr-defined]
        "wrapper": False, "hookwrapper": False, "optionalhook": False, "tryfirst": False,
        "trylast": False, "specname": None}


def _a_finished_hand() -> tuple[Any, Any]:
    """A casino hand played out by random bots through the public paths alone."""
    from cardcore.bots import RandomBot
    from cardcore.bots.base import InfoSet
    from cardcore.plugins import load_registry

    game = load_registry().game("casino")
    options = game.Options()
    state = game.new_hand(game.seating(2, options), options, random.Random(3), [0, 0])
    bot, rng = RandomBot(), random.Random(4)
    while not state.is_over:
        state.apply(bot.choose(InfoSet.of(game, state, state.to_play), rng))
    return game, state


def test_a_score_row_and_its_sides_read_and_edit_as_dicts() -> None:
    from cardcore.game import ScoreRow, SideScore

    side: SideScore = {"seats": [0, 2], "items": {"cards": 3}, "total": 3}
    row: ScoreRow = {"sides": [side, {"seats": [1, 3], "items": {"cards": 0}, "total": 0}]}
    row["sides"][0]["items"]["spades"] = 1
    row["sides"][0]["total"] += 1
    row["end"] = "stock"
    assert row == {"sides": [{"seats": [0, 2], "items": {"cards": 3, "spades": 1}, "total": 4},
                             {"seats": [1, 3], "items": {"cards": 0}, "total": 0}], "end": "stock"}

    _, state = _a_finished_hand()
    scored = state.score()
    assert type(scored) is dict and all(type(s) is dict for s in scored["sides"])
    before = scored["sides"][0]["total"]
    scored["sides"][0]["total"] += 10
    assert scored["sides"][0]["total"] == before + 10
    assert sum(scored["sides"][1]["items"].values()) == scored["sides"][1]["total"]


def test_cards_deals_and_seats() -> None:
    from cardcore.cards import deck, glyph, parse_card
    from cardcore.deal import cut, shuffled
    from cardcore.seating import Seating, partnership_draw, seats_from_draw

    assert parse_card("th") == "10H" and glyph("AS") == "A♠"
    cards = deck()
    mixed = cut(shuffled(cards, random.Random(1)), random.Random(2))
    assert len(cards) == 52 and sorted(mixed) == sorted(cards) and mixed != cards
    seating = Seating(players=4, dealer=3, partnerships=True)
    assert seating.next(3) == 0 and seating.side_of(2) == 0 and seating.side_of(1) == 1
    assert sorted(seats_from_draw(partnership_draw(4, random.Random(5)))) == [0, 1, 2, 3]


def test_the_kit_and_the_conformance_kit() -> None:
    from cardcore.engine import testing
    from cardcore.kit import CardGame, Cards, most, subsets_summing_to
    from cardcore.testing import check_game

    assert sorted(map(sorted, subsets_summing_to([1, 2, 3], 3))) == [[0, 1], [2]]
    assert most([1, 5, 2]) == 1 and most([5, 5]) is None
    assert isinstance(Cards, type) and isinstance(CardGame, type)
    # check_game plays whole hands (seconds): the games' own tests run it, through the engine path
    assert check_game is testing.check_game and callable(check_game)


def test_a_bot_plays_from_the_info_set_of_the_public_path() -> None:
    from cardcore.bots.base import Bot, InfoSet
    from cardcore.engine.bots.base import InfoSet as Engine

    assert InfoSet is Engine and isinstance(Bot, type)
    game, state = _a_finished_hand()
    assert state.is_over  # every move was chosen from an InfoSet of the public path


def test_the_public_paths_load_in_a_fresh_interpreter() -> None:
    """A plugin's own process: nothing of cardcore imported before the public paths."""
    code = ("from cardcore.bots.base import InfoSet; from cardcore.plugins import load_registry; "
            "from cardcore.game import Game; from cardcore.kit import CardGame; "
            "from cardcore.testing import check_game; from cardcore.cards import deck; "
            "from cardcore.deal import deal; from cardcore.seating import Seating; "
            "print(sorted(load_registry().games))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "'casino'" in out.stdout and out.stderr == ""


def test_the_console_script_and_python_m_run_the_command() -> None:
    target = PYPROJECT["project"]["scripts"]["cardcore"]
    module, _, attr = target.partition(":")
    main = getattr(importlib.import_module(module), attr)
    from cardcore.apps.cli import main as cli_main

    assert main is cli_main
    out = subprocess.run([sys.executable, "-m", "cardcore", "--help"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0 and "usage: cardcore" in out.stdout


def test_the_games_entry_points_load() -> None:
    from cardcore.plugins import load_registry

    points = PYPROJECT["project"]["entry-points"]["cardcore"]
    for name, target in points.items():
        module = importlib.import_module(target)
        assert hasattr(module, "cardcore_register_games"), name
    registry = load_registry()
    assert set(points) <= set(registry.games) and registry.errors == []
