"""Which loose cards can be taken together: subset sums over the table, memoised.

A table is described by the sorted values of its loose (numeric) cards; a set of
them is a mask over those sorted positions. Equal values are interchangeable, so
the answers are shared by every table with the same values (a module-level cache).
Cards above a value never take part in a sum of it, and the values are sorted, so
an answer for value v depends only on the prefix of values up to v: a second cache
keyed by that prefix serves every table that shares it (sums keyed by -s).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence

#: Module-level memos of pure answers, read and written one dict operation at a time
#: (safe from any thread: a miss computes the same value again; docs/design.md).
TABLES: dict[tuple[int, ...], Table] = {}
TABLES_LIMIT = 20_000  # tables; cleared when full (bounded memory)
_BY_PREFIX: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
_PREFIX_LIMIT = 300_000
SUMS_BITS = (1 << 15) - 1  # Table.sums: the sums that matter (capture and build values to 14)


class Table:
    """Subset questions about one multiset of loose values (sorted ascending)."""

    __slots__ = ("vals", "total", "sums", "families", "_cum", "_sums")

    def __init__(self, vals: tuple[int, ...]):
        self.vals = vals
        cum = [0]
        for x in vals:
            cum.append(cum[-1] + x)
        self._cum = tuple(cum)  # _cum[i]: the sum of the i smallest values
        #: The sum of every value on the table.
        self.total: int = cum[-1]
        sums = 0
        for x in vals:
            sums |= (sums << x | 1 << x) & SUMS_BITS
        #: The sums up to 14 that some of the values make, as a bit mask (bit s: some
        #: non-empty subset adds up to s). ``family(v, r)`` is empty exactly when r > 0 and
        #: bit r is clear, and holds more than 0 when r = 0 exactly when bit v is set: the
        #: move generator asks only for families that hold a move.
        self.sums = sums
        #: The answers of family() found so far, by ``family_key(v, r)``: read-only outside
        #: this module. The move generator looks here first (a dict lookup costs less than
        #: a call) and calls find_family() on a miss.
        self.families: dict[int, tuple[int, ...]] = {}
        self._sums: dict[int, tuple[int, ...]] = {}

    def summing(self, s: int) -> tuple[int, ...]:
        """Every mask whose values add up to ``s`` (s > 0), ascending."""
        got = self._sums.get(s)
        if got is None:
            vals = self.vals[:bisect_right(self.vals, s)]
            pkey = (vals, -s)
            got = _BY_PREFIX.get(pkey)
            if got is None:
                if len(_BY_PREFIX) >= _PREFIX_LIMIT:
                    _BY_PREFIX.clear()
                got = _BY_PREFIX[pkey] = _summing(vals, s)
            self._sums[s] = got
        return got

    def family(self, v: int, r: int) -> tuple[int, ...]:
        """Masks U that split into one part summing to ``r`` (empty when r = 0) and
        any number (0 included) of disjoint groups summing to ``v``. Ascending; 0 first
        when r = 0.

        ``family(v, 0)`` minus 0 is what a card of value v captures; ``family(v, v - h)``
        is what a card of value h joins to make (or add to) a build of v.
        """
        got = self.families.get((v << 6) + r)  # family_key(v, r)
        return self.find_family(v, r) if got is None else got

    def find_family(self, v: int, r: int) -> tuple[int, ...]:
        """family(v, r) once ``families`` has no answer: from the shared prefix cache or
        computed, then kept in ``families``."""
        key = (v << 6) + r  # family_key(v, r)
        vals = self.vals
        p = bisect_right(vals, v)
        if r and self._cum[p] - r < v:
            got = self.summing(r)  # no room for a group of v beside the part
        else:
            pkey = (vals[:p], key)
            shared = _BY_PREFIX.get(pkey)
            if shared is None:
                if len(_BY_PREFIX) >= _PREFIX_LIMIT:
                    _BY_PREFIX.clear()
                shared = _BY_PREFIX[pkey] = self._family(v, r)
            got = shared
        self.families[key] = got
        return got

    def _family(self, v: int, r: int) -> tuple[int, ...]:
        """family() computed: only the values up to v take part."""
        total = self._cum[bisect_right(self.vals, v)]
        if r == 0:
            groups = self.summing(v)
            if total < 2 * v:  # room for one group at most
                got = (0, *groups)
            else:
                found: set[int] = set()
                _groups_of(groups, v, found, 0, 0, total)
                got = tuple(sorted(found))
        else:
            parts = self.summing(r)
            if not parts:  # nothing makes up the difference: no need for the groups of v
                return ()
            base = self.family(v, 0)
            got = tuple(sorted({a | u for a in parts for u in base if not a & u}))
        return got


def family_key(v: int, r: int) -> int:
    """The key of ``Table.families`` for ``family(v, r)`` (r < 64)."""
    return (v << 6) + r


def _summing(vals: tuple[int, ...], s: int) -> tuple[int, ...]:
    """Every mask of ``vals`` (sorted) whose values add up to ``s``, ascending."""
    out: list[int] = []
    _sums_of(vals, out, 0, s, 0)
    return tuple(sorted(out))  # tuples of ints: not tracked by the GC


# The recursions are module functions, not closures: a recursive closure is a cycle (freed
# by the collector), and mypyc (docs/design.md, Engine speed) compiles no ``del`` of one.


def _groups_of(groups: tuple[int, ...], v: int, found: set[int], start: int, mask: int,
               room: int) -> None:
    """Adds to ``found`` ``mask`` and every union of it with disjoint ``groups[start:]``
    (masks summing to v) that ``room`` leaves space for."""
    found.add(mask)
    if room < v:
        return
    for j in range(start, len(groups)):
        g = groups[j]
        if not mask & g:
            _groups_of(groups, v, found, j + 1, mask | g, room - v)


def _sums_of(vals: tuple[int, ...], out: list[int], i: int, need: int, mask: int) -> None:
    """Adds to ``out`` every ``mask`` extended by positions from i whose values make ``need``."""
    for j in range(i, len(vals)):
        x = vals[j]
        if x > need:
            return
        if x == need:
            out.append(mask | (1 << j))
        else:
            _sums_of(vals, out, j + 1, need - x, mask | (1 << j))


def table(vals: tuple[int, ...]) -> Table:
    t = TABLES.get(vals)
    if t is None:
        if len(TABLES) >= TABLES_LIMIT:
            TABLES.clear()
        t = TABLES[vals] = Table(vals)
    return t


def split(cards: list[int], values: Sequence[int], v: int,
          r: int) -> tuple[list[int], list[list[int]]] | None:
    """One way to split ``cards`` into a part summing to ``r`` (empty when r = 0) and
    groups summing to ``v``; None if there is none."""
    for part in _subsets(cards, values, r):
        g = _groups(values, v, [c for c in cards if c not in part])
        if g is not None:
            return part, g
    return None


def _groups(values: Sequence[int], v: int, rest: list[int]) -> list[list[int]] | None:
    """One way to split ``rest`` into groups summing to ``v``; None if there is none."""
    if not rest:
        return []
    first, others = rest[0], rest[1:]
    for pick in _subsets(others, values, v - values[first]):
        tail = _groups(values, v, [c for c in others if c not in pick])
        if tail is not None:
            return [[first, *pick], *tail]
    return None


def _subsets(cards: list[int], values: Sequence[int], need: int) -> Iterator[list[int]]:
    """Sub-lists of ``cards`` whose values add up to ``need`` (need 0: the empty one)."""
    if need == 0:
        yield []
        return
    if need < 0:
        return
    for i, c in enumerate(cards):
        x = values[c]
        if x <= need:
            for tail in _subsets(cards[i + 1:], values, need - x):
                yield [c, *tail]
