"""Explain a puzzle step by step, and give the next hint on a player's board.

A *board* is a puzzle plus the player's work, in the JSON form with two optional fields beside
``givens``: ``entries`` (the player's digits, a string like ``givens``) and ``pencil`` (pencil
marks: an object from cell name to digits, ``{"r1c2": "137"}``, or a list of n·n strings).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..api import PuzzleLike, as_puzzle, solve
from ..errors import ParseError, ShuduError
from ..formats import line_cells, parse_json
from ..puzzle import Puzzle, char_digit, digit_char
from ..variants import parse_cell
from .grid import CandidateGrid
from .rating import Rating, UnsolvableError, check_unique, hodoku_level, hodoku_path, se_path_rating
from .solver import next_step
from .step import Step
from .techniques import techniques

HintLevel = Literal["vague", "technique", "step"]
HINT_LEVELS = ("vague", "technique", "step")


@dataclass(frozen=True)
class Explanation:
    """The simplest-first path of a puzzle with its rating."""

    rating: Rating
    steps: tuple[Step, ...]

    def by_technique(self) -> dict[str, int]:
        return dict(Counter(step.technique for step in self.steps).most_common())

    def summary(self) -> str:
        r = self.rating
        counts = ", ".join(f"{name} {n}" for name, n in self.by_technique().items())
        return (
            f"{len(self.steps)} steps; level {r.level}, score {r.score}, SE {r.se:.1f} "
            f"(hardest: {r.hardest or 'none'}); {counts}"
        )

    def __str__(self) -> str:
        width = len(str(len(self.steps)))
        lines = [f"{i:>{width}}. {step.explanation}" for i, step in enumerate(self.steps, start=1)]
        lines.append(self.summary())
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.rating.to_json(),
            "steps": [step.to_json() for step in self.steps],
            "techniques": self.by_technique(),
        }


def explain(puzzle: PuzzleLike, *, uniqueness: bool | None = None) -> Explanation:
    """The numbered simplest-first path of a puzzle, with its rating."""
    puzzle = as_puzzle(puzzle)
    unique = check_unique(puzzle)
    allow = unique if uniqueness is None else uniqueness
    path = hodoku_path(puzzle, uniqueness=allow)
    level, score = hodoku_level(path, puzzle.size)
    se, hardest = se_path_rating(puzzle, uniqueness=allow)
    rating = Rating(puzzle, level, score, se, hardest, unique, tuple(path))
    return Explanation(rating, tuple(path))


@dataclass(frozen=True)
class Hint:
    """The next move on a board at one level of detail, or the player's first mistake."""

    text: str
    level: str
    step: Step | None = None
    #: The player's entry that contradicts the solution, as (cell name, digit).
    mistake: tuple[str, int] | None = None
    solved: bool = False

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"level": self.level, "hint": self.text}
        if self.mistake:
            out["mistake"] = {"cell": self.mistake[0], "digit": self.mistake[1]}
        if self.step is not None and self.level == "step":
            out["step"] = self.step.to_json()
        elif self.step is not None and self.level == "technique":
            out["technique"] = self.step.technique
        out["solved"] = self.solved
        return out


