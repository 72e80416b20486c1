"""Solver ``fast``: constraint propagation and depth-first search, compiled when possible.

This module only *chooses* an engine: the C core ``shudu.solvers._core_c`` (built from
``_core.c``) when it is installed, else the pure-Python twin :mod:`shudu.solvers._fast_py`,
which is the specification (read its docstring for the algorithm and the counters). The
environment variable ``SHUDU_IMPLEMENTATION=c|python`` forces one; ``IMPLEMENTATION`` says
which is in use.

Besides the registered solver, :func:`solve_many` searches a whole batch of puzzles in one
call: the C core parses, searches and writes the answers without a Python step per puzzle,
with the GIL released and optional worker threads.
"""

from __future__ import annotations

import os
import sys
import time
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

from ..errors import SearchTimeout
from ..geometry import Geometry
from ..puzzle import Puzzle, size_from_cells
from . import _fast_py, register
from .base import UNLIMITED, Budget, Solver, Stats

__all__ = ["IMPLEMENTATION", "BatchResult", "Fast", "solve_many"]


def _choose() -> tuple[ModuleType, str]:
    wanted = os.environ.get("SHUDU_IMPLEMENTATION", "").strip().lower()
    if wanted not in ("", "auto", "c", "python"):
        raise ImportError(f"SHUDU_IMPLEMENTATION must be 'c' or 'python', not {wanted!r}")
    if wanted == "python":
        return _fast_py, "python"
    try:
        from . import _core_c  # type: ignore[attr-defined]
    except ImportError:
        if wanted == "c":
            raise ImportError(
                "SHUDU_IMPLEMENTATION=c, but the C core of shudu is not built; "
                "reinstall with a C compiler present"
            ) from None
        return _fast_py, "python"
    return _core_c, "c"


_engine, IMPLEMENTATION = _choose()

#: Statuses of :class:`BatchResult`, by code.
STATUSES = ("none", "unique", "multiple", "solved", "timeout")

# solutions() asks the engine for this many solutions at a time, at most.
_CHUNK = 256


@cache
def _shape(geometry: Geometry, engine: ModuleType = _engine) -> Any:
    links = geometry.links if any(geometry.links) else None
    return engine.Shape(geometry.size, geometry.house_cells, links)


def _limits(budget: Budget) -> tuple[int | None, float]:
    """The budget as the engine takes it: a node limit and seconds from now (-1: none)."""
    if budget.deadline is None:
        return budget.node_limit, -1.0
    return budget.node_limit, max(0.0, budget.deadline - time.monotonic())


def _timeout_error(budget: Budget, nodes: int, found: int) -> SearchTimeout:
    if budget.node_limit is not None and nodes >= budget.node_limit:
        return SearchTimeout(f"node limit of {budget.node_limit} reached", found=found)
    return SearchTimeout("time limit reached", found=found)


class Fast(Solver):
    """Naked and hidden singles, then the cell with fewest candidates; a 9x9 engine in C."""

    name = "fast"
    description = (
        "constraint propagation (naked and hidden singles) and depth-first search on the "
        "cell with fewest candidates; compiled C core with a pure-Python twin"
    )

    def __init__(self, engine: ModuleType | None = None) -> None:
        self.engine = engine or _engine

    def _search(self, puzzle: Puzzle) -> Any:
        return _shape(puzzle.geometry, self.engine).search(bytes(puzzle.givens))

    def solutions(
        self, puzzle: Puzzle, *, budget: Budget = UNLIMITED, stats: Stats | None = None
    ) -> Iterator[tuple[int, ...]]:
        search = self._search(puzzle)
        chunk, found = 1, 0
        while True:
            nodes, guesses = search.nodes, search.guesses
            node_limit, timeout = _limits(budget)
            sols, _, code = search.run(chunk, chunk, node_limit, timeout)
            if stats is not None:
                _add(stats, search, nodes, guesses)
            for solution in sols:
                found += 1
                yield tuple(solution)
            if code == _fast_py.EXHAUSTED:
                return
            if code == _fast_py.BUDGET:
                raise _timeout_error(budget, search.nodes, found)
            chunk = min(2 * chunk, _CHUNK)

    def count(
        self,
        puzzle: Puzzle,
        limit: int | None = None,
        *,
        budget: Budget = UNLIMITED,
        stats: Stats | None = None,
    ) -> int:
        if limit is not None and limit <= 0:
            return 0
        search = self._search(puzzle)
        node_limit, timeout = _limits(budget)
        _, found, code = search.run(sys.maxsize if limit is None else limit, 0, node_limit, timeout)
        if stats is not None:
            _add(stats, search, 0, 0)
        if code == _fast_py.BUDGET:
            raise _timeout_error(budget, search.nodes, found)
        return int(found)


