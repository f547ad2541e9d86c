"""Tournaments of bots over duplicate deals, on every core or on a Ray cluster.

A *deal* is one hand dealt from ``Random(f"{seed}:{deal}:1")`` (the match seed is
``f"{seed}:{deal}"``). Every deal is played once per seat arrangement of a pair of
bots (the line-up A, B, A, B... rotated round the table), so each bot plays every
seat of the same cards and the luck of the deal cancels. A bot's *margin* in a game
is its side's hand score less the mean of the other sides'; its duplicate margin on a
deal is the mean over the arrangements. With more than two bots every pair plays.

The unit of work is one (pair, deal): it runs anywhere (this process, a process pool,
a Ray task), its result is a small dict, and results are gathered by their key, so the
outcome is the same whatever the backend, the worker count or the order they finish
in. Finished units are appended to a checkpoint file: an interrupted tournament
resumes from it.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from cardcore.engine.bots.play import play_bots
from cardcore.engine.bots.stakes import margins
from cardcore.engine.bots.variant import resolve
from cardcore.engine.journal import MatchEvent
from cardcore.engine.match import Match
from cardcore.language import _, number

Job = tuple[int, int]  # (pair index, deal)


@dataclass(frozen=True)
class Tournament:
    game: str
    bots: list[str]
    deals: int
    seed: int = 0
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def pairs(self) -> list[tuple[str, str]]:
        return list(combinations(self.bots, 2))

    def jobs(self) -> list[Job]:
        return [(p, d) for p in range(len(self.pairs())) for d in range(self.deals)]

    def header(self) -> dict[str, Any]:
        """A checkpoint's first line: the tournament but its length, so a finished
        tournament grows by resuming it with more deals."""
        spec = asdict(self)
        del spec["deals"]
        return {"tournament": spec}


def arrangements(pair: tuple[str, str], players: int, sides: int) -> list[list[str]]:
    """The seatings of ``pair`` that play a deal: the line-up rotated round the table,
    each distinct once (with partners, A B A B and B A B A)."""
    lineup = [pair[s % 2] for s in range(players)]
    out: list[list[str]] = []
    for r in range(players):
        seats = lineup[r:] + lineup[:r]
        if seats not in out:
            out.append(seats)
    return out


def play_match(registry: Any, game: Any, options: Any, seats: list[str], seed: int | str, *,
               match_no: int = 0, max_hands: int | None = None,
               on_event: Callable[[MatchEvent], None] | None = None,
               pm: Any = None) -> Match:
    """One match with a bot in every seat, played to its end: what simulate and the
    tournament both run."""
    bots = {s: resolve(registry.bots, b)() for s, b in enumerate(seats)}
    match = Match(game, options, seed=seed, seats=seats, match_no=match_no,
                  max_hands=max_hands, on_event=on_event, pm=pm)
    match.start()
    play_bots(match, bots)
    return match


def interval95(xs: list[float]) -> tuple[float, float]:
    """The 95% confidence interval of the mean of ``xs``, independent draws (the normal
    approximation); unbounded below two."""
    if len(xs) < 2:
        return (-math.inf, math.inf)
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    half = 1.96 * sd / math.sqrt(len(xs))
    return (m - half, m + half)


_REGISTRY: Any = None


def worker_registry() -> Any:
    """This process's registry, loaded at its first call (a worker process plays many units
    with one)."""
    global _REGISTRY
    if _REGISTRY is None:
        from cardcore.services.plugins import load_registry

        _REGISTRY = load_registry()
    return _REGISTRY


def play_job(spec: dict[str, Any], job: Job) -> dict[str, Any]:
    """Play one (pair, deal) in every arrangement: the unit every backend runs."""
    t = Tournament(**spec)
    registry = worker_registry()
    game = registry.game(t.game)
    options = game.Options(**t.options)
    players = t.players or game.player_counts[0]
    seating = game.seating(players, options)
    pair = t.pairs()[job[0]]
    deal = job[1]
    sums = {pair[0]: 0.0, pair[1]: 0.0}
    games = []
    for seats in arrangements(pair, players, seating.sides):
        match = play_match(registry, game, options, seats, f"{t.seed}:{deal}", max_hands=1)
        totals = match.sheet.totals
        side_margin = margins(totals)
        mine: dict[str, list[float]] = {pair[0]: [], pair[1]: []}
        for s, bot in enumerate(seats):
            mine[bot].append(side_margin[match.seating.side_of(s)])
        for bot, values in mine.items():
            sums[bot] += sum(values) / len(values)
        games.append({"seats": seats, "totals": totals, "decisions": match.decisions})
    n = len(games)
    return {"pair": job[0], "deal": deal, "margin": {b: v / n for b, v in sums.items()},
            "games": games}


# --- results ----------------------------------------------------------------------------


@dataclass
class Results:
    tournament: Tournament
    done: dict[Job, dict[str, Any]] = field(default_factory=dict)
    seconds: float = 0.0

    def units(self, bot: str) -> list[float]:
        """The bot's duplicate margins, one per (pair, deal) it played, in key order."""
        return [r["margin"][bot] for _, r in sorted(self.done.items()) if bot in r["margin"]]

    def hands(self, bot: str) -> int:
        pairs = self.tournament.pairs()
        return sum(len(r["games"]) for k, r in self.done.items() if bot in pairs[k[0]])

    def mean(self, bot: str) -> float:
        xs = self.units(bot)
        return sum(xs) / len(xs) if xs else 0.0

    def interval(self, bot: str) -> tuple[float, float]:
        """The 95% confidence interval of the mean margin per hand (normal approximation
        over the independent duplicate deals)."""
        return interval95(self.units(bot))

    def ratings(self) -> dict[str, float]:
        """Bradley-Terry strengths on an Elo scale (1500 the geometric mean), fitted by
        minorization-maximization on the duplicate deals: a deal is won by the bot with
        the higher margin, a tie is half each; half a win each way is a prior."""
        bots = self.tournament.bots
        pairs = self.tournament.pairs()
        wins = {(a, b): 0.5 for a in bots for b in bots if a != b}
        for (p, _deal), r in sorted(self.done.items()):
            a, b = pairs[p]
            ma, mb = r["margin"][a], r["margin"][b]
            wins[(a, b)] += 1.0 if ma > mb else 0.5 if ma == mb else 0.0
            wins[(b, a)] += 1.0 if mb > ma else 0.5 if ma == mb else 0.0
        strength = dict.fromkeys(bots, 1.0)
        for _round in range(200):
            new = {}
            for i in bots:
                w = sum(wins[(i, j)] for j in bots if j != i)
                d = sum((wins[(i, j)] + wins[(j, i)]) / (strength[i] + strength[j])
                        for j in bots if j != i)
                new[i] = w / d if d else 1.0
            g = math.exp(sum(math.log(v) for v in new.values()) / len(new))
            strength = {k: v / g for k, v in new.items()}
        return {b: 1500 + 400 * math.log10(strength[b]) for b in bots}

    def to_json(self) -> dict[str, Any]:
        """Everything but timings: equal for equal seeds whatever the backend."""
        ratings = self.ratings()
        bots = {}
        for b in self.tournament.bots:
            lo, hi = self.interval(b)
            bots[b] = {"mean_margin": round(self.mean(b), 6),
                       "ci95": [round(lo, 6), round(hi, 6)] if math.isfinite(lo) else None,
                       "deals": len(self.units(b)), "hands": self.hands(b),
                       "rating": round(ratings[b], 1)}
        return {"game": self.tournament.game, "players": self.tournament.players,
                "bots": self.tournament.bots, "deals": self.tournament.deals,
                "seed": self.tournament.seed, "finished": len(self.done),
                "results": bots,
                "units": [self.done[k] for k in sorted(self.done)]}

    def digest(self) -> str:
        import hashlib

        return hashlib.sha256(json.dumps(self.to_json(), sort_keys=True).encode()).hexdigest()[:16]

    def table(self) -> str:
        t = self.tournament
        ratings = self.ratings()
        w = max(12, *(len(b) for b in t.bots))  # a variant's id is its spec
        lines = [_("{game}: {done} of {units} (pair, deal) units, seed {seed}, {seconds} s").format(
                     game=t.game, done=len(self.done), units=len(t.jobs()), seed=t.seed,
                     seconds=number(self.seconds, 1, grouping=False)),
                 "  {:<{w}} {:>12} {:>22} {:>7} {:>7}".format(
                     _("bot"), _("margin/hand"), _("95% interval"), _("hands"), _("rating"), w=w)]
        for b in sorted(t.bots, key=lambda b: -ratings[b]):
            lo, hi = self.interval(b)
            ci = f"[{lo:+.3f}, {hi:+.3f}]" if math.isfinite(lo) else "-"
            lines.append(f"  {b:<{w}} {self.mean(b):>+12.3f} {ci:>22} {self.hands(b):>7} "
                         f"{ratings[b]:>7.0f}")
        return "\n".join(lines)


