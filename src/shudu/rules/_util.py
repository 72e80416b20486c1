"""Small helpers the rule types share: relation tables, sums, neighbours, digit combinations.

The relation tables and the sums are given over the digits' values and said over the engines'
digit indices (value = index + base - 1, :attr:`~shudu.rules.base.Shape.base`): the one place a
rule type's compilation meets the digits' values."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import lru_cache

from ..errors import VariantError
from ..notation import Cell, cell_name
from .base import Relation, Rule, Shape, WeightedSum

__all__ = [
    "adjacent",
    "adjacent_pairs",
    "combinations",
    "digits_of",
    "index_mask",
    "pair_relations",
    "relation",
    "require_touching",
    "sum_range",
    "value_sum",
]


@lru_cache(maxsize=512)
def _table(size: int, base: int, key: str, pred: Callable[[int, int], bool]) -> tuple[int, ...]:
    values = range(base, base + size)
    return tuple(sum(1 << j for j, b in enumerate(values) if pred(a, b)) for a in values)


def relation(a: Cell, b: Cell, shape: Shape, key: str, pred: Callable[[int, int], bool]) -> Relation:
    """The relation ``pred(value of a, value of b)`` as a table over the digit indices (``key``
    names ``pred`` for the cache: one table per size, base and key; a ``pred`` that reads the
    size must say it in ``key``)."""
    return Relation(a, b, _table(shape.size, shape.base, key, pred))


def pair_relations(
    pairs: Sequence[tuple[Cell, Cell]], shape: Shape, key: str, pred: Callable[[int, int], bool]
) -> list[Relation]:
    return [relation(a, b, shape, key, pred) for a, b in pairs]


def value_sum(
    shape: Shape, cells: tuple[Cell, ...], coeffs: tuple[int, ...], total: int, distinct: bool = False
) -> WeightedSum:
    """``sum(coeff * value) == total`` said over the digit indices: each value is its index plus
    ``base - 1``, so the total moves by that much for each unit of coefficient."""
    return WeightedSum(cells, coeffs, total - (shape.base - 1) * sum(coeffs), distinct)


def index_mask(values: Sequence[int], shape: Shape) -> int:
    """The bit mask of the digit indices of these values (bit k for index k + 1); values that are
    not digits of the grid are left out."""
    return sum(1 << (v - shape.base) for v in set(values) if shape.low <= v <= shape.high)


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


def sum_range(count: int, size: int, distinct: bool, base: int = 1) -> tuple[int, int]:
    """The least and greatest totals ``count`` digits of ``base`` … ``base + size - 1`` can reach."""
    shift = (base - 1) * count
    if distinct:
        return count * (count + 1) // 2 + shift, count * (2 * size - count + 1) // 2 + shift
    return count + shift, count * size + shift


def regions_crossed(cells: Sequence[Cell], shape: Shape) -> list[list[Cell]]:
    """The line cut where it passes from one region into another: one list per stretch."""
    parts: list[list[Cell]] = []
    for cell in cells:
        if parts and shape.region_of[parts[-1][-1]] == shape.region_of[cell]:
            parts[-1].append(cell)
        else:
            parts.append([cell])
    return parts
