"""Why not: every refutation against brute force, on random candidate states of random puzzles.

A state is a puzzle (4x4 to 9x9, region variants, killer cages) with some digits of one solution
entered and some candidates struck out at random, sometimes that solution's own digit too, so
that no solution may fit it. Every solution that fits the state is listed by an independent
solver. For candidates drawn at random:

- a digit some fitting solution has is ``possible``, with a fitting solution that has it;
- where no solution fits, the answer is ``none``;
- otherwise it is never ``possible``; a refutation's steps, replayed on the state's grid, remove
  the candidate (or, placed, break the grid), and every step holds in every fitting solution:
  each digit it places is that cell's digit in all of them, each candidate it removes in none.
  The singles of a contradiction are checked one by one on the grid they are applied to.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator

import pytest

import shudu
from shudu.cli import main
from shudu.errors import OptionError
from shudu.logic.engine.board import Board
from shudu.logic.engine.grid import CandidateGrid
from shudu.logic.engine.step import Step
from shudu.puzzle import Puzzle
from shudu.rules import Rule
from shudu.variants import get as get_variant
from shudu.workshop import why
from shudu.workshop.why import WhyNot, broken, gone
from test_workshop import SHAPES, _grid, _killer, all_solutions

#: Puzzles with more solutions than this are passed over (each step is checked against all).
MOST_SOLUTIONS = 300
#: The candidates asked about on each state.
QUESTIONS = 6

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def _state(puzzle: Puzzle, solutions: list[tuple[int, ...]], rng: random.Random) -> Board:
    """Some digits of one solution entered, some candidates struck out (now and then that
    solution's own)."""
    ncells, size = len(puzzle.cells), puzzle.size
    entries = [0] * ncells
    marks = [(1 << size) - 1] * ncells
    if solutions:
        chosen = rng.choice(solutions)
        for c in rng.sample(range(ncells), rng.randint(0, ncells // 4)):
            if not puzzle.cells[c]:
                entries[c] = chosen[c]
        for _ in range(rng.randint(0, ncells // 3)):
            c, d = rng.randrange(ncells), rng.randrange(size)
            if d + 1 != chosen[c] or rng.random() < 0.05:
                marks[c] &= ~(1 << d)
    for c in range(ncells):
        if not marks[c]:
            marks[c] = 1 << rng.randrange(size)
    board = Board(puzzle, tuple(entries), tuple(marks))
    grid = board.grid()
    if any(not grid.values[c] and not grid.cands[c] for c in range(ncells)):
        board = Board(puzzle, tuple(entries))  # entries that clash: keep the puzzle's candidates
    return board


def _fitting(board: Board, solutions: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    values = board.values
    marks = board.candidates
    return [
        s
        for s in solutions
        if all(not v or v == x for v, x in zip(values, s, strict=True))
        and (marks is None or all(values[c] or marks[c] >> (s[c] - 1) & 1 for c in range(len(s))))
    ]


def _single_holds(grid: CandidateGrid, cell: int, digit: int) -> bool:
    """The single ``cell`` = ``digit`` on ``grid``: the cell's one candidate, or the digit's one
    place in a house of the cell."""
    if grid.values[cell] or not grid.has(cell, digit):
        return False
    if grid.cands[cell] == 1 << (digit - 1):
        return True
    geo = grid.geometry
    return any(
        all(
            c == cell or (grid.values[c] != digit and not (not grid.values[c] and grid.has(c, digit)))
            for c in geo.houses[h].cells
        )
        for h in geo.cell_houses[cell]
    )


def check_step_sound(step: Step, fitting: list[tuple[int, ...]]) -> None:
    for c, d in step.placements:
        assert all(s[c] == d for s in fitting), step.explanation
    for c, d in step.eliminations:
        assert all(s[c] != d for s in fitting), step.explanation


def check(board: Board, solutions: list[tuple[int, ...]], cell: int, digit: int) -> WhyNot:
    found = shudu.why_not(board, cell, digit, timeout=60)
    fitting = _fitting(board, solutions)
    grid = board.grid()
    assert found.cell == cell and found.digit == digit
    if grid.values[cell]:
        assert found.status == ("placed" if grid.values[cell] == digit else "eliminated")
        return found
    if not grid.has(cell, digit):
        assert found.status == "eliminated"
        return found
    if not fitting:
        assert found.status == "none"
        return found
    if any(s[cell] == digit for s in fitting):
        assert found.status == "possible"
        assert found.solution in fitting and found.solution[cell] == digit
        return found
    assert found.status in ("refuted", "not-found"), found.reason
    if found.status == "not-found":
        return found
    assert found.step is not None and found.level and found.se
    if found.method == "steps":
        for step in found.steps:
            check_step_sound(step, fitting)
            grid.apply(step)
        assert gone(grid, (cell, digit))
    else:
        assert found.method == "contradiction"
        grid.place(cell, digit)
        for step in found.steps:
            assert _holds(grid, step), step.explanation
            grid.apply(step)
        assert broken(grid) == found.broken != ""
    return found


def ask(board: Board, solutions: list[tuple[int, ...]], rng: random.Random) -> list[WhyNot]:
    ncells, size = len(board.puzzle.cells), board.puzzle.size
    found = []
    grid = board.grid()
    open_candidates = [(c, d) for c in range(ncells) for d in grid.candidates(c) if not grid.values[c]]
    fitting = _fitting(board, solutions)
    wrong = [(c, d) for c, d in open_candidates if all(s[c] != d for s in fitting)]
    picks = rng.sample(wrong, min(len(wrong), QUESTIONS - 2))
    picks += [(rng.randrange(ncells), rng.randrange(1, size + 1)) for _ in range(2)]
    for cell, digit in picks:
        found.append(check(board, solutions, cell, digit))
    return found


def _random_puzzle(seed: int, size: int, variant: str | None) -> Puzzle | None:
    rng = random.Random(seed)
    grid = _grid(size, variant, rng)
    low = {4: 4, 6: 10, 9: 24}[size]
    keep = rng.sample(range(len(grid)), rng.randint(low, low + size))
    puzzle = Puzzle(tuple(v if c in keep else 0 for c, v in enumerate(grid)), variant=variant)
    if shudu.count(puzzle, MOST_SOLUTIONS + 1) > MOST_SOLUTIONS:
        return None
    return puzzle


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}{s[1] or ''}")
def test_refutations_hold_in_every_fitting_solution(shape: tuple[int, str | None]) -> None:
    statuses: set[str] = set()
    for seed in range(4):
        puzzle = _random_puzzle(seed, *shape)
        if puzzle is None:
            continue
        solutions = all_solutions(puzzle)
        rng = random.Random(seed)
        for _ in range(2):
            statuses |= {found.status for found in ask(_state(puzzle, solutions, rng), solutions, rng)}
    assert "refuted" in statuses


@pytest.mark.parametrize("seed", range(6))
def test_refutations_on_killer_puzzles(seed: int) -> None:
    puzzle = _killer(seed, (4, 6, 6, 9, 9, 9)[seed])
    rng = random.Random(seed)
    grid = next(shudu.solutions(puzzle)).cells
    cells = list(puzzle.cells)
    while shudu.count(Puzzle(tuple(cells), variant=puzzle.variant), MOST_SOLUTIONS + 1) > MOST_SOLUTIONS:
        c = rng.choice([c for c, v in enumerate(cells) if not v])  # a given more, from a solution
        cells[c] = grid[c]
    puzzle = Puzzle(tuple(cells), variant=puzzle.variant)
    solutions = all_solutions(puzzle)
    statuses: set[str] = set()
    for _ in range(3):
        statuses |= {found.status for found in ask(_state(puzzle, solutions, rng), solutions, rng)}
    assert statuses & {"refuted", "possible"}


def test_every_wrong_candidate_of_a_hard_puzzle_is_refuted() -> None:
    puzzle = shudu.parse_puzzle(HARD)
    solutions = all_solutions(puzzle)
    board = Board(puzzle, (0,) * 81)
    grid = board.grid()
    rng = random.Random(43)
    wrong = [(c, d) for c in range(81) for d in grid.candidates(c) if d != solutions[0][c]]
    for cell, digit in rng.sample(wrong, 25):
        assert check(board, solutions, cell, digit).status == "refuted"


def test_kept_listings_give_the_same_refutations(monkeypatch: pytest.MonkeyPatch) -> None:
    """The refuter keeps each listing it runs to its end, stops one where it has what it needs,
    and shares the logic engine's per-grid memory through the call: the refutations are those
    of listing every technique afresh each time (the steps, in order, and their rating)."""
    puzzle = shudu.parse_puzzle(HARD)
    grid = Board(puzzle, (0,) * 81).grid()
    solution = all_solutions(puzzle)[0]
    rng = random.Random(7)
    wrong = rng.sample([(c, d) for c in range(81) for d in grid.candidates(c) if d != solution[c]], 8)
    kept = [shudu.why_not(puzzle, c, d) for c, d in wrong]

    def afresh(self: why.Shortener, grid: CandidateGrid, technique: str) -> Iterator[Step]:
        self.listings += 1
        return iter(shudu.find_steps(grid, technique, uniqueness=self.unique).steps)

    with monkeypatch.context() as patch:
        patch.setattr(why.Shortener, "steps_of", afresh)
        patch.setattr(why, "memo_scope", contextlib.nullcontext)
        fresh = [shudu.why_not(puzzle, c, d) for c, d in wrong]
    for one, other in zip(kept, fresh, strict=True):
        assert (one.status, one.method, one.se) == (other.status, other.method, other.se)
        assert [s.explanation for s in one.steps] == [s.explanation for s in other.steps]


def test_the_answers_in_words() -> None:
    puzzle = shudu.parse_puzzle(HARD)
    found = shudu.why_not(puzzle, "r1c2", 6)
    assert found.status == "refuted" and found.method == "steps"
    assert str(found).startswith("r1c2 cannot be 6: 2 steps, the hardest Locked candidates (pointing)")
    assert json.loads(json.dumps(found.to_json()))["cell"] == "r1c2"
    assert shudu.why_not(puzzle, "r1c2", 4).reason == "r1c2 cannot be 4: r1c1 holds 4 in row 1"
    assert shudu.why_not(puzzle, 0, "4").status == "placed"
    assert shudu.why_not(puzzle, "r1c1", 5).reason == "r1c1 cannot be 5: it holds 4"
    several = shudu.why_not("1...........2...", "r1c2", 2)
    assert several.status == "possible" and several.solution is not None and several.solution[1] == 2
    marks = shudu.why_not({"givens": "1" + "." * 15, "pencil": {"r1c2": "34"}}, "r1c2", 2)
    assert marks.reason == "r1c2 cannot be 2: the pencil marks of r1c2 leave 2 out"
    cage = Rule("cage", (2, 11, 12), (15,))  # r1c3, r2c3, r2c4: r1c3 and r2c4 share no house
    killer = Puzzle((0, 0, 5) + (0,) * 78, variant=get_variant("standard", 9).with_rules([cage], 9))
    assert shudu.why_not(killer, "r2c4", 5).reason == (
        "r2c4 cannot be 5: r1c3 holds 5 in the killer cage r1c3-r2c3-r2c4 (total 15)"
    )


def test_the_contradictions_hold() -> None:
    """Each contradiction found beside a path (the digit placed, then singles, or singles with
    locked candidates and pairs) holds step by step and breaks the grid."""
    puzzle = shudu.parse_puzzle(HARD)
    solutions = all_solutions(puzzle)
    board = Board(puzzle, (0,) * 81)
    checked = 0
    for cell in range(27):
        for digit in board.grid().candidates(cell):
            if digit == solutions[0][cell]:
                continue
            found = check(board, solutions, cell, digit)
            if found.method == "steps" and found.contradiction:
                grid = board.grid()
                grid.place(cell, digit)
                for step in found.contradiction:
                    assert _holds(grid, step), step.explanation
                    grid.apply(step)
                assert broken(grid)
                checked += 1
    assert checked


def _holds(grid: CandidateGrid, step: Step) -> bool:
    """A single checked as such; another step found by the engine on ``grid`` with its effect."""
    if step.technique.name in ("Full house", "Naked single", "Hidden single"):
        ((c, d),) = step.placements
        return _single_holds(grid, c, d)
    return any(
        set(step.eliminations) <= set(s.eliminations) and set(step.placements) <= set(s.placements)
        for s in shudu.find_steps(grid, step.technique.name)
    )


def test_bad_cells_and_digits_are_refused() -> None:
    for cell in ("r10c1", 81, -1, "x", True, "r0c1"):
        with pytest.raises(OptionError, match="cell"):
            shudu.why_not(HARD, cell, 1)  # type: ignore[arg-type]
    for digit in (0, 10, "a", "12", None, 1.5):
        with pytest.raises(OptionError, match="digit"):
            shudu.why_not(HARD, "r1c2", digit)
    assert shudu.why_not("1" + "." * 15, "r4c4", "4").status == "possible"


def test_the_budget_says_timeout() -> None:
    found = shudu.why_not(HARD, "r7c1", 8, node_limit=1)
    assert found.status == "timeout"
    assert shudu.why_not(HARD, "r7c1", 8, timeout=1e-9).status == "timeout"
    with pytest.raises(OptionError):
        shudu.why_not(HARD, "r7c1", 8, timeout=-1)


def run(*args: str) -> tuple[int, str, str]:
    import io

    out, err = io.StringIO(), io.StringIO()
    status = main(list(args), stdout=out, stderr=err)
    return int(status), out.getvalue(), err.getvalue()


def test_the_command() -> None:
    status, out, _ = run("why-not", "r1c2", "6", HARD)
    assert status == 0 and out.startswith("r1c2 cannot be 6: 2 steps") and "  1. " in out
    status, out, _ = run("why-not", "r1c2", "6", HARD, "--format", "json")
    record = json.loads(out)
    assert status == 0 and record["status"] == "refuted" and len(record["steps"]) == 2
    status, out, err = run("why-not", "r10c1", "6", HARD)
    assert status == 2 and "cell" in err and "r10c1" in err
    status, out, err = run("why-not", "r1c2", "x", HARD)
    assert status == 2 and "digit" in err
    status, out, _ = run("why-not", "r1c2", "2", "1...........2...")
    assert status == 0 and out.startswith("r1c2 can be 2")
