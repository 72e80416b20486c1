"""The C engines on 9x9 shapes other than the standard grid (X, windoku, pyramid, links,
many houses).

A shape with the 27 standard houses, a few more and no links runs the 9x9 engine with
its extra houses (band and stack rules, and the extra houses' singles and intersections,
on per-digit band words). Other 9x9 shapes, and every shape made with ``general=True``,
run a copy of the general engine compiled for 81 cells, which skips the houses and
intersections that have not changed since they last gave nothing. Each must carry out
the pure-Python twin's algorithm for the same shape exactly: the same statuses,
solutions, counts and counters (nodes, guesses, settled) on every puzzle, solvable or
not, and the same solution counts as DLX.
"""

from __future__ import annotations

import random
from array import array
from pathlib import Path

import pytest

from shudu.geometry import Geometry
from shudu.notation import digit_char
from shudu.puzzle import Puzzle
from shudu.solvers import _fast_py, fast, get

from conftest import C_CORE as _core_c
from conftest import needs_c

pytestmark = needs_c

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SETS = {"x": "variant_x.txt", "windoku": "variant_windoku.txt", "pyramid": "variant_pyramid.txt"}
VARIANTS = ["x", "windoku", "pyramid", "x+windoku", "anti-knight", "x+anti-king"]


def text(cells: list[int]) -> str:
    return "".join(digit_char(d) if d else "." for d in cells)


def generated(geometry: Geometry, count: int, seed: int) -> list[str]:
    """Puzzles cut from a grid that obeys the variant: some with one solution, some with
    several (few clues), some with none (a clue changed), so that every way a search ends
    is exercised."""
    rng = random.Random(seed)
    shape = fast._shape(geometry, _fast_py)
    grid_text = shape.solve_many(["." * 81], 1)[1].decode()
    assert "." not in grid_text, "the variant has no complete grid"
    # relabel the digits: another grid of the same variant
    labels = list(range(1, 10))
    rng.shuffle(labels)
    grid = [labels[int(ch) - 1] for ch in grid_text]
    lines = []
    for i in range(count):
        # by i % 5: few clues (several solutions), some (any), many (one), many and a wrong one
        keep = rng.randint(*((10, 17), (18, 34), (18, 34), (45, 60), (30, 40))[i % 5])
        cells = [0] * 81
        for c in rng.sample(range(81), keep):
            cells[c] = grid[c]
        if i % 5 == 4:  # a wrong clue in an empty cell, clashing with no clue: most often no solution
            c = rng.choice([c for c in range(81) if not cells[c]])
            seen = {cells[p] for p in geometry.peers[c]}
            wrong = [d for d in range(1, 10) if d != grid[c] and d not in seen]
            if wrong:
                cells[c] = rng.choice(wrong)
        lines.append(text(cells))
    return lines


def assert_engines_agree(
    shape_c: object, shape_py: object, lines: list[str], limit: int
) -> tuple[bytes, ...]:
    """Both engines give byte-identical batch results: statuses, solutions, counts, nodes,
    guesses, settled."""
    c = shape_c.solve_many(lines, limit)  # type: ignore[attr-defined]
    py = shape_py.solve_many(lines, limit)  # type: ignore[attr-defined]
    names = ("statuses", "solutions", "counts", "nodes", "guesses", "settled")
    for name, one, two in zip(names, c, py, strict=True):
        assert one == two, f"the engines differ on {name} (limit {limit})"
    return tuple(c)


def both_shapes(geometry: Geometry, general: bool) -> tuple[object, object]:
    """The C and twin shapes of a geometry, on the general engine if asked."""
    links = geometry.links if any(geometry.links) else None
    shape_c = _core_c.Shape(9, geometry.house_cells, links, general)
    shape_py = _fast_py.Shape(9, geometry.house_cells, links, general)
    assert not shape_c.std9 and not shape_py.std9
    assert shape_c.var9 == shape_py.var9 == (not general and links is None)
    return shape_c, shape_py


def dlx_count(geometry: Geometry, line: str, limit: int) -> int:
    puzzle = Puzzle([int(ch) if ch != "." else 0 for ch in line], geometry=geometry)
    return get("dlx").count(puzzle, limit)


