"""Solver ``fast``: constraint propagation and depth-first search, compiled when possible.

This module only *chooses* an engine: the C core ``shudu._core_c`` (built from ``_core.c`` and
``solvers/core/``, see docs/core.md) when :mod:`shudu._backend` chose it, else the pure-Python
twin :mod:`shudu.solvers._fast_py`, which is the specification (read its docstring for the
algorithm and the counters). The environment variable ``SHUDU_IMPLEMENTATION=c|python`` forces
one, for the logic engine too; ``IMPLEMENTATION`` says which is in use. When the C core is missing
(and Python was not asked for), the first search warns once with a
:class:`~shudu.errors.PerformanceWarning`: the twin is about 100 times slower.

Besides the registered solver, :func:`solve_many` searches a whole batch of puzzles in one
call: the C core parses, searches and writes the answers without a Python step per puzzle,
with the GIL released and optional worker threads.
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import ModuleType
from typing import Any, Literal, cast

from .. import _backend
from ..errors import (
    MAX_COUNT,
    ConflictError,
    OptionError,
    ParseError,
    PerformanceWarning,
    SearchTimeout,
    ShuduError,
    check_count,
    check_seconds,
)
from ..geometry import Geometry, implied_houses
from ..notation import MAX_SIZE, MIN_SIZE, BatchCode, CallCode, Status, cell_name, char_digit, digit_range
from ..puzzle import Puzzle
from . import _fast_py
from .base import UNLIMITED, Budget, Solver, Stats

__all__ = ["IMPLEMENTATION", "BatchResult", "Fast", "engine_description", "solve_many"]


#: The engine: the C core, or the twin (``shudu._backend`` chooses, for every layer alike).
_engine: ModuleType = _backend.CORE or _fast_py
#: Which engine runs: ``"c"`` or ``"python"``.
IMPLEMENTATION = _backend.IMPLEMENTATION
#: Which engine runs, in words: ``C core``, or the pure-Python core and why.
engine_description = _backend.description
_warned = False


def _announce(engine: ModuleType) -> None:
    """Warn once per process when a search runs on the twin because the C core is missing."""
    global _warned
    if _backend.FALLBACK and engine is _fast_py and not _warned:
        _warned = True
        warnings.warn(
            "shudu runs on its pure-Python core, about 100 times slower, because the C "
            "extension is not built; reinstall with a C compiler present "
            "(SHUDU_IMPLEMENTATION=python silences this)",
            PerformanceWarning,
            stacklevel=3,
        )


#: A batch status: the answer statuses, plus ``solved`` for a solution found with ``limit=1``
#: (the batch did not look for a second one, so it cannot say ``unique``).
BatchStatus = Status | Literal["solved"]

#: The code of a puzzle of the batch that could not be read (see :attr:`BatchResult.errors`).
INVALID_CODE = BatchCode.INVALID

#: Statuses of :class:`BatchResult`, by code: the names of :class:`shudu.notation.BatchCode`.
STATUSES = cast(tuple[BatchStatus, ...], tuple(code.name.lower() for code in BatchCode))

# solutions() asks the engine for this many solutions at a time, at most.
_CHUNK = 256

#: How many geometries keep their engine tables: every standard size and variant a session
#: uses fits, while random jigsaw layouts (a new geometry each) cannot grow the cache forever.
SHAPE_CACHE_SIZE = 64


def shape_houses(geometry: Geometry) -> tuple[tuple[int, ...], ...]:
    """The houses the engines search with: the geometry's, then the sets of cells its extra
    regions imply hold every digit once (:func:`shudu.geometry.implied_houses`). On windoku
    those are five more houses, and the search guesses a third less. A 9x9 shape that the
    9x9 engine serves takes only as many as keep it there (``_fast_py.EXTRA_HOUSES`` houses
    beyond the standard 27)."""
    implied = implied_houses(geometry)
    if geometry.size == 9 and geometry.box is not None and not any(geometry.links):
        extras = {frozenset(h) for h in geometry.house_cells[27:]}  # rows, columns, boxes first
        if len(extras) <= _fast_py.EXTRA_HOUSES:
            implied = implied[: _fast_py.EXTRA_HOUSES - len(extras)]
    return geometry.house_cells + implied


@lru_cache(maxsize=SHAPE_CACHE_SIZE)
def _shape(geometry: Geometry, engine: ModuleType = _engine) -> Any:
    _announce(engine)
    links = geometry.links if any(geometry.links) else None
    return engine.Shape(geometry.size, shape_houses(geometry), links)


def engine_shape(geometry: Geometry) -> Any:
    """The engine's tables for a geometry without rules (kept per geometry, as the searches'):
    its ``solve_many`` is the batch call that :func:`solve_many` makes after checking its
    arguments, for callers whose lines are well formed and free of equal givens in a house."""
    return _shape(geometry, _engine)


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
    """Singles and intersections, then a branch cell with few candidates; a 9x9 engine in C."""

    name = "fast"
    description = (
        "constraint propagation (naked and hidden singles, intersections) and depth-first "
        "search on a cell with few candidates; compiled C core with a pure-Python twin"
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
            if code == CallCode.EXHAUSTED:
                return
            if code == CallCode.BUDGET:
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
        if code == CallCode.BUDGET:
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
    (one found and ``limit`` was 1, so uniqueness was not checked), ``timeout`` and
    ``invalid`` (the puzzle could not be read, or has two equal givens in a house: its
    error is in ``errors``). ``errors`` holds one entry per puzzle: None, or the
    :class:`~shudu.errors.ShuduError` that :func:`shudu.solve` would raise for it, with
    ``line`` set to the puzzle's 1-based place in the batch.
    """

    size: int
    status_codes: bytes
    solution_text: bytes
    counts: array[int]
    nodes: array[int]
    guesses: array[int]
    settled: array[int]
    errors: tuple[ShuduError | None, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if len(self.errors) != len(self.status_codes):
            object.__setattr__(self, "errors", (None,) * len(self.status_codes))

    def __len__(self) -> int:
        return len(self.status_codes)

    @property
    def statuses(self) -> list[BatchStatus]:
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


_BOM = "\ufeff"
_BOM_BYTES = _BOM.encode()
_BYTES = bytes | bytearray | memoryview


#: How many lines of a batch :func:`_batch_size` looks at.
_HEAD_LINES = 64


def _batch_size(puzzles: Sequence[object] | bytes) -> int:
    """The size of the first puzzle whose length is a grid's (9 when none is)."""
    if isinstance(puzzles, _BYTES):
        # the first 64 lines at most, as for a list (a longer batch is not read twice)
        data = bytes(puzzles[: _HEAD_LINES * (MAX_SIZE**2 + 2)])
        heads: Sequence[object] = data.split(b"\n", _HEAD_LINES)[:-1] or [data]
    else:
        heads = puzzles[:_HEAD_LINES]
    for head in heads:
        if isinstance(head, str | bytes):
            length = len(head) - (head[-1:] in ("\r", b"\r"))
            for size in range(MIN_SIZE, MAX_SIZE + 1):
                if size * size == length:
                    return size
    return 9


def _checked_puzzles(puzzles: object) -> Sequence[str | bytes] | bytes:
    if isinstance(puzzles, str):
        raise OptionError(
            "puzzles must be a list of one-line puzzles or a bytes buffer of lines, not one str",
            option="puzzles",
            value=puzzles,
        )
    if isinstance(puzzles, _BYTES):
        data = bytes(puzzles)
        return data[len(_BOM_BYTES) :] if data.startswith(_BOM_BYTES) else data
    try:
        items: list[str | bytes] = list(puzzles)  # type: ignore[call-overload]
    except TypeError:
        raise OptionError(
            f"puzzles must be a list of one-line puzzles or a bytes buffer of lines, "
            f"not {type(puzzles).__name__}",
            option="puzzles",
            value=puzzles,
        ) from None
    if items and isinstance(items[0], str) and items[0].startswith(_BOM):
        items[0] = items[0][1:]
    return items


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
    ``threads`` > 1 searches on that many threads inside the C core (0: one per CPU). A
    ``geometry`` with rules (killer cages, thermometers …) holds for every line: each line is
    then answered on solver ``constraints``, one after another (``threads`` is not used).

    A puzzle that cannot be read (a wrong length, a character that is no digit, bytes that
    are not UTF-8) or that has two equal givens in a house gets status ``invalid`` and its
    error in :attr:`BatchResult.errors`; the others are answered. Bad arguments of the call
    itself (``limit`` below 1, a negative ``timeout`` …) raise :class:`~shudu.errors.OptionError`.
    """
    limit = _required(limit, "limit", 1, MAX_COUNT)
    threads = _required(threads, "threads", 0, 256) or min(os.cpu_count() or 1, 256)
    node_limit = check_count(node_limit, "node_limit", minimum=1)
    timeout = check_seconds(timeout, "timeout")
    if geometry is not None and not isinstance(geometry, Geometry):
        raise OptionError(
            f"geometry must be a Geometry, not {type(geometry).__name__}", option="geometry", value=geometry
        )
    batch = _checked_puzzles(puzzles)
    if geometry is None:
        geometry = Geometry(_batch_size(batch))
    if geometry.variant.rules:
        return _solve_many_rules(_split(batch), geometry, limit, node_limit, timeout)
    engine = engine or _engine
    shape = _shape(geometry, engine)
    deadline = None if timeout is None else time.monotonic() + timeout

    def run(items: Sequence[str | bytes] | bytes) -> tuple[bytes, ...]:
        left = -1.0 if deadline is None else max(0.0, deadline - time.monotonic())
        return tuple(shape.solve_many(items, limit, threads, node_limit, left))

    try:
        raw = run(batch)
        errors: list[ShuduError | None] = [None] * len(raw[0])
        lines: Sequence[str | bytes] | None = None
    except (ValueError, TypeError):
        # some puzzle is unreadable: find which, and answer the others
        lines = _split(batch)
        errors = [_line_error(line, geometry, number) for number, line in enumerate(lines, 1)]
        raw = _merge(geometry, lines, errors, run)
    status = bytearray(raw[0])
    index = status.find(BatchCode.NONE)
    while index >= 0:  # a puzzle with no solution: two equal givens, or truly none?
        lines = lines if lines is not None else _split(batch)
        conflict = _conflict(lines[index], geometry, index + 1)
        if conflict is not None:
            errors[index] = conflict
            status[index] = INVALID_CODE
        index = status.find(BatchCode.NONE, index + 1)
    arrays = []
    for buffer in raw[2:]:
        values = array("Q")
        values.frombytes(buffer)
        arrays.append(values)
    counts, nodes, guesses, settled = arrays
    return BatchResult(geometry.size, bytes(status), raw[1], counts, nodes, guesses, settled, tuple(errors))


def _solve_many_rules(
    lines: Sequence[str | bytes],
    geometry: Geometry,
    limit: int,
    node_limit: int | None,
    timeout: float | None,
) -> BatchResult:
    """:func:`solve_many` for a geometry with rules: each puzzle on solver ``constraints``, one
    after another (the rules' engine has no batch call), within the one deadline."""
    from .constraints import ConstraintSolver  # the rules' engine, loaded only for rules

    deadline = None if timeout is None else time.monotonic() + timeout
    solver = ConstraintSolver()
    total, nc = len(lines), geometry.ncells
    status = bytearray([INVALID_CODE]) * total
    text = bytearray(b"." * (nc * total))
    counts, nodes, guesses, settled = (array("Q", bytes(8 * total)) for _ in range(4))
    errors: list[ShuduError | None] = [None] * total
    for index, line in enumerate(lines):
        errors[index] = error = _line_error(line, geometry, index + 1)
        if error is not None:
            continue
        chars = line.decode("utf-8") if isinstance(line, _BYTES) else str(line)
        try:
            puzzle = Puzzle([char_digit(char, geometry.size) or 0 for char in chars], geometry=geometry)
        except ShuduError as exc:
            errors[index] = exc.at_line(index + 1)
            continue
        stats = Stats()
        found: list[tuple[int, ...]] = []
        code = BatchCode.TIMEOUT
        if deadline is None or time.monotonic() < deadline:
            try:
                for grid in solver.solutions(puzzle, budget=Budget(node_limit, deadline), stats=stats):
                    found.append(grid)
                    if len(found) >= limit:
                        break
                code = _batch_code(len(found), limit)
            except SearchTimeout:
                code = BatchCode.TIMEOUT
        status[index] = code
        counts[index], nodes[index], guesses[index], settled[index] = (
            len(found),
            stats.nodes,
            stats.guesses,
            stats.settled,
        )
        if found:
            text[index * nc : (index + 1) * nc] = Puzzle.trusted(found[0], geometry).to_string().encode()
    result = (bytes(status), bytes(text), counts, nodes, guesses, settled)
    return BatchResult(geometry.size, *result, tuple(errors))


def _batch_code(found: int, limit: int) -> BatchCode:
    """The batch code of a search that ended having found ``found`` of at most ``limit`` solutions."""
    if found == 0:
        return BatchCode.NONE
    if found >= 2:
        return BatchCode.MULTIPLE
    return BatchCode.SOLVED if limit == 1 else BatchCode.UNIQUE


def _required(value: object, option: str, minimum: int, maximum: int) -> int:
    """A whole-number argument that has no "none" value."""
    checked = check_count(value, option, minimum=minimum, maximum=maximum)
    if checked is None:
        raise OptionError(
            f"{option} must be a whole number from {minimum} to {maximum}, not None", option=option
        )
    return checked


def _split(batch: Sequence[str | bytes] | bytes) -> Sequence[str | bytes]:
    if not isinstance(batch, bytes):
        return batch
    lines = batch.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]


def _line_error(line: object, geometry: Geometry, number: int) -> ShuduError | None:
    """Why one puzzle of a batch cannot be read, or None when it can."""
    size, nc = geometry.size, geometry.ncells
    if isinstance(line, _BYTES):
        data = bytes(line)
        try:
            line = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            return ParseError(
                f"the line is not UTF-8 text (byte 0x{data[exc.start]:02x} at position {exc.start + 1})",
                line=number,
                column=exc.start + 1,
            )
    if not isinstance(line, str):
        return ParseError(f"a puzzle must be a line of text, not {type(line).__name__}", line=number)
    if len(line) != nc:
        return ParseError(
            f"the puzzle has {len(line)} characters; a {size}x{size} puzzle has {nc}", line=number
        )
    for i, char in enumerate(line):
        if char_digit(char, size) is None:
            return ParseError(
                f"character {char!r} at position {i + 1} ({cell_name(i, size)}) is not a digit "
                f"of a {size}x{size} puzzle (use {digit_range(size)}, or . or 0 for empty)",
                line=number,
                column=i + 1,
                char=char,
            )
    return None


def _merge(
    geometry: Geometry,
    lines: Sequence[str | bytes],
    errors: list[ShuduError | None],
    run: Any,
) -> tuple[bytes, ...]:
    """The engine's six buffers for a batch whose unreadable puzzles are left out and given
    the invalid code."""
    good = [i for i, error in enumerate(errors) if error is None]
    items = [lines[i] for i in good]
    try:
        parts = [run(items)]
        owners = [good]
    except (ValueError, TypeError):  # the engine refuses what the check let through: one by one
        parts, owners = [], []
        for i in good:
            try:
                parts.append(run([lines[i]]))
                owners.append([i])
            except (ValueError, TypeError) as exc:
                errors[i] = ParseError(str(exc), line=i + 1)
    nc = geometry.ncells
    total = len(lines)
    status = bytearray([INVALID_CODE]) * total
    text = bytearray(b"." * (nc * total))
    numbers = [array("Q", bytes(8 * total)) for _ in range(4)]
    for part, owner in zip(parts, owners, strict=True):
        codes, solved, *counters = part
        columns = []
        for buffer in counters:
            values = array("Q")
            values.frombytes(buffer)
            columns.append(values)
        for k, i in enumerate(owner):
            status[i] = codes[k]
            text[i * nc : (i + 1) * nc] = solved[k * nc : (k + 1) * nc]
            for column, values in zip(numbers, columns, strict=True):
                column[i] = values[k]
    return (bytes(status), bytes(text), *(column.tobytes() for column in numbers))


def _conflict(line: str | bytes, geometry: Geometry, number: int) -> ConflictError | None:
    """The ConflictError of a puzzle line with two equal givens in a house, else None."""
    text = line.decode("utf-8") if isinstance(line, bytes) else line
    cells = [char_digit(char, geometry.size) or 0 for char in text]
    try:
        Puzzle(cells, geometry=geometry)
    except ConflictError as exc:
        return exc.at_line(number)  # type: ignore[return-value]
    return None
