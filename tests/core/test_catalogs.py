"""The catalogs are complete and current: every marked message translated, none fuzzy or
obsolete, every .mo compiled from its .po (docs/languages.md)."""

from __future__ import annotations

from pathlib import Path

from cardcore.apps import catalogs
from cardcore.apps.catalogs import BUILT_IN, Domain, problems


def test_every_built_in_catalog_is_complete_and_compiled() -> None:
    assert [line for domain in BUILT_IN for line in problems(domain, "id")] == []


def test_the_check_names_a_new_message_a_fuzzy_one_and_a_stale_mo(tmp_path: Path) -> None:
    package = tmp_path / "cardcore_fresh"
    package.mkdir()
    (package / "words.py").write_text('from cardcore.language import N_\nTITLE = N_("Fresh game")\n')
    domain = Domain("cardcore_fresh", package)
    assert catalogs.write(domain, "id") == 1
    assert problems(domain, "id") == [
        f"{domain.po_path('id')}: untranslated: 'Fresh game'",
    ]
    po = domain.po_path("id")
    entry = 'msgid "Fresh game"\nmsgstr '
    po.write_text(po.read_text().replace(entry + '""', "#, fuzzy\n" + entry + '"Permainan baru"'))
    assert f"{po}: fuzzy: 'Fresh game'" in problems(domain, "id")
    po.write_text(po.read_text().replace("#, fuzzy\n", ""))
    stale = "cardcore_fresh.mo: does not match cardcore_fresh.po (run make catalogs)"
    assert problems(domain, "id") == [stale]
    assert catalogs.main(["--domain", f"cardcore_fresh={package}"]) == 0
    assert problems(domain, "id") == []
