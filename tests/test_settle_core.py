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
from collections import defaultdict
from collections.abc import Callable, Collection, Iterator
from functools import partial

import pytest

from shudu import parse_puzzle, rate, solve
from shudu.geometry import Geometry
from shudu.logic import (
    als,
    als_find,
    chains,
    complex_fish,
    fish,
    forcing,
    intersections,
    loop_graph,
    loops,
    nishio,
    propagate,
    singles_rounds,
    static_forcing,
    subsets,
)
from shudu.logic.budget import LogicTimeout, limits, nodes_used
from shudu.logic.grid import CandidateGrid, start_py
from shudu.logic.memo import memo_scope
from shudu.logic.netrules import NET_RULES
from shudu.logic.propagate import STOPPED, Outcome, Rule, is_quiet, settle
from shudu.logic.techniques import EVERY_FINDER

from conftest import C_CORE, KNOWN, needs_c, shared_lines

CORE = C_CORE
needs_core = needs_c


def _state(geometry: Geometry, values: list[int], solution: list[int], rng: random.Random) -> CandidateGrid:
    """A random candidate state: the solution's candidates kept (except, sometimes, one, for a
    contradiction), others removed at random, a few solution digits placed."""
    base = CandidateGrid.from_values(geometry, values)
    keep = rng.choice((0.5, 0.8, 0.95, 1.0, 1.0, 1.0))
    placed = list(values)
    fill = rng.choice((0.0, 0.0, 0.05, 0.15))
    for cell in range(geometry.ncells):
        if not placed[cell] and rng.random() < fill:
            placed[cell] = solution[cell]
    grid = CandidateGrid.from_values(geometry, placed)
    cands = list(grid.cands)
    for cell in range(geometry.ncells):
        if placed[cell]:
            continue
        own = 1 << (solution[cell] - 1)
        others = cands[cell] & ~own & base.cands[cell]
        kept = own
        for d in range(geometry.size):
            if others >> d & 1 and rng.random() < keep:
                kept |= 1 << d
        cands[cell] = kept
    if rng.random() < 0.15:  # break it: a solution digit goes
        cell = rng.choice([c for c in range(geometry.ncells) if not placed[c]] or [0])
        cands[cell] &= ~(1 << (solution[cell] - 1)) if not placed[cell] else cands[cell]
    return CandidateGrid(geometry, placed, cands)


def _fields(grid: CandidateGrid) -> tuple[object, ...]:
    return (list(grid.cands), list(grid.where), list(grid.values), list(grid.placed), grid.empty)


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
    assert _fields(mine) == _fields(spec)
    return "stopped" if want is STOPPED else "broken" if want.grid is None else "settled"


def _puzzles() -> list[tuple[str, Geometry, list[int], list[int]]]:
    """(id, geometry, givens, solution) of every unique puzzle of the known-answer file."""
    out = []
    for known in KNOWN:
        if known.count != 1 or not known.solution:
            continue
        puzzle = known.puzzle()
        givens = list(puzzle.cells)
        result = solve(puzzle).solution
        assert result is not None
        solution = list(result.cells)
        out.append((known.id, puzzle.geometry, givens, solution))
    return out


PUZZLES = _puzzles()


def _differential(
    geometry: Geometry, givens: list[int], solution: list[int], seed: int, rounds: int
) -> set[str]:
    rng = random.Random(seed)
    seen = set()
    for _ in range(rounds):
        grid = _state(geometry, givens, solution, rng)
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
        assert _fields(grid) == _fields(CandidateGrid.from_values(geometry, values))
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


# --- rounds of singles (shudu.logic.singles_rounds) ------------------------------------------


def _same_rounds(grid: CandidateGrid, kinds: tuple[int, ...], max_rounds: int, rng: random.Random) -> int:
    """Run the C and Python rounds of singles on copies of ``grid``; assert they agree (with
    hidden singles one at a time, also on the queue, which starts with some waiting)."""
    mine, spec = grid.copy(), grid.copy()
    queues = singles_rounds.Waiting(grid), singles_rounds.Waiting(grid)
    queues[0].rounds = queues[1].rounds = rounds = rng.randrange(4)
    for at in rng.sample(range(len(queues[0].since)), 12) if rounds else ():
        queues[0].since[at] = queues[1].since[at] = rng.randint(1, rounds)
    got = singles_rounds.run(mine, kinds, max_rounds, queues[0])
    want = singles_rounds.run_py(spec, kinds, max_rounds, queues[1])
    assert got == want
    assert _fields(mine) == _fields(spec)
    assert (queues[0].rounds, queues[0].since) == (queues[1].rounds, queues[1].since)
    return want.code


