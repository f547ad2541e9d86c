"""Before and after: benches/engines.py of two trees, run alternately, best of N.

    python benches/ab.py --base /path/to/old/checkout [--runs 7] [--seconds 2] [--games casino]

Each round runs the base tree's engines.py on the base tree's code (PYTHONPATH set to
it), then this tree's, one after the other, so both see the same load. On a shared
machine load only ever slows a run down, so the best of N rounds is the figure to
compare (the median is printed beside it). A game or player count that one tree
lacks is shown for the other alone.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGES = ("", "plugins/casino", "plugins/royal_casino", "plugins/canasta")


def run(tree: Path, seconds: float, games: str | None) -> dict[tuple, dict]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(tree / p) for p in PACKAGES)}
    cmd = [sys.executable, str(tree / "benches" / "engines.py"), "--seconds", str(seconds)]
    if games:
        cmd += ["--games", games]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env, cwd=tree).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{\"game\"")]
    return {(r["game"], r["players"]): r for r in rows}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True, type=Path, help="a checkout of the code before")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--games")
    args = ap.parse_args()
    trees = {"before": args.base.resolve(), "after": HERE.parent}
    seen: dict[str, dict[tuple, list[dict]]] = {"before": {}, "after": {}}
    for _ in range(args.runs):
        for name, tree in trees.items():
            for key, row in run(tree, args.seconds, args.games).items():
                seen[name].setdefault(key, []).append(row)
    print(f"{'engine':<18} {'before best':>12} {'after best':>11} {'change':>8}   "
          f"{'medians':>17}   {'clone us b/a':>13}   {'worst ms b/a':>13}")
    summary = []
    for key in sorted(seen["before"].keys() | seen["after"].keys()):
        b, a = seen["before"].get(key, []), seen["after"].get(key, [])
        best = [max(r["decisions_per_s"] for r in rows) if rows else None for rows in (b, a)]
        med = [statistics.median(r["decisions_per_s"] for r in rows) if rows else None for rows in (b, a)]
        clone = [_least(rows, "clone_us") for rows in (b, a)]
        worst = [_least(rows, "worst_legal_ms") for rows in (b, a)]
        change = f"{best[1] / best[0] - 1:+.1%}" if None not in best else "new"
        print(f"{key[0] + ' ' + str(key[1]) + 'p':<18} {_n(best[0]):>12} {_n(best[1]):>11} "
              f"{change:>8}   {_n(med[0]):>8}/{_n(med[1]):<8}   {_f(clone[0]):>6}/{_f(clone[1]):<6}   "
              f"{_f(worst[0]):>6}/{_f(worst[1]):<6}")
        summary.append({"game": key[0], "players": key[1], "before_best": best[0], "after_best": best[1],
                        "before_median": med[0], "after_median": med[1],
                        "clone_us": clone, "worst_legal_ms": worst})
    print(json.dumps({"runs": args.runs, "seconds": args.seconds, "rows": summary}))


def _least(rows: list[dict], key: str) -> float | None:
    values = [r[key] for r in rows if isinstance(r.get(key), (int, float)) and r[key] == r[key]]
    return min(values) if values else None


def _n(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


if __name__ == "__main__":
    main()