# --- checkpoints ------------------------------------------------------------------------


def read_checkpoint(path: Path, t: Tournament) -> dict[Job, dict[str, Any]]:
    """The finished units of ``path`` (its first line names the same tournament)."""
    from cardcore.services.files import read_text

    if not path.exists():
        return {}
    lines = read_text(path, "checkpoint").splitlines()  # a regular file, size capped
    if not lines:
        return {}
    try:
        head = json.loads(lines[0])
    except (json.JSONDecodeError, RecursionError):
        head = None
    if head != json.loads(json.dumps(t.header())):
        raise ValueError(f"{path}: not a checkpoint of this tournament ({lines[0][:120]})")
    done: dict[Job, dict[str, Any]] = {}
    for n, line in enumerate(lines[1:], start=2):
        try:
            r = json.loads(line)
        except json.JSONDecodeError:  # a line cut short by the interruption
            continue
        if (not isinstance(r, dict) or type(r.get("deal")) is not int
                or not isinstance(r.get("pair"), int)):
            raise ValueError(f"{path}: line {n} is not a finished deal")
        if r["deal"] < t.deals:
            done[(r["pair"], r["deal"])] = r
    return done


class _Checkpoint:
    def __init__(self, path: Path | None, t: Tournament, fresh: bool) -> None:
        self.file = None
        if path is not None:
            self.file = path.open("a" if not fresh else "w", encoding="utf-8")
            if fresh:
                self.write(t.header())

    def write(self, data: dict[str, Any]) -> None:
        if self.file is not None:
            self.file.write(json.dumps(data, sort_keys=True) + "\n")
            self.file.flush()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