KIND_ORDERS = (
    (singles_rounds.FULL_HOUSE, singles_rounds.NAKED, singles_rounds.HIDDEN),  # HoDoKu's
    (singles_rounds.FULL_HOUSE, singles_rounds.BOX, singles_rounds.HIDDEN),  # Sudoku Explainer's
    (singles_rounds.NAKED,),
    (singles_rounds.BOX, singles_rounds.NAKED),
    (singles_rounds.HIDDEN, singles_rounds.FULL_HOUSE),
    (singles_rounds.FULL_HOUSE, singles_rounds.NAKED, singles_rounds.HIDDEN_ONE),  # HoDoKu's path
    (singles_rounds.HIDDEN_ONE, singles_rounds.BOX),
)


def _singles_differential(
    geometry: Geometry, givens: list[int], solution: list[int], seed: int, rounds: int
) -> set[int]:
    rng = random.Random(seed)
    seen = set()
    for _ in range(rounds):
        grid = _state(geometry, givens, solution, rng)
        for kinds in KIND_ORDERS:
            seen.add(_same_rounds(grid, kinds, rng.choice((0, 0, 1, 3)), rng))
    return seen


@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_singles_rounds_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    seen = _singles_differential(geometry, givens, solution, zlib.crc32(ident.encode()), 6)
    assert singles_rounds.SETTLED in seen


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
    assert seen == {singles_rounds.SETTLED, singles_rounds.CLASH, singles_rounds.ROUNDS}


def test_a_round_whose_singles_clash_is_left_undone() -> None:
    """Two cells of a row whose only candidate is the same digit: no round is played."""
    puzzle = parse_puzzle("1" + "." * 80)
    grid = CandidateGrid.from_values(puzzle.geometry, list(puzzle.cells))
    for cell in (1, 2):
        for digit in range(1, 10):
            if digit != 5:
                grid.eliminate(cell, digit)
    for run in (singles_rounds.run, singles_rounds.run_py):
        trial = grid.copy()
        assert run(trial, (singles_rounds.NAKED,)) == (singles_rounds.CLASH, [])
        assert _fields(trial) == _fields(grid)


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
    found = sum(_same_patterns(_state(geometry, givens, solution, rng)) for _ in range(6))
    assert found or geometry.size < 6


def _hard_states(
    hard: int, hard_step: int, variants: int, variant_step: int, seed: int, each: int
) -> Iterator[CandidateGrid]:
    """``each`` random candidate states of hardest puzzles and of the X, windoku and pyramid
    sets (``hard`` and ``variants`` lines of them, every ``*_step``-th)."""
    cases = [(line, None) for line in shared_lines("forum_hardest_1106.txt", hard, step=hard_step)]
    for name in ("variant_x.txt", "variant_windoku.txt", "variant_pyramid.txt"):
        variant = name.removeprefix("variant_").removesuffix(".txt")
        cases += [(line, variant) for line in shared_lines(name, variants, step=variant_step)]
    rng = random.Random(seed)
    for line, variant in cases:
        puzzle = parse_puzzle(line.split()[0][:81], variant=variant)
        result = solve(puzzle).solution
        if result is None:
            continue
        for _ in range(each):
            yield _state(puzzle.geometry, list(puzzle.cells), list(result.cells), rng)


def _quiet_states(states: Iterator[CandidateGrid]) -> Iterator[CandidateGrid]:
    """Each state settled (no single left), where it does not break and cells are still open."""
    for grid in states:
        settled = propagate._settle_py(grid.copy())
        if settled.grid is not None and settled.grid.empty:
            yield settled.grid


def _known_states(
    ident: str,
    geometry: Geometry,
    givens: list[int],
    solution: list[int],
    salt: int,
    count: int,
    *,
    settled: bool,
) -> list[CandidateGrid]:
    """``count`` random candidate states of a known-answer puzzle (and, with ``settled``, each
    settled); the test is skipped for a puzzle beyond the C tables, where both paths are the
    Python one."""
    if propagate._c_tables(geometry) is None:
        pytest.skip(f"{ident}: {geometry.ncells} cells, beyond the C tables")
    rng = random.Random(zlib.crc32(ident.encode()) + salt)
    states = [_state(geometry, givens, solution, rng) for _ in range(count)]
    return [*states, *_quiet_states(iter(states))] if settled else states


def test_c_and_python_basic_patterns_agree_on_hard_puzzles_and_variants() -> None:
    for grid in _hard_states(10, 110, 3, 17, 11, 10):
        _same_patterns(grid)


# --- the forcing chains over direct links (static_forcing._conclusions) -----------------------


def _same_conclusions(grid: CandidateGrid) -> int:
    """The C core's direct forcing conclusions are the Python code's, in the same order, and
    the grid is left as it was."""
    before = _fields(grid)
    want = static_forcing._conclusions_py(grid)[1]
    assert static_forcing._conclusions(grid)[1] == want
    assert _fields(grid) == before
    return len(want)


@needs_core
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_direct_forcing_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    grids = _known_states(ident, geometry, givens, solution, 0, 4, settled=False)
    assert sum(_same_conclusions(grid) for grid in grids) or geometry.size < 6


