"""True candidates: the digits of each cell that occur in at least one solution.

The solutions are not all listed, which could take hours on a puzzle with millions of them.
The first ``count_limit + 1`` solutions are listed; when there are no more, they are all the
solutions, their count is exact and each cell's true candidates are the digits they show.
Otherwise each open candidate that no solution found so far shows is tested on its own (the
puzzle with that digit placed: is there a solution?), and each solution such a test finds marks
every candidate it shows as possible, so most candidates are settled without a test of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import SearchTimeout, check_count
from ..formats import PuzzleLike, as_puzzle
from ..geometry import BoxLike
from ..notation import Status, digit_char, status_of_count
from ..puzzle import Puzzle
from ..solvers.base import Stats
from ..variants import VariantLike
from .search import Search, as_digits, digit_masks

__all__ = ["COUNT_LIMIT", "TrueCandidates", "true_candidates"]

#: Up to how many solutions :func:`true_candidates` counts exactly, unless told otherwise.
COUNT_LIMIT = 1000
#: The largest ``count_limit`` taken (each solution up to it is listed, one by one).
MOST_COUNTED = 10**6


@dataclass(frozen=True)
class TrueCandidates:
    """The digits of each cell that occur in at least one solution of ``puzzle``.

    - ``status``: ``unique``, ``multiple``, ``none`` (no solution: every open cell has no true
      candidate) or ``timeout`` (the budget ran out first);
    - ``candidates``: per cell in reading order, the digits shown to occur in a solution (a
      given cell: its given). On ``timeout`` these are certain but may be incomplete;
    - ``undecided``: per cell, the digits not settled when the budget ran out (empty tuples
      unless the status is ``timeout``);
    - ``solutions``: the exact number of solutions when it is at most ``count_limit``, else
      None (more than ``count_limit``, or not known on ``timeout``);
    - ``stats``: the search steps of every search the call made, added up.
    """

    puzzle: Puzzle
    status: Status
    candidates: tuple[tuple[int, ...], ...]
    undecided: tuple[tuple[int, ...], ...]
    solutions: int | None
    count_limit: int
    stats: Stats = field(default_factory=Stats)

    def __getitem__(self, cell: int | tuple[int, int]) -> tuple[int, ...]:
        """The true candidates of a cell: its index, or (row, column) counted from 0."""
        if isinstance(cell, tuple):
            row, col = cell
            cell = row * self.puzzle.size + col
        return self.candidates[cell]

    @property
    def masks(self) -> tuple[int, ...]:
        """Each cell's true candidates as a bit mask, bit d-1 for digit d (the pencil-mark form
        of :class:`shudu.formats.Document`)."""
        return tuple(sum(1 << (d - 1) for d in digits) for digits in self.candidates)

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON fields; ``candidates`` (and ``undecided``) as one string of digits
        per cell in reading order."""
        out: dict[str, Any] = {
            "puzzle": self.puzzle.to_string(),
            "status": self.status,
            "solutions": self.solutions,
            "count_limit": self.count_limit,
            "candidates": ["".join(map(digit_char, digits)) for digits in self.candidates],
        }
        if self.status == "timeout":
            out["undecided"] = ["".join(map(digit_char, digits)) for digits in self.undecided]
        out["stats"] = vars(self.stats)
        return out


def true_candidates(
    puzzle: PuzzleLike,
    *,
    count_limit: int = COUNT_LIMIT,
    node_limit: int | None = None,
    timeout: float | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> TrueCandidates:
    """The digits of each cell that occur in at least one solution, and the number of solutions
    when it is at most ``count_limit`` (at least 1).

    ``node_limit`` (search steps of all searches together) and ``timeout`` (seconds for the
    whole call) bound the work; when one runs out the status is ``timeout`` and the answer holds
    what was settled. Bad input raises a :class:`~shudu.errors.ShuduError`, as
    :func:`shudu.solve` does.
    """
    limit = check_count(count_limit, "count_limit", minimum=1, maximum=MOST_COUNTED)
    work = Search(node_limit, timeout)
    board = work.start(as_puzzle(puzzle, box=box, variant=variant))
    return _candidates(board, work, limit or COUNT_LIMIT)


def _candidates(puzzle: Puzzle, work: Search, limit: int) -> TrueCandidates:
    cells = puzzle.cells
    open_masks = digit_masks(puzzle.geometry, cells)
    shown = [0] * len(cells)
    empty = [c for c, v in enumerate(cells) if not v]

    def mark(solution: tuple[int, ...]) -> None:
        for c in empty:
            shown[c] |= 1 << solution[c]

    status: Status
    count: int | None = None
    try:
        listed = 0
        for solution in work.iterate(cells):
            mark(solution)
            listed += 1
            if listed > limit:
                break
        if listed <= limit:
            count = listed
        else:
            test = list(cells)
            for c in empty:
                for d in as_digits(open_masks[c] & ~shown[c]):
                    if shown[c] >> d & 1:
                        continue  # a solution found since shows it
                    test[c] = d
                    one = work.first(test)
                    if one is not None:
                        mark(one)
                    else:
                        open_masks[c] &= ~(1 << d)
                test[c] = 0
        status = "multiple" if count is None else status_of_count(count)
    except SearchTimeout:
        status = "timeout"
    timed_out = status == "timeout"
    candidates = tuple((v,) if v else as_digits(shown[c]) for c, v in enumerate(cells))
    undecided = tuple(
        as_digits(open_masks[c] & ~shown[c]) if timed_out and not v else () for c, v in enumerate(cells)
    )
    return TrueCandidates(puzzle, status, candidates, undecided, count, limit, work.stats)
