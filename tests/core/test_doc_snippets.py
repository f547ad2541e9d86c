"""Every ```python block of the author's docs runs, so the docs cannot drift from the code.

The blocks of one document run in order in one namespace, as a reader reads them: a
later block may use what an earlier one defined (the kit's ``MyState``, ``MyGame``). A
function a block defines whose name starts with ``test_`` is called, as pytest would (in
the slow test: check_game takes seconds). The
placeholder package the docs import (``my_game_package``) is provided here, its game being
the kit's example. A block that truly cannot run says so on the line before its fence:
``<!-- snippet: not run, <why> -->``. Other languages (```toml, shell in indented blocks)
are not Python and are left alone.
"""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from cardcore_crazy_eights.game import CrazyEights

DOCS = Path(__file__).resolve().parents[2] / "docs"
#: The documents whose snippets must run.
CHECKED = ("authors.md", "plugins.md")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
NOT_RUN = re.compile(r"<!--\s*snippet:\s*not run,\s*(\S.*?)\s*-->")


@dataclass(frozen=True)
class Snippet:
    doc: str
    line: int  # of the first line of code
    code: str
    not_run: str = ""  # why, for a block marked as not meant to run

    @property
    def where(self) -> str:
        return f"docs/{self.doc}:{self.line}"


def snippets(doc: str) -> Iterator[Snippet]:
    """The ```python blocks of ``doc``, each with the line it starts on."""
    lines = (DOCS / doc).read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if not opened:
            i += 1
            continue
        indent, fence, lang = opened.groups()
        end = next((j for j in range(i + 1, len(lines))
                    if lines[j].strip().startswith(fence[0] * len(fence))
                    and not lines[j].strip().strip(fence[0])), len(lines))
        if lang.lower() in ("python", "py", "python3"):
            body = [ln[len(indent):] if ln.startswith(indent) else ln for ln in lines[i + 1:end]]
            marked = NOT_RUN.search(lines[i - 1]) if i else None
            yield Snippet(doc, i + 2, "\n".join(body) + "\n", marked.group(1) if marked else "")
        i = end + 1


@pytest.fixture
def placeholder_package(monkeypatch):
    """``my_game_package``, the package the docs write, with the kit's example as its game."""
    package = types.ModuleType("my_game_package")
    package.__path__ = []
    game = types.ModuleType("my_game_package.game")
    game.MyGame = CrazyEights  # type: ignore[attr-defined]
    package.game = game  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "my_game_package", package)
    monkeypatch.setitem(sys.modules, "my_game_package.game", game)


def run(snippet: Snippet, namespace: dict[str, object], *, call_tests: bool = True) -> None:
    """Run ``snippet`` in ``namespace``, then (``call_tests``) the test functions it
    defined; an error names the document and line of the block."""
    before = {k: v for k, v in namespace.items() if k.startswith("test_")}
    try:
        exec(compile(snippet.code, snippet.where, "exec"), namespace)  # noqa: S102
        for name, value in list(namespace.items()):
            if call_tests and name.startswith("test_") and callable(value) and before.get(name) is not value:
                value()
    except Exception as exc:
        raise AssertionError(f"the snippet at {snippet.where} does not run: "
                             f"{type(exc).__name__}: {exc}\n{snippet.code}") from exc


def run_doc(doc: str, *, call_tests: bool) -> int:
    """Run the blocks of ``doc`` in order in one namespace; how many ran."""
    namespace: dict[str, object] = {"__name__": f"docs.{doc}"}
    ran = 0
    for snippet in snippets(doc):
        if not snippet.not_run:
            run(snippet, namespace, call_tests=call_tests)
            ran += 1
    return ran


def test_the_checked_docs_have_python_snippets():
    found = {doc: len(list(snippets(doc))) for doc in CHECKED}
    assert all(found.values()), found


@pytest.mark.parametrize("doc", CHECKED)
def test_every_python_snippet_of_the_doc_runs(doc, placeholder_package):
    assert run_doc(doc, call_tests=False) > 0


@pytest.mark.slow
@pytest.mark.parametrize("doc", CHECKED)
def test_the_test_functions_of_the_docs_snippets_pass(doc, placeholder_package):
    """What the docs' test functions do (check_game on a game: seconds), run too."""
    assert run_doc(doc, call_tests=True) > 0


def test_a_block_not_run_says_why_and_is_rare():
    marked = [s for doc in CHECKED for s in snippets(doc) if s.not_run]
    assert len(marked) <= 2, [s.where for s in marked]


def test_the_extraction_finds_blocks_and_their_lines(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "DOCS", tmp_path)
    (tmp_path / "x.md").write_text(
        "text\n```python\na = 1\n```\n\n```toml\nb = 2\n```\n"
        "<!-- snippet: not run, needs a network -->\n```python\nimport nowhere\n```\n"
        "- a list item:\n\n  ```python\n  c = a + 1\n  ```\n", encoding="utf-8")
    found = list(snippets("x.md"))
    assert [(s.line, s.code, s.not_run) for s in found] == [
        (3, "a = 1\n", ""), (11, "import nowhere\n", "needs a network"), (16, "c = a + 1\n", "")]
    with pytest.raises(AssertionError, match=r"docs/x[.]md:3 does not run: NameError"):
        run(Snippet("x.md", 3, "d = undefined\n"), {})
    called: list[int] = []
    run(Snippet("x.md", 3, "def test_it():\n    called.append(1)\n"), {"called": called})
    assert called == [1]
