"""Clues of a named kind that make a puzzle unique, against brute force on small puzzles.

Each answer is counted unique by the solver with the clues added (their rules checked on the
solution by the rules' reference checks; line clues on both constraint engines); an answer
marked minimal is checked by trying every smaller set of clues of the kind, true of some
solution, between cells next to each other (up to two on a line of 2 to 4 cells).
"""

from __future__ import annotations

import io
import itertools
import json
import random

import pytest

import shudu
from shudu.cli import main
from shudu.errors import OptionError
from shudu.puzzle import Puzzle
from shudu.rules import Rule, check_grid
from shudu.rules.base import lookup as rule_type
from shudu.solvers import constraints
from shudu.solvers.constraints import shape_of
from shudu.workshop.clues import KINDS, LINE_KINDS, REFERENCES, pairs
from test_workshop import _grid


def _with(puzzle: Puzzle, added: tuple[Rule, ...]) -> Puzzle:
    return Puzzle(
        puzzle.cells, box=puzzle.geometry.box, variant=puzzle.variant.with_rules(added, puzzle.size)
    )


def _few(seed: int, size: int) -> Puzzle | None:
    """A puzzle with 2 to REFERENCES solutions, or None."""
    rng = random.Random(seed)
    grid = _grid(size, None, rng)
    cells = list(grid)
    order = list(range(size * size))
    rng.shuffle(order)
    for c in order:
        kept = cells[c]
        cells[c] = 0
        count = shudu.count(Puzzle(tuple(cells)), REFERENCES + 1)
        if count > REFERENCES:
            cells[c] = kept
        elif count >= 2 and rng.random() < 0.3:
            break
    puzzle = Puzzle(tuple(cells))
    return puzzle if 2 <= shudu.count(puzzle, REFERENCES + 1) <= REFERENCES else None


def _lines(size: int) -> list[tuple[int, ...]]:
    """Every 2 to 4 cells in a row or a column, each way round."""
    lines = []
    for row, col in itertools.product(range(size), repeat=2):
        for length in range(2, 5):
            for dr, dc in ((0, 1), (1, 0)):
                if row + dr * (length - 1) < size and col + dc * (length - 1) < size:
                    line = tuple((row + dr * k) * size + col + dc * k for k in range(length))
                    lines += [line, line[::-1]]
    return lines


def _true_clues(kind: str, size: int, solution: tuple[int, ...]) -> list[Rule]:
    """Every clue of the kind that ``solution`` keeps, where :func:`shudu.unique_clues` may put
    one (the rules' reference checks say which)."""
    if kind in LINE_KINDS:
        params = ((size + 1) // 2,) if kind == "whisper" else ()
        made = [Rule(kind, line, params) for line in _lines(size)]
        if kind in ("whisper", "renban"):  # the same clue either way round
            made = [rule for rule in made if rule.cells[0] < rule.cells[-1]]
        if kind == "arrow":
            made = [rule for rule in made if len(rule.cells) > 2]
    else:
        made = [
            Rule("cage", p, (solution[p[0]] + solution[p[1]],)) if kind == "cage" else Rule(kind, p)
            for p in pairs(size)
        ]
    shape = shape_of(Puzzle((0,) * (size * size)).geometry)
    return [rule for rule in made if rule_type(kind).check(rule, solution, shape)]


def check(puzzle: Puzzle, kind: str) -> None:
    found = shudu.unique_clues(puzzle, kind)
    solutions = [s.cells for s in shudu.solutions(puzzle)]
    assert found.solutions == len(solutions)
    if found.status == "unique":
        assert found.result is not None
        assert all(r.kind == kind for r in found.added)
        made = [s.cells for s in shudu.solutions(found.result, algorithm="constraints")]
        assert len(made) == 1 and made[0] in solutions
        assert check_grid(made[0], shape_of(found.result.geometry)) is None
    else:
        assert found.status == "multiple" and not found.added
    if not found.proven_minimal:
        return
    # no smaller set of clues, true of any solution, makes the puzzle unique
    fewer = len(found.added) - 1 if found.status == "unique" else 3
    if kind in LINE_KINDS:
        fewer = min(fewer, 2)  # the lines are many: sets of up to two of them
    for solution in solutions:
        true = _true_clues(kind, puzzle.size, solution)
        for k in range(1, fewer + 1):
            for chosen in itertools.combinations(true, k):
                assert shudu.count(_with(puzzle, chosen), 2) != 1, chosen


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [0, 1, 3, 4, 10, 13, 22, 59])
def test_clues_on_small_puzzles(kind: str, seed: int) -> None:
    puzzle = _few(seed, 4)
    if puzzle is None:
        pytest.skip("no puzzle with few solutions drawn")
    check(puzzle, kind)


