"""Sets of cells that tell one solution apart from all others, over a list of solutions.

Givens added to a puzzle make it unique exactly when the solution they are taken from is the
only one that agrees with them. Over a list of solutions this is a set question, answered with
bit sets: for each *unit* (a cell, or a symmetric orbit of cells) and each value it takes (the
digits of the solution there), the set of solutions that take it, as one int with a bit per
solution. The solutions that agree with a reference on units U are the AND of those sets.

- :func:`exact` finds the least weight (number of cells) of units that leave some solution
  alone, over every reference at once, by iterative deepening: proof that less does not do;
- :func:`greedy` builds one set for a given reference, each time taking the unit that leaves
  the fewest solutions agreeing (a quick upper bound, and the step of the lazy search when the
  solutions are too many to list).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

Cells = tuple[int, ...]


@dataclass(frozen=True)
class Units:
    """The units that split the listed solutions, each with its weight and the bit sets of the
    solutions by the value they take there; units that split them alike are kept once."""

    cells: tuple[tuple[int, ...], ...]
    weights: tuple[int, ...]
    #: Per unit, the bit sets of solutions taking each value (no empty one).
    parts: tuple[tuple[int, ...], ...]
    #: Per unit, the value each solution takes there (a :class:`Table`'s list, which only grows).
    keys: tuple[Sequence[Any], ...]
    #: Per unit, the bit set of the solutions taking each value.
    groups: tuple[dict[Any, int], ...]

    def part(self, unit: int, solution: int) -> int:
        """The bit set of the solutions that agree with ``solution`` on ``unit`` (indices)."""
        return self.groups[unit][self.keys[unit][solution]]

    @classmethod
    def of(
        cls,
        solutions: Sequence[Cells],
        units: Sequence[tuple[int, ...]],
        check: Callable[[], object] | None = None,
    ) -> Units:
        """The units of ``solutions``; ``check()`` is called before each unit (it raises to
        stop)."""
        table = Table(units)
        table.extend(solutions, check)
        return table.units(check)


class Table:
    """The values each unit takes in a list of solutions that only grows: the :class:`Units`
    of the list so far, each time the list has grown, without reading the older solutions
    again."""

    def __init__(self, units: Sequence[tuple[int, ...]]) -> None:
        self.cells = [tuple(unit) for unit in units]
        self.count = 0
        self.keys: list[list[Any]] = [[] for _ in self.cells]
        self.groups: list[dict[Any, int]] = [{} for _ in self.cells]

    def extend(self, solutions: Sequence[Cells], check: Callable[[], object] | None = None) -> None:
        """Read the solutions of ``solutions`` past those read so far (the list's first
        :attr:`count` are the ones read)."""
        new = solutions[self.count :]
        if not new:
            return
        bits = [1 << i for i in range(self.count, self.count + len(new))]
        for unit, keys, groups in zip(self.cells, self.keys, self.groups, strict=True):
            if check is not None:
                check()
            if len(unit) == 1:
                (cell,) = unit
                added: list[Any] = [solution[cell] for solution in new]
            else:
                added = [tuple(solution[c] for c in unit) for solution in new]
            keys.extend(added)
            for key, one in zip(added, bits, strict=True):
                groups[key] = groups.get(key, 0) | one
        self.count += len(new)

    def units(self, check: Callable[[], object] | None = None) -> Units:
        """The :class:`Units` of the solutions read so far."""
        kept: dict[frozenset[int], int] = {}
        rows: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        for u, (unit, groups) in enumerate(zip(self.cells, self.groups, strict=True)):
            if check is not None:
                check()
            if len(groups) < 2:
                continue  # every solution agrees there: the unit tells none apart
            parts = tuple(groups.values())
            signature = frozenset(parts)
            at = kept.get(signature)
            if at is not None:
                if len(rows[at][0]) <= len(unit):
                    continue
                rows[at] = ((), (), -1)  # replaced by this lighter unit below
            kept[signature] = len(rows)
            rows.append((unit, parts, u))
        rows = [row for row in rows if row[0]]
        rows.sort(key=lambda row: len(row[0]))
        return Units(
            tuple(r[0] for r in rows),
            tuple(len(r[0]) for r in rows),
            tuple(r[1] for r in rows),
            tuple(self.keys[r[2]] for r in rows),
            tuple(dict(self.groups[r[2]]) for r in rows),
        )


def greedy(units: Units, count: int, reference: int) -> list[int] | None:
    """Units that leave ``reference`` (a solution index) the only one of ``count`` solutions
    that agrees, chosen one at a time (fewest solutions left, per cell); None when no set of
    units does (two solutions equal on every unit)."""
    alive = (1 << count) - 1
    alone = 1 << reference
    chosen: list[int] = []
    while alive != alone:
        best, best_score = -1, 0.0
        for j in range(len(units.weights)):
            left = alive & units.part(j, reference)
            if left == alive:
                continue
            score = (alive.bit_count() - left.bit_count()) / units.weights[j]
            if score > best_score:
                best, best_score = j, score
        if best < 0:
            return None
        chosen.append(best)
        alive &= units.part(best, reference)
    return chosen


def exact(
    units: Units, count: int, most: int, tick: Callable[[int], None], reference: int | None = None
) -> tuple[list[int], int] | None:
    """The units of least weight, at most ``most``, that leave one solution alone among ``count``,
    with that solution's index; None when no units of weight ``most`` or less do. Only sets
    that keep ``reference`` alone count when it is given.

    ``tick(n)`` is called with the search nodes visited, every so often; it raises to stop.
    """
    everyone = (1 << count) - 1
    if count <= 1:
        return [], 0
    lightest = min(units.weights, default=0)
    if not lightest:
        return None
    visited = [0]
    found: list[tuple[list[int], int]] = []
    nunits = len(units.weights)

    def search(start: int, alive: int, cost: int, chosen: list[int], room: int) -> bool:
        visited[0] += 1
        if visited[0] & 1023 == 0:
            tick(1024)
        for j in range(start, nunits):
            weight = units.weights[j]
            if weight > room:
                break  # units are sorted by weight
            parts = units.parts[j] if reference is None else (units.part(j, reference),)
            deeper = room - weight >= lightest
            for part in parts:
                left = alive & part
                if left == alive or not left:
                    continue
                if left & (left - 1) == 0:
                    found.append(([*chosen, j], left.bit_length() - 1))
                    return True
                if deeper and search(j + 1, left, cost + weight, [*chosen, j], room - weight):
                    return True
        return False

    for room in range(lightest, most + 1):
        if search(0, everyone, 0, [], room):
            return found[0]
    tick(visited[0] & 1023)
    return None
