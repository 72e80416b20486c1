"""The simplest-first solving loop: apply the easiest step available until the grid is full.

Every finder call is one :func:`~shudu.logic.engine.budget.checkpoint`, so a deadline or work budget set
by :func:`~shudu.logic.engine.budget.limits` stops the loop between finders (and the slow finders check it
inside their searches too).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from ..errors import ShuduError
from ..notation import LEVELS, Level
from ..puzzle import Puzzle
from .allsteps import effect
from .catalog import Technique
from .engine.budget import checkpoint
from .engine.grid import CandidateGrid
from .engine.invariant import ROUNDS, around, refinements
from .engine.propagate import settle
from .engine.step import Step
from .table import Cost, Finder, rating_of, se_rating, techniques
from .techniques import singles_tallies


class LogicError(ShuduError):
    """A grid the logic engine cannot work on (broken candidates, a contradiction)."""


def for_grid(order: Sequence[Finder], grid: CandidateGrid) -> Sequence[Finder]:
    """``order`` as a path on ``grid`` walks it: without the finders that look only at
    constraint rules (:attr:`~shudu.logic.table.Finder.needs_rules`) when the grid has none,
    since they find nothing there. The same steps, fewer calls; and on Sudoku Explainer's path
    the singles that lead the order then play in one go (:func:`tallies`)."""
    if grid.t.rules is not None:
        return order
    known = _PLAIN.get(id(order))
    if known is None or known[0] is not order:
        if len(_PLAIN) >= 64:
            _PLAIN.clear()
        known = _PLAIN[id(order)] = (order, tuple(f for f in order if not f.needs_rules))
    return known[1]


#: Orders without their rule finders, by the order's identity (the order kept alive here).
_PLAIN: dict[int, tuple[Sequence[Finder], tuple[Finder, ...]]] = {}


def next_step(grid: CandidateGrid, order: Sequence[Finder]) -> Step | None:
    """The first step found by the first finder (in ``order``) that finds one."""
    for finder in order:
        checkpoint()
        step = finder.first(grid)
        if step is not None:
            return step
    return None


def every_step(finder: Finder, grid: CandidateGrid) -> list[Step]:
    """Every step of one finder on ``grid`` that the path chooses from
    (:attr:`~shudu.logic.table.Finder.chooses_from`), one per effect (``grid`` is left as it
    is).

    Of the steps with the same effect the one rated lowest is kept (a shorter chain before a
    longer one), so the list does not depend on the order the finder meets them in.
    """
    return _cheapest_by_effect(finder.chooses_from(grid.copy()))


def _cheapest_by_effect(found: Iterable[Step]) -> list[Step]:
    """Of the steps in ``found`` that do something, one per effect: the one rated lowest."""
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
    found = list(finder.chooses_from(grid))
    if not found:
        return found
    checkpoint(len(found))
    if len(found) > 1 and len({step.placements for step in found}) != len(found):
        return every_step(finder, grid)
    return found


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
    tied are told apart by invariants of what they leave, each the same on every isomorph:
    first around the candidates they touch (:func:`~shudu.logic.engine.invariant.around`), then
    across the grid each leaves before its singles, whose kinds count in the ratings
    (:func:`~shudu.logic.engine.invariant.refinements`, round by round). Steps tied even there leave
    grids that are almost surely isomorphs, with the same path ahead, and the first is taken."""
    batch = strongest(batch)
    if len(batch) == 1:
        return batch[0]
    keyed = []
    for step in batch:
        trial = _after(grid, step)
        after = settle(trial)
        filled = after.steps if after.grid is not None else len(trial.values)
        shape = tuple(sorted(map(int.bit_count, trial.cands)))
        keyed.append(((-filled, shape), step, trial))
    best = min(key for key, _, _ in keyed)
    tied = [(step, trial) for key, step, trial in keyed if key == best]
    if len(tied) > 1:
        # what the steps leave around the candidates they touch, then the whole grid, round by
        # round of refinement, until one step is left
        near = [around(trial, (*step.placements, *step.eliminations)) for step, trial in tied]
        least = min(near)
        tied = [pair for pair, key in zip(tied, near, strict=True) if key == least]
    if len(tied) > 1:
        rounds = [refinements(_after(grid, step)) for step, _ in tied]
        for _ in range(ROUNDS):
            prints = [next(r) for r in rounds]
            kept = [i for i, p in enumerate(prints) if p == min(prints)]
            tied, rounds = [tied[i] for i in kept], [rounds[i] for i in kept]
            if len(tied) == 1:
                break
    return tied[0][0]


def _after(grid: CandidateGrid, step: Step) -> CandidateGrid:
    """A copy of ``grid`` with ``step`` applied (the singles it leaves are part of the path)."""
    trial = grid.copy()
    trial.apply(step)
    return trial


def _one_at_a_time(technique: Technique, easiest: bool) -> bool:
    """Whether ``technique``'s singles go one at a time (:data:`singles_tallies.HIDDEN_ONE`): the
    hidden singles on HoDoKu's path."""
    return not easiest and technique.name == "Hidden single"


