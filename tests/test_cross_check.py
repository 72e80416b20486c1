"""Every registered solver against the known answers and against each other.

The solvers come from ``shudu.solvers.available()``, so a solver registered later joins these
checks without a change here. On each puzzle all of them must agree on the status, on the solution
when it is unique (any solution they give must solve the puzzle) and on the count capped at 2.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

import shudu
from shudu import variants
from shudu.formats import parse_puzzle
from shudu.puzzle import Grid, Puzzle
from shudu.solvers import available

from conftest import KNOWN, Known, shared_lines

SOLVERS = list(available())

EMPTY_4X4 = "." * 16
#: A 6x6 puzzle (2x3 boxes) with 12 solutions: the second of size6_2x3_unique.txt less its r4c5 given.
MULTI_6X6 = ".....3.6.2....3...2........6.1.1...."


def answers(puzzle: Puzzle, name: str) -> tuple[str, Grid | None, int]:
    """What solver ``name`` says: status, first solution, count capped at 2."""
    result = shudu.solve(puzzle, algorithm=name)
    return result.status, result.solution, shudu.count(puzzle, 2, algorithm=name)


def assert_agree(puzzle: Puzzle, where: str) -> None:
    """All solvers give one status and capped count; a unique solution is the same for all."""
    seen = {name: answers(puzzle, name) for name in SOLVERS}
    statuses = {name: status for name, (status, _, _) in seen.items()}
    counts = {name: count for name, (_, _, count) in seen.items()}
    assert len(set(statuses.values())) == 1, f"{where}: statuses differ: {statuses}"
    assert len(set(counts.values())) == 1, f"{where}: capped counts differ: {counts}"
    status = next(iter(statuses.values()))
    assert counts[SOLVERS[0]] == {"none": 0, "unique": 1, "multiple": 2}[status], where
    for name, (_, solution, _) in seen.items():
        if status == "none":
            assert solution is None, f"{where}: {name} gives a solution to a puzzle without one"
        else:
            assert solution is not None and solution.is_solution_of(puzzle), f"{where}: {name}"
    if status == "unique":
        solutions = {name: solution for name, (_, solution, _) in seen.items()}
        assert len(set(solutions.values())) == 1, f"{where}: solutions differ: {solutions}"


# --- the known answers ------------------------------------------------------------------------


@pytest.mark.parametrize("name", SOLVERS)
@pytest.mark.parametrize("known", KNOWN, ids=lambda k: k.id)
def test_known_answers(known: Known, name: str) -> None:
    puzzle = known.puzzle()
    status, solution, capped = answers(puzzle, name)
    assert status == ("none", "unique", "multiple")[known.count]
    assert capped == known.count
    if known.count == 0:
        assert solution is None
    else:
        assert solution is not None and solution.is_solution_of(puzzle)
    if known.count == 1:
        assert solution is not None and solution.to_string() == known.solution


# --- a fixed sample of the shared data ------------------------------------------------------


def with_more_givens(puzzle: Puzzle, extra: int, seed: int) -> Puzzle:
    """``puzzle`` with ``extra`` more cells of its solution given: the same answer, found sooner
    by the plain searches (enumeration and backtracking take minutes on the hardest ones)."""
    result = shudu.solve(puzzle)
    assert result.status == "unique" and result.solution is not None
    empty = [cell for cell, digit in enumerate(puzzle.cells) if not digit]
    shown = set(random.Random(seed).sample(empty, min(extra, len(empty))))
    cells = [result.solution[cell] if cell in shown else digit for cell, digit in enumerate(puzzle.cells)]
    return Puzzle(cells, geometry=puzzle.geometry)


#: file → how many puzzles to take as they are, and every how many-th line
PLAIN = {
    "kaggle_like_easy_10k.txt": (120, 83),
    "serg_benchmark_multisolution.txt": (40, 250),
    "size4_owhy.txt": (20, 5),
    "size4_yks23_unique.txt": (20, 18),
    "size6_2x3_unique.txt": (40, 7),
}
#: file → its variant, how many puzzles, every how many-th line, how many givens to add
HARDER = {
    "royle_17clue.txt": ("standard", 15, 3000, 25),
    "magictour_top1465.txt": ("standard", 15, 97, 25),
    "variant_x.txt": ("x", 10, 10, 25),
    "variant_windoku.txt": ("windoku", 10, 10, 25),
    "variant_pyramid.txt": ("pyramid", 10, 10, 25),
    "size16_owhy.txt": ("standard", 5, 20, 90),
}


@pytest.mark.parametrize("name", PLAIN)
def test_solvers_agree_on_shared_data(name: str) -> None:
    count, step = PLAIN[name]
    for number, line in enumerate(shared_lines(name, count, step=step)):
        assert_agree(parse_puzzle(line), f"{name} sample {number}")


@pytest.mark.parametrize("name", HARDER)
def test_solvers_agree_on_harder_shared_data(name: str) -> None:
    variant, count, step, extra = HARDER[name]
    for number, line in enumerate(shared_lines(name, count, step=step)):
        puzzle = with_more_givens(parse_puzzle(line, variant=variant), extra, seed=number)
        assert_agree(puzzle, f"{name} sample {number} with {extra} more givens")


# --- every other shape and rule: puzzles cut from a solved grid -------------------------------

JIGSAW_6X6 = "111122131222333244335544665544666655"
CUSTOM_6X6 = [[0, 7, 14, 21, 28, 35], [5, 10, 15, 20, 25, 30]]  # the diagonals, as custom regions
SHAPES = {
    "6x6 with 3x2 boxes": (36, {"box": "3x2"}),
    "8x8": (64, {}),
    "12x12": (144, {}),
    "anti-knight": (81, {"variant": "anti-knight"}),
    "anti-king": (81, {"variant": "anti-king"}),
    "x+anti-king": (81, {"variant": "x+anti-king"}),
    "jigsaw 6x6": (36, {"variant": variants.get("jigsaw", 6, layout=JIGSAW_6X6)}),
    "custom regions 6x6": (36, {"variant": variants.get("custom", 6, regions=CUSTOM_6X6)}),
}


@cache
def solved_grid(shape: str) -> Grid:
    """The first solution, in reading order, of the empty grid of a shape (by backtracking)."""
    cells, options = SHAPES[shape]
    result = shudu.solve(parse_puzzle("." * cells, **options), algorithm="backtrack")
    assert result.solution is not None
    return result.solution


def cut(grid: Grid, keep: float, seed: int) -> Puzzle:
    """A puzzle from ``grid``: digits relabelled at random, a share ``keep`` of the cells given."""
    rng = random.Random(seed)
    relabel = [0, *rng.sample(range(1, grid.size + 1), grid.size)]  # every rule here is digit-blind
    shown = set(rng.sample(range(len(grid)), round(keep * len(grid))))
    cells = [relabel[digit] if cell in shown else 0 for cell, digit in enumerate(grid.cells)]
    return Puzzle(cells, geometry=grid.geometry)


@pytest.mark.parametrize("shape", SHAPES)
def test_solvers_agree_on_every_shape_and_rule(shape: str) -> None:
    grid = solved_grid(shape)
    for seed in range(5):
        keep = 0.4 if grid.size < 9 else 0.5
        assert_agree(cut(grid, keep, seed), f"{shape}, puzzle {seed}")


def test_solvers_agree_on_a_puzzle_without_solution() -> None:
    # r1c1 can hold nothing: row 1 has 2 and 3, box 1 has 1, column 1 has 4
    assert_agree(parse_puzzle(".23..1..4......."), "4x4 without solution")


# --- every solution ---------------------------------------------------------------------------


@cache
def all_solutions(text: str, name: str) -> frozenset[Grid]:
    puzzle = parse_puzzle(text)
    found = list(shudu.solutions(puzzle, algorithm=name))
    assert len(set(found)) == len(found), f"{name} gives a solution twice"
    assert all(grid.is_solution_of(puzzle) for grid in found), name
    return frozenset(found)


@pytest.mark.parametrize("name", SOLVERS)
def test_all_288_grids_of_4x4(name: str) -> None:
    found = all_solutions(EMPTY_4X4, name)
    assert len(found) == 288
    assert found == all_solutions(EMPTY_4X4, "backtrack")
    assert shudu.count(EMPTY_4X4, algorithm=name) == 288


@pytest.mark.parametrize("name", SOLVERS)
def test_all_solutions_of_a_6x6_puzzle(name: str) -> None:
    found = all_solutions(MULTI_6X6, name)
    assert len(found) == 12
    assert found == all_solutions(MULTI_6X6, "backtrack")
    assert shudu.count(MULTI_6X6, algorithm=name) == 12
    assert shudu.count(MULTI_6X6, 5, algorithm=name) == 5