def _add(stats: Stats, search: Any, nodes: int, guesses: int) -> None:
    stats.nodes += search.nodes - nodes
    stats.guesses += search.guesses - guesses
    if not nodes:
        stats.settled += search.settled


@dataclass(frozen=True)
class BatchResult:
    """The answers of :func:`solve_many`, kept in the compact buffers the engine wrote.

    ``status_codes`` holds one code per puzzle (an index into :data:`STATUSES`),
    ``solution_text`` the first solution of each puzzle as ``n * n`` characters (all ``.``
    when there is none); ``counts``, ``nodes``, ``guesses`` and ``settled`` are arrays of
    unsigned ints. ``statuses`` and ``solutions`` give the same as lists.

    Statuses: ``none`` (no solution), ``unique``, ``multiple`` (at least two), ``solved``
    (one found and ``limit`` was 1, so uniqueness was not checked) and ``timeout``.
    """

    size: int
    status_codes: bytes
    solution_text: bytes
    counts: array[int]
    nodes: array[int]
    guesses: array[int]
    settled: array[int]

    def __len__(self) -> int:
        return len(self.status_codes)

    @property
    def statuses(self) -> list[str]:
        return [STATUSES[code] for code in self.status_codes]

    @property
    def solutions(self) -> list[str | None]:
        return [self.solution(i) for i in range(len(self))]

    def solution(self, index: int) -> str | None:
        """The first solution of puzzle ``index``, or None."""
        nc = self.size * self.size
        if not self.counts[index]:
            return None
        return self.solution_text[index * nc : (index + 1) * nc].decode("ascii")

    @property
    def stats(self) -> Stats:
        """Counters summed over the batch."""
        return Stats(sum(self.nodes), sum(self.guesses), sum(self.settled))


def _batch_size(puzzles: Sequence[str] | bytes) -> int:
    if isinstance(puzzles, bytes | bytearray | memoryview):
        data = bytes(puzzles[:700])
        end = data.find(b"\n")
        head = data if end < 0 else data[:end]
        return size_from_cells(len(head.rstrip(b"\r")))
    if isinstance(puzzles, str):
        raise TypeError("puzzles must be a list of str or a bytes buffer")
    if not puzzles:
        return 9
    first = puzzles[0]
    return size_from_cells(len(first) if isinstance(first, str | bytes) else 0)


def solve_many(
    puzzles: Sequence[str] | bytes,
    limit: int = 1,
    threads: int = 1,
    node_limit: int | None = None,
    timeout: float | None = None,
    *,
    geometry: Geometry | None = None,
    engine: ModuleType | None = None,
) -> BatchResult:
    """Search a batch of puzzles for up to ``limit`` solutions each.

    ``puzzles`` is a list of one-line puzzles (``1-9`` then ``A-P``, ``.`` or ``0`` empty) or
    one bytes buffer of such lines, all of one ``geometry`` (default: the standard grid of
    the size of the first puzzle). ``limit=1`` finds a first solution, ``limit=2`` also
    tells whether it is unique. ``node_limit`` caps each puzzle's search, ``timeout``
    (seconds) the whole call: puzzles not finished in time get status ``timeout``.
    ``threads`` > 1 searches on that many threads inside the C core (0: one per CPU).
    Malformed input raises ValueError (or TypeError) naming the puzzle and the character.
    """
    if threads == 0:
        threads = os.cpu_count() or 1
    if geometry is None:
        geometry = Geometry(_batch_size(puzzles))
    engine = engine or _engine
    shape = _shape(geometry, engine)
    raw = shape.solve_many(puzzles, limit, threads, node_limit, -1.0 if timeout is None else timeout)
    status, text, *numbers = raw
    arrays = []
    for buffer in numbers:
        values = array("Q")
        values.frombytes(buffer)
        arrays.append(values)
    return BatchResult(geometry.size, status, text, *arrays)


register(Fast())
