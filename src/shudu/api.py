"""The public solving API: solve, count and solutions, over any registered algorithm."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from . import solvers
from .errors import SearchTimeout, SolverError
from .geometry import Box
from .puzzle import Grid, Puzzle, VariantLike
from .solvers.base import Budget, Stats

Status = Literal["unique", "multiple", "none", "timeout"]
PuzzleLike = Puzzle | str


@dataclass(frozen=True)
class SolveResult:
    """The answer to one puzzle: its status, the first solution found, and the search statistics."""

    puzzle: Puzzle
    status: Status
    solution: Grid | None
    algorithm: str
    stats: Stats = field(default_factory=Stats)

    def __bool__(self) -> bool:
        return self.solution is not None


def as_puzzle(puzzle: PuzzleLike, *, box: Box | str | None = None, variant: VariantLike = None) -> Puzzle:
    """A Puzzle from a Puzzle or any text format."""
    if isinstance(puzzle, Puzzle):
        return puzzle
    if isinstance(puzzle, str):
        return Puzzle.from_string(puzzle, box=box, variant=variant)
    raise TypeError(f"expected a Puzzle or a string, not {type(puzzle).__name__}")


def _solver(name: str, puzzle: Puzzle) -> solvers.Solver:
    solver = solvers.get(name)
    reason = solver.unsupported(puzzle.geometry)
    if reason:
        raise SolverError(f"algorithm {solver.name!r} cannot solve this puzzle: {reason}")
    return solver


def solve(
    puzzle: PuzzleLike,
    *,
    algorithm: str = "auto",
    node_limit: int | None = None,
    timeout: float | None = None,
    box: Box | str | None = None,
    variant: VariantLike = None,
) -> SolveResult:
    """Solve a puzzle and say whether its solution is unique.

    Looks for two solutions: status ``unique``, ``multiple`` (the first one is returned), ``none``,
    or ``timeout`` when ``node_limit`` or ``timeout`` (seconds) ran out first.
    """
    puzzle = as_puzzle(puzzle, box=box, variant=variant)
    solver = _solver(algorithm, puzzle)
    stats = Stats()
    found: list[tuple[int, ...]] = []
    try:
        budget = Budget.of(node_limit, timeout)
        found = list(itertools.islice(solver.solutions(puzzle, budget=budget, stats=stats), 2))
    except SearchTimeout:
        status: Status = "timeout"
    else:
        status = ("none", "unique", "multiple")[len(found)]
    solution = Grid(found[0], geometry=puzzle.geometry) if found else None
    return SolveResult(puzzle, status, solution, solver.name, stats)


def count(
    puzzle: PuzzleLike,
    limit: int | None = None,
    *,
    algorithm: str = "auto",
    node_limit: int | None = None,
    timeout: float | None = None,
    box: Box | str | None = None,
    variant: VariantLike = None,
) -> int:
    """How many solutions the puzzle has, stopping at ``limit`` (None: count them all).

    Raises :class:`~shudu.errors.SearchTimeout` (with ``found`` so far) when the budget runs out.
    """
    puzzle = as_puzzle(puzzle, box=box, variant=variant)
    solver = _solver(algorithm, puzzle)
    return solver.count(puzzle, limit, budget=Budget.of(node_limit, timeout))


def solutions(
    puzzle: PuzzleLike,
    *,
    algorithm: str = "auto",
    box: Box | str | None = None,
    variant: VariantLike = None,
) -> Iterator[Grid]:
    """Every solution, lazily, as Grids."""
    puzzle = as_puzzle(puzzle, box=box, variant=variant)
    solver = _solver(algorithm, puzzle)
    for cells in solver.solutions(puzzle):
        yield Grid(cells, geometry=puzzle.geometry)
