"""The simplest-first solving loop: apply the easiest step available until the grid is full.

Every finder call is one :func:`~shudu.logic.budget.checkpoint`, so a deadline or work budget set
by :func:`~shudu.logic.budget.limits` stops the loop between finders (and the slow finders check it
inside their searches too).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial

from ..errors import ShuduError
from ..puzzle import Puzzle
from .allsteps import effect, lister, technique_steps
from .budget import checkpoint
from .grid import CandidateGrid
from .propagate import settle
from .step import Step
from .techniques import Find, Finder, rating_of, se_rating, techniques


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


def every_step(finder: Finder, grid: CandidateGrid) -> list[Step]:
    """Every step of one finder on ``grid``, one per effect (``grid`` is left as it is).

    Of the steps with the same effect the one rated lowest is kept (a shorter chain before a
    longer one), so the list does not depend on the order the finder meets them in.
    """
    listing = getattr(finder.find, "every", None)
    found = listing(grid.copy()) if listing is not None else technique_steps(finder, grid.copy())
    best: dict[tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]], Step] = {}
    for step in found:
        checkpoint()
        if not (step.placements or step.eliminations):
            continue
        key = effect(step)
        kept = best.get(key)
        if kept is None or _cost(step) < _cost(kept):
            best[key] = step
    return list(best.values())


def every_single(finder: Finder, grid: CandidateGrid) -> list[Step]:
    """:func:`every_step` for a singles finder: its listing leaves the grid as it is and gives
    each placement once, so it needs neither a copy of the grid nor a choice among steps of the
    same effect (when it does give a placement twice, :func:`every_step` decides)."""
    listing = _listings.get(finder.find)
    if listing is None:
        listing = (
            getattr(finder.find, "every", None) or lister(finder.find) or partial(technique_steps, finder)
        )
        _listings[finder.find] = listing
    found = list(listing(grid))
    if not found:
        return found
    checkpoint(len(found))
    if len(found) > 1 and len({step.placements for step in found}) != len(found):
        return every_step(finder, grid)
    return found


#: The listing of each singles finder, looked up once.
_listings: dict[Find, Callable[[CandidateGrid], Iterable[Step]]] = {}


def _cost(step: Step) -> tuple[float, int, str]:
    return se_rating(step), rating_of(step)[1], step.name


#: Techniques whose every step a round carries out: all the singles of the grid go in together.
SINGLES = frozenset({"Full house", "Naked single", "Hidden single"})


def reach(step: Step) -> tuple[int, int]:
    """How much a step does: (placements, eliminations); the same for a step's every isomorph."""
    return len(step.placements), len(step.eliminations)


def strongest(batch: list[Step]) -> list[Step]:
    """The steps of ``batch`` that do the most (placements first, then eliminations)."""
    top = max(reach(step) for step in batch)
    return [step for step in batch if reach(step) == top]


def chosen(grid: CandidateGrid, batch: list[Step]) -> Step:
    """The one step a round takes among several of a technique, chosen by what it leads to, so
    that the choice depends only on the grid (never on scanning order): the step that does the
    most, then the one after which singles fill the most cells, then the one whose grid after
    those singles has the fewest candidates (compared cell count by cell count). Steps still
    tied lead to grids alike in all these ways; the first is taken."""
    batch = strongest(batch)
    if len(batch) == 1:
        return batch[0]
    best: tuple[int, tuple[int, ...]] | None = None
    pick = batch[0]
    for step in batch:
        trial = grid.copy()
        trial.apply(step)
        after = settle(trial)
        filled = after.steps if after.grid is not None else len(trial.values)
        shape = tuple(sorted(mask.bit_count() for mask in trial.cands))
        key = (-filled, shape)
        if best is None or key < best:
            best, pick = key, step
    return pick


def rounds(grid: CandidateGrid, order: Sequence[Finder]) -> Iterator[list[Step]]:
    """The canonical solving path from ``grid`` (changed in place), a round at a time.

    Each round takes the first technique in ``order`` that has a step. For singles it places
    every single of that kind at once; for any other technique it carries out one step
    (:func:`chosen`), then the next round starts again from the singles, as a player would.
    Which steps a round holds depends only on the grid, never on the order cells are scanned
    in, so isomorphs of a puzzle (digits relabelled, rows and columns permuted, transposed)
    walk the same path and get the same ratings.
    """
    while grid.empty:
        found = first_technique(grid, order)
        if found is None:
            return
        finder, batch = found
        if finder.technique.name not in SINGLES:
            batch = [chosen(grid, batch)]
        for step in batch:
            grid.apply(step)
        yield batch


def first_technique(grid: CandidateGrid, order: Sequence[Finder]) -> tuple[Finder, list[Step]] | None:
    """The first finder in ``order`` with a step on ``grid``, and all its steps (one per effect)."""
    for finder in order:
        checkpoint()
        if finder.technique.name in SINGLES:
            # a singles listing costs no more than a search for one
            batch = every_single(finder, grid)
            if batch:
                return finder, batch
            continue
        first = finder.find(grid)
        if first is not None:
            return finder, every_step(finder, grid) or [first]
    return None


def steps(grid: CandidateGrid, order: Sequence[Finder] | None = None) -> Iterator[Step]:
    """The canonical solving path from ``grid`` (changed in place), step by step: see
    :func:`rounds`. Each step is applied by the time it is yielded."""
    order = techniques() if order is None else order
    for batch in rounds(grid, order):
        yield from batch


def solve_path(puzzle: Puzzle, *, uniqueness: bool = False) -> tuple[list[Step], CandidateGrid]:
    """The simplest-first path of a puzzle and the grid it ends in."""
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
    path = list(steps(grid, techniques(uniqueness=uniqueness)))
    return path, grid
