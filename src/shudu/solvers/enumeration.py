"""Enumeration with candidate marks and saved states (paper 1).

Every cell starts with all digits as candidates; each given strikes its digit from the cell's peers
(its row, column, box, extra regions and, in anti-knight/anti-king puzzles, the linked cells). Then
the empty cells are processed in reading order, k = 1 … m:

- on arriving at cell k the whole candidate state is saved;
- a pointer walks the cell's candidates in ascending order; a *try* clears the cell's other
  candidates and strikes the digit from its peers;
- if that leaves some cell with no candidate the try is undone (the saved state comes back) and the
  pointer moves on; otherwise the walk goes *forward* to cell k + 1;
- when the pointer runs out, the walk steps *back* to cell k − 1, restores the state saved there,
  and moves that cell's pointer on;
- k past the last cell is a solution; k before the first means every possibility has been tried.

Givens are stepped over: each has one candidate and its try could never fail.

:func:`trace` yields these steps one by one (for the web page to replay); :class:`Replay` yields
them with their text, bounded in steps, bytes and time (for ``shudu explain --algorithm enumerate``:
on an empty 25x25 grid the walk writes hundreds of megabytes before its first solution); the
registered solver ``enumerate`` runs the same walk without recording it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import SearchTimeout
from ..notation import cell_name, digit_char
from ..puzzle import Puzzle
from .base import UNLIMITED, Budget, Solver, Stats

__all__ = ["Enumerate", "Replay", "Step", "StepKind", "candidate_marks", "describe", "trace"]

StepKind = Literal["start", "forward", "reject", "back", "solution", "done"]


@dataclass(frozen=True)
class Step:
    """One step of the enumeration, small enough to send to a browser.

    ``kind`` is one of:

    - ``start``: the candidates after the givens struck their digits (``candidates``: one bitmask
      per cell, bit d set when digit d is a candidate); the walk begins at k = 1;
    - ``forward``: the try of ``digit`` at ``cell`` (the k-th empty cell) left every cell a
      candidate; ``struck`` lists the peers that lost the digit. The walk moves to k + 1;
    - ``reject``: the try of ``digit`` at ``cell`` left ``emptied`` with no candidate; it is undone;
    - ``back``: the pointer at the k-th empty cell ran out (or a solution was reported); the walk
      returns to cell k − 1 and restores the state saved when it arrived there;
    - ``solution``: k passed the last cell; ``grid`` holds the solution;
    - ``done``: k went before the first cell: every solution has been reported.

    To replay: keep a stack of candidate states; on ``forward`` push a copy of the current state,
    then set ``cell`` to ``digit`` alone and strike it from ``struck``; on ``back`` pop the stack.
    """

    kind: StepKind
    #: Position in the walk: the k-th empty cell (1-based); len + 1 at a solution, 0 when done.
    k: int
    cell: int | None = None
    digit: int = 0
    struck: tuple[int, ...] = ()
    emptied: int | None = None
    candidates: tuple[int, ...] = ()
    grid: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The step as a JSON object; fields that do not apply to its kind are left out."""
        out: dict[str, Any] = {"kind": self.kind, "k": self.k}
        if self.cell is not None:
            out["cell"] = self.cell
        if self.digit:
            out["digit"] = self.digit
        if self.kind == "forward":
            out["struck"] = list(self.struck)
        if self.emptied is not None:
            out["emptied"] = self.emptied
        if self.candidates:
            out["candidates"] = list(self.candidates)
        if self.grid:
            out["grid"] = list(self.grid)
        return out


def describe(step: Step, size: int) -> str:
    """One line of text for a step of a ``size`` x ``size`` puzzle, cells named r1c2-style."""
    name = cell_name(step.cell, size) if step.cell is not None else ""
    if step.kind == "start":
        return f"start: {sum(1 for m in step.candidates if m & (m - 1))} cells have more than one candidate"
    if step.kind == "forward":
        struck = ", ".join(cell_name(cell, size) for cell in step.struck)
        lost = f"struck from {struck}" if struck else "no peer had it"
        return f"k={step.k}: {name} = {digit_char(step.digit)} ({lost})"
    if step.kind == "reject":
        assert step.emptied is not None
        emptied = cell_name(step.emptied, size)
        return f"k={step.k}: {name} = {digit_char(step.digit)} would leave {emptied} empty: undone"
    if step.kind == "back":
        return f"k={step.k}: no candidate left to try; back to the cell before"
    if step.kind == "solution":
        return "solution: " + "".join(map(digit_char, step.grid))
    return "done: every possibility tried"


def candidate_marks(puzzle: Puzzle) -> list[int]:
    """The starting candidates: all digits in every empty cell, less those its given peers hold.

    One bitmask per cell, bit d set when digit d is a candidate; a given keeps only its own digit.
    """
    geo = puzzle.geometry
    every = ((1 << geo.size) - 1) << 1
    marks = [1 << digit if digit else every for digit in puzzle.cells]
    for cell, digit in enumerate(puzzle.cells):
        if digit:
            for peer in geo.peers[cell]:
                # Puzzle rejects conflicting givens, so a given never loses its own digit here
                marks[peer] &= ~(1 << digit)
    return marks


def _digit(mask: int) -> int:
    return mask.bit_length() - 1