@pytest.mark.parametrize("general", [False, True], ids=["default", "general"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_generated_puzzles_agree_with_twin_and_dlx(variant: str, general: bool) -> None:
    geometry = Geometry(9, variant=variant)
    lines = generated(geometry, 15, seed=sum(map(ord, variant)))
    shape_c, shape_py = both_shapes(geometry, general)
    for limit in (1, 2, 10):
        result = assert_engines_agree(shape_c, shape_py, lines, limit)
    counts = array("Q", result[2])
    assert set(counts) - {0, 1}, "the generated puzzles should include some with several solutions"
    assert 0 in counts and 1 in counts
    for line, found in zip(lines, counts, strict=True):
        assert found == dlx_count(geometry, line, 10)


@pytest.mark.parametrize("general", [False, True], ids=["default", "general"])
@pytest.mark.parametrize("variant", sorted(SETS))
def test_variant_sets_agree_with_twin_and_dlx(variant: str, general: bool) -> None:
    path = DATA / SETS[variant]
    if not path.exists():
        pytest.skip(f"{path} is not there")
    geometry = Geometry(9, variant=variant)
    lines = random.Random(9).sample(path.read_text().split(), 12)
    # each puzzle as it is (one solution), and with three clues gone (often several)
    rng = random.Random(10)
    opened = []
    for line in lines:
        cells = list(line)
        for c in rng.sample([c for c, ch in enumerate(cells) if ch != "."], 3):
            cells[c] = "."
        opened.append("".join(cells))
    shape_c, shape_py = both_shapes(geometry, general)
    for limit in (1, 2):
        result = assert_engines_agree(shape_c, shape_py, lines + opened, limit)
    counts = array("Q", result[2])
    assert list(counts[: len(lines)]) == [1] * len(lines)
    for line, found in zip(lines + opened, counts, strict=True):
        assert found == dlx_count(geometry, line, 2)


@pytest.mark.parametrize("general", [False, True], ids=["default", "general"])
def test_more_houses_than_one_word_of_bits(general: bool) -> None:
    """Past 64 houses the general engine looks at every house and pair each time, and the
    9x9 engine counts each extra house once: the same answers."""
    geometry = Geometry(9, variant="x")
    houses = [list(h) for h in geometry.house_cells]
    many = houses + houses[::-1] + houses  # 87 houses, with repeats
    assert len(many) > 64
    lines = generated(geometry, 12, seed=3)
    shape_c, shape_py = _core_c.Shape(9, many, None, general), _fast_py.Shape(9, many, None, general)
    assert shape_c.var9 == shape_py.var9 == (not general)
    few_c = _core_c.Shape(9, houses, None, general)
    for limit in (1, 2):
        result = assert_engines_agree(shape_c, shape_py, lines, limit)
        # repeated houses change neither the rules' closure nor the search tree
        assert result == tuple(few_c.solve_many(lines, limit))


def grid_obeying_extras(rng: random.Random, count: int) -> tuple[str, list[list[int]]]:
    """A solved standard grid and ``count`` distinct extra houses it obeys: each takes one
    cell of every digit, so some meet a row, a column or a box in two cells or more."""
    shape = _fast_py.Shape(9, Geometry(9).house_cells)
    givens = ["."] * 81
    for c in rng.sample(range(81), 11):  # a few random clues, most often consistent
        givens[c] = str(rng.randint(1, 9))
    grid = shape.solve_many(["".join(givens)], 1)[1].decode()
    if "." in grid:
        grid = shape.solve_many(["." * 81], 1)[1].decode()
    where: dict[str, list[int]] = {}
    for c, ch in enumerate(grid):
        where.setdefault(ch, []).append(c)
    extras: dict[frozenset[int], list[int]] = {}
    while len(extras) < count:
        house = sorted(rng.choice(cells) for cells in where.values())
        extras.setdefault(frozenset(house), house)
    return grid, list(extras.values())


@pytest.mark.parametrize("count", [1, 5, 16, 17])
def test_extra_houses_up_to_the_limit_and_past_it(count: int) -> None:
    """Up to 16 distinct extra houses run on the 9x9 engine, more on the general one; both
    agree with the twin, on puzzles with one solution, several or none."""
    rng = random.Random(count)
    grid, extras = grid_obeying_extras(rng, count)
    houses = [list(h) for h in Geometry(9).house_cells] + extras
    shape_c, shape_py = _core_c.Shape(9, houses), _fast_py.Shape(9, houses)
    assert shape_c.var9 == shape_py.var9 == (count <= _fast_py.EXTRA_HOUSES)
    assert len(shape_py.locks) > 0
    lines = []
    for i in range(15):
        keep = set(rng.sample(range(81), rng.randint(12, 32)))
        cells = [grid[c] if c in keep else "." for c in range(81)]
        if i % 5 == 4:  # a changed clue: often no solution
            c = rng.choice(sorted(keep))
            cells[c] = str(int(grid[c]) % 9 + 1)
        lines.append("".join(cells))
    for limit in (1, 2):
        result = assert_engines_agree(shape_c, shape_py, lines, limit)
    counts = set(array("Q", result[2]))
    assert {1, 2} & counts, "some puzzles should have solutions"


def test_node_limit_stops_both_engines_alike() -> None:
    geometry = Geometry(9, variant="windoku")
    lines = generated(geometry, 9, seed=5)
    shape_c, shape_py = fast._shape(geometry, _core_c), fast._shape(geometry, _fast_py)
    for node_limit in (1, 2, 5):
        c = shape_c.solve_many(lines, 2, node_limit=node_limit)
        py = shape_py.solve_many(lines, 2, node_limit=node_limit)
        assert tuple(c) == tuple(py)
