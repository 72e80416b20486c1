"""The sums the rules imply over the houses (shudu.solvers.implied): each holds on every grid
that keeps the rules, and the constraint engine finds the same solutions with them as without."""

from __future__ import annotations

import itertools
import random

import pytest

from shudu.geometry import Geometry
from shudu.puzzle import Puzzle
from shudu.rules import Rule, WeightedSum, compile_rules
from shudu.solvers import constraints, implied
from shudu.solvers.base import Budget, SearchTimeout
from shudu.solvers.constraints import ConstraintSolver, shape_of
from shudu.variants import Variant


def _grid(rng: random.Random, n: int) -> list[int]:
    """A random full grid of a square-boxed n x n sudoku: the pattern, its digits relabelled
    and its rows and columns shuffled within bands and stacks."""
    b = int(n**0.5)

    def order() -> list[int]:
        bands = rng.sample(range(b), b)
        return [band * b + i for band in bands for i in rng.sample(range(b), b)]

    rows, cols, digits = order(), order(), rng.sample(range(1, n + 1), n)
    return [digits[(b * (r % b) + r // b + c) % n] for r in rows for c in cols]


def _cages(rng: random.Random, grid: list[int], n: int) -> list[Rule]:
    """Cages and sums that the grid keeps: random groups of cells of different digits, each a
    killer cage with its total (or, now and then, a plain sum), over some of the grid."""
    free = set(rng.sample(range(n * n), rng.randint(n, n * n)))
    rules: list[Rule] = []
    while free:
        cell = rng.choice(sorted(free))
        cells = [cell]
        free.discard(cell)
        for _ in range(rng.randint(0, 4)):
            near = [
                c
                for c in sorted(free)
                if any(abs(c // n - x // n) + abs(c % n - x % n) == 1 for x in cells)
                and grid[c] not in {grid[x] for x in cells}
            ]
            if not near:
                break
            cells.append(rng.choice(near))
            free.discard(cells[-1])
        total = sum(grid[c] for c in cells)
        kind = "sum" if rng.random() < 0.2 else "cage"
        rules.append(Rule(kind, tuple(cells), (total,)))
    return rules


def _implied(geometry: Geometry) -> list[WeightedSum]:
    kinds = compile_rules(shape_of(geometry))
    return implied.implied_sums(geometry.size, geometry.house_cells, [h.kind for h in geometry.houses], kinds)


@pytest.mark.parametrize("n", [4, 9])
def test_each_implied_sum_holds_on_the_grid(n: int) -> None:
    rng = random.Random(40 + n)
    found = 0
    for _ in range(200):
        grid = _grid(rng, n)
        geometry = Geometry(n, variant=Variant(rules=tuple(_cages(rng, grid, n))))
        for s in _implied(geometry):
            found += 1
            assert 0 < len(s.cells) <= max(implied.MAX_CELLS, implied.MAX_COVER_CELLS)
            assert len(set(s.cells)) == len(s.cells)
            assert set(s.coeffs) <= {1, -1}
            assert sum(k * grid[c] for c, k in zip(s.cells, s.coeffs, strict=True)) == s.total, s
    assert found > 100


def _diagonal_sums(grid: list[int], n: int, offsets: range) -> list[Rule]:
    """A sum (a little killer's) along each diagonal of both directions at each offset from the
    main ones, with the grid's totals."""
    rules = []
    for d in offsets:
        for cells in (
            [r * n + r + d for r in range(n) if 0 <= r + d < n],
            [r * n + n - 1 - r - d for r in range(n) if 0 <= r + d < n],
        ):
            rules.append(Rule("sum", tuple(cells), (sum(grid[c] for c in cells),)))
    return rules


def test_a_box_covered_by_diagonal_sums_leaves_the_rest_of_the_band() -> None:
    # the five diagonals r - c in -2 … 2 cover box 1 and run through boxes 5 and 9 whole: the
    # twelve cells left add up to their totals less three houses, on every grid (the sums kept,
    # those with a tight total, too)
    rng = random.Random(7)
    rest = sum(1 << c for c in range(81) if abs(c // 9 - c % 9) <= 2) & ~sum(
        1 << (r * 9 + c) for r in range(9) for c in range(9) if r // 3 == c // 3
    )
    kept = 0
    for _ in range(200):
        grid = _grid(rng, 9)
        rules = _diagonal_sums(grid, 9, range(-2, 3))
        geometry = Geometry(9, variant=Variant(rules=tuple(rules)))
        full = [sum(1 << c for c in cells) for cells in geometry.house_cells]
        units = [(sum(1 << c for c in r.cells), r.params[0]) for r in rules]
        covers = implied._covers(9, full, units)
        assert any(mask == rest for mask, _ in covers)
        for mask, total in covers:
            assert sum(grid[c] for c in range(81) if mask >> c & 1) == total
        for s in _implied(geometry):
            kept += len(s.cells) > implied.MAX_CELLS
            assert sum(k * grid[c] for c, k in zip(s.cells, s.coeffs, strict=True)) == s.total, s
    assert kept


def test_a_row_of_cages_but_one_cell_fixes_that_cell() -> None:
    # row 1 of a 4x4 holds 1 + 2 + 3 + 4 = 10: a cage of 6 on three of its cells leaves 4
    rules = (Rule("cage", (0, 1, 2), (6,)),)
    found = _implied(Geometry(4, variant=Variant(rules=rules)))
    assert WeightedSum((3,), (1,), 4) in found


def test_outies_of_a_cage_that_sticks_out() -> None:
    # a cage on r1c1 r1c2 r1c3 and r2c1, one on r1c4 alone: row 1 less both leaves the outie
    # r2c1, which the cages' totals name: 10 - (total1 + total2) = -r2c1
    rules = (Rule("cage", (0, 1, 2, 4), (10,)), Rule("cage", (3,), (2,)))
    found = _implied(Geometry(4, variant=Variant(rules=rules)))
    assert WeightedSum((4,), (-1,), 10 - 12) in found


def _count(puzzle: Puzzle, limit: int) -> list[tuple[int, ...]] | None:
    try:
        return list(
            itertools.islice(ConstraintSolver().solutions(puzzle, budget=Budget(node_limit=limit)), 2)
        )
    except SearchTimeout:
        return None


@pytest.mark.parametrize("n", [4, 9])
def test_the_same_solutions_with_and_without(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(400 + n)
    compared = 0
    for _ in range(60 if n == 4 else 25):
        grid = _grid(rng, n)
        rules = tuple(r for r in _cages(rng, grid, n) if rng.random() < 0.8)
        givens = [v if rng.random() < 0.15 else 0 for v in grid]
        puzzle = Puzzle(givens, variant=Variant(rules=rules))
        with_ = _count(puzzle, 20000)
        with monkeypatch.context() as m:
            m.setattr(constraints, "implied_sums", lambda *args: [])
            without = _count(puzzle, 20000)
        if with_ is None or without is None:
            continue
        compared += 1
        assert sorted(with_) == sorted(without) or (len(with_) == len(without) == 2)
        assert tuple(grid) in with_ or len(with_) == 2
    assert compared > 10
