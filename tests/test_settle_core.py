"""The C parts of the logic engine against their Python specifications.

The forcing nets' propagation, the rounds of singles the ratings play in one go, the patterns
of locked candidates and naked and hidden subsets, the conclusions of the forcing chains over
direct links, the forcing searches, the basic fish, the ALS finders, and the chains'
breadth-first search.

``propagate.settle`` runs in the C core when it is built; ``propagate._settle_py`` is the Python
code it must match. On random candidate states of real puzzles (standard and variant 9x9 grids,
smaller ones too), with random assumptions, ``quiet`` where it holds, ``limit`` and the net rules,
both must leave the same grid and report the same outcome, field by field.
"""

from __future__ import annotations

import random
import zlib

import pytest

from logic_states import PUZZLES, grid_fields, hard_states, random_state
from shudu import parse_puzzle, rate, solve
from shudu.geometry import Geometry
from shudu.logic.engine import propagate
from shudu.logic.engine.grid import CandidateGrid, start_py
from shudu.logic.engine.propagate import STOPPED, Outcome, Rule, is_quiet, settle
from shudu.logic.techniques import intersections, singles_tallies, subsets
from shudu.logic.techniques.netrules import NET_RULES

from conftest import C_CORE, KNOWN, needs_c, shared_lines

CORE = C_CORE
needs_core = needs_c


def _same(
    grid: CandidateGrid, rules: tuple[Rule, ...], start: tuple[int, int] | None, quiet: bool, limit: int
) -> str:
    """Run both paths on copies of ``grid``; assert they agree; a word for the outcome."""
    mine, spec = grid.copy(), grid.copy()
    got = settle(mine, rules, start=start, quiet=quiet, limit=limit)
    want = propagate._settle_py(spec, rules, start=start, quiet=quiet, limit=limit)
    assert (got is STOPPED) == (want is STOPPED)
    assert got.steps == want.steps
    assert (got.grid is None) == (want.grid is None)
    if want.grid is not None:
        assert got.grid is mine
    assert grid_fields(mine) == grid_fields(spec)
    return "stopped" if want is STOPPED else "broken" if want.grid is None else "settled"


def _differential(
    geometry: Geometry, givens: list[int], solution: list[int], seed: int, rounds: int
) -> set[str]:
    rng = random.Random(seed)
    seen = set()
    for _ in range(rounds):
        grid = random_state(geometry, givens, solution, rng)
        open_cells = [c for c in range(geometry.ncells) if not grid.values[c]]
        for rules in ((), NET_RULES, NET_RULES[:1], NET_RULES[:3]):
            limit = rng.choice((0, 0, 1, 2, 5))
            start = None
            if open_cells and rng.random() < 0.8:
                cell = rng.choice(open_cells)
                digits = [d + 1 for d in range(geometry.size) if grid.cands[cell] >> d & 1]
                start = (cell, rng.choice(digits or [1]))
            seen.add(_same(grid, rules, start, False, limit))
            # a quiet grid: settled first (no single left), then an assumption on it
            after = propagate._settle_py(grid.copy(), rules)
            if after.grid is not None and is_quiet(after.grid) and after.grid.empty:
                quiet_grid = after.grid
                cell = rng.choice([c for c in range(geometry.ncells) if quiet_grid.empty >> c & 1])
                digits = [d + 1 for d in range(geometry.size) if quiet_grid.cands[cell] >> d & 1]
                seen.add(_same(quiet_grid, rules, (cell, rng.choice(digits)), True, limit))
    return seen


@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_settle_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    if geometry.ncells > 128:  # beyond the C tables: both paths are the Python one
        _differential(geometry, givens, solution, zlib.crc32(ident.encode()), 2)
        return
    seen = _differential(geometry, givens, solution, zlib.crc32(ident.encode()), 40)
    assert "broken" in seen and "settled" in seen


