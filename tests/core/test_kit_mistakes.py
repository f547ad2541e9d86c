"""check_game catches each planted mistake (tests/fixtures/mistakes.py) and says which it is,
where: the game, players, seed, step and action."""

import re
import sys
from pathlib import Path

import pytest

from cardcore.engine.testing import check_game

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "fixtures"))

from mistakes import KEPT_WORD, MISTAKES, OLD_MISTAKES  # noqa: E402

ALL = {**MISTAKES, **OLD_MISTAKES, **KEPT_WORD}

#: Found only after seconds of play (or seconds of searching): the quick loop leaves them to `make test`.
FOUND_LATE = {"a hand ends with the deck not dealt out", "a wrong total", "heuristic raises",
              "an option off its default is lost"}

#: Every message starts with where it happened: a hand's step (or its deal, or its end) or a
#: match's, and the action about to be played (none before one is chosen or after the end).
WHERE = re.compile(r"crazy_eights (match )?players=[234] seed=\d+ (options=\{[^}]*\} )?(hand=\d+ )?"
                   r"step=\d+ action=(none|\{.*\})[ :]")


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.slow) if name in FOUND_LATE else name
    for name in sorted(ALL)])
def test_check_game_names_the_planted_mistake(name):
    game, message = ALL[name]
    with pytest.raises(AssertionError) as caught:
        check_game(game, seeds=range(3))
    text = str(caught.value)
    assert re.search(message, text), text
    assert WHERE.match(text), text


def test_there_are_twelve_new_mistakes_and_eighteen_the_checker_keeps_its_word_on():
    assert len(MISTAKES) == 12 and all(MISTAKES.values())
    assert len(KEPT_WORD) == 18 and all(KEPT_WORD.values())
    assert not set(KEPT_WORD) & (set(MISTAKES) | set(OLD_MISTAKES))


def test_docs_list_every_check_with_the_test_that_plants_its_mistake():
    """docs/plugins.md's table of checks: each row names a planted mistake (in quotes) or a
    test that exists, and every planted mistake is in the table."""
    text = (ROOT / "docs" / "plugins.md").read_text()
    table = text.split("<!-- checks: begin -->")[1].split("<!-- checks: end -->")[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "|---" not in line][1:]
    assert len(rows) >= 40
    named = set()
    for row in rows:
        planted = row.rstrip(" |").rsplit(" | ", 1)[1]
        quoted = re.findall(r'"([^"]+)"', planted)
        tests = re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", planted)
        assert quoted or tests, row
        assert set(quoted) <= set(ALL), row
        for path, name in tests:
            assert f"def {name}(" in (ROOT / path).read_text(), (path, name)
        named.update(quoted)
    assert named == set(ALL), set(ALL) - named