# --- backends ---------------------------------------------------------------------------


def _worker_start() -> None:
    """A worker's start: Ctrl+C is the parent's to handle (it stops the workers), and the
    plugins load once, before the first unit."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    worker_registry()


def _local(spec: dict[str, Any], jobs: list[Job], workers: int) -> Iterator[dict[str, Any]]:
    """Each unit as it finishes: one task a unit (a unit takes from a tenth of a second to
    minutes; a task costs a fraction of a millisecond), so the checkpoint and the progress
    bar follow every unit, and Ctrl+C ends the workers at once."""
    if workers <= 1:
        for job in jobs:
            yield play_job(spec, job)
        return
    import functools
    import multiprocessing

    ctx = multiprocessing.get_context("spawn" if os.name != "posix" else "forkserver")
    pool = ctx.Pool(processes=workers, initializer=_worker_start)
    finished = False
    try:
        yield from pool.imap_unordered(functools.partial(play_job, spec), jobs, chunksize=1)
        finished = True
    finally:
        if finished:
            pool.close()
        else:  # interrupted: the units in play are dropped, not waited for
            pool.terminate()
        pool.join()


def _ray(spec: dict[str, Any], jobs: list[Job], address: str | None,
         num_cpus: int | None) -> Iterator[dict[str, Any]]:
    import ray

    if not ray.is_initialized():
        if address:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(play_job)
    pending = [remote.remote(spec, job) for job in jobs]
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def run_tournament(registry: Any, t: Tournament, *, workers: int = 1, backend: str = "local",
                   address: str | None = None, checkpoint: str | Path | None = None,
                   progress: bool = True, on_unit: Callable[[dict[str, Any]], None] | None = None
                   ) -> Results:
    """Play every unit of ``t`` not already in ``checkpoint``; Ctrl+C keeps what finished."""
    import time

    game = registry.game(t.game)
    t = Tournament(t.game, list(t.bots), t.deals, t.seed, t.players or game.player_counts[0],
                   dict(t.options))
    for b in t.bots:
        resolve(registry.bots, b)  # VariantError (a ValueError): no such bot, or a bad setting
    if len(set(t.bots)) != len(t.bots) or len(t.bots) < 2:
        raise ValueError("a tournament wants two or more different bots")
    path = Path(checkpoint) if checkpoint else None
    results = Results(t)
    if path is not None:
        results.done = read_checkpoint(path, t)
    todo = [j for j in t.jobs() if j not in results.done]
    spec = asdict(t)
    sink = _Checkpoint(path, t, fresh=not results.done)
    start = time.perf_counter()
    stream = _ray(spec, todo, address, workers) if backend == "ray" else _local(spec, todo, workers)
    bar = _Bar(len(t.jobs()), len(results.done)) if progress else None
    try:
        for r in stream:
            results.done[(r["pair"], r["deal"])] = r
            sink.write(r)
            if bar is not None:
                bar.advance()
            if on_unit is not None:
                on_unit(r)
    finally:
        if bar is not None:
            bar.stop()
        sink.close()
        results.seconds = time.perf_counter() - start
    return results


class _Bar:
    """A rich progress bar on stderr: units done, the rate and the time left."""

    def __init__(self, total: int, done: int) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        # a unit is one (pair, deal): a deal played in every seat by one pair of bots
        self.progress = Progress(TextColumn("units (pair, deal)"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[rate]}"),
                                 TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                                 console=Console(stderr=True), transient=False)
        self.task = self.progress.add_task("units", total=total, completed=done, rate="")
        self.progress.start()

    def advance(self) -> None:
        self.progress.advance(self.task)
        task = self.progress.tasks[0]
        speed = task.speed
        self.progress.update(self.task, rate=f"{speed * 60:.1f}/min" if speed else "")

    def stop(self) -> None:
        self.progress.stop()
