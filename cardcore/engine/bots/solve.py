"""Exact play once nothing hidden matters: alpha-beta to the end of the hand.

When every card a seat cannot see lies in one other seat's hand (``InfoSet.exact``:
Casino's last deal with two players, the opponent's hand is what the seat has not seen),
the rest of the hand is a game of perfect information. ``solve`` plays it out with
minimax on the hand's margin of the seat's side (the game's own score row at the hand's
end: in Casino the last capture taking the rest, most cards and spades; near the target
also the match it decides, ``stakes.py``), alpha-beta with a transposition table (the
export as the key, so no two different positions share an entry) and the children
ordered by the game's heuristic. Two sides only: with more, the
other sides' aims differ and minimax is no longer the game.

Its work is charged in the search's units (``search.WORK_*``) and capped: past the cap
it gives up (None) and the caller searches as usual. The count of work depends on the
position alone, so a level still replays exactly.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

from cardcore.engine.bots.search import WORK_APPLY, WORK_CLONE, WORK_EVAL, _listing
from cardcore.engine.bots.stakes import Stakes, hand_values
from cardcore.engine.game import Action, Game, GameState

#: Work units of a transposition key (the export as JSON: about 20 us on a busy machine).
WORK_KEY = 20
#: Children are ordered by the heuristic while more plies than this remain (near the end
#: the ordering costs more than the cut-offs it buys).
ORDER_PLIES = 2


class OutOfWork(Exception):
    """The solver's work cap is spent."""


@dataclass(frozen=True)
class Solved:
    """The hand margin of the seat's side after each root action (``solve``), the work
    and the positions visited."""

    values: list[tuple[Action, float]]
    work: int
    nodes: int


class _Solver:
    def __init__(self, game: Game, side_of: tuple[int, ...], seat: int, cap: int,
                 work: int, stakes: Stakes | None) -> None:
        self.game = game
        self.stakes = stakes
        self.side_of = side_of
        self.seat = seat
        self.own = side_of[seat]
        self.cap = cap
        self.work = work
        self.nodes = 0
        #: key -> (lower bound, upper bound) of the position's value
        self.table: dict[str, tuple[float, float]] = {}

    def charge(self, units: int) -> None:
        self.work += units
        if self.work > self.cap:
            raise OutOfWork

    def margin(self, state: GameState) -> float:
        return hand_values(state.score(), self.stakes)[self.own]

    def children(self, state: GameState, plies: int) -> list[tuple[Action, GameState]]:
        """Every action with the position after it, the mover's likeliest best first."""
        actions = state.legal_actions()
        self.charge(_listing(len(actions)))
        out = []
        for a in actions:
            self.charge(WORK_CLONE + WORK_APPLY)
            after = state.clone()
            after.apply(a)
            out.append((a, after))
        if plies > ORDER_PLIES and len(out) > 1:
            self.charge(WORK_EVAL * len(out))
            sign = 1.0 if self.side_of[state.to_play or 0] == self.own else -1.0
            scores = [0.0 if after.is_over else sign * float(self.game.heuristic(after, self.seat))
                      for _, after in out]
            order = sorted(range(len(out)), key=lambda i: (-scores[i], i))
            out = [out[i] for i in order]
        return out

    def value(self, state: GameState, alpha: float, beta: float, plies: int) -> float:
        """The exact value (own side's margin) if inside (alpha, beta), else a bound."""
        self.nodes += 1
        if state.is_over:
            self.charge(WORK_EVAL)
            return self.margin(state)
        self.charge(WORK_KEY)
        key = json.dumps(state.export())
        lo, hi = self.table.get(key, (-math.inf, math.inf))
        if lo == hi or lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        a0, b0 = max(alpha, lo), min(beta, hi)
        a, b = a0, b0
        maximise = self.side_of[state.to_play or 0] == self.own
        best = -math.inf if maximise else math.inf
        for _, after in self.children(state, plies):
            v = self.value(after, a, b, plies - 1)
            if maximise:
                best = max(best, v)
                a = max(a, v)
            else:
                best = min(best, v)
                b = min(b, v)
            if a >= b:
                break
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.table[key] = (lo, hi)
        return best


def solve(game: Game, state: GameState, side_of: tuple[int, ...], seat: int,
          cap: int, work: int = 0, bound: bool = True, stakes: Stakes | None = None
          ) -> Solved | None:
    """Each legal action of ``seat`` (to play in ``state``) with the margin of its side at
    the hand's end under best play by both sides: exact for the best action; with ``bound``
    each other one only searched far enough to show it is no better (its value an upper
    bound), else exact too. None past ``cap`` work units (counting from ``work``) or with
    more than two sides. With ``stakes``, a hand's end that decides the match is worth it
    too (``stakes.py``)."""
    if max(side_of) != 1 or state.to_play != seat:
        return None
    solver = _Solver(game, side_of, seat, cap, work, stakes)
    plies = _plies(state)
    try:
        values = []
        best = -math.inf
        for a, after in solver.children(state, plies):
            v = solver.value(after, best if bound else -math.inf, math.inf, plies - 1)
            best = max(best, v)
            values.append((a, v))
    except OutOfWork:
        return None
    return Solved(values, solver.work, solver.nodes)


def _plies(state: GameState) -> int:
    """About how many moves remain: the cards in the hands, when the export has them."""
    hands = state.export().get("hands")
    if isinstance(hands, list):
        return sum(len(h) for h in hands if isinstance(h, list))
    return ORDER_PLIES + 1