def rounds(grid: CandidateGrid, order: Sequence[Finder], *, easiest: bool = False) -> Iterator[list[Step]]:
    """The canonical solving path from ``grid`` (changed in place), a round at a time.

    Each round takes the first technique in ``order`` that has a step. For singles it places
    every single of that kind at once (hidden singles on HoDoKu's path, not ``easiest``, as
    HoDoKu does: one at a time, see :data:`singles_tallies.HIDDEN_ONE`); for any other technique
    it carries out one step (:func:`chosen`), then the next round starts again from the
    singles, as a player would.
    With ``easiest`` (Sudoku Explainer's path) only the technique's steps of the lowest rating
    are considered (a chain's rating grows with its length). Which steps a round holds depends
    only on the grid, never on the order cells are scanned in, so isomorphs of a puzzle (digits
    relabelled, rows and columns permuted, transposed) walk the same path and get the same
    ratings.
    """
    order = for_grid(order, grid)
    waiting = singles_tallies.Waiting(grid)
    while grid.empty:
        found = first_technique(grid, order)
        if found is None:
            return
        yield _take(grid, *found, easiest=easiest, waiting=waiting)


def _take(
    grid: CandidateGrid,
    finder: Finder,
    batch: list[Step],
    *,
    easiest: bool,
    waiting: singles_tallies.Waiting,
) -> list[Step]:
    """The steps of ``batch`` a round carries out (see :func:`rounds`), applied to ``grid``."""
    if easiest:
        low = min(se_rating(step) for step in batch)
        batch = [step for step in batch if se_rating(step) == low]
    if finder.technique.name not in SINGLES:
        batch = [chosen(grid, batch)]
    elif _one_at_a_time(finder.technique, easiest):
        by_place = {step.placements[0]: step for step in reversed(batch)}
        batch = [by_place[place] for place in singles_tallies.hidden_one(grid, list(by_place), waiting)]
    for step in batch:
        grid.apply(step)
    return batch


class Tally(NamedTuple):
    """A round of a path summed up, as the ratings see it."""

    technique: Technique
    #: The first name, in sort order, of the round's steps.
    name: str
    #: How many steps the round holds.
    steps: int
    #: HoDoKu's: the hardest level of the round's steps and their summed score.
    level: Level
    points: int
    #: Sudoku Explainer's rating of the round's first step (on its path, every step's).
    se: float

    @classmethod
    def of(cls, batch: Sequence[Step]) -> Tally:
        rated = [rating_of(step) for step in batch]
        return cls(
            batch[0].technique,
            min(step.name for step in batch),
            len(batch),
            max((level for level, _, _ in rated), key=LEVELS.index),
            sum(points for _, points, _ in rated),
            se_rating(batch[0]),
        )


def tallies(grid: CandidateGrid, order: Sequence[Finder], *, easiest: bool = False) -> Iterator[Tally]:
    """:func:`rounds`, each summed up as a :class:`Tally`, for a caller that needs no steps:
    the singles finders that lead ``order`` play their rounds in one go
    (:func:`singles_tallies.run`), with no step built. The tallies are those of :func:`rounds`."""
    order = for_grid(order, grid)
    head = _singles_head(order)
    rest = order[len(head) :]
    kinds = [
        singles_tallies.HIDDEN_ONE if _one_at_a_time(one.technique, easiest) else kind for kind, one in head
    ]
    waiting = singles_tallies.Waiting(grid)
    while grid.empty:
        todo = rest
        if kinds:
            done = singles_tallies.run(grid, kinds, waiting=waiting)
            checkpoint(len(done.rounds) + sum(count for _, count in done.rounds))
            for position, count in done.rounds:
                one = head[position][1]
                yield Tally(one.technique, one.name, count, one.level, one.points * count, one.se)
            if not grid.empty:
                return
            if done.code == singles_tallies.CLASH:
                todo = order  # that round goes as :func:`rounds` takes it
        found = first_technique(grid, todo)
        if found is None:
            return
        yield Tally.of(_take(grid, *found, easiest=easiest, waiting=waiting))


def _singles_head(order: Sequence[Finder]) -> list[tuple[int, Tally]]:
    """The singles finders that lead ``order``: each one's kind and the tally of one of its
    steps (the name of its steps there: a hidden single after the box singles is in a line)."""
    head: list[tuple[int, Tally]] = []
    for finder in order:
        kind = singles_tallies.KIND_OF_FIND.get(finder.first)
        if kind is None:
            break
        name = finder.form or finder.technique.name
        if kind == singles_tallies.HIDDEN and any(k == singles_tallies.BOX for k, _ in head):
            name = "Hidden single in line"
        level, points, se = finder.technique.rating(name)
        head.append((kind, Tally(finder.technique, name, 1, level, points, se)))
    return head


def first_technique(grid: CandidateGrid, order: Sequence[Finder]) -> tuple[Finder, list[Step]] | None:
    """The first finder in ``order`` with a step on ``grid``, and all its steps (one per effect),
    each got as the finder's :class:`~shudu.logic.table.Cost` says."""
    for finder in order:
        checkpoint()
        if finder.cost is Cost.SINGLES:
            # a singles listing costs no more than a search for one
            batch = every_single(finder, grid)
            if batch:
                return finder, batch
            continue
        if finder.cost is Cost.LISTS_FIRST:
            # its step would be the first of this listing, which leaves the grid as it is: list
            # them at once
            batch = _cheapest_by_effect(finder.chooses_from(grid))
            if batch:
                return finder, batch
            continue
        first = finder.first(grid)
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
