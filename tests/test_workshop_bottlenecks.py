"""Bottlenecks against the logic engine's finders and the solution.

At every stall the walk reports, no technique easier than the puzzle's level has a step (each
of the path's finders asked on its own); the ways on are every distinct effect of the
techniques up to that level (each finder's every step, listed apart from ``find_steps``); every
way makes the deductions said to be common; and those deductions agree with the solution.
"""

from __future__ import annotations

import io
import json
import random

import pytest

import shudu
from shudu.cli import main
from shudu.errors import OptionError
from shudu.logic.engine.board import parse_board
from shudu.logic.table import EVERY_FINDER, rating_of, techniques
from shudu.notation import LEVELS
from shudu.puzzle import Puzzle
from shudu.workshop.bottlenecks import Bottlenecks
from test_workshop import _killer

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def check(puzzle: str | Puzzle, found: Bottlenecks) -> None:
    assert found.status in ("found", "not-found") and found.level is not None
    solution = shudu.solve(puzzle).solution
    assert solution is not None
    top = LEVELS.index(found.level)
    order = techniques(uniqueness=True)
    easier = [f for f in order if LEVELS.index(f.level) < top]
    names = {f.technique.name for f in order if LEVELS.index(f.technique.level) <= top} - {"Brute Force"}
    assert found.stalls
    positions = [stall.position for stall in found.stalls]
    assert positions == sorted(set(positions))
    for stall in found.stalls:
        grid = parse_board(stall.board).grid()
        assert all(f.first(grid.copy()) is None for f in easier)
        effects = set()
        for finder in EVERY_FINDER:
            if finder.technique.name in names:
                for step in finder.iter_steps(grid.copy()):
                    if (step.placements or step.eliminations) and LEVELS.index(rating_of(step)[0]) <= top:
                        effects.add((frozenset(step.placements), frozenset(step.eliminations)))
        assert stall.ways == len(effects) >= 1
        assert stall.tight == (stall.ways == 1)
        for c, d in stall.placements:
            assert solution.cells[c] == d
        for c, d in stall.eliminations:
            assert solution.cells[c] != d and grid.has(c, d)
        if stall.ways <= len(stall.steps):
            for way in stall.steps:
                after = grid.copy()
                after.apply(way)
                assert set(stall.placements) <= set(way.placements)
                assert all(after.values[c] or not after.has(c, d) for c, d in stall.eliminations)
    assert found.bottlenecks == tuple(s for s in found.stalls if s.placements or s.eliminations)
    assert (found.status == "found") == bool(found.bottlenecks)


#: Generated puzzles (level, puzzle) with bottlenecks, tight ones and others.
NECKS = [
    ("hard", "63..7.9...9.2......85..93...1..9..3....4.6.7...9.5...4.52...8.....8..4.6.......5."),
    ("hard", "3..........2..4.71...2...9.85.....1....1....6.....8.2.....15...6...7...42.7...3.."),
    ("hard", "4........75.4.8..98..9.15...6....217...6.....3..5..4.6..4...1.3....29.......5...."),
    ("medium", ".5...9.3..1.2....6...4..7..19...58...8....1...246.......6.7..5....3..........2.1."),
    ("medium", ".296.3.54.1.....69...2.....7.4...5......7......23.1.7....9...1...1.5.....6......3"),
]


@pytest.mark.parametrize(("level", "puzzle"), NECKS, ids=lambda v: v[:12])
def test_the_bottlenecks_of_generated_puzzles(level: str, puzzle: str) -> None:
    found = shudu.bottlenecks(puzzle, limit=1000, timeout=120)
    check(puzzle, found)
    assert found.status == "found" and found.level == level == shudu.rate(puzzle).level


@pytest.mark.slow
def test_an_extreme_puzzle() -> None:
    """A puzzle of forcing nets: dozens of stalls, each with every forcing step listed."""
    puzzle = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    found = shudu.bottlenecks(puzzle, limit=1000, timeout=300)
    check(puzzle, found)
    assert found.level == "extreme" and found.bottlenecks


def test_a_medium_puzzle_and_its_json() -> None:
    found = shudu.bottlenecks(HARD, limit=1000)
    check(HARD, found)
    assert found.level == "medium"
    record = json.loads(json.dumps(found.to_json()))
    assert record["stalls"] == len(found.stalls) and record["level"] == "medium"


def test_no_level_without_one_solution_and_the_budget() -> None:
    assert shudu.bottlenecks("1...........2...").status == "multiple"
    assert shudu.bottlenecks(".23..1......4...").status == "none"
    assert shudu.bottlenecks(HARD, node_limit=5).status == "timeout"
    with pytest.raises(OptionError):
        shudu.bottlenecks(HARD, limit=0)


def test_the_command() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["bottlenecks", HARD], stdout=out, stderr=err) == 0
    assert out.getvalue().startswith("not-found: level medium, ")
    out = io.StringIO()
    assert main(["bottlenecks", HARD, "--format", "json"], stdout=out, stderr=err) == 0
    assert json.loads(out.getvalue())["level"] == "medium"


@pytest.mark.parametrize("seed", range(3, 6))
def test_the_stalls_of_killer_puzzles(seed: int) -> None:
    """9x9 killer puzzles made unique with givens from a solution: the rule techniques too."""
    puzzle = _killer(seed, 9)
    solution = next(shudu.solutions(puzzle)).cells
    cells = list(puzzle.cells)
    rng = random.Random(seed)
    while shudu.count(Puzzle(tuple(cells), variant=puzzle.variant), 2) > 1:
        cell = rng.choice([c for c, v in enumerate(cells) if not v])
        cells[cell] = solution[cell]
    unique = Puzzle(tuple(cells), variant=puzzle.variant)
    check(unique, shudu.bottlenecks(unique, limit=1000, timeout=120))
