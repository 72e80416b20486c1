"""The search for one killer puzzle: grid, givens, cages grown, then difficulty.

1. A random grid (:mod:`.grids`) and, when ``clues`` asks for givens, that many random givens
   (whole symmetry orbits).
2. The cages grown on the grid from single cells, merge by merge while the puzzle stays unique
   (:mod:`.cages`). The layouts along the way whose cages all have an allowed size (2 to 5
   cells unless ``cages`` says otherwise) are the candidates; the later, the harder.
3. No difficulty asked: the last candidate. A difficulty asked: candidates are rated with
   :func:`shudu.rate` (as far as the window needs, see :mod:`.grading`), each within its own
   budget of work: a rating that runs past it counts as too hard. The first candidate is rated
   first (too hard: draw again), then a bisection between it and the end of the path. A grid
   whose candidates all miss draws again.

The puzzle kept is rated in full and carries :func:`shudu.rate`'s rating, like a classic one.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..geometry import Geometry
from ..notation import LEVELS
from ..puzzle import Grid, Puzzle
from .cages import CagePath, cage_rules, geometry_of, grow, merges
from .grading import RatingOutOfTime, full_rating, grade
from .grids import GridFailed, random_grid
from .request import Plan
from .search import Generated, Progress
from .symmetry import orbits, permutations
from .uniqueness import Checker, OutOfTime, text_cells

#: Work one rating of a candidate may take, by grid size, in :func:`shudu.rate`'s ``node_limit``
#: units (past it: too hard); the puzzle kept gets twice as much for its full rating. A budget
#: of work, not of seconds, so that a seed makes the same puzzle on any machine. On 9x9, 60,000
#: units are a few seconds: the candidates rated hard or unfair take a small part of it, those
#: that need forcing chains often run past it.
RATE_NODES = {4: 20_000, 6: 40_000, 8: 60_000, 9: 60_000}
#: Node budget of each uniqueness check, per cell (a check past it refuses the merge).
NODES_PER_CELL = 400


class KillerSearch:
    """Makes killer puzzles for one request; :meth:`one` makes one from a seed."""

    def __init__(self, request: Plan, progress: Progress | None = None) -> None:
        assert request.rules == "killer" and request.box is not None and request.cages is not None
        self.request = request
        self.progress = progress or Progress()
        size = request.size
        self.base = Geometry(size, request.box, request.variant)
        self.orbits = orbits(request.symmetry, size)
        self.merges = merges(size, permutations(request.symmetry, size))
        self.filler = Checker(self.base, 40 * self.base.ncells)
        self.rate_nodes = RATE_NODES.get(size, 60_000)

    def one(self, seed: int, deadline: float | None) -> Generated:
        rng = random.Random(seed)
        while True:
            _check_time(deadline)
            found = self._attempt(rng, deadline)
            if found is not None:
                puzzle, solution, rating = found
                return self._result(puzzle, solution, rating, seed)

    def _attempt(self, rng: random.Random, deadline: float | None) -> Any:
        self.filler.deadline = deadline
        try:
            text = random_grid(self.base, rng, self.filler, tries=10)
        except GridFailed:
            return None
        self.progress.grids += 1
        solution = text_cells(text)
        givens = self._givens(text, rng)
        if givens is None:
            return None
        path = grow(
            self.base,
            self.request.variant,
            solution,
            givens,
            self.merges,
            rng,
            largest=self.request.cages[1] if self.request.cages else 5,
            node_limit=NODES_PER_CELL * self.base.ncells,
            deadline=deadline,
        )
        low = self.request.cages[0] if self.request.cages else 1
        steps = [k for k, smallest in enumerate(path.smallest) if smallest >= low]
        if not steps:
            return None
        target = self.request.target
        if not target.rated:
            puzzle = self._puzzle(path, steps[-1], givens)
            return puzzle, solution, self._full(puzzle, deadline) if self.request.rate else None
        return self._difficulty(path, steps, givens, deadline)

    def _givens(self, text: bytes, rng: random.Random) -> bytes | None:
        """A one-line text of the givens: a random count in the ``clues`` range, in whole
        orbits (None when no set of orbits makes a count in the range)."""
        low, high = self.request.clues or (0, 0)
        wanted = rng.randint(low, high)
        out = bytearray(b"." * len(text))
        placed = 0
        order = list(self.orbits)
        rng.shuffle(order)
        for orbit in order:
            if placed + len(orbit) <= wanted:
                for cell in orbit:
                    out[cell] = text[cell]
                placed += len(orbit)
        if not low <= placed <= high:
            return None
        return bytes(out)

    def _puzzle(self, path: CagePath, step: int, givens: bytes) -> Puzzle:
        rules = cage_rules(path.layout(step), path.solution)
        geometry = geometry_of(self.base, self.request.variant, rules)
        return Puzzle.trusted(text_cells(givens), geometry)

    # --- difficulty ---------------------------------------------------------------------------

    def _difficulty(self, path: CagePath, steps: list[int], givens: bytes, deadline: float | None) -> Any:
        target = self.request.target
        rated: dict[int, tuple[Puzzle, Any]] = {}

        def rate_at(i: int) -> int:
            """-1, 0 or +1: the candidate too easy, inside the window or too hard."""
            if i not in rated:
                puzzle = self._puzzle(path, steps[i], givens)
                rated[i] = puzzle, self._rate(puzzle, deadline)
            rating = rated[i][1]
            if rating is None:
                return 1
            return 0 if target.matches(rating) else target.direction(rating) or 1

        def kept(i: int) -> Any:
            puzzle, _ = rated[i]
            full = self._full(puzzle, deadline)
            if full is None or not target.matches(full):
                return None
            return puzzle, path.solution, full

        # the first candidate, then a bisection up to the end (past it: as if too hard)
        where = rate_at(0)
        if where == 0:
            return kept(0)
        if where > 0:
            return None
        low, high = 0, len(steps)
        while high - low > 1:
            mid = (low + high) // 2
            where = rate_at(mid)
            if where == 0:
                return kept(mid)
            low, high = (mid, high) if where < 0 else (low, mid)
        return None

    def _rate(self, puzzle: Puzzle, deadline: float | None) -> Any:
        """A candidate's rating as far as the window needs, or None when it ran past its
        own budget (OutOfTime when the whole search's deadline passed)."""
        target = self.request.target
        started = time.process_time()
        try:
            if target.se is None and target.level != LEVELS[-1]:
                rating: Any = grade(puzzle, target.level, deadline, self.rate_nodes)
            else:
                keep = target.technique is not None
                rating = full_rating(puzzle, keep_steps=keep, deadline=deadline, nodes=self.rate_nodes)
        except RatingOutOfTime:
            _check_time(deadline)
            return None
        finally:
            self.progress.rating_seconds += time.process_time() - started
        self.progress.rated_one(rating, target.gap(rating))
        return rating

    def _full(self, puzzle: Puzzle, deadline: float | None) -> Any:
        """:func:`shudu.rate`'s rating of the puzzle kept, or None past twice the budget."""
        started = time.process_time()
        try:
            keep = self.request.target.technique is not None
            return full_rating(puzzle, keep_steps=keep, deadline=deadline, nodes=2 * self.rate_nodes)
        except RatingOutOfTime:
            _check_time(deadline)
            return None
        finally:
            self.progress.rating_seconds += time.process_time() - started

    def _result(self, puzzle: Puzzle, solution: tuple[int, ...], rating: Any, seed: int) -> Generated:
        grid = Grid.trusted(solution, puzzle.geometry)
        if rating is None:
            return Generated(puzzle, grid, seed)
        return Generated(puzzle, grid, seed, rating.level, rating.se, rating.hardest, rating.score)


def _check_time(deadline: float | None) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise OutOfTime
