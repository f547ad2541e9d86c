"""A tuning sweep with the tournament runner: variants of a level against one opponent.

    .venv/bin/python benches/tune.py casino --players 2 --against medium --deals 60 --seed 7 \\
        hard 'hard[exploration=0.35]' 'hard[rollout_depth=4]'

Each candidate (a bot id or a variant spec, ``hard[setting=value,...]``, docs/bots.md)
plays the opponent over the same duplicate deals (one tournament each, the same seed):
common random numbers, so two candidates are compared deal by deal. Printed per
candidate: its margin a hand over the opponent with the 95% interval, the paired
difference from the first candidate (the baseline) with its interval, and the wall
time. ``--out FILE`` keeps every unit as JSON lines (the tournament's checkpoints, one
file per candidate beside it), so a stopped sweep resumes.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from pathlib import Path

from cardcore.services.plugins import load_registry
from cardcore.services.tournament import Tournament, interval95, run_tournament


def per_deal(results, bot: str) -> dict[int, float]:
    """The candidate's duplicate margin on each deal."""
    return {deal: unit["margin"][bot] for (_pair, deal), unit in results.done.items()}


def interval(values: list[float]) -> tuple[float, float, float]:
    return (statistics.fmean(values), *interval95(values))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game")
    p.add_argument("candidates", nargs="+")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--against", default="medium")
    p.add_argument("--deals", type=int, default=60)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", default=None, help="a directory for the checkpoints (resumable)")
    args = p.parse_args()
    registry = load_registry()
    out = Path(args.out) if args.out else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    rows, base = [], None
    for cand in args.candidates:
        t = Tournament(args.game, [cand, args.against], args.deals, args.seed, args.players)
        point = out / f"{re.sub(r'[^A-Za-z0-9_.=,-]', '_', cand)}.jsonl" if out is not None else None
        results = run_tournament(registry, t, workers=args.workers, checkpoint=point, progress=False)
        deals = per_deal(results, cand)
        mean, lo, hi = interval(list(deals.values()))  # a unit's margin is a hand's
        row = {"candidate": cand, "deals": len(deals), "mean": mean, "ci95": [lo, hi],
               "seconds": round(results.seconds, 1)}
        if base is None:
            base = deals
        else:
            diff = interval([deals[d] - base[d] for d in deals if d in base])
            row["vs_first"] = list(diff)
        rows.append(row)
        vs = row.get("vs_first")
        paired = f"{vs[0]:+7.3f} [{vs[1]:+.3f}, {vs[2]:+.3f}]" if vs else "   (baseline)"
        print(f"{cand:<48} {mean:+7.3f} [{lo:+.3f}, {hi:+.3f}]  {paired}  {results.seconds:7.1f} s",
              flush=True)
    print(json.dumps({"game": args.game, "players": args.players, "against": args.against,
                      "deals": args.deals, "seed": args.seed, "rows": rows}))


if __name__ == "__main__":
    main()
