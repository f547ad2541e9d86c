"""The lint of docs/languages.md, "Every string marked": a string literal shown to people is
marked for translation (``_``, ``N_``, ``ngettext``, ``pgettext``).

Read from the syntax tree, without running anything. A literal is *shown* when it is an
argument of a call that shows or raises it (``print``, ``say``, a widget's text, an
exception a person reads), an argparse ``help``/``description``, a screen's ``title``, a
key binding's description. It needs marking when it holds words: letters left after taking
out format fields, ``--flags``, spans in backticks and the program's name. An f-string
cannot be looked up in a catalog, so one with words is never marked: it becomes
``_("... {name} ...").format(name=...)``. A line that shows words on purpose untranslated
(a protocol's code, a file format) says why in a comment: ``# not translated: REASON``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: The calls that mark a message.
MARKERS = frozenset({"_", "N_", "gettext", "ngettext", "pgettext", "npgettext"})
#: Calls that show their arguments, by name: the positions shown (None: every one).
SHOWING: dict[str, tuple[int, ...] | None] = {
    "print": None, "say": (0,), "_fail": (0,), "write": (0,), "wrap": (0,), "Line": (0,),
    "append": (0,), "notify": (0,), "Static": (0,), "Label": (0,), "Button": (0,), "Markdown": (0,),
    "Text": (0,), "update": (0,), "Option": (0,), "Checkbox": (0,), "RadioButton": (0,),
    "TabPane": (0,), "Tab": (0,), "Binding": (2,),
}
#: Keyword arguments that are shown, whatever the call.
SHOWN_KEYWORDS = frozenset({"help", "description", "epilog", "title", "sub_title", "placeholder",
                            "tooltip", "label", "prompt", "message"})
#: Exceptions raised for a programmer, not shown to people.
INTERNAL = frozenset({"RuntimeError", "AssertionError", "NotImplementedError", "TypeError",
                      "AttributeError", "KeyError", "NoMatches"})
#: Exceptions raised with a protocol's code first, then the message a person reads.
CODED = frozenset({"ClientError"})
#: Names whose value is shown (a screen's title, a binding list).
SHOWN_NAMES = frozenset({"title", "sub_title", "TITLE", "SUB_TITLE", "BINDINGS"})
EXEMPT = "# not translated:"

_NOT_WORDS = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[a-z]|%[sdr]|`[^`]*`|--[a-z][a-z-]*"
                        r"|\bcardcore(?: [a-z-]+(?=:))?")
_WORD = re.compile(r"[^\W\d_]{2,}")


@dataclass(frozen=True)
class Unmarked:
    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return (f"{self.path}:{self.line}: {self.text!r} is shown to people but not marked for "
                "translation: _(...) (format fields with .format), N_, ngettext")


def words(text: str) -> bool:
    """``text`` holds words a translator translates."""
    return bool(_WORD.search(_NOT_WORDS.sub(" ", text)))


def unmarked(source: str, path: str = "<source>") -> list[Unmarked]:
    """Every shown literal of ``source`` that is not marked, in line order."""
    tree = ast.parse(source)
    exempt = {n for n, line in enumerate(source.splitlines(), start=1) if EXEMPT in line}
    found = {(u.line, u.text): u for u in _shown(tree, path) if u.line not in exempt}
    return sorted(found.values(), key=lambda u: u.line)


def unmarked_in(path: Path, root: Path) -> list[Unmarked]:
    return unmarked(path.read_text(encoding="utf-8"), str(path.relative_to(root)))


def _shown(tree: ast.AST, path: str) -> Iterator[Unmarked]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield from _call(node, path)
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            raised = _name(node.exc.func)
            if raised not in INTERNAL:
                for arg in node.exc.args[1:] if raised in CODED else node.exc.args:
                    yield from _literals(arg, path)
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(_name(t) in SHOWN_NAMES for t in targets):
                yield from _assigned(node.value, path)


def _call(node: ast.Call, path: str) -> Iterator[Unmarked]:
    name = _name(node.func)
    if name in MARKERS:
        return
    if name in SHOWING:
        positions = SHOWING[name]
        for i, arg in enumerate(node.args):
            if positions is None or i in positions:
                yield from _literals(arg, path)
    for keyword in node.keywords:
        if keyword.arg in SHOWN_KEYWORDS:
            yield from _literals(keyword.value, path)


def _assigned(value: ast.expr, path: str) -> Iterator[Unmarked]:
    """A title's value, or a binding list's descriptions (a tuple's third item)."""
    if isinstance(value, ast.List | ast.Tuple) and not _is_text(value):
        for item in value.elts:
            if isinstance(item, ast.Tuple) and len(item.elts) > 2:
                yield from _literals(item.elts[2], path)
        return
    yield from _literals(value, path)


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _literals(node: ast.expr, path: str) -> Iterator[Unmarked]:
    """The unmarked words in an expression that is shown."""
    if _is_text(node):
        assert isinstance(node, ast.Constant)
        if words(node.value):
            yield Unmarked(path, node.lineno, node.value)
    elif isinstance(node, ast.JoinedStr):
        text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        if words(text):
            yield Unmarked(path, node.lineno, text)
    elif isinstance(node, ast.BinOp):
        yield from _literals(node.left, path)
        yield from _literals(node.right, path)
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body, path)
        yield from _literals(node.orelse, path)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from _literals(value, path)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in ("format", "join") and _name(node.func.value) not in MARKERS:
        yield from _literals(node.func.value, path)


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):  # _("...").format(...): the call's own name
        return _name(node.func)
    return None
