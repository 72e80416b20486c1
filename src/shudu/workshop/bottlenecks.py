"""Bottlenecks: the points of a puzzle's logic where every way on at the puzzle's level passes
through the same deduction (docs/workshop.md).

The puzzle's level is that of the hardest step of its simplest-first path. The path is walked
again with the techniques easier than that level only; where they are stuck (a *stall*), every
step of the techniques up to the puzzle's level is listed, one per effect: these are all the
ways on, since nothing easier has a step there. What every way removes (the candidates each
one takes out, a placement taking out its cell's other digits and the digit from its peers)
and every way places is the stall's bottleneck: each path of the logic engine at the puzzle's
level that reaches that grid makes those deductions next. A stall with a single way on is
*tight*: one step, and nothing else, lets a solver at that level go on. The walk then takes
the first way (the easiest technique's) and goes on to the next stall.

The first stall is the grid every path of the easier techniques comes to, whatever their order
(they only ever remove candidates); a later one is the grid the walk came to, taking the first
way at each earlier stall.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import SearchTimeout, check_count, check_seconds
from ..formats import PuzzleLike, as_puzzle
from ..geometry import BoxLike
from ..logic import CandidateGrid, LogicTimeout, Step, limits, next_step, steps
from ..logic.allsteps import find_steps
from ..logic.table import rating_of, techniques
from ..notation import LEVELS, cell_name
from ..puzzle import Puzzle
from ..variants import VariantLike
from .search import Search
from .trainer import board_json

__all__ = ["Bottlenecks", "Stall", "bottlenecks"]

#: The ways on listed per stall (all are counted).
LIMIT = 20
#: A last resort, not a technique: never counted as a way on.
BRUTE_FORCE = "Brute Force"

BottleneckStatus = Literal["found", "not-found", "multiple", "none", "timeout"]
Candidate = tuple[int, int]


@dataclass(frozen=True)
class Stall:
    """A point of the walk where every technique easier than the puzzle's level is stuck.

    - ``position``: how many steps of the walk came before it;
    - ``board``: the grid there, as a JSON board (``entries``, ``pencil``: what
      :func:`shudu.parse_board`, :func:`shudu.hint` and :func:`shudu.find_steps` read);
    - ``ways``: how many steps (one per effect) the techniques up to the puzzle's level have
      there; ``steps``: the first of them (at most ``limit``), easiest technique first;
    - ``placements`` and ``eliminations``: what every one of those ways does (a placement's own
      consequences, the cell's other digits and the digit in its peers, are not listed again).
    """

    position: int
    board: dict[str, Any]
    ways: int
    steps: tuple[Step, ...]
    placements: tuple[Candidate, ...]
    eliminations: tuple[Candidate, ...]

    @property
    def tight(self) -> bool:
        """Only one way on."""
        return self.ways == 1

    @property
    def is_bottleneck(self) -> bool:
        """Every way on makes some deduction in common."""
        return bool(self.placements or self.eliminations)

    def to_json(self) -> dict[str, Any]:
        size = self.board["size"]
        return {
            "position": self.position,
            "ways": self.ways,
            "tight": self.tight,
            "placements": [{"cell": cell_name(c, size), "digit": d} for c, d in self.placements],
            "eliminations": [{"cell": cell_name(c, size), "digit": d} for c, d in self.eliminations],
            "steps": [step.to_json() for step in self.steps],
            "board": self.board,
        }


@dataclass(frozen=True)
class Bottlenecks:
    """What :func:`bottlenecks` found.

    - ``status``: ``found`` (some stall is a bottleneck), ``not-found`` (no stall is), ``multiple``
      or ``none`` (the puzzle has no one solution: no level to speak of), ``timeout`` (the budget
      ran out: the stalls up to then are kept);
    - ``level``: the puzzle's level (its path's hardest step's);
    - ``stalls``: every stall of the walk, in order; :attr:`bottlenecks` those that are.
    """

    puzzle: Puzzle
    status: BottleneckStatus
    level: str | None
    stalls: tuple[Stall, ...]

    @property
    def bottlenecks(self) -> tuple[Stall, ...]:
        return tuple(stall for stall in self.stalls if stall.is_bottleneck)

    def to_json(self) -> dict[str, Any]:
        return {
            "puzzle": self.puzzle.to_string(),
            "status": self.status,
            "level": self.level,
            "stalls": len(self.stalls),
            "tight": sum(stall.tight for stall in self.stalls),
            "bottlenecks": [stall.to_json() for stall in self.bottlenecks],
        }


def bottlenecks(
    puzzle: PuzzleLike,
    *,
    limit: int = LIMIT,
    node_limit: int | None = None,
    timeout: float | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> Bottlenecks:
    """The stalls of a unique puzzle's logic at its level, and the deductions every way on from
    each makes (see the module's docstring).

    ``limit`` caps the ways listed per stall (all are counted). ``node_limit`` bounds the logic
    engine's work, ``timeout`` the whole call; past either the status is ``timeout`` with the
    stalls found. Bad input raises a :class:`~shudu.errors.ShuduError`.
    """
    listed = check_count(limit, "limit", minimum=1)
    nodes = check_count(node_limit, "node_limit", minimum=1)
    seconds = check_seconds(timeout, "timeout")
    assert listed is not None
    board = as_puzzle(puzzle, box=box, variant=variant)
    work = Search(None, seconds)
    work.start(board)
    try:
        found = work.solutions(board.cells, 2)
    except SearchTimeout:
        return Bottlenecks(board, "timeout", None, ())
    if len(found) != 1:
        return Bottlenecks(board, "none" if not found else "multiple", None, ())
    left = None if work.deadline is None else max(0.0, work.deadline - time.monotonic())
    walk = _Walk(board, listed)
    with limits(left, nodes):
        try:
            walk.run()
        except LogicTimeout:
            return Bottlenecks(board, "timeout", walk.level, tuple(walk.stalls))
    status: BottleneckStatus = "found" if any(s.is_bottleneck for s in walk.stalls) else "not-found"
    return Bottlenecks(board, status, walk.level, tuple(walk.stalls))


class _Walk:
    def __init__(self, puzzle: Puzzle, limit: int) -> None:
        self.puzzle, self.limit = puzzle, limit
        self.order = techniques(uniqueness=True)
        self.level: str | None = None
        self.stalls: list[Stall] = []

    def start(self) -> CandidateGrid:
        return CandidateGrid.from_values(self.puzzle.geometry, self.puzzle.cells)

    def run(self) -> None:
        top = max((LEVELS.index(rating_of(step)[0]) for step in steps(self.start(), self.order)), default=0)
        self.level = LEVELS[top]
        easier = tuple(f for f in self.order if LEVELS.index(f.level) < top)
        names = [f.technique.name for f in self.order if LEVELS.index(f.technique.level) <= top]
        names = [name for name in dict.fromkeys(names) if name != BRUTE_FORCE]
        grid = self.start()
        position = 0
        while grid.empty:
            step = next_step(grid, easier) if easier else None
            if step is None:
                ways = self.ways(grid, names, top)
                if ways:
                    self.stalls.append(self.stall(grid, position, ways))
                    step = ways[0]
                else:
                    step = next_step(grid, self.order)  # a last resort beyond the level
                    if step is None:
                        return
            grid.apply(step)
            position += 1

    def ways(self, grid: CandidateGrid, names: list[str], top: int) -> list[Step]:
        """Every step, one per effect, of the techniques ``names`` rated at most ``top``."""
        seen: set[tuple[frozenset[Candidate], frozenset[Candidate]]] = set()
        out = []
        for name in names:
            found = find_steps(grid, name, uniqueness=True)
            if found.status == "timeout":
                raise LogicTimeout("time limit reached")
            for step in found.steps:
                key = (frozenset(step.placements), frozenset(step.eliminations))
                if key not in seen and LEVELS.index(rating_of(step)[0]) <= top:
                    seen.add(key)
                    out.append(step)
        return out

    def stall(self, grid: CandidateGrid, position: int, ways: list[Step]) -> Stall:
        placed: set[Candidate] | None = None
        removed: set[Candidate] | None = None
        for way in ways:
            after = grid.copy()
            after.apply(way)
            gone = {
                (c, d)
                for c in range(len(grid.values))
                if not grid.values[c]
                for d in grid.candidates(c)
                if after.values[c] or not after.has(c, d)
            }
            placed = set(way.placements) if placed is None else placed & set(way.placements)
            removed = gone if removed is None else removed & gone
        assert placed is not None and removed is not None
        peers = grid.geometry.peers
        implied = {(x, e) for c, d in placed for x, e in removed if x == c or (e == d and x in peers[c])}
        return Stall(
            position,
            board_json(self.puzzle, grid),
            len(ways),
            tuple(ways[: self.limit]),
            tuple(sorted(placed)),
            tuple(sorted(removed - implied)),
        )
