"""Small helpers the rule types share: relation tables, neighbours, digit combinations."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import lru_cache

from ..errors import VariantError
from ..notation import Cell, cell_name
from .base import Relation, Rule, Shape

__all__ = [
    "adjacent",
    "adjacent_pairs",
    "combinations",
    "digits_of",
    "pair_relations",
    "relation",
    "require_touching",
    "sum_range",
]


@lru_cache(maxsize=512)
def _table(size: int, key: str, pred: Callable[[int, int], bool]) -> tuple[int, ...]:
    return tuple(sum(1 << (b - 1) for b in range(1, size + 1) if pred(a, b)) for a in range(1, size + 1))


def relation(a: Cell, b: Cell, size: int, key: str, pred: Callable[[int, int], bool]) -> Relation:
    """The relation ``pred(digit of a, digit of b)`` as a table (``key`` names ``pred`` for the
    cache: one table per size and key)."""
    return Relation(a, b, _table(size, key, pred))


def pair_relations(
    pairs: Sequence[tuple[Cell, Cell]], size: int, key: str, pred: Callable[[int, int], bool]
) -> list[Relation]:
    return [relation(a, b, size, key, pred) for a, b in pairs]


def adjacent(a: Cell, b: Cell, size: int) -> bool:
    """Whether two cells share an edge."""
    ra, ca = divmod(a, size)
    rb, cb = divmod(b, size)
    return abs(ra - rb) + abs(ca - cb) == 1


def touching(a: Cell, b: Cell, size: int) -> bool:
    """Whether two cells share an edge or a corner."""
    ra, ca = divmod(a, size)
    rb, cb = divmod(b, size)
    return a != b and abs(ra - rb) <= 1 and abs(ca - cb) <= 1


def adjacent_pairs(cells: Sequence[Cell], size: int) -> list[tuple[Cell, Cell]]:
    """Every pair of the cells that share an edge, each as (earlier, later) in the given order."""
    return [(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :] if adjacent(a, b, size)]


def require_touching(rule: Rule, size: int, what: str) -> None:
    """A VariantError unless every cell shares an edge with another of the rule's cells."""
    for cell in rule.cells:
        if not any(adjacent(cell, other, size) for other in rule.cells):
            raise VariantError(f"{what} at {cell_name(cell, size)} does not touch another of its cells")


def require_line(rule: Rule, size: int, what: str) -> None:
    """A VariantError unless each cell touches the next one (by an edge or a corner)."""
    for a, b in itertools.pairwise(rule.cells):
        if not touching(a, b, size):
            raise VariantError(
                f"{what}: {cell_name(a, size)} and {cell_name(b, size)} are next on the line but do not touch"
            )


def digits_of(rule: Rule, grid: Sequence[int]) -> list[int]:
    return [grid[c] for c in rule.cells]


@lru_cache(maxsize=4096)
def combinations(size: int, count: int, total: int) -> tuple[int, ...]:
    """Every set of ``count`` different digits of 1 … ``size`` that add up to ``total``, as masks."""
    return tuple(
        sum(1 << (d - 1) for d in combo)
        for combo in itertools.combinations(range(1, size + 1), count)
        if sum(combo) == total
    )


def sum_range(count: int, size: int, distinct: bool) -> tuple[int, int]:
    """The least and greatest totals ``count`` digits of 1 … ``size`` can reach."""
    if distinct:
        return count * (count + 1) // 2, count * (2 * size - count + 1) // 2
    return count, count * size


def regions_crossed(cells: Sequence[Cell], shape: Shape) -> list[list[Cell]]:
    """The line cut where it passes from one region into another: one list per stretch."""
    parts: list[list[Cell]] = []
    for cell in cells:
        if parts and shape.region_of[parts[-1][-1]] == shape.region_of[cell]:
            parts[-1].append(cell)
        else:
            parts.append([cell])
    return parts
