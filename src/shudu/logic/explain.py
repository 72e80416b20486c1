"""Explain a puzzle step by step, and give the next hint on a player's board.

A *board* is a puzzle plus the player's work, in the JSON form with two optional fields beside
``givens``: ``entries`` (the player's digits, a string like ``givens``) and ``pencil`` (pencil
marks: an object from cell name to digits, ``{"r1c2": "137"}``, or a list of n·n strings).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import ShuduError, check_count, check_seconds
from ..formats import PuzzleLike, as_puzzle
from ..geometry import BoxLike
from ..notation import HINT_LEVELS, STATUS_WORDS, HintLevel, Status, digit_char
from ..puzzle import Puzzle
from ..variants import VariantLike
from .engine.board import Board, parse_board
from .engine.budget import LogicTimeout, limits
from .engine.grid import CandidateGrid, bits
from .engine.memo import memo_scope
from .engine.step import Step
from .rating import Rating, analyse, solve_within_limits
from .solver import next_step
from .table import techniques
from .techniques.forcing import search

__all__ = ["HINT_LEVELS", "Explanation", "Hint", "HintLevel", "explain", "hint"]


@dataclass(frozen=True)
class Explanation:
    """The simplest-first path of a puzzle with its rating (the rating's path, kept)."""

    rating: Rating

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.rating.steps

    @property
    def status(self) -> Status:
        return self.rating.status

    def by_technique(self) -> dict[str, int]:
        return dict(Counter(step.name for step in self.steps).most_common())

    def summary(self) -> str:
        r = self.rating
        counts = ", ".join(f"{name} {n}" for name, n in self.by_technique().items())
        if r.status == "none":
            return f"the puzzle has {STATUS_WORDS['none']}"
        if not r.complete and r.status == "multiple":
            return "the puzzle has several solutions (ask for the logical part with --allow-multiple)"
        if not r.complete:
            return f"{len(self.steps)} steps before the time or node limit ran out; {counts}".rstrip("; ")
        parts = [
            f"{len(self.steps)} steps",
            f"level {r.level}, score {r.score}, SE {r.se:.1f} (hardest: {r.hardest or 'none'})",
        ]
        if counts:
            parts.append(counts)
        if r.status == "multiple":
            # the path stops where no digit is forced: the cells it left open can take two or more
            left = r.puzzle.cells.count(0) - len({c for step in self.steps for c, _ in step.placements})
            open_note = f": {left} cells are left open, each of which can take more than one digit"
            parts.append(f"the puzzle has {STATUS_WORDS['multiple']}" + (open_note if left else ""))
        return "; ".join(parts)

    def __str__(self) -> str:
        width = len(str(len(self.steps)))
        # a net's branches follow its step's line, under the step's text
        under = "\n" + " " * (width + 2)
        lines = [
            f"{i:>{width}}. {step.explanation.replace(chr(10), under)}"
            for i, step in enumerate(self.steps, start=1)
        ]
        lines.append(self.summary())
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The summary, the hardest step drawn on its board, and the steps (for notebooks)."""
        from ..render import explanation_html

        return explanation_html(self)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.rating.to_json(),
            "steps": [step.to_json() for step in self.steps],
            "techniques": self.by_technique(),
        }


def explain(
    puzzle: PuzzleLike,
    *,
    uniqueness: bool | None = None,
    allow_multiple: bool = False,
    timeout: float | None = None,
    node_limit: int | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> Explanation:
    """The numbered simplest-first path of a puzzle, with its rating: :func:`~shudu.logic.rate`
    with its steps kept (the same arguments, statuses and limits)."""
    return Explanation(
        analyse(
            as_puzzle(puzzle, box=box, variant=variant),
            keep_steps=True,
            uniqueness=uniqueness,
            allow_multiple=allow_multiple,
            timeout=timeout,
            node_limit=node_limit,
        )
    )


@dataclass(frozen=True)
class Hint:
    """The next move on a board at one level of detail, or the player's first mistake.

    ``status`` is the puzzle's (``unique``, ``multiple``, ``none``) or ``timeout`` when the limits
    ran out before a step was found; only ``unique`` (or ``multiple`` when allowed) has a step.
    """

    text: str
    level: str
    step: Step | None = None
    #: The player's entry that contradicts the solution, as (cell name, digit).
    mistake: tuple[str, int] | None = None
    solved: bool = False
    status: Status = "unique"

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "level": self.level, "hint": self.text}
        if self.mistake:
            out["mistake"] = {"cell": self.mistake[0], "digit": self.mistake[1]}
        if self.step is not None and self.level == "step":
            out["step"] = self.step.to_json()
        elif self.step is not None and self.level == "technique":
            out["technique"] = self.step.name
        out["solved"] = self.solved
        return out


def hint(
    board: PuzzleLike | Board | Mapping[str, Any],
    level: HintLevel = "step",
    *,
    allow_multiple: bool = False,
    timeout: float | None = None,
    node_limit: int | None = None,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> Hint:
    """The next step for a board: ``vague`` (where to look), ``technique`` (what to look for) or
    ``step`` (the whole deduction). A player's entry that contradicts the solution comes first.

    A puzzle with no solution, or with several, gets no step and says so. With ``allow_multiple``
    a puzzle with several gets the next logical step without uniqueness techniques, one that holds
    in every solution that fits the board; the entries, then the marks, are checked against the
    solutions, and the first after which none fits is the mistake; where every open cell can
    still take more than one digit there is no step, and the hint says so.
    ``timeout`` and ``node_limit`` bound the call as in :func:`~shudu.logic.rate`; ``box`` and
    ``variant`` give the shape of a plain puzzle's text as for :func:`shudu.solve`.
    """
    if level not in HINT_LEVELS:
        raise ShuduError(f"hint level {level!r} is not one of {', '.join(HINT_LEVELS)}")
    seconds = check_seconds(timeout, "timeout")
    nodes = check_count(node_limit, "node_limit", minimum=1)
    parsed = parse_board(board, box=box, variant=variant)
    puzzle, entries = parsed.puzzle, list(parsed.entries)
    pencil = {} if parsed.candidates is None else dict(enumerate(parsed.candidates))
    with limits(seconds, nodes), memo_scope():
        try:
            return _hint(puzzle, entries, pencil, level, allow_multiple)
        except LogicTimeout:
            return Hint("no step found before the time or node limit ran out", level, status="timeout")


def _hint(
    puzzle: Puzzle, entries: list[int], pencil: dict[int, int], level: str, allow_multiple: bool
) -> Hint:
    result = solve_within_limits(puzzle)
    status = result.status
    if result.solution is None:
        return Hint(f"the puzzle has {STATUS_WORDS['none']}", level, status="none")
    if status == "multiple" and not allow_multiple:
        return Hint(f"the puzzle has {STATUS_WORDS['multiple']}", level, status="multiple")
    unique = status == "unique"
    solution = result.solution
    geo = puzzle.geometry
    for cell, digit in enumerate(entries):
        if unique and digit and not puzzle.cells[cell] and digit != solution[cell]:
            name = geo.cell_name(cell)
            return Hint(
                f"{name} = {digit_char(digit)} contradicts the solution", level, mistake=(name, digit)
            )
    if not unique:
        broken = _first_break(puzzle, entries, pencil)
        if broken is not None:
            cell, digit = broken
            name = geo.cell_name(cell)
            text = (
                f"{name} = {digit_char(digit)} contradicts every solution that fits the entries before it"
                if digit
                else f"the pencil marks of {name} rule out every solution that fits the entries "
                "and the marks before them"
            )
            return Hint(text, level, mistake=(name, digit), status=status)
    values = [g or e for g, e in zip(puzzle.cells, entries, strict=True)]
    givens = sum(1 << cell for cell, digit in enumerate(puzzle.cells) if digit)
    grid = CandidateGrid.from_values(geo, values, givens=givens)
    for cell, marks in pencil.items():
        if values[cell]:
            continue
        if unique and not marks >> (solution[cell] - 1) & 1:
            name = geo.cell_name(cell)
            return Hint(
                f"the pencil marks of {name} leave out the digit that belongs there",
                level,
                mistake=(name, 0),
            )
        for d in range(geo.size):
            if not marks >> d & 1:
                grid.eliminate(cell, d + 1)
    if not grid.empty:
        return Hint("the grid is complete", level, solved=True, status=status)
    step = next_step(grid, techniques(uniqueness=unique))
    if step is None:
        if not unique:  # brute force settles any cell that one digit of the solutions fills
            text = "no step is left on this board: every open cell can still take more than one digit"
            return Hint(text, level, status=status)
        return Hint("no logical step is left on this board", level, status=status)
    if level == "vague":
        return Hint(f"look at {_focus(grid, step)}", level, step, status=status)
    if level == "technique":
        name = step.name
        if not any(ch.isupper() for ch in name[1:]):
            name = name[0].lower() + name[1:]
        article = "an" if name[0].lower() in "aeiou" else "a"
        return Hint(f"there is {article} {name}", level, step, status=status)
    return Hint(step.explanation, level, step, status=status)


def _first_break(puzzle: Puzzle, entries: list[int], pencil: dict[int, int]) -> tuple[int, int] | None:
    """On a board of a puzzle with several solutions, the player's work that leaves none: the
    first entry in reading order after which no solution fits the entries so far, as (cell,
    digit); else, all entries kept, the first open cell whose marks do that, as (cell, 0); None
    when a solution fits all of it. (A solution that fits a longer list fits every shorter one, so
    a bisection finds the first.)"""
    geo = puzzle.geometry
    moves = [(cell, digit) for cell, digit in enumerate(entries) if digit and not puzzle.cells[cell]]
    marks = sorted((cell, m) for cell, m in pencil.items() if not puzzle.cells[cell] and not entries[cell])

    def solvable(kept: int) -> bool:
        values = list(puzzle.cells)
        for cell, digit in moves[:kept]:
            values[cell] = digit
        if next(Puzzle.trusted(tuple(values), geo).conflicts(), None) is not None:
            return False
        grid = CandidateGrid.from_values(geo, values)
        for cell, m in marks[: max(0, kept - len(moves))]:
            for d in bits(grid.cands[cell] & ~m):
                grid.eliminate(cell, d + 1)
        return search(grid) is not None

    fits, fails = 0, len(moves) + len(marks)  # the givens alone have solutions
    if solvable(fails):
        return None
    while fails - fits > 1:
        middle = (fits + fails) // 2
        if solvable(middle):
            fits = middle
        else:
            fails = middle
    if fails <= len(moves):
        return moves[fails - 1]
    return marks[fails - 1 - len(moves)][0], 0


def _focus(grid: CandidateGrid, step: Step) -> str:
    if step.houses:
        return step.houses[0]
    cell = step.cells[0] if step.cells else (step.placements or step.eliminations)[0][0]
    for h in grid.geometry.cell_houses[cell]:
        if grid.geometry.houses[h].kind in ("box", "region"):
            return grid.geometry.houses[h].name
    return grid.name(cell)
