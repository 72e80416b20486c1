"""What every solver shares: the one signature, its statistics and its budget.

A solver is an object with a ``name``, a ``description`` and one method that matters,
:meth:`Solver.solutions` — a lazy iterator over all solutions of a puzzle, each a tuple of n·n
digits. ``count`` has a default built on it, which fast solvers override.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from ..errors import SearchTimeout
from ..geometry import Geometry
from ..notation import Status, status_of_count
from ..puzzle import Puzzle

__all__ = ["Budget", "SearchTimeout", "Solver", "Stats"]

#: How many nodes a solver may visit between two looks at the clock.
CHECK_EVERY = 1024


@dataclass
class Stats:
    """What a search did. Every solver fills these the same way.

    - ``nodes``: search steps — a digit placed (or a choice tried) while searching;
    - ``guesses``: steps taken where another digit was still possible (branch points);
    - ``settled``: empty cells filled before the first guess, by the solver's own reasoning
      (0 for solvers that reason nothing, such as plain backtracking on a cell with choices).
    """

    nodes: int = 0
    guesses: int = 0
    settled: int = 0

    def add(self, other: Stats) -> None:
        self.nodes += other.nodes
        self.guesses += other.guesses
        self.settled += other.settled


@dataclass(frozen=True)
class Budget:
    """Limits on one search: a node count and a deadline (a ``time.monotonic()`` value)."""

    node_limit: int | None = None
    deadline: float | None = None

    @classmethod
    def of(cls, node_limit: int | None = None, timeout: float | None = None) -> Budget:
        """A budget from a node limit and a timeout in seconds from now."""
        deadline = None if timeout is None else time.monotonic() + timeout
        return cls(node_limit, deadline)

    def check(self, nodes: int) -> int:
        """Raise :class:`SearchTimeout` when over budget; else the node count of the next check."""
        if self.node_limit is not None and nodes > self.node_limit:
            raise SearchTimeout(f"node limit of {self.node_limit} reached")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise SearchTimeout("time limit reached")
        upcoming = nodes + CHECK_EVERY
        if self.node_limit is not None:
            upcoming = min(upcoming, self.node_limit + 1)
        return upcoming


UNLIMITED = Budget()


class Solver:
    """Base of every registered solver; subclasses set ``name``, ``description`` and
    implement :meth:`solutions`."""

    name: ClassVar[str]
    description: ClassVar[str]
    #: Whether the solver reads constraint rules (killer cages, lines …); the others refuse them.
    reads_rules: ClassVar[bool] = False

    def unsupported(self, geometry: Geometry) -> str | None:
        """Why this solver cannot handle puzzles of ``geometry``, or None when it can."""
        if geometry.variant.rules and not self.reads_rules:
            return "it does not read constraint rules; algorithm 'constraints' does"
        if geometry.is_rect and not self.reads_rules:
            return f"it solves square grids only, not {geometry.dims}; algorithm 'constraints' does"
        return None

    def solutions(
        self, puzzle: Puzzle, *, budget: Budget = UNLIMITED, stats: Stats | None = None
    ) -> Iterator[tuple[int, ...]]:
        """Every solution of ``puzzle``, lazily, in the solver's order."""
        raise NotImplementedError

    def count(
        self,
        puzzle: Puzzle,
        limit: int | None = None,
        *,
        budget: Budget = UNLIMITED,
        stats: Stats | None = None,
    ) -> int:
        """How many solutions ``puzzle`` has, stopping at ``limit``."""
        found = 0
        if limit is not None and limit <= 0:
            return 0
        try:
            for _ in self.solutions(puzzle, budget=budget, stats=stats):
                found += 1
                if found == limit:
                    break
        except SearchTimeout as exc:
            exc.found = found
            raise
        return found

    def answer(
        self, puzzle: Puzzle, *, budget: Budget = UNLIMITED, stats: Stats | None = None
    ) -> tuple[Status, tuple[int, ...] | None]:
        """The status of ``puzzle`` (``unique``, ``multiple``, ``none`` or ``timeout``) and the first
        solution found, from a search for two solutions within ``budget``."""
        found: list[tuple[int, ...]] = []
        try:
            found = list(itertools.islice(self.solutions(puzzle, budget=budget, stats=stats), 2))
        except SearchTimeout:
            return "timeout", None
        return status_of_count(len(found)), found[0] if found else None

    def __repr__(self) -> str:
        return f"<solver {self.name!r}>"
