"""Backdoors against brute force: every backdoor reported lets the techniques alone finish the
puzzle (the logic path run with those techniques only, from the puzzle and the backdoor's
digits), and for sizes 1 and 2 the list is every set of that size that does, none smaller
(each set of empty cells tried the same way)."""

from __future__ import annotations

import itertools
import json
import random

import pytest

import shudu
from shudu.cli import main
from shudu.errors import OptionError, ShuduError
from shudu.logic.engine.grid import CandidateGrid
from shudu.logic.solver import steps
from shudu.puzzle import Puzzle
from shudu.workshop.backdoors import technique_order

#: Puzzles whose singles backdoors have two cells (a 9x9 one the singles barely start on).
HARD = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    ".5...9.3..1.....86...4..7...9...58...8..3.....246.......617..5....3..........2.1.",
]


def finishes(puzzle: Puzzle, solution: tuple[int, ...], cells: tuple[int, ...], techniques: object) -> bool:
    """Whether the logic path with only ``techniques`` solves ``puzzle`` with ``cells`` given."""
    values = list(puzzle.cells)
    for c in cells:
        values[c] = solution[c]
    grid = CandidateGrid.from_values(puzzle.geometry, values)
    for _ in steps(grid, technique_order(techniques)):  # type: ignore[arg-type]
        pass
    assert all(v == s for v, s in zip(grid.values, solution, strict=True) if v)
    return not grid.empty


def brute(puzzle: Puzzle, solution: tuple[int, ...], size: int, techniques: object) -> set[tuple[int, ...]]:
    """Every set of ``size`` empty cells that is a backdoor."""
    empty = [c for c, v in enumerate(puzzle.cells) if not v]
    return {d for d in itertools.combinations(empty, size) if finishes(puzzle, solution, d, techniques)}


def check(puzzle: Puzzle, techniques: object = "singles", exact: bool = True) -> shudu.Backdoors:
    found = shudu.backdoors(puzzle, techniques, limit=10**6)  # type: ignore[arg-type]
    assert found.status in ("found", "solved", "not-found")
    solution = shudu.solve(puzzle).solution
    assert solution is not None
    assert found.solution == solution.cells
    if found.status == "solved":
        assert found.size == 0 and finishes(puzzle, solution.cells, (), techniques)
        return found
    if found.status == "not-found":
        return found
    assert found.size is not None and found.complete
    assert found.count == len(found.backdoors) == len(set(found.backdoors))
    for door in found.backdoors:
        assert len(door) == found.size == len(set(door))
        assert finishes(puzzle, solution.cells, door, techniques)
        assert finishes(found.given(door), solution.cells, (), techniques)
    if exact:
        assert not finishes(puzzle, solution.cells, (), techniques)
        for smaller in range(1, found.size):
            assert not brute(puzzle, solution.cells, smaller, techniques)
        assert set(found.backdoors) == brute(puzzle, solution.cells, found.size, techniques)
    return found


@pytest.mark.parametrize("text", HARD)
def test_two_cell_backdoors_are_every_pair_and_no_cell_alone(text: str) -> None:
    found = check(shudu.parse_puzzle(text))
    assert found.size == 2


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("size", [4, 6, 9])
def test_sparse_cuts_against_brute_force(size: int, seed: int) -> None:
    """Puzzles cut from a solution down to few givens (several solutions are skipped)."""
    rng = random.Random(seed * 31 + size)
    made = shudu.generate(size, seed=seed).puzzle
    solution = shudu.solve(made).solution
    assert solution is not None
    cells = list(solution.cells)
    order = list(range(len(cells)))
    rng.shuffle(order)
    for c in order:
        kept = cells[c]
        cells[c] = 0
        if shudu.count(Puzzle.trusted(tuple(cells), made.geometry), limit=2) != 1:
            cells[c] = kept
    check(Puzzle.trusted(tuple(cells), made.geometry))


@pytest.mark.parametrize("level", ["medium", "hard", "unfair", "extreme"])
def test_generated_puzzles(level: str) -> None:
    check(shudu.generate(level=level, seed=7).puzzle)


def test_other_technique_sets_give_backdoors_that_finish() -> None:
    """With locked candidates, pairs and triples (``medium``) or named techniques, each backdoor
    reported finishes the puzzle from its givens."""
    for text in HARD:
        puzzle = shudu.parse_puzzle(text)
        for techniques in ("medium", ["Hidden single", "Naked single", "X-Wing", "0100"]):
            found = check(puzzle, techniques, exact=False)
            singles = shudu.backdoors(puzzle)
            assert found.size is not None and singles.size is not None
            assert found.size <= singles.size


def test_limit_caps_the_list_not_the_count() -> None:
    found = shudu.backdoors(HARD[0], limit=3)
    assert len(found.backdoors) == 3 and found.count > 3


def test_statuses() -> None:
    easy = shudu.generate(level="easy", seed=1).puzzle
    assert shudu.backdoors(easy).status == "solved"
    assert shudu.backdoors("1" + "." * 15).status == "multiple"
    with pytest.raises(ShuduError):
        shudu.backdoors("11" + "." * 14)
    found = shudu.backdoors(HARD[0], max_size=1)
    assert found.status == "not-found" and found.size is None and not found.backdoors
    out = shudu.backdoors(HARD[0], node_limit=5)
    assert out.status == "timeout" and not out.complete


def test_bad_options() -> None:
    for bad in (
        {"max_size": 4},
        {"max_size": 0},
        {"limit": 0},
        {"techniques": "no such"},
        {"techniques": []},
    ):
        with pytest.raises(OptionError):
            shudu.backdoors(HARD[0], **bad)  # type: ignore[arg-type]


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["backdoors", HARD[0], "--max-size", "2"]) == 0
    text = capsys.readouterr().out
    assert "2 cells" in text
    names = "X-Wing, 0100, naked single"
    assert main(["backdoors", HARD[0], "--format", "json", "--techniques", names]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "found"
    assert record["techniques"] == ["Naked single", "Locked candidates (pointing)", "X-Wing"]
    assert all("=" in given for door in record["backdoors"] for given in door)