def _walk(
    puzzle: Puzzle, *, record: bool, budget: Budget = UNLIMITED, stats: Stats | None = None
) -> Iterator[Step]:
    """The enumeration itself. Yields every step when ``record`` is set, else only the solutions."""
    stats = stats if stats is not None else Stats()
    peers = puzzle.geometry.peers
    marks = candidate_marks(puzzle)
    order = [cell for cell, digit in enumerate(puzzle.cells) if not digit]
    if record:
        yield Step("start", 1, candidates=tuple(marks))
    if not all(marks[cell] for cell in order):  # a cell the givens leave no candidate
        if record:
            yield Step("done", 0)
        return

    saved: list[list[int]] = []  # saved[k]: the candidates on arriving at order[k]
    pointer = [0] * len(order)  # the digit last tried at order[k] (0: none yet)
    branched = [False] * len(order)  # whether order[k] had candidates left after its try
    open_branches = 0  # how many cells on the current path still have candidates to try
    next_check = budget.check(stats.nodes)
    k = 0
    while k >= 0:
        if k == len(order):
            yield Step("solution", k + 1, grid=tuple(_digit(mask) for mask in marks))
            if record:
                yield Step("back", k + 1)
            k -= 1
            if k >= 0:
                marks = saved[k].copy()
            continue
        cell = order[k]
        if len(saved) == k:  # arriving here from cell k - 1
            saved.append(marks.copy())
        elif branched[k]:  # coming back to try the next digit: the last try is over
            open_branches -= 1
        # the candidates above the pointer, as they were on arrival
        left = saved[k][cell] & ~((2 << pointer[k]) - 1)
        if not left:
            pointer[k] = 0
            saved.pop()
            if record and k:  # at the first cell the walk is over: "done" follows
                yield Step("back", k + 1)
            k -= 1
            if k >= 0:
                marks = saved[k].copy()
            continue
        digit = _digit(left & -left)
        pointer[k] = digit
        stats.nodes += 1
        if stats.nodes >= next_check:
            next_check = budget.check(stats.nodes)
        branched[k] = left != 1 << digit
        # the try: the cell keeps only this digit, and its peers lose it
        bit = 1 << digit
        marks[cell] = bit
        struck = []
        emptied = None
        for peer in peers[cell]:
            if marks[peer] & bit:
                marks[peer] ^= bit
                struck.append(peer)
                if not marks[peer]:
                    emptied = peer
                    break
        if emptied is not None:
            if record:
                yield Step("reject", k + 1, cell, digit, emptied=emptied)
            marks = saved[k].copy()  # undo the try
            branched[k] = False  # nothing was opened: the next digit is tried at once
            continue
        if branched[k]:
            stats.guesses += 1
            open_branches += 1
        elif not open_branches:
            stats.settled += 1
        if record:
            yield Step("forward", k + 1, cell, digit, struck=tuple(struck))
        k += 1
    if record:
        yield Step("done", 0)


def trace(puzzle: Puzzle, limit: int | None = 1) -> Iterator[Step]:
    """The enumeration of ``puzzle`` step by step, stopping after ``limit`` solutions (None: all).

    The first step is ``start``; the last is the ``limit``-th ``solution`` or ``done``. The walk
    can be long (millions of steps for hard puzzles): take what you need with ``itertools.islice``.
    """
    found = 0
    for step in _walk(puzzle, record=True):
        yield step
        if step.kind == "solution":
            found += 1
            if found == limit:
                return


class Replay:
    """The steps of :func:`trace` with their text, within bounds: at most ``max_steps`` steps, at
    most ``max_bytes`` bytes of text (each step's ``render`` and a newline, UTF-8), and the
    ``budget``'s deadline and node limit (tries, as the solver counts them). None: no bound.

    Iterating yields ``(step, text)`` pairs. The iteration ends with the walk (after the
    ``limit``-th solution, or at ``done``), or before the first step that a bound would not
    allow; ``stopped`` then says which bound it was (``output limit of N bytes reached``, ``time
    limit reached`` …; None: the walk ended itself).
    """

    def __init__(
        self,
        puzzle: Puzzle,
        *,
        limit: int | None = 1,
        render: Callable[[Step], str] | None = None,
        max_steps: int | None = None,
        max_bytes: int | None = None,
        budget: Budget = UNLIMITED,
    ) -> None:
        self.puzzle = puzzle
        self.limit = limit
        self.render = render or (lambda step: describe(step, puzzle.size))
        self.max_steps = max_steps
        self.max_bytes = max_bytes
        self.budget = budget
        #: Why the replay ended before the walk did (None: it did not).
        self.stopped: str | None = None
        #: Steps and bytes given so far.
        self.steps = 0
        self.bytes = 0

    def __iter__(self) -> Iterator[tuple[Step, str]]:
        found = 0
        walk = _walk(self.puzzle, record=True, budget=self.budget)
        try:
            for step in walk:
                if self.max_steps is not None and self.steps >= self.max_steps:
                    self.stopped = f"step limit of {self.max_steps} reached"
                    return
                text = self.render(step)
                size = len(text.encode("utf-8")) + 1
                if self.max_bytes is not None and self.bytes + size > self.max_bytes:
                    self.stopped = f"output limit of {self.max_bytes} bytes reached"
                    return
                self.steps += 1
                self.bytes += size
                yield step, text
                found += step.kind == "solution"
                if found == self.limit:
                    return
        except SearchTimeout as exc:
            self.stopped = str(exc)


class Enumerate(Solver):
    name = "enumerate"
    description = "enumeration in reading order with candidate marks and saved states (paper 1)"

    def solutions(
        self, puzzle: Puzzle, *, budget: Budget = UNLIMITED, stats: Stats | None = None
    ) -> Iterator[tuple[int, ...]]:
        for step in _walk(puzzle, record=False, budget=budget, stats=stats):
            yield step.grid
