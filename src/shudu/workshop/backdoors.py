"""Backdoors: the fewest cells whose solution digits, once given, let a set of techniques finish a
puzzle (docs/workshop.md).

The techniques first run on the puzzle as far as they go; the cells they leave empty are the
only ones worth giving (a cell they fill would add nothing). Each cell is then given alone
(its digit placed, the techniques run again from there), then each pair, then each triple, up
to ``max_size``, and the first size at which some set finishes the puzzle is the answer. Two
prunings keep the enumeration small without losing a backdoor:

- a set is tried from the grid its smaller part left (the techniques already run), so each pair
  costs one placement and a short run, each triple the same;
- a set holding a cell that a smaller part of it already fills is skipped: it is that smaller
  set, which was tried and did not finish.

With the singles (full house, naked and hidden singles), which come to the same grid whatever
order they are applied in, the answer is exact: every backdoor of the smallest size is found
(within the budget), and none smaller exists. With a larger set of techniques a set is tried
from the grid the techniques reached, as a solver would come to it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import OptionError, SearchTimeout, ShuduError, check_count, check_seconds
from ..formats import PuzzleLike, as_puzzle
from ..geometry import BoxLike
from ..logic.engine.budget import LogicTimeout, checkpoint, limits
from ..logic.engine.grid import CandidateGrid
from ..logic.engine.propagate import settle
from ..logic.naming import lookup
from ..logic.solver import SINGLES, steps
from ..logic.table import Finder, techniques
from ..notation import LEVELS, cell_name, digit_char
from ..puzzle import Puzzle
from ..variants import VariantLike
from .search import Search

__all__ = ["Backdoors", "backdoors", "technique_order"]

#: The most backdoors listed (all are counted); more can be asked for with ``limit``.
LIMIT = 100
#: The largest backdoor looked for.
MAX_SIZE = 3

BackdoorStatus = Literal["found", "solved", "not-found", "multiple", "none", "timeout"]

Cells = tuple[int, ...]


@dataclass(frozen=True)
class Backdoors:
    """What :func:`backdoors` found.

    - ``status``: ``found`` (backdoors of ``size`` cells, none smaller), ``solved`` (the
      techniques finish the puzzle as it is: size 0), ``not-found`` (no set of at most
      ``max_size`` cells does), ``multiple`` or ``none`` (the puzzle has no one solution, so
      no digit can be given), ``timeout`` (the budget ran out: ``size`` is None unless some
      backdoor was found, and then no smaller one exists but more of that size may);
    - ``techniques``: the names of the techniques allowed;
    - ``size``: the size of the backdoors found (None when none was);
    - ``backdoors``: up to ``limit`` of them, each its cells in increasing order;
    - ``count``: how many were found in all; ``complete``: whether that is every one of the size;
    - ``solution``: the puzzle's solution (None unless it has one);
    - ``tried``: how many sets were tried.
    """

    puzzle: Puzzle
    status: BackdoorStatus
    techniques: tuple[str, ...]
    size: int | None
    backdoors: tuple[Cells, ...]
    count: int
    complete: bool
    solution: tuple[int, ...] | None
    tried: int

    def given(self, backdoor: Sequence[int]) -> Puzzle:
        """The puzzle with the cells of ``backdoor`` given their solution digits."""
        if self.solution is None:
            raise ShuduError("the puzzle has no one solution, so no digit can be given")
        cells = list(self.puzzle.cells)
        for c in backdoor:
            cells[c] = self.solution[c]
        return Puzzle.trusted(tuple(cells), self.puzzle.geometry)

    def to_json(self) -> dict[str, Any]:
        size = self.puzzle.size
        sol = self.solution
        return {
            "puzzle": self.puzzle.to_string(),
            "status": self.status,
            "techniques": list(self.techniques),
            "size": self.size,
            "count": self.count,
            "complete": self.complete,
            "backdoors": [
                [f"{cell_name(c, size)}={digit_char(sol[c]) if sol else '?'}" for c in door]
                for door in self.backdoors
            ],
            "tried": self.tried,
        }


def backdoors(
    puzzle: PuzzleLike,
    techniques: str | Sequence[str] = "singles",
    *,
    max_size: int = MAX_SIZE,
    limit: int = LIMIT,
    node_limit: int | None = None,
    timeout: float | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> Backdoors:
    """The smallest sets of cells (at most ``max_size``, 1 to 3) which, given their solution
    digits, let ``techniques`` alone finish the puzzle.

    ``techniques`` is ``"singles"`` (full house, naked and hidden singles), a level
    (``"easy"`` … ``"extreme"``: every technique of that level or an easier one), or a list of
    technique names (shudu's or HoDoKu's names or codes). ``limit`` caps the backdoors listed
    (all are counted). ``node_limit`` counts the sets tried and the logic engine's work,
    ``timeout`` is one deadline for the call; either ends it with status ``timeout`` and what was
    found. Bad input raises a :class:`~shudu.errors.ShuduError`.
    """
    size_cap = check_count(max_size, "max_size", minimum=1, maximum=MAX_SIZE)
    listed = check_count(limit, "limit", minimum=1)
    nodes = check_count(node_limit, "node_limit", minimum=1)
    seconds = check_seconds(timeout, "timeout")
    assert size_cap is not None and listed is not None
    order = technique_order(techniques)
    board = as_puzzle(puzzle, box=box, variant=variant)
    if board.variant.rules:
        raise OptionError(
            "backdoors: the logic engine reads region puzzles only, not constraint rules",
            option="puzzle",
            value=board.to_string(),
        )
    names = tuple(dict.fromkeys(f.technique.name for f in order))
    work = Search(None, seconds)
    work.start(board)
    try:
        found = work.solutions(board.cells, 2)
    except SearchTimeout:
        return Backdoors(board, "timeout", names, None, (), 0, False, None, 0)
    if len(found) != 1:
        status: BackdoorStatus = "none" if not found else "multiple"
        return Backdoors(board, status, names, None, (), 0, False, None, 0)
    # the solution's search spent part of the time
    left = None if work.deadline is None else max(0.0, work.deadline - time.monotonic())
    with limits(left, nodes):
        return _Finder(board, found[0], order, names, size_cap, listed).run()


def technique_order(spec: str | Sequence[str]) -> tuple[Finder, ...]:
    """The finders of the techniques ``spec`` names (see :func:`backdoors`), easiest first."""
    every = techniques(uniqueness=True)
    if isinstance(spec, str):
        key = spec.strip().casefold()
        if key == "singles":
            return tuple(f for f in every if f.technique.name in SINGLES)
        if key in LEVELS:
            top = LEVELS.index(key)
            return tuple(f for f in every if LEVELS.index(f.technique.level) <= top)
        spec = [spec]
    if not spec:
        raise OptionError("techniques: name at least one technique", option="techniques", value=spec)
    wanted = set()
    for text in spec:
        found = lookup(text) if isinstance(text, str) else None
        if found is None:
            raise OptionError(
                f"techniques: no technique is called {text!r} (say 'singles', a level or technique names)",
                option="techniques",
                value=text,
            )
        wanted.add(found.technique.name)
    order = tuple(f for f in every if f.technique.name in wanted)
    if not order:
        raise OptionError(
            f"techniques: {', '.join(sorted(wanted))} has no finder in the logic engine",
            option="techniques",
            value=spec,
        )
    return order


class _Finder:
    def __init__(
        self,
        puzzle: Puzzle,
        solution: tuple[int, ...],
        order: tuple[Finder, ...],
        names: tuple[str, ...],
        max_size: int,
        limit: int,
    ) -> None:
        self.puzzle, self.solution, self.order, self.names = puzzle, solution, order, names
        self.max_size, self.limit = max_size, limit
        self.singles = all(f.technique.name in SINGLES for f in order)
        self.tried = 0

    def run_logic(self, grid: CandidateGrid) -> CandidateGrid:
        """``grid`` with the techniques applied until they stop (in place)."""
        if self.singles:
            checkpoint()
            settle(grid)
        else:
            for _ in steps(grid, self.order):
                pass
        return grid

    def give(self, grid: CandidateGrid, cell: int) -> CandidateGrid:
        """A copy of ``grid`` with ``cell`` given its digit and the techniques run again."""
        self.tried += 1
        trial = grid.copy()
        if self.singles:
            checkpoint()
            settle(trial, start=(cell, self.solution[cell]))
            return trial
        trial.place(cell, self.solution[cell])
        return self.run_logic(trial)

    def run(self) -> Backdoors:
        doors: list[Cells] = []
        count = 0
        size: int | None = None
        try:
            start = self.run_logic(CandidateGrid.from_values(self.puzzle.geometry, self.puzzle.cells))
            if not start.empty:
                return self._result("solved", 0, [()], 1, True)
            open_cells = [c for c in range(len(start.values)) if start.empty >> c & 1]
            # size 1: each cell alone, and the grid it leaves (for the larger sizes)
            after: dict[Cells, CandidateGrid] = {}
            for c in open_cells:
                grid = self.give(start, c)
                if not grid.empty:
                    doors.append((c,))
                else:
                    after[(c,)] = grid
            if doors:
                return self._result("found", 1, doors, len(doors), True)
            for k in range(2, self.max_size + 1):
                grown: dict[Cells, CandidateGrid] = {}
                for part, grid in after.items():
                    for c in open_cells:
                        if c <= part[-1] or not grid.empty >> c & 1:
                            continue  # a set in another order, or one holding a cell it fills
                        door = (*part, c)
                        if not all(_open(after.get(sub), x) for x, sub in _parts(door)):
                            continue
                        trial = self.give(grid, c)
                        if not trial.empty:
                            count += 1
                            if len(doors) < self.limit:
                                doors.append(door)
                            size = k
                        elif k < self.max_size:
                            grown[door] = trial
                if doors:
                    return self._result("found", k, doors, count, True)
                after = grown
        except LogicTimeout:
            return self._result("timeout", size, doors, count, False)
        return self._result("not-found", None, [], 0, True)

    def _result(
        self, status: BackdoorStatus, size: int | None, doors: list[Cells], count: int, complete: bool
    ) -> Backdoors:
        return Backdoors(
            self.puzzle,
            status,
            self.names,
            size,
            tuple(doors),
            count,
            complete,
            self.solution,
            self.tried,
        )


def _parts(door: Cells) -> list[tuple[int, Cells]]:
    """Each cell of ``door`` and the rest of it."""
    return [(x, tuple(y for y in door if y != x)) for x in door]


def _open(grid: CandidateGrid | None, cell: int) -> bool:
    """Whether the grid a smaller set left (None: that set was skipped, being the same as a
    smaller one still) leaves ``cell`` empty: if not, a set of it and ``cell`` is that set."""
    return grid is not None and bool(grid.empty >> cell & 1)