def test_c_and_python_settle_agree_on_hard_puzzles() -> None:
    lines = shared_lines("forum_hardest_1106.txt", 12, step=90)
    lines += shared_lines("royle_17clue.txt", 6, step=997)
    seen: set[str] = set()
    for i, line in enumerate(lines):
        puzzle = parse_puzzle(line.split()[0][:81])
        result = solve(puzzle).solution
        assert result is not None
        solution = list(result.cells)
        seen |= _differential(puzzle.geometry, list(puzzle.cells), solution, i, 25)
    assert seen == {"broken", "settled", "stopped"}


@pytest.mark.parametrize("name", ["variant_x.txt", "variant_windoku.txt", "variant_pyramid.txt"])
def test_c_and_python_settle_agree_on_variants(name: str) -> None:
    variant = name.removeprefix("variant_").removesuffix(".txt")
    for i, line in enumerate(shared_lines(name, 4, step=7)):
        puzzle = parse_puzzle(line.split()[0][:81], variant=variant)
        result = solve(puzzle)
        if result.solution is None:
            continue
        _differential(puzzle.geometry, list(puzzle.cells), list(result.solution.cells), i, 15)


@needs_core
def test_every_9x9_geometry_runs_in_c() -> None:
    for ident, geometry, _, _ in PUZZLES:
        if geometry.size == 9:
            assert propagate._c_tables(geometry) is not None, ident


@needs_core
def test_rules_other_than_the_net_rules_stay_in_python() -> None:
    calls = []

    def rule(grid: CandidateGrid) -> list[tuple[int, int]]:
        calls.append(grid.empty)
        return []

    _, geometry, givens, _ = next(p for p in PUZZLES if p[1].size == 9)
    grid = CandidateGrid.from_values(geometry, givens)
    assert propagate._net_prefix((rule,)) == -1
    assert propagate._net_prefix((*NET_RULES, rule)) == -1
    assert propagate._net_prefix(NET_RULES[1:2]) == -1
    assert propagate._net_prefix(NET_RULES[:2]) == 2
    out = settle(grid.copy(), (rule,))
    assert calls and isinstance(out, Outcome)


