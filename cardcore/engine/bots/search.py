"""The search bot: information-set Monte Carlo tree search over the common interface.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): every iteration deals
the cards the seat cannot see at random (``InfoSet.sample``), walks one shared tree
by UCB restricted to the actions legal in that deal (each child counts how often it
was available; below the root a node widens progressively), adds one node, plays
``rollout_depth`` steps (random or greedy; a game may set its own settings,
``Game.search_settings``) and scores the position reached with the game's
``heuristic`` (or the score row, once the hand is over; a game with no heuristic is
played out). Values are per side: a node holds the value of the side that chose its
action, so a partner plays for the side and every side maximises its own estimate.

A level is an iteration and work budget (work: a deterministic stand-in for time), so
a level replays exactly for a seed; ``max_seconds`` (off by default) cuts a search
short on a slow machine and says so in the log.
"""

from __future__ import annotations

import copy
import logging
import math
import random
import statistics
import time
from dataclasses import dataclass

from cardcore.engine.bots.base import Bot, InfoSet
from cardcore.engine.bots.stakes import Stakes, hand_values
from cardcore.engine.bots.variant import base_id, changed_settings
from cardcore.engine.game import Action, Game, GameState

log = logging.getLogger("cardcore.bots")  # relayout: keep (the name users configure)

#: Work units: about a microsecond each of engine time, as ``benches/bots.py calibrate``
#: measures the built-in games (the dearest of them for each call, on a busy machine). A
#: sample (determinize), a clone, an apply and one heuristic evaluation cost:
WORK_SAMPLE = 60
WORK_CLONE = 10
WORK_APPLY = 10
WORK_EVAL = 50
#: A fresh legal_actions listing costs a fixed part and a part per action listed (long lists,
#: a crowded casino table's thousands, cost less per action: see ``_listing``).
WORK_CALL = 30
WORK_LISTED = 6

#: Without a game heuristic, rollouts play to the end of the hand (at most this many steps).
FULL_ROLLOUT = 100_000
#: A turn finished by greedy steps before a leaf is scored (``leaf = "turn"``): at most
#: this many steps.
TURN_STEPS = 40


@dataclass(frozen=True)
class Estimate:
    """One candidate at the root: the action, the side's expected hand margin, the visits."""

    action: Action
    #: What the search maximises: the side's expected hand margin, and near the target
    #: the match too (``match``, ``stakes.py``).
    value: float
    visits: int
    #: The one-ply heuristic value on the first sample (what greedy reads).
    prior: float
    #: The part of ``value`` that is the match (0 far from the target).
    match: float = 0.0

    @property
    def margin(self) -> float:
        """The side's expected hand margin in points: what a hint or a "why" says."""
        return self.value - self.match