@needs_core
def test_c_and_python_direct_forcing_agree_on_hard_puzzles_and_variants() -> None:
    assert sum(_same_conclusions(grid) for grid in _hard_states(8, 130, 3, 19, 13, 6))


@needs_core
def test_direct_forcing_counts_its_choices_against_the_budget() -> None:
    """The C walk counts one unit of work a choice, as the Python walk does, so a node limit
    stops both at the same call."""
    _, geometry, givens, _ = next(p for p in PUZZLES if p[1].size == 9 and p[2].count(0) > 50)
    grid = CandidateGrid.from_values(geometry, givens)
    choices = len(list(static_forcing._choices(grid)))
    for conclusions in (static_forcing._conclusions, static_forcing._conclusions_py):
        with limits(node_limit=choices):
            conclusions(grid)
        with pytest.raises(LogicTimeout), limits(node_limit=choices - 1):
            conclusions(grid)


# --- the forcing chains and nets (forcing._found) ---------------------------------------------


def _same_forcing(grid: CandidateGrid) -> int:
    """The C core's forcing outcomes are the Python code's, on ``grid`` as it is and settled
    (quiet, where verities are found), with and without the net's rules and the contradictions,
    and the grid is left as it was. Returns how many steps they found."""
    count = 0
    settled = propagate._settle_py(grid.copy())
    grids = [grid] + ([settled.grid] if settled.grid is not None and settled.grid.empty else [])
    for one in grids:
        before = _fields(one)
        quiet = is_quiet(one)
        for rules in ((), NET_RULES, NET_RULES[:2]):
            for contradictions in (True, False):
                kw = {"quiet": quiet, "contradictions": contradictions}
                want = forcing._found_py(one, rules, **kw)
                assert forcing._found(one, rules, **kw) == want
                count += len(want.ties) + len(want.verities)
        assert _fields(one) == before
    return count


@needs_core
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_forcing_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    grids = _known_states(ident, geometry, givens, solution, 1, 2, settled=False)
    assert sum(_same_forcing(grid) for grid in grids) or geometry.size < 6


@needs_core
def test_c_and_python_forcing_agree_on_hard_puzzles_and_variants() -> None:
    assert sum(_same_forcing(grid) for grid in _hard_states(6, 170, 2, 23, 17, 3))


@needs_core
def test_forcing_steps_are_the_same_with_the_c_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole forcing chain and net listings (steps, traced nets and all) on the quiet grids of a
    hardest puzzle's path are the same with the C search and with the Python one."""
    line = shared_lines("forum_hardest_1106.txt", 1)[0].split()[0]
    puzzle = parse_puzzle(line)
    rng = random.Random(5)
    result = solve(puzzle).solution
    assert result is not None
    grids = []
    for _ in range(3):
        grid = _state(puzzle.geometry, list(puzzle.cells), list(result.cells), rng)
        settled = propagate._settle_py(grid)
        if settled.grid is not None and settled.grid.empty:
            grids.append(settled.grid)
    assert grids

    def listings() -> list[object]:
        with memo_scope():
            return [
                [step.to_json() for step in every(grid.copy())]
                for grid in grids
                for every in (forcing.iter_forcing_chain, forcing.iter_forcing_net)
            ]

    with_c = listings()
    monkeypatch.setattr(propagate, "USE_C", False)
    assert listings() == with_c
    assert any(with_c)


@needs_core
def test_forcing_counts_its_assumptions_against_the_budget() -> None:
    """The C call counts one unit of work an assumption, as the Python code does when it follows
    every assumption once (no contradiction cut short), so a node limit stops both at once."""
    _, geometry, givens, _ = next(p for p in PUZZLES if p[1].size == 9 and p[2].count(0) > 50)
    grid = CandidateGrid.from_values(geometry, givens)
    assumptions = sum(mask.bit_count() for mask in grid.cands if mask)
    for found in (forcing._found, forcing._found_py):
        with limits(node_limit=assumptions):
            found(grid, (), quiet=False, contradictions=False)
        with pytest.raises(LogicTimeout), limits(node_limit=assumptions - 1):
            found(grid, (), quiet=False, contradictions=False)


def _same_nested(grid: CandidateGrid, rng: random.Random, tries: int) -> int:
    """A nested net's assumption followed in C and in Python: the same outcome, the same work
    counted, the grid left as it was. Returns how many broke the grid with a net inside."""
    open_cands = [
        (c, d + 1) for c in range(grid.geometry.ncells) for d in range(grid.size) if grid.has(c, d + 1)
    ]
    before = _fields(grid)
    count = 0
    for cell, digit in rng.sample(open_cands, min(tries, len(open_cands))):
        outcomes = []
        for nested in (forcing._nested, forcing._nested_py):
            with limits(node_limit=10**12):
                outcomes.append((nested(grid, cell, digit, quiet=True), nodes_used()))
        assert outcomes[0] == outcomes[1]
        (broken, _, inner), used = outcomes[0]
        count += broken and inner > 0
        # one unit short of the work it takes, both stop
        if used:
            for nested in (forcing._nested, forcing._nested_py):
                with pytest.raises(LogicTimeout), limits(node_limit=used - 1):
                    nested(grid, cell, digit, quiet=True)
    assert _fields(grid) == before
    return count


