"""The C parts of the forcing steps against their Python specifications: the conclusions of the
forcing chains over direct links, the forcing chains and nets (nested too) and nishio, on random
candidate states of real puzzles."""

from __future__ import annotations

import random

import pytest

from logic_states import PUZZLES, grid_fields, hard_states, known_states, quiet_states, random_state
from shudu import parse_puzzle, solve
from shudu.geometry import Geometry
from shudu.logic.engine import propagate
from shudu.logic.engine.budget import LogicTimeout, limits, nodes_used
from shudu.logic.engine.grid import CandidateGrid
from shudu.logic.engine.memo import memo_scope
from shudu.logic.engine.propagate import is_quiet
from shudu.logic.techniques import forcing, nishio, static_forcing
from shudu.logic.techniques.netrules import NET_RULES

from conftest import C_CORE, needs_c, shared_lines

CORE = C_CORE
needs_core = needs_c


# --- the forcing chains over direct links (static_forcing._conclusions) -----------------------


def _same_conclusions(grid: CandidateGrid) -> int:
    """The C core's direct forcing conclusions are the Python code's, in the same order, and
    the grid is left as it was."""
    before = grid_fields(grid)
    want = static_forcing._conclusions_py(grid)[1]
    assert static_forcing._conclusions(grid)[1] == want
    assert grid_fields(grid) == before
    return len(want)


@needs_core
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_direct_forcing_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    grids = known_states(ident, geometry, givens, solution, 0, 4, settled=False)
    assert sum(_same_conclusions(grid) for grid in grids) or geometry.size < 6


@needs_core
def test_c_and_python_direct_forcing_agree_on_hard_puzzles_and_variants() -> None:
    assert sum(_same_conclusions(grid) for grid in hard_states(8, 130, 3, 19, 13, 6))


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
        before = grid_fields(one)
        quiet = is_quiet(one)
        for rules in ((), NET_RULES, NET_RULES[:2]):
            for contradictions in (True, False):
                kw = {"quiet": quiet, "contradictions": contradictions}
                want = forcing._found_py(one, rules, **kw)
                assert forcing._found(one, rules, **kw) == want
                count += len(want.ties) + len(want.verities)
        assert grid_fields(one) == before
    return count


@needs_core
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_forcing_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    grids = known_states(ident, geometry, givens, solution, 1, 2, settled=False)
    assert sum(_same_forcing(grid) for grid in grids) or geometry.size < 6


@needs_core
def test_c_and_python_forcing_agree_on_hard_puzzles_and_variants() -> None:
    assert sum(_same_forcing(grid) for grid in hard_states(6, 170, 2, 23, 17, 3))


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
        grid = random_state(puzzle.geometry, list(puzzle.cells), list(result.cells), rng)
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
    before = grid_fields(grid)
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
    assert grid_fields(grid) == before
    return count


@needs_core
def test_c_and_python_nested_nets_agree_on_hard_puzzles_and_variants() -> None:
    rng = random.Random(23)
    states = list(quiet_states(hard_states(6, 170, 2, 23, 19, 2)))
    assert sum(_same_nested(grid, rng, 3) for grid in states)


@needs_core
def test_c_and_python_find_the_same_forcing_net_contradiction_inside() -> None:
    """The rule a nested net adds (``first_contradiction`` in C, ``_first_contradiction`` its
    specification): the same candidate, the same assumptions counted, the same stop one unit
    short, the grid left as it was."""
    found = 0
    for grid in quiet_states(hard_states(8, 130, 3, 19, 43, 2)):
        before = grid_fields(grid)
        outcomes = []
        for first in (forcing.forcing_net_inside, _inside_py):
            with limits(node_limit=10**12):
                outcomes.append((first(grid), nodes_used()))
        assert outcomes[0] == outcomes[1]
        assert grid_fields(grid) == before
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
    grids = known_states(ident, geometry, givens, solution, 2, 4, settled=True)
    assert sum(_same_nishio(grid) for grid in grids) or geometry.size < 6


@needs_core
def test_c_and_python_nishio_agree_on_hard_puzzles_and_variants() -> None:
    states = list(hard_states(8, 130, 3, 19, 29, 4))
    assert sum(_same_nishio(grid) for grid in [*states, *quiet_states(iter(states))])
