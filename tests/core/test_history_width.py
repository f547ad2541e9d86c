"""``cardcore history`` fits the terminal's width (issue 23, item 5): $COLUMNS when stdout
is not a terminal; a match's line breaks between its fields and between its players, never
inside a name, and stays one line when the width takes it."""

from __future__ import annotations

import io

import pytest

from cardcore.apps.args import fit
from cardcore.apps.cli import main
from cardcore.engine import records
from cardcore.engine.bots.play import play_bots
from cardcore.engine.match import Match
from cardcore.services.plugins import load_registry

#: Four long names (24 characters: the most a name may have) and two short ones.
LONG = ["Alexandra Montgomery-Oak", "Bartholomew Fitzgerald J", "Cordelia Winterbottom-Ry",
        "Desmond Abernathy-Lowell"]
SHORT = ["Ann", "Bob"]


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def record(registry, game: str, names: list[str], seed: int) -> str:
    """A finished match of greedy bots, its seats named ``names``, as a record."""
    out = io.StringIO()
    match = Match(registry.games[game], seed=seed, seats=["greedy"] * len(names), names=names,
                  on_event=lambda e: out.write(records.dumps(e) + "\n"))
    match.start()
    play_bots(match, {s: registry.bots["greedy"]() for s in range(len(names))})
    return out.getvalue()


def test_history_lines_fit_the_width(registry, tmp_path, capsys, monkeypatch):
    for n, (game, names) in enumerate([("royal_casino", LONG), ("casino", SHORT)]):
        path = tmp_path / f"{n}.jsonl"
        path.write_text(record(registry, game, names, seed=5 + n), encoding="utf-8")
        assert main(["import", str(path)]) == 0
    for columns in (80, 120):
        monkeypatch.setenv("COLUMNS", str(columns))
        capsys.readouterr()
        assert main(["history"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines and max(map(len, lines)) <= columns, [x for x in lines if len(x) > columns]
        for name in LONG + SHORT:  # each player whole on one line, with the seat's kind
            assert sum(f"{name} (greedy)" in line for line in lines) == 1, (columns, name)
        short = next(i for i, line in enumerate(lines) if "casino  " in line and "royal" not in line)
        # the two short names fit beside the match at 120 columns; at 80 they go under it
        assert ("Ann (greedy), Bob (greedy)" in lines[short]) == (columns == 120)
        long_at = next(i for i, line in enumerate(lines) if "royal_casino" in line)
        assert all(line.startswith("       ") for line in lines[long_at + 1:long_at + 3])


def test_fit_breaks_between_pieces_and_cuts_only_a_piece_wider_than_the_line():
    assert fit(["one", "two", "three", "four"], 9, indent=2) == ["one two", "  three", "  four"]
    assert fit(["    5", "casino"], 20) == ["    5 casino"]
    assert fit(["abcdefghijkl"], 5, indent=1) == ["abcde", " fghi", " jkl"]
    assert fit(["x"], 10, lead="  ") == ["  x"]