class _Node:
    __slots__ = ("side", "children", "visits", "total", "won", "avail")

    def __init__(self, side: int) -> None:
        self.side = side  # the side that chose the action leading here
        self.children: dict[tuple, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.won = 0.0  # the match's part of ``total`` (stakes.py)
        self.avail = 1


class _Search:
    """One search: the tree, the value range seen, the game's evaluation."""

    def __init__(self, bot: SearchBot, info: InfoSet, rng: random.Random) -> None:
        self.bot = bot
        self.info = info
        self.game: Game = info.game
        self.rng = rng
        self.side_of = info.side_of
        sides = info.sides
        # whose eyes judge each side: the seat itself for its own side (the heuristic reads
        # the seat's hand, which it knows; a partner's hand is only sampled), else a seat of it
        self.rep = [self.side_of.index(s) for s in range(sides)]
        self.rep[self.side_of[info.seat]] = info.seat
        self.own = self.side_of[info.seat]
        self.has_heuristic = type(self.game).heuristic is not Game.heuristic
        self.depth = bot.rollout_depth if self.has_heuristic else FULL_ROLLOUT
        self.lo, self.hi = math.inf, -math.inf
        self.root = _Node(-1)
        self.root_actions: list[Action] = []
        #: With a paired root, each round's value of every root candidate, in their order.
        self.rounds: list[list[float]] = []
        #: The match the hand decides, when the state knows it (``stakes.py``).
        self.stakes = Stakes.of(self.game, info.canonical()) if bot.play_for_match else None
        #: The match's part of the last leaf's values, when that hand's end decided it.
        self.decided: list[float] | None = None
        #: Work done, in units of about a microsecond of engine time (see ``WORK``): a
        #: deterministic measure, so a budget in work replays exactly where time would not.
        self.work = 0

    # --- evaluation -------------------------------------------------------------------

    def evaluate(self, state: GameState) -> list[float]:
        """Each side's estimate of its hand margin over the others (mean of the others)."""
        self.decided = None  # the leaf's, the last evaluation before the values are backed up
        if state.is_over:
            if self.stakes is None:
                return hand_values(state.score(), None)
            values, self.decided = self.stakes.split(state.score())
            return values
        if not self.has_heuristic:
            return [0.0] * len(self.rep)
        # heuristic(state, seat) is already a margin: with two sides one call gives both
        if len(self.rep) == 2:
            mine = float(self.game.heuristic(state, self.info.seat))
            return [mine, -mine] if self.own == 0 else [-mine, mine]
        return [float(self.game.heuristic(state, seat)) for seat in self.rep]

    def rollout(self, state: GameState, last: int | None = None, came: int = 0) -> list[float]:
        """The position's value for each side after the rollout: with ``leaf = "turn"`` the
        turn of ``last`` (the seat that made the tree's last move) finished first by its
        greedy steps, so every leaf is scored between turns; then ``rollout_depth`` steps, or
        with ``rollout_rounds`` the steps until the turn has come back to the searching seat
        that many times (``came`` of them in the tree), at most ``rollout_depth``."""
        rng = self.rng
        seat, rounds = self.info.seat, self.bot.rollout_rounds
        greedy = self.bot.rollout_policy == "greedy" and self.has_heuristic
        epsilon = self.bot.rollout_epsilon
        if self.bot.leaf == "turn" and self.has_heuristic:
            for _ in range(TURN_STEPS):
                if state.is_over or state.to_play != last:
                    break
                actions = state.legal_actions()
                if not actions:
                    break
                self.work += _listing(len(actions))
                if len(actions) > 1:
                    state = self.greedy_step(state, actions)
                else:
                    state.apply(actions[0])
                came += state.to_play == seat != last
        for _ in range(self.depth):
            if state.is_over or (rounds and came >= rounds):
                break
            actions = state.legal_actions()
            if not actions:  # a partial position may run into a dead end: score it there
                break
            self.work += _listing(len(actions))
            mover = state.to_play
            if greedy and len(actions) > 1 and (not epsilon or rng.random() >= epsilon):
                state = self.greedy_step(state, actions)
            else:
                state.apply(actions[rng.randrange(len(actions))])
            came += state.to_play == seat != mover
        self.work += WORK_EVAL * (1 if len(self.rep) == 2 else len(self.rep))
        return self.evaluate(state)

    def greedy_step(self, state: GameState, actions: list[Action]) -> GameState:
        """The position after the mover's best action by one ply of the heuristic through
        the mover's eyes (greedy's choice; ties: the game's order)."""
        return self.greedy_pick(state, actions)[1]

    def greedy_pick(self, state: GameState, actions: list[Action]) -> tuple[Action, GameState]:
        """The mover's best action by one ply of the heuristic through its eyes, and the
        position after it (ties: the game's order); every action's clone, apply and
        evaluation charged as work."""
        mover = state.to_play
        assert mover is not None  # the hand is on
        side = self.side_of[mover]
        self.work += len(actions) * (WORK_CLONE + WORK_APPLY + WORK_EVAL)
        best, best_value = (actions[0], state), -math.inf
        for action in actions:
            after = state.clone()
            after.apply(action)
            value = self.evaluate(after)[side] if after.is_over else \
                float(self.game.heuristic(after, mover))
            if value > best_value:
                best, best_value = (action, after), value
        return best

    # --- the root ---------------------------------------------------------------------

    def priors(self, sample: GameState, actions: list[Action]) -> dict[tuple, float]:
        """The one-ply heuristic of each root action on one sample (greedy's view)."""
        seat = self.info.seat
        out: dict[tuple, float] = {}
        self.work += len(actions) * (WORK_CLONE + WORK_APPLY + WORK_EVAL)
        for action in actions:
            after = sample.clone()
            after.apply(action)
            out[action.key] = self.evaluate(after)[self.side_of[seat]] if after.is_over or \
                not self.has_heuristic else float(self.game.heuristic(after, seat))
        return out

    # --- iterations -------------------------------------------------------------------

    def iterate(self, state: GameState, first: Action | None = None) -> float:
        """One iteration on the sample ``state``: down the tree, one node added, a leaf
        scored, its values backed up; ``first``: the root action it takes (``root =
        "paired"``), else UCB chooses. The leaf's value for the searching seat's side."""
        node = self.root
        path: list[_Node] = []
        rng = self.rng
        greedy_first = self.bot.expand_policy == "greedy"
        seat = self.info.seat
        last = state.to_play
        came = 0  # how often the turn came back to the searching seat (``rollout_rounds``)
        while not state.is_over:
            came += state.to_play == seat != last
            last = state.to_play
            # the root's actions are the seat's own (the view fixes them), in prior order;
            # a sample keeps the listing of the seat to play (determinize's contract)
            if node is self.root:
                actions = self.root_actions if first is None else [first]
                self.work += WORK_APPLY
            else:
                actions = state.legal_actions()
                self.work += _listing(len(actions))
            if not actions:
                break
            children = node.children
            untried = []
            tried = []
            for a in actions:
                child = children.get(a.key)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
                    tried.append((a, child))
            if untried and (node is self.root or self.room(node, len(tried))):
                mover = self.side_of[state.to_play] if state.to_play is not None else 0
                if node is self.root:
                    action = untried[0]
                    state.apply(action)
                elif greedy_first and len(untried) > 1 and self.has_heuristic:
                    action, state = self.greedy_pick(state, untried)
                else:
                    action = untried[rng.randrange(len(untried))]
                    state.apply(action)
                children[action.key] = child = _Node(mover)
                path.append(child)
                break
            action, child = self.select(tried)
            state.apply(action)
            path.append(child)
            node = child
        came += state.to_play == seat != last
        values = self.rollout(state, last, came)
        for v in values:
            self.lo = min(self.lo, v)
            self.hi = max(self.hi, v)
        for n in path:
            n.visits += 1
            n.total += values[n.side]
        decided = self.decided
        if decided is not None:
            for n in path:
                n.won += decided[n.side]
        return values[self.own]

    def room(self, node: _Node, tried: int) -> bool:
        """Progressive widening below the root: a node with ``v`` visits tries about
        ``widening * sqrt(v)`` of its actions (UCB among them), so a few random replies are
        searched well rather than many once each (off: every action once first)."""
        w = self.bot.widening
        return w is None or tried == 0 or tried < w * math.sqrt(node.visits + 1)

    def select(self, tried: list[tuple[Action, _Node]]) -> tuple[Action, _Node]:
        """UCB over the tried actions legal in this sample, each with its child."""
        scale = self.hi - self.lo if self.hi > self.lo else 1.0
        c = self.bot.exploration * scale
        best = tried[0]
        best_score = -math.inf
        log, sqrt = math.log, math.sqrt
        for pair in tried:
            child = pair[1]
            visits = child.visits
            score = child.total / visits + c * sqrt(log(child.avail) / visits)
            if score > best_score:
                best, best_score = pair, score
        return best


class SearchBot(Bot):
    """ISMCTS with truncated rollouts and the game's heuristic at the leaves."""

    id = "search"
    name = "Search"
    #: Iterations per decision: the level.
    iterations = 200
    #: Work per decision (a deterministic stand-in for time, in ``WORK`` units): a crowded
    #: table, where one legal_actions call lists thousands of actions, stops sooner.
    work_budget = 200_000
    #: Root actions scored one ply deep at most (a crowded casino table lists 15,000):
    #: beyond it, evenly spaced ones in the game's order.
    prior_cap = 2500
    #: Steps after the tree before the heuristic scores the position.
    rollout_depth = 4
    #: With it (0: off), the rollout runs until the turn has come back to the searching seat
    #: this many times (at most ``rollout_depth`` steps), so every leaf is scored at the
    #: same point of the table, the start of the seat's turn, whatever each candidate did.
    rollout_rounds = 0
    #: How those steps are chosen: "random", or "greedy" (the mover's best action by one
    #: ply of the heuristic, every action's clone, apply and evaluation charged as work).
    rollout_policy = "random"
    #: With "greedy", the share of steps chosen at random instead.
    rollout_epsilon = 0.0
    #: Root actions searched: the best by one-ply heuristic (all when fewer).
    root_width = 12
    #: The UCB constant, relative to the range of values seen in this search.
    exploration = 0.7
    #: Progressive widening below the root (see ``_Search.room``); None: off.
    widening: float | None = None
    #: Which untried action a node below the root adds: "random", or "greedy" (the
    #: mover's best by one ply of the heuristic through its eyes, charged as work): the
    #: reply a player would see first is searched first.
    expand_policy = "random"
    #: Where a leaf is scored: "any" (where the tree ends), or "turn" (the turn of the
    #: seat that moved last finished by its greedy steps first): in a game of several
    #: actions a turn (Canasta's draw, melds, discard) the heuristic then compares
    #: positions between turns, never a turn half played with one played out.
    leaf = "any"
    #: How the root's candidates share the iterations: "ucb" (each iteration deals a sample
    #: and UCB picks the candidate), or "paired" (each sample is played from every candidate
    #: in turn, with the same random numbers below the root: the candidates are compared on
    #: the same deals, so the luck of the deal cancels from their differences).
    root = "ucb"
    #: With ``root = "paired"``: how sure the search must be to leave the heuristic's choice
    #: (the candidate of the best one-ply prior, greedy's): another candidate is played only
    #: when its paired lead over it, round by round, is above zero by ``gate`` standard
    #: errors (0: the best estimate, however slight its lead).
    gate = 0.0
    #: Near the match's target, a finished hand is worth the match it decides too
    #: (``stakes.py``): the hand's margin alone when off.
    play_for_match = True
    #: The time cap a table sets on the level (``max_seconds``): the decision-time bar.
    table_seconds = 2.0
    #: Work units the exact solver may spend once nothing hidden matters
    #: (``InfoSet.exact``, ``solve``); 0: off. Past it, the search has the rest of the budget.
    solve_work = 0
    #: The game whose settings a copy has (``for_game``); None: the level's own.
    _game: Game | None = None
    heavy = True
    tunable = ("iterations", "work_budget", "prior_cap", "rollout_depth", "rollout_rounds",
               "rollout_policy", "rollout_epsilon", "root_width", "exploration", "widening",
               "expand_policy", "leaf", "root", "gate", "solve_work")
    choices = {"rollout_policy": ("random", "greedy"), "expand_policy": ("random", "greedy"),
               "leaf": ("any", "turn"), "root": ("ucb", "paired")}

    def __init__(self, iterations: int | None = None, rollout_depth: int | None = None,
                 root_width: int | None = None, work_budget: int | None = None,
                 max_seconds: float | None = None) -> None:
        if iterations is not None:
            self.iterations = iterations
        if rollout_depth is not None:
            self.rollout_depth = rollout_depth
        if root_width is not None:
            self.root_width = root_width
        if work_budget is not None:
            self.work_budget = work_budget
        #: What the last search did: iterations and work units (benchmarks, logs).
        self.last_iterations = 0
        self.last_work = 0
        #: A cap on the wall-clock time of one decision (None: off, so play replays exactly).
        self.max_seconds = max_seconds

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        actions = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        return self.analyse(info, rng)[0].action

    def for_game(self, game: Game) -> SearchBot:
        """This level as ``game`` plays it (``Game.search_settings``, by the level's id): a
        copy with the game's settings, but for those this bot was given (a constructor's
        argument, a variant's setting), which stay. Itself when the game names none."""
        settings = game.search_settings.get(base_id(self.id))
        if not settings or self._game is game:
            return self
        given = changed_settings(type(self)).union(n for n in vars(self) if n in self.tunable)
        tuned = copy.copy(self)
        for name, value in settings.items():
            if name not in given:
                setattr(tuned, name, value)
        tuned._game = game
        return tuned

    def analyse(self, info: InfoSet, rng: random.Random, top: int | None = None) -> list[Estimate]:
        """The root candidates, best first, with the side's expected hand margin (points)
        and the visits behind it: what a hint shows ("play X: about +1.4 points"). The
        level's settings are the game's for it (``for_game``)."""
        tuned = self.for_game(info.game)
        if tuned is not self:
            out = tuned.analyse(info, rng, top)
            self.last_iterations, self.last_work = tuned.last_iterations, tuned.last_work
            return out
        spent, solving = 0, 0.0
        if self.solve_work and (exact := info.exact()) is not None:
            begun = time.perf_counter()
            solved = self.solved(info, exact)
            if solved is not None:
                return solved[:top] if top is not None else solved
            # given up: the search has the rest of the budget and of the time cap
            spent, solving = self.solve_work, time.perf_counter() - begun
        # the one fresh listing of the root (samples keep it): charged once, as it is done once
        listed = len(info.canonical().legal_actions())
        search = _Search(self, info, rng)
        search.work += spent + _listing(listed)
        first = info.sample(rng)
        # the sample's own action objects (the same keys as the info set's): applying
        # them needs no look-up by key
        actions = _spread(first.legal_actions(), self.prior_cap)
        priors = search.priors(first, actions)
        order = sorted(range(len(actions)), key=lambda i: (-priors[actions[i].key], i))
        kept = search.root_actions = [actions[i] for i in order[:max(1, self.root_width)]]
        start = time.perf_counter() - solving
        run = self._paired if self.root == "paired" else self._ucb
        done = run(search, info, rng, first, start)
        self.last_iterations, self.last_work = done, search.work
        out = []
        for a in kept:
            child = search.root.children.get(a.key)
            visits = child.visits if child else 0
            value = child.total / child.visits if child and child.visits else priors[a.key]
            match = child.won / child.visits if child and child.visits else 0.0
            out.append(Estimate(a, value, visits, priors[a.key], match))
        out.sort(key=lambda e: (-e.visits, -e.value))
        if self.root == "paired" and self.gate:
            pick = kept[_sure(search.rounds, self.gate)]
            out.sort(key=lambda e: e.action is not pick)  # stable: the rest keep their order
        return out[:top] if top is not None else out

    def _ucb(self, search: _Search, info: InfoSet, rng: random.Random, first: GameState,
             start: float) -> int:
        """The iterations, a sample each, UCB choosing the root's candidate; their count."""
        done = 0
        for done in range(1, self.iterations + 1):  # noqa: B007 - read after the loop
            if search.work >= self.work_budget and done > 1:
                break
            search.work += WORK_SAMPLE
            search.iterate(first if done == 1 else info.sample(rng))
            if self._out_of_time(start, done):
                break
        return done

    def _paired(self, search: _Search, info: InfoSet, rng: random.Random, first: GameState,
                start: float) -> int:
        """Rounds of one sample played from every root candidate in turn, each with the
        round's random numbers below the root; whole rounds only, so every candidate has
        the same samples. Their iterations."""
        kept = search.root_actions
        done, sample = 0, first
        while done + len(kept) <= max(self.iterations, len(kept)):
            if search.work >= self.work_budget and done:
                break
            search.work += WORK_SAMPLE + WORK_CLONE * len(kept)
            seed = rng.getrandbits(64)
            row = []
            for action in kept:
                search.rng = random.Random(seed)
                row.append(search.iterate(sample.clone(), action))
            search.rounds.append(row)
            done += len(kept)
            search.rng = rng
            if self._out_of_time(start, done):
                break
            sample = info.sample(rng)
        return done

    def _out_of_time(self, start: float, done: int) -> bool:
        """The wall-clock cap reached (said in the log), when the table set one."""
        if self.max_seconds is None or time.perf_counter() - start <= self.max_seconds:
            return False
        log.info("%s: search cut short after %d of %d iterations (%.2f s cap)",
                 self.id, done, self.iterations, self.max_seconds)
        return True


    def solved(self, info: InfoSet, exact: GameState) -> list[Estimate] | None:
        """The root actions by their exact values when nothing hidden matters (``solve``):
        the best one's value exact, each other's at most what it says (an alpha-beta bound);
        None past ``solve_work`` work units (or more than two sides)."""
        from cardcore.engine.bots.solve import solve

        stakes = Stakes.of(info.game, exact) if self.play_for_match else None
        got = solve(info.game, exact, info.side_of, info.seat, self.solve_work, stakes=stakes)
        if got is None:
            return None
        self.last_iterations, self.last_work = 0, got.work
        out = [Estimate(a, v, 0, v, stakes.part(v) if stakes else 0.0) for a, v in got.values]
        out.sort(key=lambda e: -e.value)  # stable: ties keep the heuristic's order
        return out


def _sure(rounds: list[list[float]], gate: float) -> int:
    """Which candidate a paired root plays (an index into the round's values): the one of
    the largest mean lead over the first (the heuristic's choice) among those whose lead,
    round by round, is above zero by ``gate`` standard errors; the first when none is."""
    n = len(rounds)
    best, lead = 0, 0.0
    if n < 2:
        return best
    for j in range(1, len(rounds[0])):
        diffs = [r[j] - r[0] for r in rounds]
        mean = statistics.fmean(diffs)
        if mean > lead and mean > gate * statistics.stdev(diffs) / math.sqrt(n):
            best, lead = j, mean
    return best


def _listing(n: int) -> int:
    """The work of a fresh listing of ``n`` legal actions (and applying one of them)."""
    return WORK_CALL + WORK_APPLY + WORK_LISTED * min(n, 100) + 2 * max(0, n - 100)


def _spread(actions: list[Action], cap: int) -> list[Action]:
    """At most ``cap`` of ``actions``: the first ones and then evenly spaced ones."""
    n = len(actions)
    if n <= cap:
        return actions
    head = cap // 4
    step = (n - head) / (cap - head)
    picked = list(range(head)) + [head + int(i * step) for i in range(cap - head)]
    return [actions[i] for i in sorted(set(picked))]


class MediumBot(SearchBot):
    id = "medium"
    name = "Medium (search)"
    description = "looks ahead over likely deals, up to a second a move"
    iterations = 1000
    work_budget = 250_000
    rollout_depth = 0
    widening = 1.0
    root_width = 10
    prior_cap = 1000
    table_seconds = 1.0


class HardBot(SearchBot):
    id = "hard"
    name = "Hard (search)"
    description = "looks further ahead, up to two seconds a move"
    iterations = 5000
    work_budget = 1_200_000
    widening = 1.0
    root_width = 16
    prior_cap = 3000
    #: Two greedy steps after the tree (the reply and the answer to it), then the heuristic;
    #: the exact solver once nothing hidden matters.
    rollout_policy = "greedy"
    rollout_depth = 2
    solve_work = 600_000
