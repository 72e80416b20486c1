"""The first contradiction of a puzzle with no solution (docs/workshop.md, "Explain").

A puzzle whose givens do not clash can still have no solution. Its simplest-first path (each
round the easiest technique with a step, uniqueness techniques left out) is walked from the
givens until the grid breaks: a cell with no candidate left, or a digit with no place left in a
house. The path is then shortened as :func:`~shudu.workshop.why_not` shortens a refutation:
each step in turn, from the last but one backwards, is left out when the steps after it still
hold without it and still break the grid. What is left is rated by its hardest step.

:func:`explain` is :func:`shudu.logic.explain` with that contradiction added where the puzzle
has no solution: its ``steps`` are then the contradiction's.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import check_count, check_seconds
from ..formats import PuzzleLike, as_puzzle
from ..geometry import BoxLike
from ..logic import CandidateGrid, Explanation, LogicTimeout, Step, limits, next_step
from ..logic import explain as explain_path
from ..logic.engine.board import parse_board
from ..logic.engine.memo import memo_scope
from ..logic.table import rating_of, se_rating, techniques
from ..puzzle import Puzzle
from ..variants import VariantLike
from .why import Shortener, broken, hardest

__all__ = ["Contradiction", "ExplainedNone", "explain", "first_contradiction"]

ContradictionStatus = Literal["found", "not-found", "timeout"]


@dataclass(frozen=True)
class Contradiction:
    """What :func:`first_contradiction` found.

    - ``status``: ``found`` (``steps`` break the grid), ``not-found`` (the logic engine is stuck
      before the grid breaks: ``steps`` are the path as far as it went), ``timeout`` (the budget
      ran out: ``steps`` as far as they went; where a contradiction was found but not yet
      shortened, it is kept and ``broken`` says how it ends);
    - ``steps``: the logic engine's steps from the givens, in order, the last one breaking the
      grid (none where the givens alone leave a cell or a house without a digit);
    - ``broken``: how the grid breaks after them (a cell with no candidate left, a digit with no
      place left in a house), "" when it does not;
    - ``step``: the hardest of the steps, which rates the contradiction (``level``, ``se``).
    """

    puzzle: Puzzle
    status: ContradictionStatus
    steps: tuple[Step, ...] = ()
    broken: str = ""

    @property
    def step(self) -> Step | None:
        return hardest(self.steps) if self.steps else None

    @property
    def level(self) -> str | None:
        """HoDoKu's level of the contradiction (that of its hardest step)."""
        return None if self.step is None else rating_of(self.step)[0]

    @property
    def se(self) -> float | None:
        """The contradiction's rating on Sudoku Explainer's scale (that of its hardest step)."""
        return None if self.step is None else se_rating(self.step)

    @property
    def reason(self) -> str:
        """The contradiction in one line."""
        n = len(self.steps)
        if not self.broken:
            if self.status == "timeout":
                return f"no contradiction found before the time or node limit ran out ({n} steps)"
            return f"the logic engine finds no contradiction ({n} steps, then no technique applies)"
        if not self.steps:
            return f"at once {self.broken}"
        step = self.step
        assert step is not None
        rated = f"{rating_of(step)[0]}, SE {se_rating(step):.1f}"
        return f"after {n} step{'s' * (n != 1)} {self.broken} (the hardest {step.name}: {rated})"

    def __str__(self) -> str:
        width = len(str(len(self.steps)))
        lines = [f"{i:>{width}}. {step.explanation}" for i, step in enumerate(self.steps, start=1)]
        lines.append(self.reason)
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        step = self.step
        return {
            "status": self.status,
            "reason": self.reason,
            "broken": self.broken or None,
            "level": self.level,
            "se": self.se,
            "step": None if step is None else step.to_json(),
            "steps": [one.to_json() for one in self.steps],
        }


def first_contradiction(
    puzzle: PuzzleLike,
    *,
    node_limit: int | None = None,
    timeout: float | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> Contradiction:
    """The shortest path of the logic engine that breaks the grid of a puzzle with no solution:
    its easiest techniques first (see the module's docstring).

    The puzzle is not solved first: on a puzzle with a solution the path never breaks the grid
    and the status is ``not-found`` (or ``timeout``). ``node_limit`` bounds the logic engine's
    work, ``timeout`` the whole call. Givens that clash raise a
    :class:`~shudu.errors.ConflictError`, as everywhere.
    """
    nodes = check_count(node_limit, "node_limit", minimum=1)
    seconds = check_seconds(timeout, "timeout")
    board = parse_board(as_puzzle(puzzle, box=box, variant=variant))
    start = board.grid()
    found = Contradiction(board.puzzle, "not-found")
    with limits(seconds, nodes), memo_scope():
        try:
            path = _walk(start)
            found = Contradiction(board.puzzle, "not-found", tuple(path), _end(start, path))
            if found.broken:
                found = Contradiction(board.puzzle, "timeout", tuple(path), found.broken)
                path = Shortener(start).shorten(start, path, lambda grid: bool(broken(grid)))
                found = Contradiction(board.puzzle, "found", tuple(path), _end(start, path))
        except LogicTimeout:
            if found.status == "not-found":
                return Contradiction(board.puzzle, "timeout", found.steps)
            return found
    return found


def _walk(start: CandidateGrid) -> list[Step]:
    """The simplest-first path from ``start`` (uniqueness techniques left out) until the grid
    breaks or no technique has a step."""
    grid = start.copy()
    order = techniques(uniqueness=False)
    path: list[Step] = []
    while not broken(grid):
        step = next_step(grid, order)
        if step is None:
            break
        grid.apply(step)
        path.append(step)
    return path


def _end(start: CandidateGrid, path: list[Step]) -> str:
    """How the grid breaks after ``path`` from ``start`` ("" when it does not)."""
    grid = start.copy()
    for step in path:
        grid.apply(step)
    return broken(grid)


@dataclass(frozen=True)
class ExplainedNone(Explanation):
    """The explanation of a puzzle with no solution: its rating (status ``none``) and its first
    contradiction, whose steps are :attr:`steps`."""

    contradiction: Contradiction | None = None

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.rating.steps if self.contradiction is None else self.contradiction.steps

    def summary(self) -> str:
        if self.contradiction is None:
            return super().summary()
        return f"the puzzle has no solution: {self.contradiction.reason}"

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out["contradiction"] = None if self.contradiction is None else self.contradiction.to_json()
        return out


def explain(
    puzzle: PuzzleLike,
    *,
    uniqueness: bool | None = None,
    allow_multiple: bool = False,
    timeout: float | None = None,
    node_limit: int | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> Explanation:
    """The numbered simplest-first path of a puzzle, with its rating (:func:`shudu.logic.explain`);
    on a puzzle with no solution, the first contradiction instead (:func:`first_contradiction`),
    as an :class:`ExplainedNone` whose ``steps`` break the grid. ``timeout`` and ``node_limit``
    bound the whole call."""
    seconds = check_seconds(timeout, "timeout")
    nodes = check_count(node_limit, "node_limit", minimum=1)
    deadline = None if seconds is None else time.monotonic() + seconds
    parsed = as_puzzle(puzzle, box=box, variant=variant)
    found = explain_path(
        parsed, uniqueness=uniqueness, allow_multiple=allow_multiple, timeout=seconds, node_limit=nodes
    )
    if found.status != "none":
        return found
    left = None if deadline is None else max(deadline - time.monotonic(), 1e-3)
    return ExplainedNone(found.rating, first_contradiction(parsed, timeout=left, node_limit=nodes))
