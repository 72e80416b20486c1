"""Make unique: the fewest givens to add so that a puzzle with several solutions has one.

Givens added from one solution S make the puzzle unique exactly when no other solution agrees
with S on them. So the question is one of telling solutions apart (:mod:`.distinguish`):

- when the puzzle has at most ``solution_limit`` solutions they are all listed, and an
  iterative deepening over every solution at once finds the least number of givens: the answer
  is proven minimal;
- otherwise the answer is built lazily: a list of solutions (the first ones found, and one or
  two for each candidate of each cell, so that the list is varied), greedy sets of cells for a
  few reference solutions, each checked with the solver; a check that finds another solution
  adds it to the list and the set is chosen again. The best set is then shrunk one given at a
  time, and fewer givens are sought over the list by the same iterative deepening as above,
  each set found checked and its counterexamples added, until the list allows no fewer. Such
  an answer is the best found, not proven minimal, unless it is one given (no
  puzzle with several solutions needs none), or two when each candidate was tested and none
  occurs in a single solution.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import GeneratorError, OptionError, SearchTimeout, check_count
from ..formats import PuzzleLike, as_puzzle
from ..generator.symmetry import check_symmetry, orbits
from ..geometry import BoxLike
from ..notation import Status, cell_name
from ..puzzle import Puzzle
from ..solvers.base import Stats
from ..variants import VariantLike
from .distinguish import Table, Units, exact, greedy
from .search import Cells, Search, as_digits, digit_masks, puzzle_of

__all__ = ["SOLUTION_LIMIT", "UniqueResult", "make_unique"]

#: Up to how many solutions :func:`make_unique` lists them all and proves its answer minimal.
SOLUTION_LIMIT = 2000
#: How many reference solutions the lazy search tries, at most.
REFERENCES = 4
#: How many sets the lazy search's deepening may find and check, at most.
IMPROVE_ROUNDS = 32
#: How many nodes the lazy search's deepening may visit in all (it is exponential in the
#: number of givens; past this the best set found stands).
IMPROVE_NODES = 100_000


class _Spent(Exception):
    """The lazy search's deepening visited its nodes."""


#: How many rounds of greedy sets and counterexamples the lazy search runs for one reference.
SETTLE_ROUNDS = 6
#: How many of the first solutions listed the lazy search keeps in its list.
FIRST_KEPT = 64
#: How many further solutions one failed check adds to the list, at most.
COUNTEREXAMPLES = 16


@dataclass(frozen=True)
class UniqueResult:
    """What :func:`make_unique` found.

    - ``status``: ``unique`` (the givens in ``added`` make the puzzle unique; none when it
      already was), ``multiple`` (no set of at most ``max_added`` givens was found), ``none``
      (the puzzle has no solution) or ``timeout`` (the budget ran out; ``added`` holds the best
      set found before then, checked unique, or nothing);
    - ``added``: the givens to add, (cell, digit) in reading order;
    - ``result``: the puzzle with them (None when none was found);
    - ``proven_minimal``: proven that fewer givens do not do (for status ``multiple``: proven
      that ``max_added`` do not); False marks the best answer found;
    - ``solutions``: how many solutions the puzzle has, when at most ``solution_limit``.
    """

    puzzle: Puzzle
    status: Status
    added: tuple[tuple[int, int], ...]
    result: Puzzle | None
    proven_minimal: bool
    solutions: int | None
    symmetry: str = "none"
    stats: Stats = field(default_factory=Stats)

    def to_json(self) -> dict[str, Any]:
        size = self.puzzle.size
        return {
            "puzzle": self.puzzle.to_string(),
            "status": self.status,
            "added": [{"cell": cell_name(c, size), "digit": d} for c, d in self.added],
            "result": self.result.to_string() if self.result is not None else None,
            "proven_minimal": self.proven_minimal,
            "solutions": self.solutions,
            "symmetry": self.symmetry,
            "stats": vars(self.stats),
        }