@needs_core
def test_c_and_python_nested_nets_agree_on_hard_puzzles_and_variants() -> None:
    rng = random.Random(23)
    states = list(_quiet_states(_hard_states(6, 170, 2, 23, 19, 2)))
    assert sum(_same_nested(grid, rng, 3) for grid in states)


@needs_core
def test_c_and_python_find_the_same_forcing_net_contradiction_inside() -> None:
    """The rule a nested net adds (``first_contradiction`` in C, ``_first_contradiction`` its
    specification): the same candidate, the same assumptions counted, the same stop one unit
    short, the grid left as it was."""
    found = 0
    for grid in _quiet_states(_hard_states(8, 130, 3, 19, 43, 2)):
        before = _fields(grid)
        outcomes = []
        for first in (forcing.forcing_net_inside, _inside_py):
            with limits(node_limit=10**12):
                outcomes.append((first(grid), nodes_used()))
        assert outcomes[0] == outcomes[1]
        assert _fields(grid) == before
        found += bool(outcomes[0][0])
        used = outcomes[0][1]
        if used:
            for first in (forcing.forcing_net_inside, _inside_py):
                with pytest.raises(LogicTimeout), limits(node_limit=used - 1):
                    first(grid)
    assert found


def _inside_py(grid: CandidateGrid) -> list[tuple[int, int]]:
    found = forcing._first_contradiction(grid, NET_RULES, quiet=True)
    return [found] if found else []


@needs_core
def test_a_nested_net_in_c_stops_at_the_deadline() -> None:
    """Past the deadline the C core's inner searches stop, and the call says so."""
    line = shared_lines("forum_hardest_1106.txt", 1)[0].split()[0]
    puzzle = parse_puzzle(line)
    grid = CandidateGrid.from_values(puzzle.geometry, list(puzzle.cells))
    propagate.settle(grid)
    cell = next(c for c in range(grid.geometry.ncells) if grid.empty >> c & 1)
    digit = next(d + 1 for d in range(grid.size) if grid.has(cell, d + 1))
    with pytest.raises(LogicTimeout), limits(timeout=0.0):
        forcing._nested(grid, cell, digit, quiet=is_quiet(grid))


def _same_nishio(grid: CandidateGrid) -> int:
    want = nishio._shortest_py(grid)
    assert nishio._shortest(grid) == want
    return len(want[1])


@needs_core
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_nishio_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    grids = _known_states(ident, geometry, givens, solution, 2, 4, settled=True)
    assert sum(_same_nishio(grid) for grid in grids) or geometry.size < 6


@needs_core
def test_c_and_python_nishio_agree_on_hard_puzzles_and_variants() -> None:
    states = list(_hard_states(8, 130, 3, 19, 29, 4))
    assert sum(_same_nishio(grid) for grid in [*states, *_quiet_states(iter(states))])


# --- the basic fish (fish._first) ---------------------------------------------------------------


def _same_fish(grid: CandidateGrid) -> int:
    """The C core's first fish of every size, plain and finned, is the Python search's (as a
    step). Returns how many were found."""
    count = 0
    for k in (2, 3, 4):
        for finned in (False, True):
            want = next(fish._fish(grid, k, finned=finned), None)
            got = fish._first(grid, k, finned=finned)
            assert (got and got.to_json()) == (want and want.to_json()), (k, finned)
            count += want is not None
    return count


@needs_core
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_fish_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    grids = _known_states(ident, geometry, givens, solution, 4, 6, settled=True)
    assert sum(_same_fish(grid) for grid in grids) or geometry.size < 6


@needs_core
def test_c_and_python_fish_agree_on_hard_puzzles_and_variants() -> None:
    states = list(_hard_states(10, 110, 3, 17, 37, 6))
    assert sum(_same_fish(grid) for grid in [*states, *_quiet_states(iter(states))])


def _fish_walk(found: Iterator[object]) -> list[object]:
    """Each fish a search gives, with the work counted by then, and the work in all."""
    out: list[object] = []
    with limits(node_limit=10**12):
        for one in found:
            out.append((one, nodes_used()))
        out.append(nodes_used())
    return out


