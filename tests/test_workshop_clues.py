"""Clues of a named kind that make a puzzle unique, against brute force on small puzzles.

Each answer is counted unique by the solver with the clues added (their rules checked on the
solution by the rules' reference checks); an answer marked minimal is checked by trying every
smaller set of clues of the kind, true of some solution, between cells next to each other.
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
from shudu.solvers.constraints import shape_of
from shudu.workshop.clues import KINDS, REFERENCES, pairs
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


def _clue(kind: str, pair: tuple[int, int], solution: tuple[int, ...]) -> Rule:
    if kind == "cage":
        return Rule("cage", pair, (solution[pair[0]] + solution[pair[1]],))
    return Rule(kind, pair)


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
    for solution in solutions:
        true = [
            c
            for c in (_clue(kind, p, solution) for p in pairs(puzzle.size))
            if check_grid(solution, shape_of(_with(puzzle, (c,)).geometry)) is None
        ]
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


def test_the_plain_answers() -> None:
    assert shudu.unique_clues("1...........2...", "x").status == "multiple"  # no two digits of 4x4 add to 10
    unique = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    assert shudu.unique_clues(unique).added == () and shudu.unique_clues(unique).status == "unique"
    assert shudu.unique_clues(".23..1......4...").status == "none"
    with pytest.raises(OptionError, match="kind"):
        shudu.unique_clues("1...........2...", "thermo")
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
