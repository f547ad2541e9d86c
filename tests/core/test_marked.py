"""Every string the command line and the front end show is marked for translation
(tests/marking.py; docs/languages.md, "Every string marked")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.marking import unmarked, unmarked_in, words

ROOT = Path(__file__).resolve().parents[2]
APPS = ROOT / "cardcore" / "apps"
#: The command line's modules and the front end's screens and widgets.
CHECKED = sorted([*APPS.glob("*.py"), *(APPS / "tui").rglob("*.py")])
#: A maintainer's tool, not a player's: its help stays English.
NOT_SHOWN = {"cardcore/apps/catalogs.py"}
#: Files still to mark (the front end's, issue 27's i18n-tui work): emptied as they are.
NOT_YET: set[str] = set()


def test_every_shown_string_is_marked() -> None:
    found = [str(u) for p in CHECKED if str(p.relative_to(ROOT)) not in NOT_SHOWN | NOT_YET
             for u in unmarked_in(p, ROOT)]
    assert found == [], "\n".join(found)


def test_not_yet_names_only_files_there_are() -> None:
    assert {str(p.relative_to(ROOT)) for p in CHECKED} >= NOT_YET


SEEDED = '''\
import argparse
from cardcore.language import _, N_

def command(args):
    p = argparse.ArgumentParser(description="Card games")
    p.add_argument("--seed", help=_("the deal's seed"), metavar="N")
    print(f"wrote {args.name}", file=sys.stderr)
    print(_("wrote {name}").format(name=args.name))
    say("nothing yet" if args.none else _("some"))
    raise UsageError("not a game: " + args.game)
    raise RuntimeError("a bug, said to a programmer")
    print(f"{args.done}/{args.total}")
    print("cardcore serve: listening")  # not translated: a log line for the operator's scripts
    BINDINGS = [("q", "quit", "Quit"), Binding("u", "undo", _("Undo"))]
    self.notify("Saved", severity="information")
    Static(N_("Ready"), id="status-line")
'''


def test_the_lint_names_each_unmarked_literal_by_file_and_line() -> None:
    found = unmarked(SEEDED, "seeded.py")
    assert [(u.line, u.text) for u in found] == [
        (5, "Card games"), (7, "wrote {}"), (9, "nothing yet"), (10, "not a game: "), (14, "Quit"),
        (15, "Saved"),
    ]
    assert str(found[0]).startswith("seeded.py:5: 'Card games' is shown to people but not marked")


@pytest.mark.parametrize(("text", "wanted"), [
    ("{done}/{total}", False), ("cardcore: ", False), ("`cardcore resume {id}`", False),
    ("--seats", False), ("%(prog)s", False), ("  side {side}: {wins} wins", True), ("±", False),
    ("cardcore serve: ", False),
])
def test_words_are_letters_besides_fields_flags_and_commands(text: str, wanted: bool) -> None:
    assert words(text) is wanted