@needs_core
def test_c_and_python_complex_fish_agree_on_hard_puzzles_and_variants() -> None:
    """Every fish of a digit (``fishes`` in C, ``complex_fish._fishes_py`` its specification)
    over basic, Franken and Mutant pools, plain and with fins: the same fish in the same order,
    each with the same base choices counted by then."""
    rng = random.Random(47)
    found = 0
    for grid in list(_hard_states(4, 200, 2, 30, 53, 1)):
        t = grid.t
        pools = [(t.rows, t.columns), (t.columns, t.rows), *complex_fish._pools(grid, "Franken")]
        mutant = complex_fish._pools(grid, "Mutant")
        for d in rng.sample(range(grid.size), 3):
            for k, (base, cover), fins in [
                *((k, pool, fins) for k in (2, 3, 4) for pool in pools for fins in (0, 4)),
                *((k, pool, fins) for k in (2, 3) for pool in mutant for fins in (0, 4)),
            ]:
                fast = _fish_walk(complex_fish.fishes(grid, d, k, base, cover, max_fins=fins))
                slow = _fish_walk(complex_fish._fishes_py(grid, d, k, base, cover, max_fins=fins))
                assert fast == slow, (d, k, fins)
                found += len(fast) - 1
    assert found


# --- the almost-locked-set finders (als_find) -------------------------------------------------


def _same_als(grid: CandidateGrid) -> int:
    """The C core's first ALS-XZ, ALS-XY-Wing and Death Blossom are the Python code's, and the
    grid is left as it was. Returns how many of the three found a step."""
    before = _fields(grid)
    count = 0
    for fast, spec in (
        (als_find._xz, als_find._xz_py),
        (als_find._xy_wing, als_find._xy_wing_py),
        (als_find._death_blossom, als_find._death_blossom_py),
    ):
        want = spec(grid)
        assert fast(grid) == want
        count += want is not None
    assert _fields(grid) == before
    return count


@needs_core
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_als_finders_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    grids = _known_states(ident, geometry, givens, solution, 3, 3, settled=True)
    assert sum(_same_als(grid) for grid in grids) or geometry.size < 6


@needs_core
def test_c_and_python_als_finders_agree_on_hard_puzzles_and_variants() -> None:
    states = list(_hard_states(8, 130, 3, 19, 31, 3))
    assert sum(_same_als(grid) for grid in [*states, *_quiet_states(iter(states))])


@needs_core
def test_the_c_als_search_stops_at_its_limits() -> None:
    """The C search counts its work against the node limit and honours the deadline; its
    finders keep their listings (the ``iter_`` twins of :mod:`shudu.logic.als`)."""
    line = shared_lines("forum_hardest_1106.txt", 1)[0].split()[0]
    puzzle = parse_puzzle(line)
    grid = CandidateGrid.from_values(puzzle.geometry, list(puzzle.cells))
    propagate.settle(grid)
    for search in (als_find._xz, als_find._xy_wing, als_find._death_blossom):
        with limits(node_limit=10**9):
            search(grid)
            used = nodes_used()
        assert used > 0
        with pytest.raises(LogicTimeout), limits(node_limit=used - 1):
            search(grid)
        with pytest.raises(LogicTimeout), limits(timeout=0.0):
            search(grid)
    listed = {f.first: f.iter_steps for f in EVERY_FINDER}
    assert listed[als_find.find_als_xz] is als.iter_als_xz
    assert listed[als_find.find_als_xy_wing] is als.iter_als_xy_wing
    assert listed[als_find.find_death_blossom] is als.iter_death_blossom


# --- the almost locked sets and their links (als) ----------------------------------------------


def _same_als_listing(grid: CandidateGrid) -> int:
    """The C core's sets (up to 2, 4 and, on a settled grid, 8 cells), their links (between disjoint sets and between
    any sets) and the ALS-XY-Wings over them are the Python listing's, in the same order. Returns
    how many links."""
    cands = tuple(grid.cands)
    links = 0
    # the Python walks take a minute on the largest sets of a raw grid: sets of 8 cells on
    # settled grids only, the wings over sets of 4 cells on settled grids, of 2 on raw ones
    quiet = is_quiet(grid)
    for most in (2, 4, 8) if quiet else (2, 4):
        sets = als._list_sets(grid, cands, most)
        assert sets == als._list_sets_py(grid.geometry, cands, grid.empty, most)
        for want, overlap in ((als.LINKS, False), (als.LINKS_OVERLAPPING, True)):
            fast = als._c_als_sets(grid, most, want)
            assert fast is not None
            spec = als._links_of_py(grid.geometry, sets, overlap)
            assert [list(d.items()) for d in fast] == [list(d.items()) for d in spec]
            links += sum(map(len, fast))
        if most > (4 if quiet else 2):
            continue
        # the ALS-XY-Wings over any sets, in order, with the same work counted
        with limits(node_limit=10**12):
            wings = als._c_als_sets(grid, most, als.XY_WINGS)
            used = nodes_used()
        with limits(node_limit=10**12):
            spec_wings = list(als._xy_wing_hits_py(grid, sets, tuple(spec)))
            assert nodes_used() == used
        assert wings is not None and [tuple(hit) for hit in wings] == spec_wings
    return links


