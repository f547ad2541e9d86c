"""``cardcore tournament``: its flags, and the table (or JSON) of a tournament's results."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

from cardcore.language import _


def add_parser(sub: Any, count: Callable[[str], int]) -> None:
    q = sub.add_parser("tournament", help=_("bots play duplicate deals; margins, intervals, ratings"))
    q.add_argument("game")
    q.add_argument("--bots", required=True,
                   help=_("comma-separated bot ids (two or more); a variant: hard[exploration=0.5]"))
    q.add_argument("--deals", type=count, required=True)
    q.add_argument("--seed", type=int, default=0)
    q.add_argument("--players", type=count)
    q.add_argument("--workers", type=count, help=_("processes (default: every core)"))
    q.add_argument("--backend", choices=["local", "ray"], default="local")
    q.add_argument("--address", help=_("a Ray cluster (ray://host:10001 or auto); default: a local Ray"))
    q.add_argument("--json", action="store_true")
    q.add_argument("--resume", metavar="FILE",
                   help=_("checkpoint of finished deals: resumed when it exists, written as deals finish"))


def command(registry: Any, args: Any) -> int:
    """``cardcore tournament``: the table (or JSON) on stdout, the progress bar on stderr."""
    from cardcore.engine.bots.variant import split_specs
    from cardcore.engine.match_setup import MatchSetup
    from cardcore.services.tournament import Tournament, run_tournament

    game = registry.game(args.game)
    players = args.players or game.player_counts[0]
    bots = [b for b in split_specs(args.bots) if b]
    for b in bots:  # each bot at a table of its own: the one setup check (a SetupError is a ValueError)
        MatchSetup.of(game=game.id, seats=[b] * players, humans_allowed=False).check(registry)
    t = Tournament(game.id, bots, args.deals, args.seed, players)
    workers = args.workers or os.cpu_count() or 1
    try:
        results = run_tournament(registry, t, workers=workers, backend=args.backend,
                                 address=args.address, checkpoint=args.resume,
                                 progress=sys.stderr.isatty() or not args.json)
    except KeyboardInterrupt:
        where = _("; resume with --resume {file}").format(file=args.resume) if args.resume else \
            _(" (start it with --resume FILE to keep finished deals)")
        print("cardcore: " + _("tournament interrupted{where}").format(where=where), file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(results.to_json(), sort_keys=True))
    else:
        print(results.table())
    return 0
