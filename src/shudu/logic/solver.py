"""The simplest-first solving loop: apply the easiest step available until the grid is full.

Every finder call is one :func:`~shudu.logic.budget.checkpoint`, so a deadline or work budget set
by :func:`~shudu.logic.budget.limits` stops the loop between finders (and the slow finders check it
inside their searches too).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..errors import ShuduError
from ..puzzle import Puzzle
from .budget import checkpoint
from .grid import CandidateGrid
from .step import Step
from .techniques import Finder, techniques


class LogicError(ShuduError):
    """A grid the logic engine cannot work on (broken candidates, a contradiction)."""


def next_step(grid: CandidateGrid, order: Sequence[Finder]) -> Step | None:
    """The first step found by the first finder (in ``order``) that finds one."""
    for finder in order:
        checkpoint()
        step = finder.find(grid)
        if step is not None:
            return step
    return None


def steps(grid: CandidateGrid, order: Sequence[Finder] | None = None) -> Iterator[Step]:
    """The solving path from ``grid`` (changed in place): each step is applied as it is yielded."""
    order = techniques() if order is None else order
    while grid.empty:
        step = next_step(grid, order)
        if step is None:
            return
        grid.apply(step)
        yield step


def solve_path(puzzle: Puzzle, *, uniqueness: bool = False) -> tuple[list[Step], CandidateGrid]:
    """The simplest-first path of a puzzle and the grid it ends in."""
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
    path = list(steps(grid, techniques(uniqueness=uniqueness)))
    return path, grid