@needs_core
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_als_listings_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    grids = _known_states(ident, geometry, givens, solution, 5, 3, settled=True)
    assert sum(_same_als_listing(grid) for grid in grids) or geometry.size < 6


@needs_core
def test_c_and_python_als_listings_agree_on_hard_puzzles_and_variants() -> None:
    states = list(_hard_states(8, 130, 3, 19, 71, 3))
    assert sum(_same_als_listing(grid) for grid in [*states, *_quiet_states(iter(states))])


@needs_core
def test_the_c_als_listing_counts_its_work_and_stops_at_its_limits() -> None:
    line = shared_lines("forum_hardest_1106.txt", 1)[0].split()[0]
    puzzle = parse_puzzle(line)
    grid = CandidateGrid.from_values(puzzle.geometry, list(puzzle.cells))
    propagate.settle(grid)
    sets = als._list_sets_py(grid.geometry, tuple(grid.cands), grid.empty, 8)
    for want in (als.SETS, als.LINKS, als.LINKS_OVERLAPPING, als.XY_WINGS):
        with limits(node_limit=10**9):
            assert als._c_als_sets(grid, 8, want) is not None
            used = nodes_used()
        if want == als.XY_WINGS:  # a unit a pivot's partner, the sets uncounted
            _, links = als.restricted_links(grid, 8, overlap=True)
            assert used == sum(map(len, links))
        else:
            assert used == len(sets)
        with pytest.raises(LogicTimeout), limits(node_limit=used - 1):
            als._c_als_sets(grid, 8, want)
        with pytest.raises(LogicTimeout), limits(timeout=0.0):
            als._c_als_sets(grid, 8, want)


# --- the chains' breadth-first search (chains.layers) ------------------------------------------


def _walk(
    search: Iterator[tuple[int, int, dict[int, list[int]]]],
) -> tuple[list[object], dict[int, list[int]], int]:
    """What a search yields (each "on" state, its layer and its traced path), the map of parents
    it gave (the C search's reads its entries as they are looked up), and the work it counted."""
    met: list[object] = []
    parents: dict[int, list[int]] = {}
    with limits(node_limit=10**12):
        for state, links, parents in search:
            met.append((state, links, chains.trace(parents, state)))
        used = nodes_used()
    return met, parents, used


def _same_searches(grid: CandidateGrid, rng: random.Random) -> int:
    """The C search and the Python one agree on the graphs of the chain and loop finders, and
    with a filter the C search gives exactly the states its caller's own test keeps: those
    weakly linked to the start (a loop's closing nodes), or whose ends prove something (as
    :func:`chains._outcome` and :func:`loops._ends` say)."""
    strong: dict[int, list[int]] = {}
    chains._bivalues(grid, strong)

    def outcome(start: int, node: int) -> bool:
        return any(chains._outcome(grid, start, node))

    grouped = loop_graph.Graph(grid, digits=range(grid.size), bivalue=True, groups=True, als_cells=8)
    for graph_of in (grouped, loop_graph.Graph(grid, digits=[0, 2], bivalue=False, groups=True)):
        for in_cell in (True, False):  # the weak links read in C are the Python code's
            fast = graph_of._weak(in_cell=in_cell)
            assert list(fast.items()) == list(graph_of._weak_py(in_cell=in_cell).items())
    graphs = [
        (*chains._aic_graph(grid), (), True, outcome),
        (strong, chains._weak(grid, strong, in_cell=False), (), True, outcome),
        (grouped.strong, grouped.weak, grouped.groups, False, partial(loops._ends, grouped)),
    ]
    count = 0
    for links_strong, links_weak, groups, proves, test in graphs:
        assert CORE is not None
        graph = CORE.chain_graph(links_strong, links_weak)  # whatever its size
        ends = chains.c_ends(grid, graph, groups, proves=proves)
        starts = sorted(links_strong)
        for start in rng.sample(starts, min(6, len(starts))):
            limit = rng.choice((chains.MAX_LINKS + 1, chains.MAX_LINKS, 4))
            want = _walk(chains.layers_py(links_strong, links_weak, start, limit))
            got = _walk(chains.layers(links_strong, links_weak, start, limit, graph))
            assert got[0] == want[0] and got[2] == want[2]
            assert all(got[1][key] == value for key, value in want[1].items())
            count += len(want[0])
            closing = set(links_weak.get(start, ()))
            filters: list[tuple[object, Callable[[int], bool]]] = [
                (True, lambda node, closing=closing: node in closing)
            ]
            if ends is not None:  # beyond the C tables: no filter
                filters.append((ends, lambda node, start=start, test=test: bool(test(start, node))))
            for only, keep in filters:
                kept = _walk(chains.layers(links_strong, links_weak, start, limit, graph, only))
                assert kept[0] == [met for met in want[0] if keep(met[0] >> 1)]  # type: ignore[index]
                assert kept[2] == want[2]
    return count