def make_unique(
    puzzle: PuzzleLike,
    *,
    max_added: int | None = None,
    symmetric: bool | str = False,
    solution_limit: int = SOLUTION_LIMIT,
    node_limit: int | None = None,
    timeout: float | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> UniqueResult:
    """The fewest givens to add to ``puzzle`` so that it has one solution.

    ``max_added``: the most givens to add (None: no limit). ``symmetric``: True adds givens in
    pairs a half turn maps onto each other (``rot180``); a symmetry name of
    :func:`shudu.generate` (``mirror``, ``rot90`` …) keeps that one; the count is then of the
    cells added. ``solution_limit``: up to how many solutions they are all listed and the
    answer proven minimal. ``node_limit`` and ``timeout`` bound the whole call (status
    ``timeout``, with the best set found).
    """
    most = check_count(max_added, "max_added", minimum=1)
    limit = check_count(solution_limit, "solution_limit", minimum=1, maximum=10**6)
    symmetry = _symmetry(symmetric)
    work = Search(node_limit, timeout)
    board = work.start(as_puzzle(puzzle, box=box, variant=variant))
    return _Maker(board, work, most, limit or SOLUTION_LIMIT, symmetry).run()


def _symmetry(symmetric: object) -> str:
    if symmetric is True:
        return "rot180"
    if symmetric is False or symmetric is None:
        return "none"
    if isinstance(symmetric, str):
        try:
            return check_symmetry(symmetric)
        except GeneratorError as exc:
            raise OptionError(f"symmetric: {exc}", option="symmetric", value=symmetric) from None
    raise OptionError(
        f"symmetric must be True, False or a symmetry name (rot180, mirror …), not {symmetric!r}",
        option="symmetric",
        value=symmetric,
    )


class _Maker:
    def __init__(self, puzzle: Puzzle, work: Search, most: int | None, limit: int, symmetry: str) -> None:
        self.puzzle, self.work, self.most, self.limit, self.symmetry = puzzle, work, most, limit, symmetry
        self.cells = puzzle.cells
        self.units = _units(puzzle, symmetry)
        self.count: int | None = None
        self.best: tuple[tuple[int, int], ...] | None = None
        self.proven = False
        #: The lazy search's table of its list of solutions, which only grows.
        self.table = Table(self.units)

    def answer(self, status: Status) -> UniqueResult:
        added = self.best or ()
        result = None
        if self.best is not None:
            cells = list(self.cells)
            for c, d in added:
                cells[c] = d
            result = puzzle_of(cells, self.puzzle.geometry)
            if status != "timeout" and self.most is not None and len(added) > self.most:
                status, added, result = "multiple", (), None
        elif status != "timeout" and status != "none":
            status = "multiple"
        return UniqueResult(
            self.puzzle, status, added, result, self.proven, self.count, self.symmetry, self.work.stats
        )

    def run(self) -> UniqueResult:
        try:
            listed = self.work.solutions(self.cells, self.limit + 1)
            if len(listed) <= self.limit:
                self.count = len(listed)
            if not listed:
                return self.answer("none")
            if len(listed) == 1:
                self.best, self.proven = (), True
                return self.answer("unique")
            if self.count is not None:
                self._all_listed(listed)
            else:
                self._lazy(listed)
        except SearchTimeout:
            return self.answer("timeout")
        return self.answer("unique")

    def _keep(self, solution: Cells, units: list[tuple[int, ...]]) -> None:
        """Keep the givens of ``solution`` on ``units`` as the best so far when they are fewer."""
        added = tuple(sorted((c, solution[c]) for unit in units for c in unit))
        if self.best is None or len(added) < len(self.best):
            self.best = added

    def _tick(self, nodes: int) -> None:
        self.work.stats.nodes += nodes
        self.work.budget()

    def _all_listed(self, solutions: list[Cells]) -> None:
        """Every solution is listed: a greedy bound, then the proof by iterative deepening."""
        units = Units.of(solutions, self.units, self.work.budget)
        count = len(solutions)
        for reference in range(min(count, 64)):
            chosen = greedy(units, count, reference)
            if chosen is not None:
                self._keep(solutions[reference], [units.cells[j] for j in chosen])
        assert self.best is not None  # solutions differ somewhere: the greedy always ends
        most = len(self.best) - 1
        if self.most is not None:
            most = min(most, self.most)
        found = exact(units, count, most, self._tick)
        if found is not None:
            chosen, reference = found
            self.best = None
            self._keep(solutions[reference], [units.cells[j] for j in chosen])
        self.proven = True

    def _lazy(self, first: list[Cells]) -> None:
        """Too many solutions to list: greedy sets checked with the solver, counterexamples added."""
        sample, singles = self._varied(first)
        if self.best is not None:
            return  # one given does
        references = [sample[0]]
        step = max(1, len(sample) // REFERENCES)
        references += [sample[i] for i in range(step, len(sample), step)][: REFERENCES - 1]
        for reference in references:
            self._settle(reference, sample)
        assert self.best is not None
        self._shrink()
        self._improve(sample)
        if len(self.best) <= 1 or (singles and len(self.best) == 2 and self.symmetry == "none"):
            self.proven = True

    def _varied(self, first: list[Cells]) -> tuple[list[Cells], bool]:
        """The solutions listed so far and one or two for each candidate of each open cell; when
        a candidate occurs in one solution alone, that one given makes the puzzle unique (the
        best answer). The flag says whether every candidate was tested so."""
        sample = first[:FIRST_KEPT]  # the first ones found differ little: a few do
        seen = set(sample)
        cells = list(self.cells)
        masks = digit_masks(self.puzzle.geometry, self.cells)
        if self.symmetry != "none":
            return sample, False
        for c, mask in enumerate(masks):
            if not mask:
                continue  # a given
            for d in as_digits(mask):
                cells[c] = d
                found = self.work.solutions(cells, 2)
                if len(found) == 1:
                    self.best, self.proven = ((c, d),), True
                    return sample, True
                for solution in found:
                    if solution not in seen:
                        seen.add(solution)
                        sample.append(solution)
            cells[c] = 0
        return sample, True

    def _settle(self, reference: Cells, sample: list[Cells]) -> None:
        """Greedy sets for ``reference`` over ``sample``, checked; a failed check adds the other
        solutions it found to ``sample`` (and so to later rounds). After :data:`SETTLE_ROUNDS`
        rounds the last set is completed directly: while another solution agrees with it, a cell
        where that one differs from ``reference`` is added."""
        if reference not in sample:
            sample.append(reference)
        units_of = {cell: unit for unit in self.units for cell in unit}
        for _ in range(SETTLE_ROUNDS):
            units = self._units_of(sample)
            chosen = greedy(units, len(sample), sample.index(reference))
            assert chosen is not None
            picked = [units.cells[j] for j in chosen]
            if self.best is not None and sum(map(len, picked)) >= len(self.best) + 4:
                return  # far from the best: not worth the checks
            others = self._others(reference, picked)
            if not others:
                self._keep(reference, picked)
                return
            known = set(sample)
            sample.extend(s for s in others if s not in known)
        while others:
            other = others[0]
            cell = next(c for c in units_of if other[c] != reference[c] and units_of[c] not in picked)
            picked.append(units_of[cell])
            others = self._others(reference, picked)
        self._keep(reference, picked)

    def _units_of(self, sample: list[Cells]) -> Units:
        """The units of the lazy search's list (which only grows), read from where the last
        call left it."""
        self.table.extend(sample, self.work.budget)
        return self.table.units(self.work.budget)

    def _others(self, reference: Cells, picked: list[tuple[int, ...]]) -> list[Cells]:
        """Solutions other than ``reference`` that agree with it on the ``picked`` units."""
        cells = list(self.cells)
        for unit in picked:
            for c in unit:
                cells[c] = reference[c]
        return [s for s in self.work.solutions(cells, COUNTEREXAMPLES + 1) if s != reference]

    def _improve(self, sample: list[Cells]) -> None:
        """Fewer givens than the best, sought by iterative deepening over ``sample`` (every
        reference at once); each set found is checked, and a failed check adds the solutions it
        found to ``sample``. Ends when the sample allows no fewer, or after :data:`IMPROVE_ROUNDS`
        sets or :data:`IMPROVE_NODES` nodes."""
        visited = [0]

        def tick(nodes: int) -> None:
            self._tick(nodes)
            visited[0] += nodes
            if visited[0] > IMPROVE_NODES:
                raise _Spent

        with contextlib.suppress(_Spent):
            self._deepen(sample, tick)

    def _deepen(self, sample: list[Cells], tick: Callable[[int], None]) -> None:
        for _ in range(IMPROVE_ROUNDS):
            best = self.best
            if best is None or len(best) <= 1:
                return
            units = self._units_of(sample)
            found = exact(units, len(sample), len(best) - 1, tick)
            if found is None:
                return
            chosen, index = found
            reference = sample[index]
            cells = list(self.cells)
            for j in chosen:
                for c in units.cells[j]:
                    cells[c] = reference[c]
            others = [s for s in self.work.solutions(cells, COUNTEREXAMPLES + 1) if s != reference]
            if not others:
                self.best = None
                self._keep(reference, [units.cells[j] for j in chosen])
                continue
            known = set(sample)
            sample.extend(s for s in others if s not in known)

    def _shrink(self) -> None:
        """Drop each added given (orbit) in turn while the puzzle stays unique."""
        assert self.best is not None
        added = dict(self.best)
        for unit in sorted({_unit_of(c, self.units) for c in added}, key=len, reverse=True):
            trial = {c: d for c, d in added.items() if c not in unit}
            cells = list(self.cells)
            for c, d in trial.items():
                cells[c] = d
            if self.work.is_unique(cells):
                added = trial
        self.best = tuple(sorted(added.items()))


def _unit_of(cell: int, units: list[tuple[int, ...]]) -> tuple[int, ...]:
    return next(unit for unit in units if cell in unit)


def _units(puzzle: Puzzle, symmetry: str) -> list[tuple[int, ...]]:
    """The units givens are added by: each empty cell, or the empty cells of each orbit."""
    empty = [c for c, v in enumerate(puzzle.cells) if not v]
    if symmetry == "none":
        return [(c,) for c in empty]
    units = []
    for orbit in orbits(symmetry, puzzle.size):
        unit = tuple(c for c in orbit if not puzzle.cells[c])
        if unit:
            units.append(unit)
    return units
