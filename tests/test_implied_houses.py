"""The houses a shape's extra regions imply (the law of leftovers), which the solver adds.

Every implied set must hold every digit once in every solution: checked on all 288 grids
of 4x4 against random extra regions, and on random solutions of the larger windoku grids.
The solver must give the same answers with them as without.
"""

from __future__ import annotations

import itertools
import random

import pytest

from shudu.geometry import Geometry, implied_houses
from shudu.notation import digit_char
from shudu.solvers import _fast_py, fast
from shudu.variants import Variant

from conftest import C_CORE as _core_c

CORES = [_fast_py] + ([_core_c] if _core_c is not None else [])


def _names(geo: Geometry, houses: tuple[tuple[int, ...], ...]) -> set[frozenset[str]]:
    return {frozenset(geo.cell_name(c) for c in h) for h in houses}


def _rect(rows: str, cols: str) -> frozenset[str]:
    return frozenset(f"r{r}c{c}" for r in rows for c in cols)


def test_windoku_implies_the_five_hidden_windows() -> None:
    geo = Geometry(9, variant="windoku")
    assert _names(geo, implied_houses(geo)) == {
        _rect("159", "234"),
        _rect("159", "678"),
        _rect("234", "159"),
        _rect("678", "159"),
        _rect("159", "159"),
    }


@pytest.mark.parametrize(
    ("size", "variant", "count"),
    [
        (9, None, 0),
        (9, "x", 0),
        (9, "pyramid", 0),
        (9, "anti-knight", 0),
        (16, None, 0),
        (4, "windoku", 3),  # one window: its two columns' and two rows' other cells, and the corners
        (9, "x+windoku", 5),
        (16, "windoku", 7),
        (25, "windoku", 9),
    ],
)
def test_how_many_houses_each_shape_implies(size: int, variant: str | None, count: int) -> None:
    geo = Geometry(size, variant=variant)
    houses = implied_houses(geo)
    assert len(houses) == count
    known = {frozenset(h) for h in geo.house_cells}
    for house in houses:
        assert len(house) == size and len(set(house)) == size
        assert frozenset(house) not in known


def test_jigsaw_regions_alone_imply_nothing_for_the_solver() -> None:
    layout = tuple((r // 3) * 3 + (c + r % 3) % 9 // 3 for r in range(9) for c in range(9))
    geo = Geometry(9, variant=Variant("jigsaw", 9, layout=layout))
    assert implied_houses(geo) == ()


def _all_grids4() -> list[tuple[int, ...]]:
    geo = Geometry(4)
    grids = []
    for rows in itertools.product(itertools.permutations(range(1, 5)), repeat=4):
        grid = sum(rows, ())
        if all(len({grid[c] for c in h}) == 4 for h in geo.house_cells):
            grids.append(grid)
    return grids


def _random_region(rng: random.Random) -> tuple[int, ...]:
    """Four cells of a 4x4 grid: often inside two rows or two columns, where leftovers arise."""
    if rng.random() < 0.7:
        lines = rng.sample(range(4), 2)
        pool = [r * 4 + c for r in lines for c in range(4)]
        if rng.random() < 0.5:
            pool = [r + 4 * c for r in lines for c in range(4)]
        return tuple(sorted(rng.sample(pool, 4)))
    return tuple(sorted(rng.sample(range(16), 4)))


def test_every_implied_house_holds_in_every_4x4_solution() -> None:
    """All 288 grids of 4x4, random sets of extra regions: the grids that keep the regions
    keep every implied house too."""
    grids = _all_grids4()
    assert len(grids) == 288
    rng = random.Random(11)
    seen = 0
    for _ in range(400):
        regions = tuple(_random_region(rng) for _ in range(rng.randint(1, 4)))
        geo = Geometry(4, variant=Variant("custom", 4, regions))
        implied = implied_houses(geo)
        seen += len(implied)
        valid = [g for g in grids if all(len({g[c] for c in reg}) == 4 for reg in regions)]
        for grid in valid:
            for house in implied:
                assert len({grid[c] for c in house}) == 4, (regions, house, grid)
    assert seen > 100  # the random regions did imply houses


def _random_solutions(geo: Geometry, count: int, rng: random.Random) -> list[str]:
    """Solutions from random sparse givens, searched with the geometry's own houses only."""
    plain = (_core_c or _fast_py).Shape(geo.size, geo.house_cells, None)
    n = geo.size
    out: list[str] = []
    while len(out) < count:
        givens = ["."] * (n * n)
        for cell in rng.sample(range(n * n), n):
            givens[cell] = digit_char(rng.randrange(1, n + 1))
        status, text, *_ = plain.solve_many(["".join(givens)], 1, 1, 20_000)
        if status[0] == 3:  # solved
            out.append(text.decode())
    return out


@pytest.mark.parametrize(
    ("size", "variant"),
    # 16x16 solutions from random givens take minutes to find on the pure-Python core
    [(9, "windoku"), (9, "x+windoku"), pytest.param(16, "windoku", marks=pytest.mark.c_speed)],
)
def test_every_implied_house_holds_in_random_solutions(size: int, variant: str) -> None:
    geo = Geometry(size, variant=variant)
    implied = implied_houses(geo)
    assert implied
    for solution in _random_solutions(geo, 30, random.Random(size)):
        for house in implied:
            assert len({solution[c] for c in house}) == size


@pytest.mark.parametrize("core", CORES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_the_engines_answer_alike_with_and_without_implied_houses(core: object) -> None:
    """Puzzles cut from random windoku solutions, some unique, some not: the same statuses,
    counts and (for unique ones) solutions, with and without the implied houses."""
    geo = Geometry(9, variant="windoku")
    rng = random.Random(5)
    puzzles = []
    for solution in _random_solutions(geo, 20, rng):
        for keep in (18, 24, 32):
            cells = set(rng.sample(range(81), keep))
            puzzles.append("".join(ch if i in cells else "." for i, ch in enumerate(solution)))
    plain = core.Shape(9, geo.house_cells, None)  # type: ignore[attr-defined]
    more = core.Shape(9, fast.shape_houses(geo), None)  # type: ignore[attr-defined]
    for limit in (1, 3):
        a = plain.solve_many(puzzles, limit, 1, 200_000)
        b = more.solve_many(puzzles, limit, 1, 200_000)
        assert a[0] == b[0] and a[2] == b[2]  # statuses and counts
        for i, status in enumerate(a[0]):
            if status == 1:  # unique
                assert a[1][81 * i : 81 * i + 81] == b[1][81 * i : 81 * i + 81]
    assert 4 not in a[0]  # no timeouts: every answer was compared


@pytest.mark.parametrize("core", CORES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_a_9x9_shape_keeps_the_9x9_engine(core: object) -> None:
    """Windoku's windows and ten more regions: of the implied houses, only as many as keep the
    shape within the 9x9 engine's extra houses are searched with."""
    windows = Geometry(9, variant="windoku").variant.regions
    rng = random.Random(3)
    more = tuple(tuple(sorted(rng.sample(range(81), 9))) for _ in range(10))
    geo = Geometry(9, variant=Variant("custom", 9, windows + more))
    assert len(implied_houses(geo)) >= 5
    houses = fast.shape_houses(geo)
    assert len(houses) == 27 + _fast_py.EXTRA_HOUSES
    assert houses[: len(geo.house_cells)] == geo.house_cells
    assert core.Shape(9, houses, None).var9  # type: ignore[attr-defined]
    assert fast.shape_houses(Geometry(9, variant="windoku")) == (
        Geometry(9, variant="windoku").house_cells + implied_houses(Geometry(9, variant="windoku"))
    )