def hint(board: PuzzleLike | Mapping[str, Any], level: HintLevel = "step") -> Hint:
    """The next step for a board: ``vague`` (where to look), ``technique`` (what to look for) or
    ``step`` (the whole deduction). A player's entry that contradicts the solution comes first."""
    if level not in HINT_LEVELS:
        raise ShuduError(f"hint level {level!r} is not one of {', '.join(HINT_LEVELS)}")
    puzzle, entries, pencil = parse_board(board)
    result = solve(puzzle)
    if result.solution is None:
        raise UnsolvableError("the puzzle has no solution")
    solution = result.solution.cells
    geo = puzzle.geometry
    for cell, digit in enumerate(entries):
        if digit and not puzzle.cells[cell] and digit != solution[cell]:
            name = geo.cell_name(cell)
            return Hint(
                f"{name} = {digit_char(digit)} contradicts the solution", level, mistake=(name, digit)
            )
    values = [g or e for g, e in zip(puzzle.cells, entries, strict=True)]
    grid = CandidateGrid.from_values(geo, values)
    for cell, marks in pencil.items():
        if values[cell]:
            continue
        if not marks >> (solution[cell] - 1) & 1:
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
        return Hint("the grid is complete", level, solved=True)
    step = next_step(grid, techniques(uniqueness=result.status == "unique"))
    if step is None:  # pragma: no cover - brute force always finds a step on a solvable grid
        raise ShuduError("no step found")
    if level == "vague":
        return Hint(f"look at {_focus(grid, step)}", level, step)
    if level == "technique":
        name = step.technique
        if not any(ch.isupper() for ch in name[1:]):
            name = name[0].lower() + name[1:]
        article = "an" if name[0].lower() in "aeiou" else "a"
        return Hint(f"there is {article} {name}", level, step)
    return Hint(step.explanation, level, step)


def _focus(grid: CandidateGrid, step: Step) -> str:
    if step.houses:
        return step.houses[0]
    cell = step.cells[0] if step.cells else (step.placements or step.eliminations)[0][0]
    for h in grid.geometry.cell_houses[cell]:
        if grid.geometry.houses[h].kind in ("box", "region"):
            return grid.geometry.houses[h].name
    return grid.name(cell)


def parse_board(board: PuzzleLike | Mapping[str, Any]) -> tuple[Puzzle, list[int], dict[int, int]]:
    """(givens, the player's entries, pencil marks as cell → digit set) of a board."""
    data: Any = board
    if isinstance(board, str) and board.strip().startswith("{"):
        try:
            data = json.loads(board)
        except json.JSONDecodeError as exc:
            raise ParseError(f"invalid JSON: {exc.msg} at column {exc.colno}", column=exc.colno) from None
    if not isinstance(data, Mapping):
        puzzle = as_puzzle(data)
        return puzzle, [0] * len(puzzle.cells), {}
    fields = dict(data)
    entries_raw = fields.pop("entries", None)
    pencil_raw = fields.pop("pencil", None)
    puzzle = parse_json(fields)
    size = puzzle.size
    entries = [0] * len(puzzle.cells)
    if entries_raw is not None:
        if isinstance(entries_raw, str):
            entries = list(line_cells(entries_raw))
        elif isinstance(entries_raw, list) and all(isinstance(v, int) for v in entries_raw):
            entries = list(entries_raw)
        else:
            raise ParseError('"entries" must be a string of cells or a list of digits')
        if len(entries) != len(puzzle.cells) or not all(0 <= v <= size for v in entries):
            raise ParseError(f'"entries" must give {len(puzzle.cells)} cells of 0 (none) to {size}')
        for cell, (g, e) in enumerate(zip(puzzle.cells, entries, strict=True)):
            if g and e and g != e:
                raise ParseError(
                    f'"entries" puts {digit_char(e)} in {puzzle.geometry.cell_name(cell)}, a given'
                )
    return puzzle, entries, _pencil(pencil_raw, puzzle)


def _pencil(raw: Any, puzzle: Puzzle) -> dict[int, int]:
    if raw is None:
        return {}
    size = puzzle.size
    if isinstance(raw, Mapping):
        items = [(parse_cell(k, size), v) for k, v in raw.items()]
    elif isinstance(raw, list) and len(raw) == len(puzzle.cells):
        items = [(i, v) for i, v in enumerate(raw) if v]
    else:
        raise ParseError(f'"pencil" must map cell names to digits, or list {len(puzzle.cells)} strings')
    out = {}
    for cell, marks in items:
        text = "".join(str(m) for m in marks) if isinstance(marks, list) else str(marks)
        mask = 0
        for char in text:
            digit = char_digit(char, size)
            if not digit:
                raise ParseError(f"pencil mark {char!r} of {puzzle.geometry.cell_name(cell)} is not a digit")
            mask |= 1 << (digit - 1)
        out[cell] = mask
    return out
