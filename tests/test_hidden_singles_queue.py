"""Hidden singles on HoDoKu's path: one at a time, the one waiting longest first, then full
houses and naked singles again (``singles_tallies.HIDDEN_ONE``)."""

from __future__ import annotations

import pytest

from shudu import parse_puzzle, rate
from shudu.logic.engine import propagate
from shudu.logic.engine.grid import CandidateGrid
from shudu.logic.rating import se_order
from shudu.logic.solver import rounds
from shudu.logic.table import techniques
from shudu.logic.techniques import singles, singles_tallies

from conftest import shared_lines

#: HoDoKu rates this puzzle Hard, 1592 points (12 hidden singles). Placing each round's hidden
#: singles all at once counted 14 of them (1612 points, over Hard's limit of 1600: Unfair).
HODOKU_HARD = ".....6.4.3......89.893.....61......79..26.......5..9....7.9...5...85..1.2........"

EASIER = (singles_tallies.FULL_HOUSE, singles_tallies.NAKED)


def _easier(grid: CandidateGrid, cell: int, digit: int) -> tuple[int, int]:
    """How many cells full houses and naked singles fill after ``digit`` goes in ``cell``, and
    the open cells they leave (by placing one single at a time, which ends where rounds do)."""
    trial = grid.copy()
    trial.place(cell, digit)
    filled = 0
    while True:
        step = singles.find_full_house(trial) or singles.find_naked_single(trial)
        if step is None:
            return filled, trial.empty
        trial.apply(step)
        filled += 1


def test_a_hidden_single_that_becomes_naked_meanwhile_counts_as_naked() -> None:
    result = rate(HODOKU_HARD, steps=True)
    assert result.level == "hard"
    assert sum(step.technique.name == "Hidden single" for step in result.steps) < 14


#: The puzzles whose paths are checked: (shared file, every how many lines, which of those), or
#: None for HODOKU_HARD (read when the test runs, so that a missing file skips only its cases).
PATHS = [None, *(("royle_17clue.txt", 499, i) for i in range(6))]
PATHS += [("forum_hardest_1106.txt", 97, i) for i in range(3)]


@pytest.mark.parametrize("source", PATHS, ids=lambda s: "hodoku_hard" if s is None else f"{s[0]}:{s[2]}")
def test_each_round_of_hidden_singles_is_hodokus(source: tuple[str, int, int] | None) -> None:
    """Every hidden single of the path is taken when no full house or naked single is left; a
    round's hidden singles each fill as many cells by those as any other placed then could,
    and leave different grids (else one of them would be a naked single after the other)."""
    if source is None:
        line = HODOKU_HARD
    else:
        name, step, index = source
        line = shared_lines(name, index + 1, step=step)[index].split()[0]
    puzzle = parse_puzzle(line)
    grid = CandidateGrid.from_values(puzzle.geometry, list(puzzle.cells))
    seen = 0
    before = grid.copy()
    for batch in rounds(grid, techniques()):
        if batch[0].technique.name == "Hidden single":
            seen += 1
            assert singles.find_full_house(before) is None
            assert singles.find_naked_single(before) is None
            every = {step.placements[0] for step in singles.iter_hidden_single(before)}
            placed = [step.placements[0] for step in batch]
            assert set(placed) <= every
            fills = {place: _easier(before, *place) for place in every}
            counts = {fills[place][0] for place in placed}
            assert len(counts) == 1
            assert len({fills[place][1] for place in placed}) == len(placed)
        before = grid.copy()
    assert seen


def _grid_with_hidden_singles(minimum: int) -> CandidateGrid:
    """A solving state of a 17-clue puzzle with at least ``minimum`` hidden singles."""
    for line in shared_lines("royle_17clue.txt", 40, step=37):
        puzzle = parse_puzzle(line.split()[0])
        grid = CandidateGrid.from_values(puzzle.geometry, list(puzzle.cells))
        singles_tallies.run(grid, EASIER)
        if len(list(singles.iter_hidden_single(grid))) >= minimum:
            return grid
    pytest.skip("no state with enough hidden singles in the sample")


@pytest.mark.parametrize("run", [singles_tallies.run, singles_tallies.run_py])
def test_the_hidden_single_waiting_longest_goes_first(run: object) -> None:
    grid = _grid_with_hidden_singles(3)
    places = [step.placements[0] for step in singles.iter_hidden_single(grid)]
    fills = {place: _easier(grid, *place)[0] for place in places}
    old = min(places, key=lambda place: (fills[place], place))  # the least useful one
    queue = singles_tallies.Waiting(grid)
    queue.rounds = 1
    queue.since[old[0] * grid.size + old[1] - 1] = 1
    trial = grid.copy()
    assert run(trial, (singles_tallies.HIDDEN_ONE,), 1, queue) == (singles_tallies.ROUNDS, [(0, 1)])  # type: ignore[operator]
    assert trial.values[old[0]] == old[1]
    assert queue.rounds == 2
    assert all(queue.since[cell * grid.size + digit - 1] in (1, 2) for cell, digit in places)


def test_without_a_waiting_list_hidden_singles_cannot_go_one_at_a_time() -> None:
    grid = _grid_with_hidden_singles(1)
    other = CandidateGrid.from_values(parse_puzzle("." * 16).geometry, [0] * 16)
    for queue in (None, singles_tallies.Waiting(other)):
        with pytest.raises(ValueError, match="queue"):
            singles_tallies.run(grid.copy(), (singles_tallies.HIDDEN_ONE,), 0, queue)
    core, capsule = propagate.c_core(), propagate.c_tables(grid.geometry)
    if core is None or capsule is None:
        pytest.skip("the C core does not run (not built, or SHUDU_IMPLEMENTATION=python)")
    args = (capsule, grid.cands, grid.where, grid.placed, grid.values, grid.empty)
    with pytest.raises(ValueError, match="waiting"):
        core.singles(*args, bytes([singles_tallies.HIDDEN_ONE]), 0, bytearray(12), 0)
    with pytest.raises(BufferError):  # read only
        core.singles(*args, bytes([singles_tallies.HIDDEN_ONE]), 0, b"x" * (4 * 81 * 9), 0)


def test_sudoku_explainers_path_still_takes_every_hidden_single_at_once() -> None:
    puzzle = parse_puzzle(HODOKU_HARD)
    grid = CandidateGrid.from_values(puzzle.geometry, list(puzzle.cells))
    sizes = [
        len(batch)
        for batch in rounds(grid, se_order(uniqueness=False), easiest=True)
        if batch[0].technique.name == "Hidden single"
    ]
    assert max(sizes) > 1
