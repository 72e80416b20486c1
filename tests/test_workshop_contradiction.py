"""The first contradiction of a puzzle with no solution, replayed.

Random puzzles (4x4 to 9x9, the region variants, killer cages) are made unsolvable by one given
changed to another digit its peers do not hold; an independent solver confirms that no solution
is left. Since no solution exists, every deduction holds vacuously, so the contradiction is
checked by its own logic instead: replayed from the givens' grid, each step is the engine's own
on the grid it is applied to (a single checked as such, any other step found again there by its
technique), each does something, the grid is whole before the last one, and after it the grid
is broken exactly as the answer says.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import shudu
from shudu.errors import ConflictError
from shudu.logic.engine.board import parse_board
from shudu.puzzle import Puzzle
from shudu.workshop import Contradiction, ExplainedNone, first_contradiction
from shudu.workshop.why import broken
from test_workshop import SHAPES, _grid, _killer, all_solutions
from test_workshop_why import _holds, run

NONE_4X4 = "12....3...2....1"
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def _changed(puzzle: Puzzle, rng: random.Random) -> Puzzle | None:
    """``puzzle`` with one given changed to a digit none of its peers holds, when that leaves no
    solution (None otherwise, or when no such digit is there)."""
    cells = list(puzzle.cells)
    geo = puzzle.geometry
    givens = [c for c, v in enumerate(cells) if v]
    rng.shuffle(givens)
    for cell in givens[:8]:
        digits = [
            d
            for d in range(1, puzzle.size + 1)
            if d != cells[cell] and all(cells[p] != d for p in geo.peers[cell])
        ]
        for d in rng.sample(digits, len(digits)):
            changed = Puzzle((*cells[:cell], d, *cells[cell + 1 :]), variant=puzzle.variant)
            if not any(True for _ in changed.conflicts()) and not _solvable(changed):
                return changed
    return None


def _solvable(puzzle: Puzzle) -> bool:
    """Whether a solution exists, by a solver other than the one the workshop runs."""
    if puzzle.variant.rules:
        return bool(all_solutions(puzzle))
    return shudu.count(puzzle, 1, algorithm="backtrack" if puzzle.size <= 6 else "dlx") > 0


def check(puzzle: Puzzle) -> Contradiction:
    """The contradiction of ``puzzle`` (no solution) from :func:`shudu.explain`, replayed."""
    explained = shudu.explain(puzzle, timeout=60)
    assert explained.status == "none"
    assert isinstance(explained, ExplainedNone) and explained.contradiction is not None
    found = explained.contradiction
    assert found.status in ("found", "not-found"), found.reason
    assert explained.steps == found.steps
    grid = parse_board(puzzle).grid()
    for step in found.steps:
        assert not broken(grid), step.explanation  # nothing after the grid breaks
        assert _holds(grid, step), step.explanation
        assert any(not grid.values[c] and grid.has(c, d) for c, d in step.placements) or any(
            not grid.values[c] and grid.has(c, d) for c, d in step.eliminations
        ), f"{step.explanation} does nothing"
        grid.apply(step)
    assert broken(grid) == found.broken
    if found.status == "found":
        assert found.broken and found.broken in str(explained)
        if found.steps:
            assert found.step in found.steps and found.level and found.se
    return found


def _random(seed: int, size: int, variant: str | None) -> Puzzle | None:
    rng = random.Random(seed)
    grid = _grid(size, variant, rng)
    low = {4: 5, 6: 12, 9: 26}[size]
    keep = rng.sample(range(len(grid)), rng.randint(low, low + size))
    puzzle = Puzzle(tuple(v if c in keep else 0 for c, v in enumerate(grid)), variant=variant)
    return _changed(puzzle, rng)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}{s[1] or ''}")
def test_the_contradiction_of_a_changed_given_replays(shape: tuple[int, str | None]) -> None:
    statuses = []
    for seed in range(5):
        puzzle = _random(seed, *shape)
        if puzzle is not None:
            statuses.append(check(puzzle).status)
    assert statuses and "found" in statuses


@pytest.mark.parametrize("seed", range(4))
def test_the_contradiction_of_a_killer_puzzle_replays(seed: int) -> None:
    puzzle = _killer(seed, (4, 6, 9, 9)[seed])
    solution = next(shudu.solutions(puzzle)).cells
    rng = random.Random(seed)
    cells = list(puzzle.cells)
    for c in rng.sample(range(len(cells)), len(cells) // 3):
        cells[c] = solution[c]
    changed = _changed(Puzzle(tuple(cells), variant=puzzle.variant), rng)
    if changed is None:
        pytest.skip("no changed given leaves this killer puzzle without a solution")
    check(changed)


def test_a_hard_puzzle_with_one_given_changed() -> None:
    """The hardest of the puzzles here: a 21-given one, each given changed in turn until one
    leaves no solution; the path to the contradiction runs past the singles."""
    puzzle = shudu.parse_puzzle(HARD)
    rng = random.Random(43)
    kinds: set[str] = set()
    tried = 0
    while tried < 3:
        changed = _changed(puzzle, rng)
        if changed is None:
            continue
        tried += 1
        found = check(changed)
        assert found.status == "found"
        kinds |= {step.technique.name for step in found.steps}
    assert kinds - {"Full house", "Naked single", "Hidden single"}


def test_at_once_and_the_clear_errors() -> None:
    found = shudu.explain(NONE_4X4)
    assert isinstance(found, ExplainedNone) and found.contradiction is not None
    assert found.contradiction.status == "found" and found.steps == ()
    assert str(found) == "the puzzle has no solution: at once 3 has no place left in row 1"
    assert found.to_json()["contradiction"]["broken"] == "3 has no place left in row 1"
    with pytest.raises(ConflictError):
        shudu.explain("11" + "." * 14)  # givens that clash stay an error
    assert first_contradiction(HARD).status == "not-found"  # a puzzle with a solution
    unique = shudu.explain(HARD)
    assert unique.status == "unique" and not isinstance(unique, ExplainedNone)


def test_the_budget_says_timeout() -> None:
    bad = "4.....8.5.3..........7......2.....6.....8.5......1.......6.3.7.5..2.....1.4......"
    assert not _solvable(shudu.parse_puzzle(bad))
    assert first_contradiction(bad, node_limit=1).status == "timeout"
    assert first_contradiction(bad, timeout=1e-9).status == "timeout"
    assert first_contradiction(bad).status == "found"


def test_the_command_line_and_the_web_show_it() -> None:
    bad = "4.....8.5.3..........7......2.....6.....8.5......1.......6.3.7.5..2.....1.4......"
    code, out, err = run("explain", bad)
    assert code == 0 and not err
    lines = out.splitlines()
    assert lines[1].startswith(" 1. ") and lines[-1].startswith("the puzzle has no solution: after ")
    code, out, _ = run("explain", bad, "--format", "json")
    data = json.loads(out)
    assert data["status"] == "none" and data["steps"] and data["contradiction"]["status"] == "found"
    assert data["contradiction"]["level"] and data["contradiction"]["broken"]


def test_the_web_explains_it(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'shudu[web]')")
    from starlette.testclient import TestClient

    from shudu.web import create_app

    bad = "4.....8.5.3..........7......2.....6.....8.5......1.......6.3.7.5..2.....1.4......"
    data = TestClient(create_app(tmp_path / "web.sqlite3")).post("/api/explain", json={"puzzle": bad}).json()
    assert data["status"] == "none" and data["contradiction"]["broken"]
    assert data["steps"] and all(isinstance(c, int) for step in data["steps"] for c in step["cells"])
