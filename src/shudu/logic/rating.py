"""Difficulty rating from the simplest-first path, on two public scales.

- HoDoKu's: each step scores its technique's points; the *level* is that of the hardest technique,
  raised while the total passes the level's maximum (800 easy, 1000 medium, 1600 hard, 1800 unfair).
- Sudoku Explainer's: the rating of the hardest step on a path that always takes the step with the
  lowest rating, chains rated by kind plus a bonus for length. Sudoku Explainer's "direct"
  techniques (a pointing, claiming or hidden subset that at once yields a hidden single) are rated
  as such.

docs/rating.md describes both scales and how close they come to the reference programs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple

from .. import solvers
from ..errors import ShuduError, check_count, check_seconds
from ..formats import PuzzleLike, as_puzzle
from ..geometry import BoxLike
from ..notation import RATING_FIELDS, Status
from ..puzzle import Puzzle
from ..solvers.base import Budget
from ..variants import VariantLike
from .engine import propagate
from .engine.budget import LogicTimeout, checkpoint, limits, remaining_seconds
from .engine.grid import CandidateGrid
from .engine.memo import memo_scope
from .engine.step import Step
from .solver import Tally, rounds, tallies
from .solver import steps as path_steps
from .table import LEVEL_MAX_SCORE, LEVELS, SE_FORMS, TECHNIQUES, Finder, techniques


class UnsolvableError(ShuduError):
    """A puzzle with no solution: there is nothing to rate, explain or hint."""


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle is: HoDoKu-style level and score, Sudoku Explainer-style rating.

    ``status`` is the puzzle's: ``unique``; ``multiple`` (rated only when asked, see :func:`rate`);
    ``none`` (no solution, nothing rated); or ``timeout`` (the limits ran out first). ``complete``
    says whether both scales were worked out; when it is false, ``level``/``score`` and
    ``se``/``hardest`` hold only what the paths reached, and ``to_json`` writes them as null.
    """

    puzzle: Puzzle
    level: str
    score: int
    se: float
    hardest: str
    unique: bool
    #: The simplest-first path (HoDoKu order), when asked for; as far as it got on a timeout.
    steps: tuple[Step, ...] = field(default=(), repr=False)
    status: Status = "unique"
    complete: bool = True

    def to_json(self) -> dict[str, Any]:
        done = self.complete
        fields = {name: getattr(self, name) if done else None for name in RATING_FIELDS}
        return {"puzzle": self.puzzle.to_string(), "status": self.status, **fields}


