"""Start-up speed of the ``cardcore`` command: seconds from process start to exit, medians of N.

    python benches/cli_start.py [--runs 9] [--commands "--help,plugins,history,launcher"]
                                [--base OLD_TREE]

Each command runs through the real entry point (the ``cardcore`` script beside the
interpreter) with PYTHONPATH set to a tree's packages, and an empty match library
(CARDCORE_HOME a fresh directory). ``launcher``: ``cardcore`` with no command, timed to the
launcher's first frame (headless, benches/tui_start.py's child); ``textual``: the floor under
it, an app of one line's first frame (Textual's own import and start). A round runs every command
once, one after the other (``PYTHONDONTWRITEBYTECODE`` left out, so that the .pyc files
are written once), and with ``--base`` the old tree's run and this tree's run of a
command back to back, so the load of a shared machine falls on both alike. A command may carry its
arguments: ``--commands="--help,--lang id --help"`` times the help read from the Indonesian
catalog (a tree from before ``--lang`` has none: leave it out with ``--base``). One warm-up round
(compiling the trees' .pyc files) is not counted.

Prints a table on stderr and one JSON line on stdout: {"runs", "load" (the 1-minute load
average before and after), "after": {command: {"median", "min", "max"}}, "before": ...}.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGES = ("", "plugins/casino", "plugins/royal_casino", "plugins/canasta")
#: The commands timed to a first frame: benches/tui_start.py's flag for each.
FRAMES = {"launcher": "--child", "textual": "--floor-child"}


def tree_env(tree: Path, home: str) -> dict[str, str]:
    """The environment that runs ``tree``'s code (its packages and example plugins first)."""
    paths = [str(tree / p) for p in PACKAGES]
    paths += sorted(str(d) for d in (tree / "examples").glob("*/") if d.is_dir())
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "CARDCORE_HOME": home}
    # An installed cardcore has its .pyc files (pip compiles them): a shell that says not to
    # write them would have every run compile the tree's modules again, and time that.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def entry_point() -> list[str]:
    """The installed ``cardcore`` script, run as a user runs it (its own interpreter line)."""
    script = shutil.which("cardcore", path=str(Path(sys.executable).parent))
    if script is None:
        return [sys.executable, "-m", "cardcore"]
    return [script]


def time_once(command: str, env: dict[str, str]) -> float:
    start = time.time()
    if command in FRAMES:
        out = subprocess.run([sys.executable, str(HERE / "tui_start.py"), FRAMES[command]], env=env,
                             capture_output=True, text=True, check=True).stdout
        return float(out.strip().splitlines()[-1]) - start
    subprocess.run(entry_point() + command.split(), env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    return time.time() - start


def measure(trees: dict[str, Path], commands: list[str], runs: int) -> dict[str, dict[str, list[float]]]:
    envs = {name: tree_env(tree, tempfile.mkdtemp(prefix=f"cli-start-{name}-"))
            for name, tree in trees.items()}
    seen: dict[str, dict[str, list[float]]] = {name: {c: [] for c in commands} for name in trees}
    for round_no in range(runs + 1):
        for command in commands:
            for name in trees:
                seconds = time_once(command, envs[name])
                if round_no:  # the first round warms the .pyc files and the library up
                    seen[name][command].append(seconds)
    return seen


def summary(times: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(times), 3), "min": round(min(times), 3),
            "max": round(max(times), 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--commands", default="--help,plugins,history,launcher,textual",
                    help="comma-separated; 'launcher': the first frame of `cardcore`, "
                    "'textual': an app of one line's")
    ap.add_argument("--base", type=Path, help="a checkout of the code before, run alternately")
    args = ap.parse_args()
    trees = {"after": HERE.parent}
    if args.base:
        trees = {"before": args.base.resolve(), **trees}
    commands = [c.strip() for c in args.commands.split(",") if c.strip()]
    load = [round(os.getloadavg()[0], 2)]
    seen = measure(trees, commands, args.runs)
    load.append(round(os.getloadavg()[0], 2))
    result = {name: {c: summary(t) for c, t in rows.items()} for name, rows in seen.items()}
    for command in commands:
        cells = "   ".join(f"{name} {result[name][command]['median']:.3f} s" for name in trees)
        print(f"{command:<10} median {cells}", file=sys.stderr)
    print(json.dumps({"runs": args.runs, "load": load, **result}))


if __name__ == "__main__":
    main()
