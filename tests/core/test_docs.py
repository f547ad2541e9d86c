"""The repository explains itself: rule numbers name entries of docs/decisions.md,
and no file points at documents outside the repository.

Rule numbers are cited as D12, D4-D8, or in test names (test_d31_...). Each
failure lists every offending file:line, so one run shows all there is to fix.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED_DIRS = ("cardcore", "plugins", "tests", "examples", "benches", "docs")
DECISIONS = ROOT / "docs" / "decisions.md"

HEADING = re.compile(r"^## (D\d+)\b", re.MULTILINE)
CITATION = re.compile(r"\bD(\d+)\b")
TEST_NAME = re.compile(r"\btest_((?:d\d+_)+)")
OLD_CITATION = re.compile(r"\bDECISIONS\s+\d+")
OUTSIDE = [
    (re.compile(r"\.\./shared\b"), "a path to the shared folder beside the repository"),
    (re.compile(r"/work/share[d]\b"), "an absolute path outside the repository"),
    (re.compile(r"\b(?:DESIGN|DECISIONS|CONFLICTS)\.md\b"), "a document outside the repository"),
    (re.compile(r"(?<![\w/-])rules/[\w-]+\.md\b"), "a rule text outside the repository"),
]
DOCS_PATH = re.compile(r"\bdocs/([\w.-]+\.md)\b")
MD_LINK = re.compile(r"\]\(([^)#:\s]+\.md)(?:#[^)]*)?\)")


def scanned_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for top in SCANNED_DIRS:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in (".py", ".md") and path.is_file() and "__snapshots__" not in path.parts:
                files.append(path)
    return files


def lines() -> Iterator[tuple[str, str]]:
    """(file:line, text) for every line of every scanned file."""
    for path in scanned_files():
        rel = path.relative_to(ROOT)
        for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            yield f"{rel}:{n}", text


def entries() -> set[int]:
    return {int(d[1:]) for d in HEADING.findall(DECISIONS.read_text(encoding="utf-8"))}


def cited_numbers(text: str) -> list[int]:
    numbers = [int(n) for n in CITATION.findall(text)]
    for names in TEST_NAME.findall(text):
        numbers += [int(n) for n in re.findall(r"d(\d+)_", names)]
    return numbers


def report(what: str, offences: list[str]) -> str:
    return f"{len(offences)} {what}:\n  " + "\n  ".join(offences)


def test_decisions_has_d1_to_d47_in_order():
    numbers = [int(d[1:]) for d in HEADING.findall(DECISIONS.read_text(encoding="utf-8"))]
    assert numbers == list(range(1, 48))


def test_every_rule_number_cited_names_an_entry_of_docs_decisions():
    known = entries()
    offences = []
    for where, text in lines():
        missing = sorted({n for n in cited_numbers(text) if n not in known})
        if missing:
            offences.append(f"{where}: no entry {', '.join(f'D{n}' for n in missing)} "
                            f"in docs/decisions.md: {text.strip()}")
        if OLD_CITATION.search(text):
            offences.append(f"{where}: cite rule decisions as D<n>: {text.strip()}")
    assert not offences, report("citations without an entry in docs/decisions.md", offences)


def test_nothing_refers_to_a_document_outside_the_repository():
    offences = []
    for where, text in lines():
        for pattern, what in OUTSIDE:
            for m in pattern.finditer(text):
                offences.append(f"{where}: {what} ({m.group(0)}): {text.strip()}")
    assert not offences, report("references outside the repository", offences)


def test_docs_paths_and_markdown_links_exist():
    offences = []
    for path in scanned_files():
        rel = path.relative_to(ROOT)
        for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for name in DOCS_PATH.findall(text):
                if not (ROOT / "docs" / name).exists():
                    offences.append(f"{rel}:{n}: docs/{name} does not exist")
            if path.suffix == ".md":
                for target in MD_LINK.findall(text):
                    if not (path.parent / target).exists():
                        offences.append(f"{rel}:{n}: link to {target}, which does not exist")
    assert not offences, report("references to missing documents", offences)


def test_the_checks_catch_what_they_are_for():
    assert cited_numbers("see D12 and D4-D8") == [12, 4, 8]
    assert cited_numbers("def test_d24_d34_a_turn():") == [24, 34]
    assert cited_numbers("the 10D and AD, a 2D build") == []
    assert OLD_CITATION.search("(" + "DECISIONS" + " 12)")
    bad = "".join(("../", "shared/bench/peers.py ", "DESIGN", ".md ", "rules/", "canasta.md"))
    assert [what for pattern, what in OUTSIDE if pattern.search(bad)] == [
        "a path to the shared folder beside the repository",
        "a document outside the repository",
        "a rule text outside the repository",
    ]
    assert not any(pattern.search("docs/design.md docs/decisions.md docs/rules-casino.md")
                   for pattern, _ in OUTSIDE)
