"""Rating candidates only as far as the search needs, then the winner in full.

The search rates many candidates and keeps few. When the window is a HoDoKu level alone (no SE
range), a candidate's level is all it needs, and two facts make that cheap:

- the level comes from HoDoKu's simplest-first path alone, so Sudoku Explainer's path (often half
  the cost of :func:`shudu.rate`) can wait for the one puzzle that is kept;
- along the path the level never falls (the hardest technique so far and the score only grow), so
  once the path so far is past the window the candidate is too hard, and the rest of its path,
  usually the dearest part, is never walked. At the top level nothing is too hard: there the
  whole path is walked as :func:`shudu.rate` walks it, without building its steps
  (:func:`top_grade`).

The puzzle that matches is then rated in full by :func:`shudu.rate`, and kept only if that rating
says the same: the level a generated puzzle carries is always :func:`shudu.rate`'s.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..notation import LEVELS
from ..puzzle import Puzzle


class RatingOutOfTime(Exception):
    """The deadline passed inside a rating."""


@dataclass(frozen=True)
class Grade:
    """What a partial rating found: the HoDoKu level of the path walked, and that path.

    ``complete`` is false when the walk stopped early because the level had passed the window;
    the level is then a lower bound of the full rating's (which suffices: too hard either way).
    """

    level: str
    steps: tuple[Any, ...]
    complete: bool
    #: No Sudoku Explainer rating is worked out for a grade.
    se: float | None = None


def remaining(deadline: float | None) -> float | None:
    """Seconds left before ``deadline`` (None: no deadline); RatingOutOfTime when none are."""
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise RatingOutOfTime
    return left


def grade(puzzle: Puzzle, ceiling: str | None, deadline: float | None, nodes: int | None = None) -> Grade:
    """The HoDoKu level of a puzzle proven unique, walking its path only until the level passes
    ``ceiling`` (None: to the end); ``nodes`` bounds the work as :func:`shudu.rate`'s
    ``node_limit`` does (RatingOutOfTime past it, as past the deadline)."""
    from ..logic import CandidateGrid, LogicTimeout, limits, steps
    from ..logic.rating import hodoku_level
    from ..logic.table import techniques

    top = len(LEVELS) - 1 if ceiling is None else LEVELS.index(ceiling)
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
    path: list[Any] = []
    level: str = LEVELS[0]
    try:
        with limits(remaining(deadline), nodes):
            for step in steps(grid, techniques(uniqueness=True)):
                path.append(step)
                level, _ = hodoku_level(path, puzzle.size)
                if LEVELS.index(level) > top:
                    return Grade(level, tuple(path), complete=False)
    except LogicTimeout:
        raise RatingOutOfTime from None
    return Grade(level, tuple(path), complete=True)


def top_grade(puzzle: Puzzle, deadline: float | None) -> Any:
    """For a window at the top level, where nothing is too hard: the HoDoKu level of a puzzle
    proven unique, worked out as :func:`shudu.rate` does (its whole path), as a :class:`Grade`;
    or, for a puzzle at the top level, :func:`shudu.rate`'s full rating. Sudoku Explainer's path
    (about half of a rating) is walked only for a puzzle the search keeps."""
    from ..logic import LogicTimeout
    from ..logic.rating import rate_at_level

    try:
        rating = rate_at_level(puzzle, LEVELS[-1], timeout=remaining(deadline))
    except LogicTimeout:
        raise RatingOutOfTime from None
    return Grade(rating, (), complete=True) if isinstance(rating, str) else rating


def full_rating(puzzle: Puzzle, *, keep_steps: bool, deadline: float | None, nodes: int | None = None) -> Any:
    """:func:`shudu.rate` within the time left and ``nodes`` (its ``node_limit``; RatingOutOfTime
    past either)."""
    from ..logic import rate

    rating = rate(puzzle, steps=keep_steps, timeout=remaining(deadline), node_limit=nodes)
    if rating.status == "timeout":
        raise RatingOutOfTime
    return rating