@pytest.mark.parametrize("kind", ["white-dot", "x", "cage"])
def test_clues_on_6x6_and_9x9(kind: str) -> None:
    for size in (6, 9):
        rng = random.Random(size)
        grid = _grid(size, None, rng)
        keep = set(rng.sample(range(size * size), {6: 14, 9: 30}[size]))
        puzzle = Puzzle(tuple(v if c in keep else 0 for c, v in enumerate(grid)))
        found = shudu.unique_clues(puzzle, kind, timeout=60)
        assert found.status in ("unique", "multiple")
        if found.result is not None:
            assert shudu.count(found.result, 2) == 1


@pytest.mark.parametrize("kind", LINE_KINDS)
def test_line_clues_are_true_and_unique_on_both_engines(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The puzzle with the clues added, counted to 2 by the constraint engine in C (where it
    runs) and in Python, has one solution, one of the puzzle's; each clue is a short line in a
    row or a column, and true of that solution."""
    for size, keep, seed in ((4, 4, 1), (6, 12, 2), (9, 30, 9), (9, 28, 43)):
        rng = random.Random(seed)
        grid = _grid(size, None, rng)
        kept = set(rng.sample(range(size * size), keep))
        puzzle = Puzzle(tuple(v if c in kept else 0 for c, v in enumerate(grid)))
        found = shudu.unique_clues(puzzle, kind, timeout=60)
        assert found.status == "unique" and found.result is not None and found.added, found.status
        counts = [shudu.count(found.result, 2, algorithm="constraints")]
        with monkeypatch.context() as patch:
            patch.setattr(constraints, "_core", None)  # the Python engine, the specification
            counts.append(shudu.count(found.result, 2, algorithm="constraints"))
        assert counts == [1, 1]
        (solution,) = (s.cells for s in shudu.solutions(found.result, algorithm="constraints"))
        assert solution in [s.cells for s in shudu.solutions(puzzle)]
        shape = shape_of(found.result.geometry)
        lines = set(_lines(size))
        for rule in found.added:
            assert rule.kind == kind and rule.cells in lines
            assert rule_type(kind).check(rule, solution, shape), rule.describe(size)
        assert check_grid(solution, shape) is None


def test_the_plain_answers() -> None:
    assert shudu.unique_clues("1...........2...", "x").status == "multiple"  # no two digits of 4x4 add to 10
    unique = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    assert shudu.unique_clues(unique).added == () and shudu.unique_clues(unique).status == "unique"
    assert shudu.unique_clues(".23..1......4...").status == "none"
    with pytest.raises(OptionError, match="kind"):
        shudu.unique_clues("1...........2...", "kropki")
    assert shudu.unique_clues("." * 81, node_limit=10).status == "timeout"


def test_the_command() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["make-unique", "1...........2...", "--clues", "v"], stdout=out, stderr=err) == 0
    first, second = out.getvalue().splitlines()
    assert first.startswith("2 v clues added") and json.loads(second)["rules"]
    assert shudu.count(json.loads(second) and shudu.parse_puzzle(second), 2) == 1
    out = io.StringIO()
    assert main(["make-unique", "1...........2...", "--clues", "v", "--format", "json"], stdout=out) == 0
    assert json.loads(out.getvalue())["status"] == "unique"
    out = io.StringIO()
    assert main(["make-unique", "1...........2...", "--clues", "thermo"], stdout=out) == 0
    first, second = out.getvalue().splitlines()
    assert first.startswith("2 thermo clues added") and "thermometer r" in first
    assert shudu.count(shudu.parse_puzzle(second), 2) == 1
