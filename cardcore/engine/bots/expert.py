"""The expert level: several independent searches of the hard kind, their roots summed.

Root-parallel ISMCTS (Chaslot, Winands & van den Herik 2008): a decision runs
``searches`` searches, each a ``SearchBot`` search with its own random stream; their
root statistics (the visits and the total value of each root action, by the action's
key) are summed in the order of the searches, and the most visited action is played.
The searches share nothing, so they run anywhere at once: worker processes in a
program that plays locally (``use_pool``: the services give the engine the pool, the
engine starts no process), a server's bot workers as separate moves (docs/bots.md),
or one after another in this process. Wherever they run the choice is the same: each
search's stream is ``Random(f"{seed}:{k}")`` with ``seed`` one draw from the seat's
stream, and the sums are taken in a fixed order. The number of searches is part of
the level, not the machine's cores, so a seed replays on any machine; the cores only
change how long a decision takes.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from cardcore.engine.bots.base import InfoSet
from cardcore.engine.bots.search import Estimate, HardBot, SearchBot
from cardcore.engine.game import Action


@dataclass(frozen=True)
class Part:
    """One search of a decision: the level (its time cap that search's share), the info
    set, the search's seed. Pickles, for a worker process."""

    bot: ExpertBot
    info: InfoSet
    seed: str


@dataclass(frozen=True)
class Found:
    """What one search found: its root candidates, its iterations and work units."""

    estimates: list[Estimate]
    iterations: int
    work: int


def run_part(part: Part) -> Found:
    """One search (in a worker process or here): the hard kind's search, at the level's
    budgets, from ``part.seed``."""
    bot = part.bot
    estimates = SearchBot.analyse(bot, part.info, random.Random(part.seed))
    return Found(estimates, bot.last_iterations, bot.last_work)


class SearchPool(Protocol):
    """Where a decision's searches run at once (``cardcore.services.search_pool``)."""

    def width(self, info: InfoSet) -> int:
        """How many searches of ``info`` run at once (1: none; run them here)."""
        ...

    def run(self, parts: Sequence[Part]) -> list[Found]:
        """Each part's search, in the parts' order."""
        ...


_POOL: SearchPool | None = None


def use_pool(pool: SearchPool | None) -> None:
    """Run the expert's searches on ``pool`` in this process (None: one after another)."""
    global _POOL
    _POOL = pool


class ExpertBot(HardBot):
    """``searches`` hard-kind searches at once, each with a larger budget, roots summed."""

    id = "expert"
    name = "Expert (search on every core)"
    description = "searches on every core for a few seconds a move"
    #: Independent searches per decision: part of the level (a seed replays on any machine).
    searches = 4
    #: Each search's budgets: about twice hard's (its work binds first).
    iterations = 12_000
    work_budget = 2_500_000
    solve_work = 1_200_000
    #: The decision's time cap at a table (``max_seconds``): each search gets its share,
    #: by how many run at once.
    table_seconds = 4.0

    def __init__(self, searches: int | None = None, iterations: int | None = None,
                 work_budget: int | None = None, max_seconds: float | None = None,
                 parallel: bool = True) -> None:
        super().__init__(iterations=iterations, work_budget=work_budget, max_seconds=max_seconds)
        if searches is not None:
            if searches < 1:
                raise ValueError("an expert runs one search at least")
            self.searches = searches
        #: Run the searches on this process's pool when it has one (False: here, in turn:
        #: the same choice).
        self.parallel = parallel

    def analyse(self, info: InfoSet, rng: random.Random, top: int | None = None) -> list[Estimate]:
        """The summed root candidates of the searches, best first (``SearchBot.analyse``);
        the exact solver's candidates, here, when nothing hidden matters."""
        if self.solve_work and (exact := info.exact()) is not None:
            solved = self.solved(info, exact)
            if solved is not None:
                return solved[:top] if top is not None else solved
        pool = _POOL if self.parallel else None
        width = pool.width(info) if pool is not None else 1
        parts = self.split(info, rng, width)
        found = pool.run(parts) if pool is not None and width > 1 else [run_part(p) for p in parts]
        return self.combine(found, top)

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        actions = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        best = self.analyse(info, rng)[0].action
        # the info set's own action (a worker's is a copy, equal by key)
        return next(a for a in actions if a.key == best.key)

    def split(self, info: InfoSet, rng: random.Random, width: int) -> list[Part]:
        """The decision's searches, ``width`` of them running at once: one draw from
        ``rng`` seeds them all; each search's time cap is its share of ``max_seconds``."""
        seed = rng.getrandbits(64)
        level = copy.copy(self)
        level.solve_work = 0  # tried once, above
        if self.max_seconds is not None:
            rounds = -(-self.searches // max(1, width))
            level.max_seconds = self.max_seconds / rounds
        return [Part(level, info, f"expert:{seed}:{k}") for k in range(self.searches)]

    def combine(self, found: Sequence[Found], top: int | None = None) -> list[Estimate]:
        """The searches' roots summed by action key, in the searches' order: the most
        visited first (ties: the higher mean value, then the first met)."""
        visits: dict[tuple, int] = {}
        totals: dict[tuple, float] = {}
        won: dict[tuple, float] = {}
        first: dict[tuple, Estimate] = {}
        for part in found:
            for e in part.estimates:
                key = e.action.key
                first.setdefault(key, e)
                visits[key] = visits.get(key, 0) + e.visits
                totals[key] = totals.get(key, 0.0) + e.value * e.visits
                won[key] = won.get(key, 0.0) + e.match * e.visits
        out = [Estimate(e.action, totals[k] / visits[k] if visits[k] else e.prior, visits[k], e.prior,
                        won[k] / visits[k] if visits[k] else 0.0)
               for k, e in first.items()]
        out.sort(key=lambda e: (-e.visits, -e.value))
        self.last_iterations = sum(f.iterations for f in found)
        self.last_work = sum(f.work for f in found)
        return out[:top] if top is not None else out
