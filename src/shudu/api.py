"""The public solving API: solve, count and solutions, over any registered algorithm."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from . import solvers
from .errors import check_count, check_seconds
from .formats import PuzzleLike, as_puzzle
from .geometry import BoxLike
from .notation import Status
from .puzzle import Grid, Puzzle
from .solvers.base import Budget, Stats
from .variants import VariantLike

__all__ = ["PuzzleLike", "SolveResult", "Status", "as_puzzle", "count", "solutions", "solve"]


@dataclass(frozen=True)
class SolveResult:
    """The answer to one puzzle: its status, the first solution found, and the search statistics.

    ``status`` is ``unique``, ``multiple``, ``none`` or ``timeout`` (``invalid`` never occurs
    here: bad input raises a :class:`~shudu.errors.ShuduError` instead).
    """

    puzzle: Puzzle
    status: Status
    solution: Grid | None
    algorithm: str
    stats: Stats = field(default_factory=Stats)

    def __bool__(self) -> bool:
        return self.solution is not None

    def to_json(self) -> dict[str, Any]:
        """The result as JSON data: ``puzzle`` and ``solution`` as one-line text (the solution
        None when there is none), ``status``, ``algorithm`` and the search ``stats``."""
        return {
            "puzzle": self.puzzle.to_string(),
            "status": self.status,
            "solution": self.solution.to_string() if self.solution is not None else None,
            "algorithm": self.algorithm,
            "stats": dataclasses.asdict(self.stats),
        }


def _budget(node_limit: object, timeout: object) -> Budget:
    """The budget of one call, its numbers checked (OptionError naming the argument)."""
    return Budget.of(check_count(node_limit, "node_limit", minimum=1), check_seconds(timeout, "timeout"))


def _solver(name: str, puzzle: Puzzle) -> solvers.Solver:
    if not isinstance(name, str):
        raise TypeError(f"algorithm must be a name (str), not {type(name).__name__}")
    return solvers.for_geometry(name, puzzle.geometry)


def solve(
    puzzle: PuzzleLike,
    *,
    algorithm: str = "auto",
    node_limit: int | None = None,
    timeout: float | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> SolveResult:
    """Solve a puzzle and say whether its solution is unique.

    Looks for two solutions: status ``unique``, ``multiple`` (the first one is returned), ``none``,
    or ``timeout`` when ``node_limit`` (search steps, at least 1) or ``timeout`` (seconds,
    greater than 0) ran out first. Bad input raises a :class:`~shudu.errors.ShuduError`:
    :class:`~shudu.errors.ParseError`, :class:`~shudu.errors.ConflictError`,
    :class:`~shudu.errors.OptionError` for a bad ``node_limit`` or ``timeout`` …
    """
    budget = _budget(node_limit, timeout)
    puzzle = as_puzzle(puzzle, box=box, variant=variant)
    solver = _solver(algorithm, puzzle)
    stats = Stats()
    status, cells = solver.answer(puzzle, budget=budget, stats=stats)
    solution = Grid.trusted(cells, puzzle.geometry) if cells is not None else None
    return SolveResult(puzzle, status, solution, solver.name, stats)


def count(
    puzzle: PuzzleLike,
    limit: int | None = None,
    *,
    algorithm: str = "auto",
    node_limit: int | None = None,
    timeout: float | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> int:
    """How many solutions the puzzle has, stopping at ``limit`` (at least 1; None: count them all).

    Raises :class:`~shudu.errors.SearchTimeout` (with ``found`` so far) when the budget runs out,
    :class:`~shudu.errors.OptionError` for a bad ``limit``, ``node_limit`` or ``timeout``.
    """
    checked_limit = check_count(limit, "limit", minimum=1)
    budget = _budget(node_limit, timeout)
    puzzle = as_puzzle(puzzle, box=box, variant=variant)
    solver = _solver(algorithm, puzzle)
    return solver.count(puzzle, checked_limit, budget=budget)


def solutions(
    puzzle: PuzzleLike,
    *,
    algorithm: str = "auto",
    node_limit: int | None = None,
    timeout: float | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> Iterator[Grid]:
    """Every solution, lazily, as Grids.

    The arguments are checked at the call, before the first solution is asked for: bad input
    raises there as in :func:`solve`. ``node_limit`` and ``timeout`` (seconds from the call) bound
    the whole iteration: past them the next step raises :class:`~shudu.errors.SearchTimeout`.
    """
    budget = _budget(node_limit, timeout)
    puzzle = as_puzzle(puzzle, box=box, variant=variant)
    solver = _solver(algorithm, puzzle)
    return _grids(solver, puzzle, budget)


def _grids(solver: solvers.Solver, puzzle: Puzzle, budget: Budget) -> Iterator[Grid]:
    for cells in solver.solutions(puzzle, budget=budget):
        yield Grid(cells, geometry=puzzle.geometry)
