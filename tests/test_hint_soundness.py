"""A hint on any player's board: the player's first mistake when there is one, else a sound step.

Boards are made as a player's would be: some correct entries, pencil marks with random digits
struck out, now and then a wrong entry or a cell whose marks strike out the digit that belongs
there. What the hint must say is worked out here from the solution alone: the first wrong entry in
reading order comes first; then the first open cell whose marks lack its digit; otherwise a step
that places only the solution's digits in open cells and strikes out only marks the board has and
the solution does not use. Every level (vague, technique, step) carries the same step.

On a puzzle with several solutions (``allow_multiple``) the same holds of every solution that fits
the board: the first entry, then the first cell's marks, after which none fits is the mistake; a
step holds in every fitting solution; and no step is given only where every open cell can still
take more than one digit.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

import shudu
from shudu import Board, Puzzle
from shudu.formats import parse_puzzle
from shudu.notation import HintLevel

FIXTURE = json.loads((Path(__file__).parent / "data" / "logic_techniques.json").read_text())
BOARDS = 240


@dataclass(frozen=True)
class Source:
    puzzle: Puzzle
    solution: tuple[int, ...]


def _unique(puzzles: list[Puzzle]) -> list[Source]:
    out = []
    for puzzle in puzzles:
        result = shudu.solve(puzzle)
        if result.status == "unique" and result.solution is not None:
            out.append(Source(puzzle, tuple(result.solution.cells)))
    return out


#: 9x9 puzzles whose paths need every family of technique (the logic tests' fixture).
STANDARD = _unique([parse_puzzle(case["puzzle"]) for case in FIXTURE])
#: Other sizes and variants, made by the generator (a seed makes each the same every run).
OTHERS = _unique(
    [
        shudu.generate(4, seed=11).puzzle,
        shudu.generate(6, seed=12, level="medium").puzzle,
        shudu.generate(variant="x", seed=13, level="hard").puzzle,
        shudu.generate(variant="windoku", seed=14).puzzle,
        shudu.generate(variant="pyramid", seed=15).puzzle,
    ]
)


@dataclass(frozen=True)
class Case:
    source: Source
    board: Board
    wrong_entries: tuple[int, ...]  # cells, in reading order
    wrong_marks: tuple[int, ...]  # open cells whose marks lack their digit


def random_board(source: Source, rng: random.Random) -> Case:
    puzzle, solution = source.puzzle, source.solution
    size = puzzle.geometry.size
    open_cells = [c for c, g in enumerate(puzzle.cells) if not g]
    entries = [0] * len(puzzle.cells)
    for c in rng.sample(open_cells, rng.randint(0, len(open_cells) - 1)):
        entries[c] = solution[c]
    if rng.random() < 0.15:
        c = rng.choice(open_cells)
        entries[c] = rng.choice([d for d in range(1, size + 1) if d != solution[c]])
    wrong_entries = tuple(c for c in open_cells if entries[c] and entries[c] != solution[c])
    marks = None
    if rng.random() < 0.8:
        strike = rng.choice((0.0, 0.2, 0.5, 0.8, 0.95))
        drop = 0.01 if rng.random() < 0.2 else 0.0  # the digit that belongs there, struck out
        full = (1 << size) - 1
        marks = []
        for c in range(len(puzzle.cells)):
            keep = full
            for d in range(1, size + 1):
                if rng.random() < (strike if d != solution[c] else drop):
                    keep &= ~(1 << (d - 1))
            marks.append(keep)
    wrong_marks = tuple(
        c
        for c in open_cells
        if marks is not None and not entries[c] and not marks[c] >> (solution[c] - 1) & 1
    )
    board = Board(puzzle, tuple(entries), None if marks is None else tuple(marks))
    return Case(source, board, wrong_entries, wrong_marks)


def cases(seed: int) -> list[Case]:
    rng = random.Random(seed)
    return [random_board(rng.choice(STANDARD if rng.random() < 0.6 else OTHERS), rng) for _ in range(BOARDS)]


def problems(case: Case, level: HintLevel) -> list[str]:
    """What is wrong with the hint for ``case`` at ``level`` (nothing when it is right)."""
    geometry = case.board.puzzle.geometry
    solution = case.source.solution
    hint = shudu.hint(case.board, level)
    name = geometry.cell_name
    if case.wrong_entries:
        c = case.wrong_entries[0]
        expected = (name(c), case.board.entries[c])
        return [] if hint.mistake == expected else [f"expected mistake {expected}, got {hint.text!r}"]
    if case.wrong_marks:
        expected = (name(case.wrong_marks[0]), 0)
        return [] if hint.mistake == expected else [f"expected marks mistake {expected}, got {hint.text!r}"]
    if hint.mistake is not None:
        return [f"a mistake where there is none: {hint.text!r}"]
    values = case.board.values
    if all(values):
        return [] if hint.solved else [f"a full, correct board not called solved: {hint.text!r}"]
    if hint.step is None or hint.status != "unique":
        return [f"no step on an open board: {hint.status} {hint.text!r}"]
    grid = case.board.grid()
    step = hint.step
    wrong = [f"{name(c)}={d}" for c, d in step.placements if values[c] or solution[c] != d]
    wrong += [
        f"{name(c)}<>{d}"
        for c, d in step.eliminations
        if values[c] or solution[c] == d or not grid.cands[c] >> (d - 1) & 1
    ]
    if not step.placements and not step.eliminations:
        wrong.append("a step that does nothing")
    if level == "step" and hint.text != step.explanation:
        wrong.append("the step level's text is not the step's explanation")
    return [f"{step.explanation} [{', '.join(wrong)}]"] if wrong else []


def test_the_sources_cover_sizes_and_variants() -> None:
    kinds = {(s.puzzle.geometry.size, s.puzzle.geometry.variant.name) for s in STANDARD + OTHERS}
    assert kinds == {
        (4, "standard"),
        (6, "standard"),
        (9, "standard"),
        (9, "x"),
        (9, "windoku"),
        (9, "pyramid"),
    }
    assert len(STANDARD) > 40


@pytest.mark.parametrize("level", ["step", "technique", "vague"])
def test_a_hint_on_a_random_board_is_the_first_mistake_or_a_sound_step(level: HintLevel) -> None:
    failures = []
    seen = {"entry": 0, "marks": 0, "step": 0}
    for i, case in enumerate(cases(seed={"step": 1, "technique": 2, "vague": 3}[level])):
        failures += [f"board {i}: {p}" for p in problems(case, level)]
        kind = "entry" if case.wrong_entries else "marks" if case.wrong_marks else "step"
        seen[kind] += 1
    assert not failures, "\n".join(failures[:5])
    assert all(seen.values()), seen  # every kind of board came up


# --- puzzles with several solutions (hint with allow_multiple) ------------------------------------


@dataclass(frozen=True)
class Several:
    """A puzzle with a few solutions, all of them listed."""

    puzzle: Puzzle
    solutions: tuple[tuple[int, ...], ...]


def _several() -> list[Several]:
    """Unique puzzles less their first given whose removal leaves 2 to 39 solutions."""
    out = []
    for source in STANDARD[:12] + OTHERS:
        puzzle = source.puzzle
        for cell, given in enumerate(puzzle.cells):
            if not given:
                continue
            cells = list(puzzle.cells)
            cells[cell] = 0
            fewer = Puzzle(cells, geometry=puzzle.geometry)
            solutions = tuple(tuple(grid.cells) for grid in itertools.islice(shudu.solutions(fewer), 40))
            if 2 <= len(solutions) < 40:
                out.append(Several(fewer, solutions))
                break
    return out


SEVERAL = _several()


def several_board(source: Several, rng: random.Random) -> Board:
    """A player's board on ``source``: entries and marks from one of its solutions, now and then a
    wrong entry (perhaps clashing with a given) or a mark that strikes out that solution's digit;
    one board in five left with only a choice between solutions, which no step can make."""
    puzzle = source.puzzle
    size = puzzle.geometry.size
    solution = rng.choice(source.solutions)
    open_cells = [c for c, g in enumerate(puzzle.cells) if not g]
    used = [{s[c] for s in source.solutions} for c in range(len(puzzle.cells))]
    if rng.random() < 0.2:
        # every cell the solutions agree on entered, and in the others only the digits some
        # solution puts there: no deduction is left, only a choice
        agreed = tuple(solution[c] if len(used[c]) == 1 and not g else 0 for c, g in enumerate(puzzle.cells))
        return Board(puzzle, agreed, tuple(sum(1 << (d - 1) for d in ds) for ds in used))
    entries = [0] * len(puzzle.cells)
    for c in rng.sample(open_cells, rng.randint(0, len(open_cells) - 1)):
        entries[c] = solution[c]
    if rng.random() < 0.3:
        entries[rng.choice(open_cells)] = rng.randint(1, size)
    marks = None
    if rng.random() < 0.7:
        strike = rng.choice((0.0, 0.3, 0.7))
        drop = 0.03 if rng.random() < 0.3 else 0.0
        marks = tuple(
            sum(
                1 << (d - 1)
                for d in range(1, size + 1)
                if rng.random() >= (strike if d != solution[c] else drop)
            )
            for c in range(len(puzzle.cells))
        )
    return Board(puzzle, tuple(entries), marks)


def several_problems(source: Several, board: Board, level: HintLevel) -> list[str]:
    """What is wrong with the hint on ``board``, judged by the listed solutions alone."""
    puzzle = source.puzzle
    name = puzzle.geometry.cell_name
    hint = shudu.hint(board, level, allow_multiple=True)
    if hint.status != "multiple":
        return [f"status {hint.status}: {hint.text!r}"]
    fits = list(source.solutions)
    open_cells = [c for c, g in enumerate(puzzle.cells) if not g]
    for c in open_cells:  # the player's entries, in reading order
        digit = board.entries[c]
        if digit:
            fits = [s for s in fits if s[c] == digit]
            if not fits:
                expected = (name(c), digit)
                return [] if hint.mistake == expected else [f"expected mistake {expected}: {hint.text!r}"]
    if board.candidates is not None:
        for c in open_cells:  # then the marks of the cells left open
            if not board.entries[c]:
                fits = [s for s in fits if board.candidates[c] >> (s[c] - 1) & 1]
                if not fits:
                    expected = (name(c), 0)
                    return [] if hint.mistake == expected else [f"expected mistake {expected}: {hint.text!r}"]
    if hint.mistake is not None:
        return [f"a mistake where a solution fits the board: {hint.text!r}"]
    values = board.values
    if all(values):
        return [] if hint.solved else [f"a full board not called solved: {hint.text!r}"]
    if hint.step is None:
        forced = [c for c in open_cells if not values[c] and len({s[c] for s in fits}) == 1]
        return [f"no step, but {name(forced[0])} holds one digit in every fitting solution"] if forced else []
    grid = board.grid()
    step = hint.step
    wrong = [f"{name(c)}={d}" for c, d in step.placements if values[c] or any(s[c] != d for s in fits)]
    wrong += [
        f"{name(c)}<>{d}"
        for c, d in step.eliminations
        if values[c] or any(s[c] == d for s in fits) or not grid.cands[c] >> (d - 1) & 1
    ]
    return [f"{step.explanation} [{', '.join(wrong)}]"] if wrong else []


def test_the_puzzles_with_several_solutions_cover_sizes() -> None:
    assert {s.puzzle.geometry.size for s in SEVERAL} == {4, 6, 9}
    assert len(SEVERAL) >= 10


@pytest.mark.slow
@pytest.mark.parametrize("level", ["step", "vague"])
def test_on_several_solutions_a_hint_holds_in_every_solution_that_fits_the_board(level: HintLevel) -> None:
    rng = random.Random({"step": 4, "vague": 5}[level])
    failures = []
    for i in range(160):
        source = rng.choice(SEVERAL)
        failures += [f"board {i}: {p}" for p in several_problems(source, several_board(source, rng), level)]
    assert not failures, "\n".join(failures[:5])
