"""The compiled engine modules are used only when built, current and wanted (cardcore/compiled.py)."""

import json
import sys

from cardcore import compiled


def built(tmp_path, monkeypatch, source: str = "X = 1\n"):
    """A package folder with one module, and a build of it under a build root of its own."""
    src = tmp_path / "src" / "pkg"
    src.mkdir(parents=True)
    (src / "fast.py").write_text(source)
    root = tmp_path / "native"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / compiled.MANIFEST).write_text(json.dumps({"fast": compiled.digest(src / "fast.py")}))
    monkeypatch.setattr(compiled, "ROOT", root)
    monkeypatch.setattr(compiled, "USED", {})
    monkeypatch.delenv(compiled.PURE, raising=False)
    return src, root


def test_a_current_build_goes_first_on_the_package_path(tmp_path, monkeypatch):
    src, root = built(tmp_path, monkeypatch)
    assert compiled.path("pkg", [str(src)]) == [str(root / "pkg"), str(src)]
    assert compiled.USED["pkg"] == ["fast"]


def test_an_edited_module_runs_as_python_until_the_next_build(tmp_path, monkeypatch):
    src, _ = built(tmp_path, monkeypatch)
    (src / "fast.py").write_text("X = 2\n")
    assert compiled.path("pkg", [str(src)]) == [str(src)]


def test_cardcore_pure_turns_a_current_build_off(tmp_path, monkeypatch):
    src, root = built(tmp_path, monkeypatch)
    monkeypatch.setenv(compiled.PURE, "1")
    assert compiled.path("pkg", [str(src)]) == [str(src)]
    monkeypatch.setenv(compiled.PURE, "0")
    assert compiled.path("pkg", [str(src)]) == [str(root / "pkg"), str(src)]


def test_no_build_or_a_broken_manifest_runs_as_python(tmp_path, monkeypatch):
    src, root = built(tmp_path, monkeypatch)
    (root / "pkg" / compiled.MANIFEST).write_text("{not json")
    assert compiled.path("pkg", [str(src)]) == [str(src)]
    monkeypatch.setattr(compiled, "ROOT", tmp_path / "nothing")
    assert compiled.path("pkg", [str(src)]) == [str(src)]


def test_the_games_modules_come_from_where_the_path_says():
    import cardcore_canasta.moves
    import cardcore_casino.moves

    for module in (cardcore_casino.moves, cardcore_canasta.moves):
        package = module.__name__.split(".")[0]
        from_build = str(compiled.ROOT / package) in str(module.__file__)
        assert from_build == ("moves" in compiled.USED.get(package, [])), module.__file__
        assert sys.modules[package].__path__[-1].endswith(package)  # the sources stay on it