def rate(
    puzzle: PuzzleLike,
    *,
    steps: bool = False,
    uniqueness: bool | None = None,
    allow_multiple: bool = False,
    timeout: float | None = None,
    node_limit: int | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> Rating:
    """Rate a puzzle on both scales.

    ``uniqueness`` allows the uniqueness techniques (None: when the puzzle is proven to have
    exactly one solution). A puzzle with several solutions has status ``multiple`` and is rated
    (without uniqueness techniques) only if ``allow_multiple``. ``timeout`` (seconds) and
    ``node_limit`` (work units: finder calls and search steps inside the slow finders) bound the
    whole call, the solution count included: past them the result has status ``timeout`` and
    holds what was found. ``steps=True`` keeps the path in the result.
    """
    return analyse(
        as_puzzle(puzzle, box=box, variant=variant),
        keep_steps=steps,
        uniqueness=uniqueness,
        allow_multiple=allow_multiple,
        timeout=timeout,
        node_limit=node_limit,
    )


def analyse(
    puzzle: Puzzle,
    *,
    keep_steps: bool,
    uniqueness: bool | None = None,
    allow_multiple: bool = False,
    timeout: float | None = None,
    node_limit: int | None = None,
) -> Rating:
    """The one path behind :func:`rate` and :func:`~shudu.logic.explain.explain`: the solution
    count, HoDoKu's path and Sudoku Explainer's, within the limits."""
    seconds = check_seconds(timeout, "timeout")
    nodes = check_count(node_limit, "node_limit", minimum=1)
    path: list[Step] = []
    with limits(seconds, nodes), memo_scope():
        try:
            result = solve_within_limits(puzzle)
        except LogicTimeout:
            return _partial(puzzle, "timeout", False, path, keep_steps)
        status = result.status
        unique = status == "unique"
        if status == "none" or (status == "multiple" and not allow_multiple):
            return _partial(puzzle, status, unique, path, keep_steps)
        # Uniqueness techniques only ever run on a puzzle proven to have one solution.
        allow = unique and uniqueness is not False
        try:
            start = propagate.start_grid(puzzle.geometry, puzzle.cells)
            grid = start.copy()  # each path plays on its own copy of the start
            if keep_steps:
                path.extend(path_steps(grid, techniques(uniqueness=allow)))
                level, score = hodoku_level(path, puzzle.size)
            else:
                level, score = tallied_level(tallies(grid, techniques(uniqueness=allow)), puzzle.size)
        except LogicTimeout:
            return _partial(puzzle, "timeout", unique, path, keep_steps)
        kept = tuple(path) if keep_steps else ()
        try:
            se, hardest = se_path_rating(puzzle, uniqueness=allow, start=start)
        except LogicTimeout:
            return Rating(puzzle, level, score, 0.0, "", unique, kept, "timeout", complete=False)
    return Rating(puzzle, level, score, se, hardest, unique, kept, status)


def rate_at_level(puzzle: Puzzle, level: str, *, timeout: float | None = None) -> Rating | str:
    """For a puzzle proven to have one solution: :func:`rate`'s rating (uniqueness techniques
    allowed) when HoDoKu's level is ``level``, else only that level, without counting its
    solutions and, for a puzzle not at ``level``, without walking Sudoku Explainer's path: for a
    caller that keeps only puzzles of one level (the generator, at its top level).
    LogicTimeout past ``timeout`` seconds."""
    with limits(check_seconds(timeout, "timeout"), None), memo_scope():
        start = propagate.start_grid(puzzle.geometry, puzzle.cells)
        found, score = tallied_level(tallies(start.copy(), techniques(uniqueness=True)), puzzle.size)
        if found != level:
            return found
        se, hardest = se_path_rating(puzzle, uniqueness=True, start=start)
    return Rating(puzzle, found, score, se, hardest, True)


def _partial(puzzle: Puzzle, status: Status, unique: bool, path: list[Step], keep: bool) -> Rating:
    level, score = hodoku_level(path, puzzle.size) if path else ("", 0)
    return Rating(puzzle, level, score, 0.0, "", unique, tuple(path) if keep else (), status, complete=False)


class Answer(NamedTuple):
    """What the solver says of a puzzle: its status and its first solution (cells), if any."""

    status: Status
    solution: tuple[int, ...] | None


def solve_within_limits(puzzle: Puzzle) -> Answer:
    """The puzzle solved with the time left in the current limits (LogicTimeout past them)."""
    checkpoint()
    left = remaining_seconds()
    if left is not None and left <= 0:
        raise LogicTimeout("time limit reached")
    solver = solvers.for_geometry("auto", puzzle.geometry)  # the constraint engine for rules
    answer = Answer(*solver.answer(puzzle, budget=Budget.of(None, left)))
    if answer.status == "timeout":
        raise LogicTimeout("time limit reached while counting solutions")
    return answer


def check_unique(puzzle: Puzzle) -> bool:
    """Whether the puzzle has exactly one solution; UnsolvableError when it has none. The count
    keeps to the current limits, as :func:`solve_within_limits` (LogicTimeout past them)."""
    status = solve_within_limits(puzzle).status
    if status == "none":
        raise UnsolvableError("the puzzle has no solution")
    return status == "unique"


def hodoku_path(puzzle: Puzzle, *, uniqueness: bool) -> list[Step]:
    grid = propagate.start_grid(puzzle.geometry, puzzle.cells)
    return list(path_steps(grid, techniques(uniqueness=uniqueness)))


def hodoku_level(path: Sequence[Step], size: int = 9) -> tuple[str, int]:
    """(level, score) of a path on HoDoKu's scale.

    HoDoKu's score limits are for 81 cells. A bigger grid has more cells to fill, so its
    limits grow with the number of cells (a 16x16 puzzle solved by singles alone stays easy);
    smaller grids keep the 9x9 limits.
    """
    return tallied_level((Tally.of([step]) for step in path), size)


def tallied_level(rounds: Iterable[Tally], size: int = 9) -> tuple[str, int]:
    """:func:`hodoku_level` of a path given as the tallies of its rounds."""
    score = 0
    level = 0
    for tally in rounds:
        score += tally.points
        level = max(level, LEVELS.index(tally.level))
    scale = max(1.0, size * size / 81)
    while level < len(LEVELS) - 1 and score > LEVEL_MAX_SCORE[LEVELS[level]] * scale:
        level += 1
    return LEVELS[level], score


# --- Sudoku Explainer's order ------------------------------------------------------------------


@cache
def se_order(*, uniqueness: bool) -> tuple[Finder, ...]:
    """The finders in Sudoku Explainer's order: by rating, its own forms (:data:`SE_FORMS`) first
    among equals, then by the solver's order. A technique of the solving order that Sudoku
    Explainer knows comes as :meth:`~shudu.logic.table.Finder.for_se` gives it."""
    table = [t.for_se() for t in TECHNIQUES if (uniqueness or not t.uniqueness) and t.se_known]
    extra = len(SE_FORMS)
    ranked = sorted(enumerate([*SE_FORMS, *table]), key=lambda it: (it[1].se, it[0] >= extra, it[0]))
    return tuple(t for _, t in ranked)


def se_rounds(puzzle: Puzzle, *, uniqueness: bool) -> Iterator[list[Step]]:
    """Sudoku Explainer's path, a round at a time: the first technique in :func:`se_order` with a
    step, and of its steps the ones rated lowest (a chain's rating grows with its length): every
    single of the kind, or one step chosen as the HoDoKu path chooses
    (:func:`~shudu.logic.solver.chosen`). The rounds depend only on the grid, not on how it is
    written down."""
    grid = propagate.start_grid(puzzle.geometry, puzzle.cells)
    return rounds(grid, se_order(uniqueness=uniqueness), easiest=True)


def se_steps(puzzle: Puzzle, *, uniqueness: bool) -> Iterator[Step]:
    for batch in se_rounds(puzzle, uniqueness=uniqueness):
        yield from batch


def se_path_rating(
    puzzle: Puzzle, *, uniqueness: bool, start: CandidateGrid | None = None
) -> tuple[float, str]:
    """(rating, step name) of the hardest step on the Sudoku Explainer-order path; ``start``, the
    puzzle's grid if the caller has it (the path plays on this one, not on a copy)."""
    grid = propagate.start_grid(puzzle.geometry, puzzle.cells) if start is None else start
    best, name = 0.0, ""
    for tally in tallies(grid, se_order(uniqueness=uniqueness), easiest=True):
        if tally.se > best:
            best, name = tally.se, tally.name
    return best, name
