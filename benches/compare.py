"""Our engines beside the peers (OpenSpiel, RLCard), in one process tree, median of N runs.

    python benches/compare.py --peers-python /path/to/peers-venv/bin/python [--runs 3] [--seconds 5]

The peers live in their own venv (pip install open-spiel rlcard numpy pydantic):
benches/peers.py runs with that venv's Python, benches/engines.py with this one,
alternately. Each run gives every one of our games ``--seconds`` and the peers'
gin rummy the same budget (peers.py --scale seconds/5). The medians are printed
as a table and as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEERS = HERE / "peers.py"


def run(cmd: list[str]) -> list[dict]:
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--peers-python", required=True)
    ap.add_argument("--peers", default=str(PEERS))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    ours: dict[tuple, list[dict]] = {}
    peers: dict[str, list[dict]] = {}
    compiled = None  # our modules that ran compiled (engines.py's first line)
    for _ in range(args.runs):
        for only in ("openspiel:gin_rummy", "rlcard:raw"):
            cmd = [args.peers_python, args.peers, "--only", only, "--scale", str(args.seconds / 5)]
            for row in run(cmd):
                if "decisions_per_s" in row:
                    peers.setdefault(f"{row['engine']} {row['game']}", []).append(row)
                elif "error" in row:
                    print(f"peers: {row['engine']}: {row['error']}", file=sys.stderr)
        for row in run([sys.executable, str(HERE / "engines.py"), "--seconds", str(args.seconds)]):
            if "decisions_per_s" in row:
                ours.setdefault((row["game"], row["players"]), []).append(row)
            elif row.get("engine") == "meta":
                compiled = row.get("compiled")

    def med(rows: list[dict], key: str) -> float | None:
        values = [r[key] for r in rows if r.get(key) is not None]
        return statistics.median(values) if values else None

    gin = med(peers.get("openspiel-cpp gin_rummy", []), "decisions_per_s")
    if not gin:
        sys.exit("compare: no OpenSpiel gin_rummy figure from the peers (see the errors above)")
    print(f"ours compiled: {compiled or 'nothing (pure Python)'}")
    print(f"{'engine':<28}{'decisions/s':>14}{'x gin_rummy':>13}{'clone us':>10}{'worst legal ms':>16}")
    for name, rows in peers.items():
        d = med(rows, "decisions_per_s")
        c = med(rows, "clone_us")
        print(f"{name:<28}{d:>14,.0f}{d / gin:>13.2f}{c or 0:>10.1f}{'':>16}")
    summary = []
    for (game, players), rows in ours.items():
        d, c, w = (med(rows, k) for k in ("decisions_per_s", "clone_us", "worst_legal_ms"))
        print(f"{game + ' ' + str(players) + 'p':<28}{d:>14,.0f}{d / gin:>13.2f}{c:>10.2f}"
              f"{w if w is not None else float('nan'):>16.2f}")
        summary.append({"game": game, "players": players, "decisions_per_s": d,
                        "vs_gin_rummy": d / gin, "clone_us": c, "worst_legal_ms": w})
    print(json.dumps({"runs": args.runs, "gin_rummy_decisions_per_s": gin, "compiled": compiled,
                      "ours": summary}))


if __name__ == "__main__":
    main()
