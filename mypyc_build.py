"""Compiles the engines' hot modules with mypyc into build/native/ (docs/design.md, Engine speed).

    python mypyc_build.py [--force]

``make native`` runs it (a step of ``make play`` and ``make test``); it returns at once when
every package's build matches its sources (build/native/<package>/SOURCES.json, read by
cardcore/compiled.py, which puts the build first on the package's path). One shared library
per package (``<package>.native__mypyc``) beside a small extension module per compiled
module; the C sources and objects stay in build/native/c and build/native/tmp.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import sysconfig
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # cardcore.compiled from this tree, installed or not

from cardcore.compiled import MANIFEST, ROOT, current, digest  # noqa: E402

#: What is compiled: the modules of the playouts' hot path (legal_actions and apply), measured
#: in benches/RESULTS.md. Royal Casino runs Casino's. A module listed here must compile
#: with mypyc and keep the pure path's behaviour (docs/design.md, Engine speed).
MODULES: dict[str, tuple[str, tuple[str, ...]]] = {
    "cardcore_casino": ("plugins/casino/cardcore_casino", ("combos", "heuristic", "moves")),
    "cardcore_canasta": ("plugins/canasta/cardcore_canasta", ("actions", "heuristic", "melds", "moves")),
}
#: -O1: as fast as -O3 here (instructions per decision within 1 %) in about half the time.
OPT_LEVEL = "1"


def up_to_date() -> bool:
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return all(
        current(package, HERE / src) == sorted(modules)
        and all((ROOT / package / f"{m}{suffix}").exists() for m in (*modules, "native__mypyc"))
        for package, (src, modules) in MODULES.items())


def build() -> None:
    sources = {package: {m: digest(HERE / src / f"{m}.py") for m in modules}
               for package, (src, modules) in MODULES.items()}  # as compiled
    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]
    from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

    groups: list[tuple[list[str], str | None]] = [([f"{src}/{m}.py" for m in modules], f"{package}.native")
              for package, (src, modules) in MODULES.items()]
    paths = [p for files, _ in groups for p in files]
    extensions = mypycify(["--config-file", str(HERE / "pyproject.toml"), *paths],
                          separate=groups, target_dir=str(ROOT / "c"), opt_level=OPT_LEVEL)
    command = build_ext(Distribution({"name": "cardcore-native", "ext_modules": extensions}))
    command.build_lib = str(ROOT / "lib")
    command.build_temp = str(ROOT / "tmp")
    command.parallel = 2  # the packages' libraries side by side
    command.ensure_finalized()
    command.run()
    for package in MODULES:
        out = ROOT / package
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(ROOT / "lib" / package, out)
        (out / MANIFEST).write_text(json.dumps(sources[package], indent=1) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--force", action="store_true", help="build even when up to date")
    args = ap.parse_args()
    if not args.force and up_to_date():
        print("mypyc_build: up to date")
        return
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:  # the optional speed-up: a machine without one plays as Python
        print(f"mypyc_build: no C compiler ({cc}): the engines run as Python")
        return
    t0 = time.perf_counter()
    shutil.rmtree(ROOT / "lib", ignore_errors=True)
    try:
        build()
    except (Exception, SystemExit) as exc:  # no Python headers, say: the pure path still plays
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"mypyc_build: the build failed ({why}): the engines run as Python")
        return
    print(f"mypyc_build: {', '.join(MODULES)} compiled in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