def _chain_finds(grids: list[CandidateGrid]) -> list[object]:
    """The X-Chain, AIC and XY-Chain each finder finds on each grid, and the work it counted."""
    out: list[object] = []
    for grid in grids:
        for find in (chains.find_x_chain, chains.find_aic, chains.find_xy_chain):
            with limits(node_limit=10**12):
                step = find(grid.copy())
                out.append((step.to_json() if step else None, nodes_used()))
    return out


@needs_core
def test_a_chain_search_in_one_c_call_finds_what_the_loop_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    """``chain_search`` (the whole search of a finder in one call) gives the chain the Python
    loop over the starts gives, and counts the same work."""
    states = list(_hard_states(6, 170, 2, 23, 37, 2))
    grids = states + list(_quiet_states(iter(states)))
    fast = _chain_finds(grids)
    # one unit of work short, the C search stops too
    grid, used = next((g, u) for g, (step, u) in zip(grids, fast[1::3], strict=True) if step)  # type: ignore[misc]
    with pytest.raises(LogicTimeout), limits(node_limit=used - 1):
        chains.find_aic(grid.copy())
    monkeypatch.setattr(chains, "c_ends", lambda *args, **kwargs: None)
    assert _chain_finds(grids) == fast
    assert sum(step is not None for step, _ in fast)  # type: ignore[misc]


def _grouped_finds(grids: list[CandidateGrid]) -> list[tuple[object, int]]:
    """The grouped chain found on each grid, and the work counted."""
    out: list[tuple[object, int]] = []
    for grid in grids:
        with limits(node_limit=10**12):
            step = loops.find_grouped_chain(grid.copy())
            out.append((step.to_json() if step else None, nodes_used()))
    return out


@needs_core
def test_a_grouped_chain_search_in_one_c_call_finds_what_the_loop_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A grouped chain's search in one call (``chain_search`` with a group base) gives the
    chain the Python loop over the starts gives, and counts the same work."""
    states = list(_hard_states(6, 170, 2, 23, 59, 2))
    grids = states + list(_quiet_states(iter(states)))
    fast = _grouped_finds(grids)
    # one unit of work short, the C search stops too
    grid, used = next((g, u) for g, (step, u) in zip(grids, fast, strict=True) if step)
    with pytest.raises(LogicTimeout), limits(node_limit=used - 1):
        loops.find_grouped_chain(grid.copy())
    monkeypatch.setattr(loop_graph.Graph, "search", lambda self, starts, limit: None)
    assert _grouped_finds(grids) == fast
    assert sum(step is not None for step, _ in fast)


def _loop_sweeps(grids: list[CandidateGrid]) -> list[object]:
    """The loops each grid's sweep finds, plain and through groups and ALS nodes, and the work
    it counted."""
    out: list[object] = []
    for grid in grids:
        for als_cells in (0, loops.ALS_NODE_CELLS):
            with limits(node_limit=10**12):
                found = loops._closed_loops(grid.copy(), als_cells)
                out.append((found, nodes_used()))
    return out


@needs_core
def test_a_loop_sweep_in_one_c_call_finds_what_the_loop_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    """``chain_sweep`` (the continuous nice loops' sweep of every start in one call, leaving to
    Python the starts that close a loop of three links or more) gives the loops the Python loop
    over every start gives, and counts the same work."""
    states = list(_hard_states(6, 170, 2, 23, 41, 2))
    grids = states + list(_quiet_states(iter(states)))
    fast = _loop_sweeps(grids)
    # one unit of work short, the C sweep stops too
    graph = loop_graph.graph_of(grids[0])
    starts = sorted(graph.strong)
    with limits(node_limit=10**12):
        graph.closing_starts(starts, loops.MAX_LINKS)
        swept = nodes_used()
    assert swept
    with pytest.raises(LogicTimeout), limits(node_limit=swept - 1):
        graph.closing_starts(starts, loops.MAX_LINKS)
    monkeypatch.setattr(loop_graph.Graph, "closing_starts", lambda self, starts, limit: starts)
    assert _loop_sweeps(grids) == fast
    assert sum(bool(found) for found, _ in fast)  # type: ignore[misc]


@needs_core
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_chain_searches_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    rng = random.Random(zlib.crc32(ident.encode()))
    assert sum(_same_searches(_state(geometry, givens, solution, rng), rng) for _ in range(3))


@needs_core
def test_c_and_python_chain_searches_agree_on_hard_puzzles_and_variants() -> None:
    rng = random.Random(17)
    assert sum(_same_searches(grid, rng) for grid in _hard_states(6, 170, 2, 23, 17, 3))


@needs_core
@pytest.mark.parametrize("seed", range(3))
def test_chain_and_loop_listings_are_the_same_with_the_c_search(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole listings of the finders that search chains and loops (grouped ones through group
    nodes), C search against Python, on random pencil marks of the known-answer puzzles."""
    rng = random.Random(seed)
    finders = (
        chains.iter_aic,
        chains.iter_discontinuous_nice_loop,
        chains.iter_x_chain,
        chains.iter_xy_chain,
        chains.iter_remote_pair,
        loops.iter_grouped_chain_by_groups,
        loops._every_loop,
    )
    listed = 0
    for ident, geometry, givens, solution in rng.sample(PUZZLES, 5):
        grid = _state(geometry, givens, solution, rng)
        for finder in finders:
            monkeypatch.setattr(propagate, "USE_C", True)
            with_c = [step.to_json() for step in finder(grid.copy())]
            monkeypatch.setattr(propagate, "USE_C", False)
            assert [step.to_json() for step in finder(grid.copy())] == with_c, (ident, finder.__name__)
            listed += len(with_c)
    assert listed


