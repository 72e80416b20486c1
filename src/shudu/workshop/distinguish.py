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

Cells = tuple[int, ...]


@dataclass(frozen=True)
class Units:
    """The units that split the listed solutions, each with its weight and the bit sets of the
    solutions by the value they take there; units that split them alike are kept once."""

    cells: tuple[tuple[int, ...], ...]
    weights: tuple[int, ...]
    #: Per unit, the bit sets of solutions taking each value (no empty one).
    parts: tuple[tuple[int, ...], ...]
    #: Per unit, per solution index, the bit set of the solutions that agree with it there.
    part_of: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, solutions: Sequence[Cells], units: Sequence[tuple[int, ...]]) -> Units:
        kept: dict[frozenset[int], int] = {}
        rows: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
        for unit in units:
            groups: dict[tuple[int, ...], int] = {}
            for i, solution in enumerate(solutions):
                key = tuple(solution[c] for c in unit)
                groups[key] = groups.get(key, 0) | 1 << i
            if len(groups) < 2:
                continue  # every solution agrees there: the unit tells none apart
            parts = tuple(groups.values())
            signature = frozenset(parts)
            at = kept.get(signature)
            if at is not None:
                if len(rows[at][0]) <= len(unit):
                    continue
                rows[at] = (tuple(), (), ())  # replaced by this lighter unit below
            part_of = tuple(groups[tuple(solution[c] for c in unit)] for solution in solutions)
            kept[signature] = len(rows)
            rows.append((tuple(unit), parts, part_of))
        rows = [row for row in rows if row[0]]
        rows.sort(key=lambda row: len(row[0]))
        return cls(
            tuple(r[0] for r in rows),
            tuple(len(r[0]) for r in rows),
            tuple(r[1] for r in rows),
            tuple(r[2] for r in rows),
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
        for j, part_of in enumerate(units.part_of):
            left = alive & part_of[reference]
            if left == alive:
                continue
            score = (alive.bit_count() - left.bit_count()) / units.weights[j]
            if score > best_score:
                best, best_score = j, score
        if best < 0:
            return None
        chosen.append(best)
        alive &= units.part_of[best][reference]
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
            parts = units.parts[j] if reference is None else (units.part_of[j][reference],)
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