@needs_core
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_build_the_same_start_grid(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    """The grid of some placed digits, built by the C core and by its specification
    (``grid.start_py``), and the grid ``propagate.start_grid`` makes of them (a geometry with
    peers beyond its houses builds its grid in Python): the givens, random parts of the solution, and random digits that may
    clash (a player's board can hold a wrong one)."""
    capsule = propagate._c_tables(geometry)
    if capsule is None:
        pytest.skip(f"{ident}: the C tables do not take this geometry")
    assert CORE is not None
    rng = random.Random(zlib.crc32(ident.encode()))
    boards = [givens, solution, [0] * geometry.ncells]
    for _ in range(30):
        share = rng.random()
        boards.append([v if rng.random() < share else 0 for v in solution])
        boards.append([rng.randint(1, geometry.size) if rng.random() < share / 3 else 0 for _ in solution])
    for values in boards:
        assert CORE.start(capsule, list(values)) == start_py(geometry, values)
        grid = propagate.start_grid(geometry, values)
        assert grid_fields(grid) == grid_fields(CandidateGrid.from_values(geometry, values))
        assert grid.givens == CandidateGrid.from_values(geometry, values).givens
    with pytest.raises(ValueError, match="out of range"):
        CORE.start(capsule, [geometry.size + 1] + [0] * (geometry.ncells - 1))
    with pytest.raises(ValueError, match="do not match"):
        CORE.start(capsule, list(givens)[:-1])
    with pytest.raises(ValueError, match="do not match"):
        CORE.start(capsule, tuple(givens))


@needs_core
def test_c_settle_rejects_a_grid_of_another_shape() -> None:
    _, geometry, givens, _ = next(p for p in PUZZLES if p[1].size == 9)
    grid = CandidateGrid.from_values(geometry, givens)
    capsule = propagate._c_tables(geometry)
    assert CORE is not None
    with pytest.raises(ValueError, match="does not match"):
        CORE.settle(
            capsule, grid.cands[:-1], grid.where, grid.placed, grid.values, grid.empty, -1, 0, False, 0, 0
        )
    with pytest.raises(ValueError, match="out of range"):
        CORE.settle(capsule, grid.cands, grid.where, grid.placed, grid.values, grid.empty, 0, 10, False, 0, 0)
    with pytest.raises(TypeError):
        CORE.settle(capsule, grid.cands)


def _rating(line: str, variant: str | None = None) -> tuple[object, ...]:
    rating = rate(line, steps=True, variant=variant)
    steps = [step.to_json() for step in rating.steps]
    return rating.status, rating.se, rating.level, rating.score, rating.hardest, rating.complete, steps


@needs_core
@pytest.mark.parametrize(
    ("name", "variant"),
    [("forum_hardest_1106.txt", None), ("variant_x.txt", "x"), ("variant_windoku.txt", "windoku")],
)
def test_ratings_are_the_same_with_the_c_propagation(
    name: str, variant: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    line = shared_lines(name, 1)[0].split()[0]
    with_c = _rating(line, variant)
    monkeypatch.setattr(propagate, "USE_C", False)
    assert _rating(line, variant) == with_c


# --- rounds of singles (shudu.logic.techniques.singles_tallies) ------------------------------------------


def _same_rounds(grid: CandidateGrid, kinds: tuple[int, ...], max_rounds: int, rng: random.Random) -> int:
    """Run the C and Python rounds of singles on copies of ``grid``; assert they agree (with
    hidden singles one at a time, also on the queue, which starts with some waiting)."""
    mine, spec = grid.copy(), grid.copy()
    queues = singles_tallies.Waiting(grid), singles_tallies.Waiting(grid)
    queues[0].rounds = queues[1].rounds = rounds = rng.randrange(4)
    for at in rng.sample(range(len(queues[0].since)), 12) if rounds else ():
        queues[0].since[at] = queues[1].since[at] = rng.randint(1, rounds)
    got = singles_tallies.run(mine, kinds, max_rounds, queues[0])
    want = singles_tallies.run_py(spec, kinds, max_rounds, queues[1])
    assert got == want
    assert grid_fields(mine) == grid_fields(spec)
    assert (queues[0].rounds, queues[0].since) == (queues[1].rounds, queues[1].since)
    return want.code


KIND_ORDERS = (
    (singles_tallies.FULL_HOUSE, singles_tallies.NAKED, singles_tallies.HIDDEN),  # HoDoKu's
    (singles_tallies.FULL_HOUSE, singles_tallies.BOX, singles_tallies.HIDDEN),  # Sudoku Explainer's
    (singles_tallies.NAKED,),
    (singles_tallies.BOX, singles_tallies.NAKED),
    (singles_tallies.HIDDEN, singles_tallies.FULL_HOUSE),
    (singles_tallies.FULL_HOUSE, singles_tallies.NAKED, singles_tallies.HIDDEN_ONE),  # HoDoKu's path
    (singles_tallies.HIDDEN_ONE, singles_tallies.BOX),
)


def _singles_differential(
    geometry: Geometry, givens: list[int], solution: list[int], seed: int, rounds: int
) -> set[int]:
    rng = random.Random(seed)
    seen = set()
    for _ in range(rounds):
        grid = random_state(geometry, givens, solution, rng)
        for kinds in KIND_ORDERS:
            seen.add(_same_rounds(grid, kinds, rng.choice((0, 0, 1, 3)), rng))
    return seen


@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_singles_rounds_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    seen = _singles_differential(geometry, givens, solution, zlib.crc32(ident.encode()), 6)
    assert singles_tallies.SETTLED in seen


def test_c_and_python_singles_rounds_agree_on_hard_puzzles_and_variants() -> None:
    seen: set[int] = set()
    cases = [(line, None) for line in shared_lines("forum_hardest_1106.txt", 8, step=130)]
    cases += [(line, None) for line in shared_lines("royle_17clue.txt", 8, step=997)]
    for name in ("variant_x.txt", "variant_windoku.txt", "variant_pyramid.txt"):
        variant = name.removeprefix("variant_").removesuffix(".txt")
        cases += [(line, variant) for line in shared_lines(name, 3, step=11)]
    for i, (line, variant) in enumerate(cases):
        puzzle = parse_puzzle(line.split()[0][:81], variant=variant)
        result = solve(puzzle).solution
        if result is None:
            continue
        seen |= _singles_differential(puzzle.geometry, list(puzzle.cells), list(result.cells), i, 20)
    assert seen == {singles_tallies.SETTLED, singles_tallies.CLASH, singles_tallies.ROUNDS}


def test_a_round_whose_singles_clash_is_left_undone() -> None:
    """Two cells of a row whose only candidate is the same digit: no round is played."""
    puzzle = parse_puzzle("1" + "." * 80)
    grid = CandidateGrid.from_values(puzzle.geometry, list(puzzle.cells))
    for cell in (1, 2):
        for digit in range(1, 10):
            if digit != 5:
                grid.eliminate(cell, digit)
    for run in (singles_tallies.run, singles_tallies.run_py):
        trial = grid.copy()
        assert run(trial, (singles_tallies.NAKED,)) == (singles_tallies.CLASH, [])
        assert grid_fields(trial) == grid_fields(grid)


def _same_ratings(cases: list[tuple[object, str | None]]) -> None:
    for puzzle, variant in cases:
        lean, full = rate(puzzle, variant=variant), rate(puzzle, steps=True, variant=variant)
        got = (lean.status, lean.level, lean.score, lean.se, lean.hardest)
        assert got == (full.status, full.level, full.score, full.se, full.hardest), puzzle


@pytest.mark.parametrize("use_c", [True, False], ids=["c", "python"])
def test_ratings_from_tallies_match_the_step_paths(monkeypatch: pytest.MonkeyPatch, use_c: bool) -> None:
    """``rate`` without steps sums the rounds up (singles played in one go); with steps it walks
    every step: both give the same level, score, rating and hardest step."""
    monkeypatch.setattr(propagate, "USE_C", use_c)
    _same_ratings([(known.puzzle(), None) for known in KNOWN if known.count == 1][:25])


def test_ratings_from_tallies_match_the_step_paths_on_shared_sets() -> None:
    cases: list[tuple[object, str | None]] = []
    cases += [(line.split()[0][:81], None) for line in shared_lines("royle_17clue.txt", 20, step=397)]
    cases += [(line.split()[0][:81], None) for line in shared_lines("magictour_top1465.txt", 3, step=487)]
    for name in ("variant_x.txt", "variant_windoku.txt", "variant_pyramid.txt"):
        variant = name.removeprefix("variant_").removesuffix(".txt")
        cases += [(line.split()[0][:81], variant) for line in shared_lines(name, 3, step=13)]
    _same_ratings(cases)


# --- patterns of the basic techniques (intersections.locked, subsets.naked and hidden) ---------


def _same_patterns(grid: CandidateGrid) -> int:
    """The C core's locked candidates and subsets are the Python code's, in the same order."""
    count = 0
    for pointing in (True, False):
        want = list(intersections.locked_py(grid, pointing=pointing))
        assert list(intersections.locked(grid, pointing=pointing)) == want
        count += len(want)
    for k in (2, 3, 4):
        for locked in (False, True) if k < 4 else (False,):
            want_naked = list(subsets.naked_py(grid, k, locked=locked))
            assert list(subsets.naked(grid, k, locked=locked)) == want_naked
            count += len(want_naked)
        want_hidden = list(subsets.hidden_py(grid, k))
        assert list(subsets.hidden(grid, k)) == want_hidden
        count += len(want_hidden)
    return count


@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_basic_patterns_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    rng = random.Random(zlib.crc32(ident.encode()))
    found = sum(_same_patterns(random_state(geometry, givens, solution, rng)) for _ in range(6))
    assert found or geometry.size < 6


def test_c_and_python_basic_patterns_agree_on_hard_puzzles_and_variants() -> None:
    for grid in hard_states(10, 110, 3, 17, 11, 10):
        _same_patterns(grid)
