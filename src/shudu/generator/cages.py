"""Killer cage layouts grown on a solution grid, kept unique at every step.

A killer puzzle's cages are dug the way givens are: :func:`grow` starts from every cell in a
cage of its own (a layout as plain as a full grid: unique) and merges neighbouring cages in a
random order, keeping a merge only when the fast core proves the puzzle still has one solution.
Each cage's total is the sum of the solution's digits in it, and a merge that would put a digit
twice in a cage, or make a cage larger than asked, is never tried. Under a symmetry a merge
joins two neighbouring cells and, with them, every image of the pair, so the layout stays
mapped onto itself.

The merges run in three passes: the first only pairs lone cells, the second joins a lone cell
to a neighbouring cage (so the layout soon holds no lone cells and many small cages), the
third joins any two cages. The pass is kept as a
*path*, the layouts after each merge: the later, the fewer and larger the cages, and the harder
the puzzle (see :mod:`shudu.generator.killer`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..geometry import Geometry
from ..rules import Rule
from ..variants import Variant
from .uniqueness import Checker

#: A merge: the pairs of neighbouring cells it joins (a pair and its images under the symmetry).
Merge = tuple[tuple[int, int], ...]


@dataclass
class Layout:
    """A partition of the cells into cages: each cell's cage (named by a cell of it) and each
    cage's cells."""

    owner: list[int]
    members: dict[int, frozenset[int]]

    @classmethod
    def singles(cls, ncells: int) -> Layout:
        return cls(list(range(ncells)), {c: frozenset((c,)) for c in range(ncells)})

    def copy(self) -> Layout:
        return Layout(list(self.owner), dict(self.members))

    def join(self, merge: Merge) -> set[int]:
        """Apply a merge in place; the names of the cages it made or grew."""
        touched: set[int] = set()
        for a, b in merge:
            x, y = self.owner[a], self.owner[b]
            if x == y:
                continue
            cells = self.members[x] | self.members.pop(y)
            self.members[x] = cells
            for cell in cells:
                self.owner[cell] = x
            touched.discard(y)
            touched.add(x)
        return touched

    def cages(self) -> list[tuple[int, ...]]:
        """The cages' cells, sorted, the cages in reading order of their first cell."""
        return sorted(tuple(sorted(cells)) for cells in self.members.values())

    @property
    def smallest(self) -> int:
        return min(len(cells) for cells in self.members.values())


@dataclass
class CagePath:
    """A grow: the solution and the merges kept, in order."""

    solution: tuple[int, ...]
    merges: list[Merge]
    #: After each merge (and before the first): the size of the smallest cage.
    smallest: list[int] = field(default_factory=list)

    def layout(self, steps: int | None = None) -> Layout:
        layout = Layout.singles(len(self.solution))
        for merge in self.merges[: len(self.merges) if steps is None else steps]:
            layout.join(merge)
        return layout


def cage_rules(layout: Layout, solution: Sequence[int]) -> tuple[Rule, ...]:
    """The layout's cages as ``cage`` rules, each with its total in ``solution``."""
    return tuple(Rule("cage", cells, (sum(solution[c] for c in cells),)) for cells in layout.cages())


def geometry_of(base: Geometry, variant: Variant, rules: tuple[Rule, ...]) -> Geometry:
    """``base``'s shape with ``variant``'s rules and ``rules`` added."""
    return Geometry(base.size, base.box, variant.with_rules(rules, base.size))


def merges(size: int, permutations: Sequence[Sequence[int]]) -> list[Merge]:
    """Every merge of neighbouring cells, a pair with all its images under the symmetry
    (given as cell permutations), each merge once."""
    seen: set[frozenset[tuple[int, int]]] = set()
    out: list[Merge] = []
    for cell in range(size * size):
        r, c = divmod(cell, size)
        for other in ([cell + 1] if c + 1 < size else []) + ([cell + size] if r + 1 < size else []):
            pairs = frozenset((min(p[cell], p[other]), max(p[cell], p[other])) for p in permutations)
            if pairs not in seen:
                seen.add(pairs)
                out.append(tuple(sorted(pairs)))
    return out


def grow(
    base: Geometry,
    variant: Variant,
    solution: tuple[int, ...],
    givens: bytes,
    all_merges: Sequence[Merge],
    rng: random.Random,
    *,
    largest: int,
    node_limit: int,
    deadline: float | None,
) -> CagePath:
    """Merge cages of the solution while the puzzle (``givens``, a one-line text) stays unique,
    no cage past ``largest`` cells or holding a digit twice; each merge is tried once (one
    refused for uniqueness is not tried again: unlike a given's removal, a merge may both lose
    and win solutions, so this is a choice, not a proof). Every check keeps to ``deadline``
    (:class:`~shudu.generator.uniqueness.OutOfTime` past it)."""
    layout = Layout.singles(len(solution))
    path = CagePath(solution, [], [1])
    order = list(all_merges)
    rng.shuffle(order)
    for stage in (PAIRS, LONE, ANY):
        left = []
        for merge in order:
            if not _in_stage(stage, layout, merge):
                left.append(merge)
                continue
            trial = layout.copy()
            touched = trial.join(merge)
            if not touched:
                continue  # the cells already share a cage
            if not all(_fits(trial.members[t], solution, largest) for t in touched):
                left.append(merge)  # (later merges may keep it out of reach anyway)
                continue
            geometry = geometry_of(base, variant, cage_rules(trial, solution))
            if Checker(geometry, node_limit, deadline).check(givens).status != "unique":
                continue
            layout = trial
            path.merges.append(merge)
            path.smallest.append(layout.smallest)
        order = left
    return path


#: The passes of :func:`grow`: lone cells paired, lone cells joined to any cage, any merge.
PAIRS, LONE, ANY = "pairs", "lone", "any"


def _in_stage(stage: str, layout: Layout, merge: Merge) -> bool:
    if stage == ANY:
        return True
    lone = [
        len(layout.members[layout.owner[a]]) == 1 and len(layout.members[layout.owner[b]]) == 1
        for a, b in merge
    ]
    if stage == PAIRS:
        return all(lone)
    return any(len(layout.members[layout.owner[c]]) == 1 for pair in merge for c in pair)


def _fits(cells: frozenset[int], solution: Sequence[int], largest: int) -> bool:
    return len(cells) <= largest and len({solution[c] for c in cells}) == len(cells)
