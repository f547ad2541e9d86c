"""Which cards add up to a value: the capture of the fishing games (Scopa, Casino, Cassino).

Values are positive integers; results are tuples of indices into ``values``, in
increasing order, listed in lexicographic order, so a game's move list is stable.
"""

from __future__ import annotations

from collections.abc import Sequence


def subsets_summing_to(values: Sequence[int], target: int, *,
                       most: int | None = None) -> list[tuple[int, ...]]:
    """Every set of indices whose values sum to ``target`` (at most ``most`` of them)."""
    if any(v <= 0 for v in values):
        raise ValueError("subset sums take positive values")
    found: list[tuple[int, ...]] = []
    limit = len(values) if most is None else most
    # suffix sums bound the search: skip a branch that cannot reach the target
    rest = [0] * (len(values) + 1)
    for i in range(len(values) - 1, -1, -1):
        rest[i] = rest[i + 1] + values[i]

    def walk(start: int, left: int, chosen: tuple[int, ...]) -> None:
        if left == 0:
            found.append(chosen)
            return
        if len(chosen) >= limit or rest[start] < left:
            return
        for i in range(start, len(values)):
            if values[i] <= left:
                walk(i + 1, left - values[i], chosen + (i,))

    if target > 0:
        walk(0, target, ())
    return sorted(found)


def smallest_subsets(values: Sequence[int], target: int) -> list[tuple[int, ...]]:
    """The subsets summing to ``target`` with the fewest cards (Scopa: a card of the
    same value is taken alone, before any sum)."""
    every = subsets_summing_to(values, target)
    if not every:
        return []
    fewest = min(map(len, every))
    return [s for s in every if len(s) == fewest]


def disjoint_groups(values: Sequence[int], target: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every way to pick disjoint groups, each summing to ``target`` (Casino's capture of
    several sets at once), maximal: no further group could be added from what is left.
    Groups in each answer are in order of their first index."""
    groups = subsets_summing_to(values, target)
    out: list[tuple[tuple[int, ...], ...]] = []

    def walk(start: int, used: frozenset[int], chosen: tuple[tuple[int, ...], ...]) -> None:
        extended = False
        for g in range(start, len(groups)):
            if used.isdisjoint(groups[g]):
                extended = True
                walk(g + 1, used | set(groups[g]), chosen + (groups[g],))
        if not extended and chosen and not any(used.isdisjoint(g) for g in groups):
            out.append(chosen)

    walk(0, frozenset(), ())
    return out
