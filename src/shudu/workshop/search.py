"""One budget for the many searches of one workshop call, and the solver they all run on.

A workshop call (true candidates, make unique, redundancy) asks the exact solver many small
questions. ``node_limit`` counts the search steps of all of them together and ``timeout`` is one
deadline for the whole call; when either runs out, the search that is running raises
:class:`~shudu.errors.SearchTimeout` and so does every later one, so that the call can stop and
say ``timeout`` with what it has so far.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator, Sequence

from .. import solvers
from ..errors import SearchTimeout, check_count, check_seconds
from ..geometry import Geometry
from ..puzzle import Puzzle
from ..solvers.base import Budget, Stats

Cells = tuple[int, ...]


class Search:
    """The exact solver for one geometry (the constraint engine when the puzzle has rules), and
    the budget every search of one call shares."""

    def __init__(self, node_limit: object = None, timeout: object = None) -> None:
        """The budget, its numbers checked (an OptionError names a bad one): the deadline is
        ``timeout`` seconds from now. :meth:`start` says what puzzle the searches are on."""
        self.node_limit = check_count(node_limit, "node_limit", minimum=1)
        seconds = check_seconds(timeout, "timeout")
        self.deadline = None if seconds is None else time.monotonic() + seconds
        #: The steps of every search so far, added up.
        self.stats = Stats()
        #: How many searches were started.
        self.searches = 0
        self.geometry: Geometry | None = None
        self.solver: solvers.Solver | None = None

    def start(self, puzzle: Puzzle) -> Puzzle:
        """Search on the geometry (and rules) of ``puzzle`` from now on; a SolverError when no
        solver reads them."""
        self.geometry = puzzle.geometry
        self.solver = solvers.for_geometry("auto", puzzle.geometry)
        return puzzle

    def budget(self) -> Budget:
        """What is left of the budget; SearchTimeout when nothing is."""
        left = None
        if self.node_limit is not None:
            left = self.node_limit - self.stats.nodes
            if left < 1:
                raise SearchTimeout(f"node limit of {self.node_limit} reached")
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise SearchTimeout("time limit reached")
        return Budget(left, self.deadline)

    def iterate(self, cells: Sequence[int], geometry: Geometry | None = None) -> Iterator[Cells]:
        """The solutions of the givens ``cells`` (ints, no two givens in conflict), lazily, in
        the solver's order; on ``geometry`` when given (the same size, other rules)."""
        assert self.geometry is not None and self.solver is not None, "start() first"
        geo = geometry or self.geometry
        solver = self.solver if geometry is None else solvers.for_geometry("auto", geo)
        budget = self.budget()
        self.searches += 1
        puzzle = Puzzle.trusted(tuple(cells), geo)
        return solver.solutions(puzzle, budget=budget, stats=self.stats)

    def solutions(self, cells: Sequence[int], limit: int, geometry: Geometry | None = None) -> list[Cells]:
        """Up to ``limit`` solutions of the givens ``cells``, as :meth:`iterate` finds them."""
        return list(itertools.islice(self.iterate(cells, geometry), limit))

    def first(self, cells: Sequence[int]) -> Cells | None:
        """One solution of the givens ``cells``, or None."""
        found = self.solutions(cells, 1)
        return found[0] if found else None

    def is_unique(self, cells: Sequence[int], geometry: Geometry | None = None) -> bool:
        """Whether the givens ``cells`` have exactly one solution."""
        return len(self.solutions(cells, 2, geometry)) == 1


def digit_masks(geometry: Geometry, cells: Sequence[int]) -> list[int]:
    """For each empty cell the digits no given peer holds, as a bit mask (bit d for digit d);
    0 for a given cell."""
    full = ((1 << geometry.size) - 1) << 1
    masks = []
    for cell, value in enumerate(cells):
        mask = 0
        if not value:
            mask = full
            for peer in geometry.peers[cell]:
                mask &= ~(1 << cells[peer])
        masks.append(mask)
    return masks


def as_digits(mask: int) -> tuple[int, ...]:
    """The digits of a bit mask (bit d for digit d), in increasing order."""
    return tuple(d for d in range(1, mask.bit_length()) if mask >> d & 1)


def puzzle_of(cells: Sequence[int], geometry: Geometry) -> Puzzle:
    """A puzzle the workshop made (givens taken from a solution, or a puzzle's givens less some)."""
    return Puzzle.trusted(tuple(cells), geometry)
