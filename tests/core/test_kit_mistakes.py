"""check_game catches each planted mistake (tests/fixtures/mistakes.py) and says which it is."""

import re
import sys
from pathlib import Path

import pytest

from cardcore.engine.testing import check_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))

from mistakes import MISTAKES, OLD_MISTAKES  # noqa: E402

#: Found only after seconds of play (or seconds of searching): the quick loop leaves them to `make test`.
FOUND_LATE = {"a hand ends with the deck not dealt out", "a wrong total", "heuristic raises"}


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.slow) if name in FOUND_LATE else name
    for name in sorted({**MISTAKES, **OLD_MISTAKES})])
def test_check_game_names_the_planted_mistake(name):
    game, message = {**MISTAKES, **OLD_MISTAKES}[name]
    with pytest.raises(AssertionError) as caught:
        check_game(game, seeds=range(3))
    assert re.search(message, str(caught.value)), str(caught.value)


def test_there_are_twelve_new_mistakes():
    assert len(MISTAKES) == 12 and all(MISTAKES.values())
