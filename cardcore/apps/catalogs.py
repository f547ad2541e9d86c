"""The catalogs kept with the code: extracted, updated and compiled in one step (docs/languages.md).

``python -m cardcore.apps.catalogs`` (``make catalogs``) extracts every marked message of each
domain from its package, merges it into each language's ``.po`` (new messages empty, none
fuzzy, none obsolete) and compiles the ``.mo`` beside it. ``--check`` changes nothing and
fails when a catalog is out of date, misses a translation or holds a fuzzy one, or when a
``.mo`` does not match its ``.po``: the test suite runs it. A plugin author runs the same
with ``--domain NAME=PACKAGE_DIR``.
"""

from __future__ import annotations

import argparse
import datetime
import io
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

#: A fixed date in every header, so regenerating a catalog changes nothing but its messages.
STAMP = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)
REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Domain:
    name: str
    package_dir: Path
    languages: tuple[str, ...] = ("id",)

    def po_path(self, language: str) -> Path:
        return self.package_dir / "locale" / language / "LC_MESSAGES" / f"{self.name}.po"


#: The repository's own domains: the core and the built-in games.
BUILT_IN = (
    Domain("cardcore", REPO / "cardcore"),
    Domain("cardcore_casino", REPO / "plugins/casino/cardcore_casino"),
    Domain("cardcore_royal_casino", REPO / "plugins/royal_casino/cardcore_royal_casino"),
    Domain("cardcore_canasta", REPO / "plugins/canasta/cardcore_canasta"),
)


def template(domain: Domain) -> Catalog:
    """Every marked message of the domain's package, in the order the files are walked."""
    catalog = Catalog(domain=domain.name, project="cardcore", creation_date=STAMP, fuzzy=False)
    method_map = [("**/locale/**", "ignore"), ("**.py", "python")]
    found = extract_from_dir(str(domain.package_dir), method_map, comment_tags=("TRANSLATORS:",))
    for filename, lineno, message, comments, context in found:
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def updated(domain: Domain, language: str) -> Catalog:
    """The language's catalog brought up to the template: its translations kept."""
    path = domain.po_path(language)
    if path.exists():
        with path.open("rb") as file:
            catalog = read_po(file, locale=language, domain=domain.name)
    else:
        catalog = Catalog(locale=language, domain=domain.name, project="cardcore", fuzzy=False,
                          header_comment=f"# {domain.name}: messages in {language}.\n#",
                          copyright_holder="the cardcore authors", last_translator="cardcore",
                          language_team=language, creation_date=STAMP, revision_date=STAMP)
    catalog.update(template(domain), no_fuzzy_matching=True, update_creation_date=False)
    catalog.obsolete.clear()
    return catalog


def po_bytes(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, no_location=True, ignore_obsolete=True)
    return buffer.getvalue()


def mo_bytes(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def problems(domain: Domain, language: str) -> list[str]:
    """What keeps the catalog from being complete and current, one line each."""
    catalog = updated(domain, language)
    path = domain.po_path(language)
    where = path.relative_to(REPO) if path.is_relative_to(REPO) else path
    found = []
    if not path.exists() or path.read_bytes() != po_bytes(catalog):
        found.append(f"{where}: out of date with the code (run make catalogs)")
    mo = path.with_suffix(".mo")
    if not mo.exists() or mo.read_bytes() != mo_bytes(catalog):
        found.append(f"{mo.name}: does not match {path.name} (run make catalogs)")
    for message in list(catalog)[1:]:
        if message.fuzzy:
            found.append(f"{where}: fuzzy: {message.id!r}")
        elif not message.string or (isinstance(message.string, tuple) and not all(message.string)):
            found.append(f"{where}: untranslated: {message.id!r}")
    return found


def write(domain: Domain, language: str) -> int:
    catalog = updated(domain, language)
    path = domain.po_path(language)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(po_bytes(catalog))
    path.with_suffix(".mo").write_bytes(mo_bytes(catalog))
    return sum(1 for message in list(catalog)[1:] if not message.string)


def parse_domain(text: str) -> Domain:
    name, _, package_dir = text.partition("=")
    if not name or not package_dir:
        raise argparse.ArgumentTypeError(f"expected NAME=PACKAGE_DIR, got {text!r}")
    return Domain(name, Path(package_dir).resolve())


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cardcore.apps.catalogs", description=__doc__)
    parser.add_argument("--check", action="store_true", help="change nothing; fail on any problem")
    parser.add_argument("--domain", type=parse_domain, action="append",
                        help="NAME=PACKAGE_DIR (default: cardcore's own domains)")
    parser.add_argument("--language", action="append", help="language code (default: id)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    domains = args.domain or BUILT_IN
    languages = args.language or ["id"]
    if args.check:
        found = [line for d in domains for lang in languages for line in problems(d, lang)]
        print("\n".join(found) if found else "catalogs complete", file=sys.stderr if found else sys.stdout)
        return 1 if found else 0
    for domain in domains:
        for language in languages:
            missing = write(domain, language)
            print(f"{domain.po_path(language)}: {missing} to translate")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