@needs_core
def test_a_graph_read_into_c_is_searched_in_python_once_the_c_path_is_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A loop graph is cached with its C copy; switching the C path off afterwards still runs
    its searches in Python, with the same result."""
    _, geometry, givens, solution = next(p for p in PUZZLES if p[1].size == 9 and p[2].count(0) > 50)
    grid = _state(geometry, givens, solution, random.Random(5))
    graph = loop_graph.Graph(grid, digits=range(grid.size), bivalue=True, groups=True)
    start = sorted(graph.strong)[0]
    with_c = _walk(graph.layers(start, chains.MAX_LINKS))
    assert graph._c_graph is not None
    monkeypatch.setattr(propagate, "USE_C", False)
    without = _walk(graph.layers(start, chains.MAX_LINKS))
    assert without[0] == with_c[0] and without[2] == with_c[2]
    assert without[0]


@needs_core
def test_chain_graph_reads_sets_lists_and_tuples_in_their_order_and_refuses_the_rest() -> None:
    """``chain_graph`` reads each node's links in the order its container gives them, whatever
    the container; a link may name a node with no links of its own; node ids must be ints in
    range and links sets, lists or tuples."""
    assert CORE is not None
    rng = random.Random(3)
    for _ in range(40):
        nodes = rng.sample(range(300), 12)
        strong: dict[int, Collection[int]] = {}
        weak: dict[int, Collection[int]] = {}
        for node in nodes:
            links = rng.sample(nodes, rng.randrange(4)) + rng.sample(range(300, 320), rng.randrange(2))
            kind = rng.choice((set, list, tuple))
            strong[node] = kind(links)
            weak[node] = rng.choice((set, list, tuple))(rng.sample(nodes, rng.randrange(4)))
        graph = CORE.chain_graph(strong, weak)
        # the specification, where a node that is no key has no links
        spec_strong, spec_weak = defaultdict(tuple, strong), defaultdict(tuple, weak)
        for start in rng.sample(nodes, 4):
            want = _walk(chains.layers_py(spec_strong, spec_weak, start, 8))
            got = _walk(chains.layers(strong, weak, start, 8, graph))
            assert got[0] == want[0] and got[2] == want[2]
            assert all(got[1][key] == value for key, value in want[1].items())
    for bad, error in (
        (({1: {2}}, {1: "ab"}), TypeError),
        (({1: iter([2])}, {}), TypeError),
        (({-1: {2}}, {}), ValueError),
        (({1: {1 << 30}}, {}), ValueError),
        (({1: [2.5]}, {}), TypeError),
        (([(1, {2})], {}), TypeError),
    ):
        with pytest.raises(error):
            CORE.chain_graph(*bad)


def _same_strong(grid: CandidateGrid) -> int:
    """A loop graph's strong links of each digit's houses from the C core (``loop_strong``) are
    the Python ones: the same nodes in the same order, each node's links iterated in the same
    order (the searches meet them so), the same group nodes numbered alike. Returns how many."""
    found = 0
    for digits, groups in ((range(grid.size), True), (range(grid.size), False), ([1, 0], True)):
        fast = loop_graph.Graph(grid, digits=digits, bivalue=False, groups=groups)
        spec = loop_graph.Graph.__new__(loop_graph.Graph)
        spec.grid, spec.base, spec.groups, spec.group_id, spec.strong = grid, grid.size**3, [], {}, {}
        spec._strong_py(digits, groups=groups)
        assert [(k, list(v)) for k, v in fast.strong.items()] == [
            (k, list(v)) for k, v in spec.strong.items()
        ]
        assert fast.groups == spec.groups and fast.group_id == spec.group_id
        found += len(fast.strong)
    return found


@needs_core
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_loop_strong_links_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    grids = _known_states(ident, geometry, givens, solution, 7, 3, settled=True)
    assert sum(_same_strong(grid) for grid in grids)


@needs_core
def test_c_and_python_loop_strong_links_agree_on_hard_puzzles_and_variants() -> None:
    states = list(_hard_states(8, 130, 3, 19, 73, 3))
    assert sum(_same_strong(grid) for grid in [*states, *_quiet_states(iter(states))])
