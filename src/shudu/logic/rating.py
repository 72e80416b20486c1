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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..api import PuzzleLike, as_puzzle, count
from ..errors import ShuduError
from ..puzzle import Puzzle
from . import intersections, singles, subsets
from .grid import CandidateGrid
from .solver import steps as path_steps
from .step import Step, make_step
from .techniques import LEVEL_MAX_SCORE, LEVELS, TECHNIQUES, Technique, rating_of, se_rating, techniques


class UnsolvableError(ShuduError):
    """A puzzle with no solution: there is nothing to rate, explain or hint."""


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle is: HoDoKu-style level and score, Sudoku Explainer-style rating."""

    puzzle: Puzzle
    level: str
    score: int
    se: float
    hardest: str
    unique: bool
    #: The simplest-first path (HoDoKu order), when asked for.
    steps: tuple[Step, ...] = field(default=(), repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "puzzle": self.puzzle.to_string(),
            "level": self.level,
            "score": self.score,
            "se": self.se,
            "hardest": self.hardest,
        }


def rate(
    puzzle: PuzzleLike,
    *,
    steps: bool = False,
    uniqueness: bool | None = None,
    box: Any = None,
    variant: Any = None,
) -> Rating:
    """Rate a puzzle. ``uniqueness`` allows the uniqueness techniques (None: when the puzzle is
    checked to have exactly one solution). ``steps=True`` keeps the path in the result."""
    puzzle = as_puzzle(puzzle, box=box, variant=variant)
    unique = check_unique(puzzle)
    allow = unique if uniqueness is None else uniqueness
    path = hodoku_path(puzzle, uniqueness=allow)
    level, score = hodoku_level(path, puzzle.size)
    se, hardest = se_path_rating(puzzle, uniqueness=allow)
    return Rating(puzzle, level, score, se, hardest, unique, tuple(path) if steps else ())


def check_unique(puzzle: Puzzle) -> bool:
    """Whether the puzzle has exactly one solution; UnsolvableError when it has none."""
    found = count(puzzle, 2)
    if found == 0:
        raise UnsolvableError("the puzzle has no solution")
    return found == 1


def hodoku_path(puzzle: Puzzle, *, uniqueness: bool) -> list[Step]:
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
    return list(path_steps(grid, techniques(uniqueness=uniqueness)))


def hodoku_level(path: Sequence[Step], size: int = 9) -> tuple[str, int]:
    """(level, score) of a path on HoDoKu's scale.

    HoDoKu's score limits are for 81 cells. A bigger grid has more cells to fill, so its
    limits grow with the number of cells (a 16x16 puzzle solved by singles alone stays easy);
    smaller grids keep the 9x9 limits.
    """
    score = 0
    level = 0
    for step in path:
        name, points, _ = rating_of(step)
        score += points
        level = max(level, LEVELS.index(name))
    scale = max(1.0, size * size / 81)
    while level < len(LEVELS) - 1 and score > LEVEL_MAX_SCORE[LEVELS[level]] * scale:
        level += 1
    return LEVELS[level], score


# --- Sudoku Explainer's order ------------------------------------------------------------------


def _direct(find_all: Any, name: str, kind: str) -> Any:
    """A finder for Sudoku Explainer's "direct" form of a technique: one of its steps after which a
    hidden single appears; the step places that single."""

    def find(grid: CandidateGrid) -> Step | None:
        for step in find_all(grid):
            trial = grid.copy()
            trial.apply(step)
            single = _single_from(trial, step)
            if single is not None:
                return make_step(
                    grid,
                    name,
                    f"{step.explanation[len(step.technique) + 2 :]}; then {single.explanation[15:]}",
                    placements=single.placements,
                    eliminations=step.eliminations,
                    cells=step.cells,
                    digits=step.digits,
                    houses=step.houses,
                    kind=kind,
                )
        return None

    return find


def _single_from(grid: CandidateGrid, step: Step) -> Step | None:
    """A hidden single that ``step`` made: of its digit in a house it eliminated from (an
    intersection), or of another digit in its own house (a hidden subset)."""
    subset = step.technique.startswith("Hidden")
    names = {h.name: i for i, h in enumerate(grid.geometry.houses)}
    if subset:
        houses = [names[step.houses[0]]]
    else:
        houses = sorted({h for c, _ in step.eliminations for h in grid.geometry.cell_houses[c]})
    for h in houses:
        single = singles._hidden_single_in(grid, h)
        if single is not None and (subset or single.digits == step.digits):
            return single
    return None


def _box_single(grid: CandidateGrid) -> Step | None:
    for h in grid.t.boxes:
        step = singles._hidden_single_in(grid, h)
        if step:
            return step
    return None


_SE_DIRECT: tuple[tuple[float, str, Any], ...] = (
    (1.2, "Hidden single in box", _box_single),
    (
        1.7,
        "Direct pointing",
        _direct(lambda g: intersections.iter_locked(g, pointing=True), "Direct pointing", "Direct pointing"),
    ),
    (
        1.9,
        "Direct claiming",
        _direct(lambda g: intersections.iter_locked(g, pointing=False), "Direct claiming", "Direct claiming"),
    ),
    (
        2.0,
        "Direct hidden pair",
        _direct(lambda g: subsets.iter_hidden(g, 2), "Direct hidden pair", "Direct hidden pair"),
    ),
    (
        2.5,
        "Direct hidden triple",
        _direct(lambda g: subsets.iter_hidden(g, 3), "Direct hidden triple", "Direct hidden triple"),
    ),
)

SE_DIRECT_RATING = {name: se for se, name, _ in _SE_DIRECT}


def se_order(*, uniqueness: bool) -> tuple[Technique, ...]:
    """The techniques in Sudoku Explainer's order: by rating, then by the solver's order."""
    extra = [Technique(name, find, "easy", 0, se) for se, name, find in _SE_DIRECT]
    table = [
        replace(t, find=t.se_find or t.find)
        for t in TECHNIQUES
        if (uniqueness or not t.uniqueness) and t.se_known
    ]
    ranked = sorted(enumerate([*extra, *table]), key=lambda it: (it[1].se, it[0] >= len(extra), it[0]))
    return tuple(t for _, t in ranked)


def _se_of(step: Step) -> float:
    if step.technique in SE_DIRECT_RATING:
        return SE_DIRECT_RATING[step.technique]
    return se_rating(step)


def se_steps(puzzle: Puzzle, *, uniqueness: bool) -> Iterator[Step]:
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
    yield from path_steps(grid, se_order(uniqueness=uniqueness))


def se_path_rating(puzzle: Puzzle, *, uniqueness: bool) -> tuple[float, str]:
    """(rating, technique) of the hardest step on the Sudoku Explainer-order path."""
    best, name = 0.0, ""
    for step in se_steps(puzzle, uniqueness=uniqueness):
        value = _se_of(step)
        if value > best:
            best, name = value, step.technique
    return best, name
