"""The C core's trace of a forcing step (``trace``) against its specification, ``Trace.run_py``.

Both follow an assumption on random candidate states of real puzzles (hardest 9x9 puzzles and
the X, windoku and pyramid sets, as they stand and settled), with singles and each set of rules
a forcing step uses: the same lines with the same causes and rules, in the same order, the same
contradiction, the same record of which line settled each candidate, and, for a nested net's
fifth rule, the same work counted and the same stop one unit short of it.
"""

from __future__ import annotations

import random
import zlib

import pytest

from logic_states import PUZZLES, hard_states, known_states, quiet_states
from shudu.geometry import Geometry
from shudu.logic.engine.budget import LogicTimeout, limits, nodes_used
from shudu.logic.engine.grid import CandidateGrid
from shudu.logic.engine.implications import Trace, _c_trace, contradiction_branch
from shudu.logic.engine.propagate import Rule
from shudu.logic.techniques import forcing
from shudu.logic.techniques.netrules import NET_RULES

from conftest import needs_c

NESTED: tuple[Rule, ...] = (*NET_RULES, forcing.forcing_net_inside)
RULE_SETS: tuple[tuple[Rule, ...], ...] = ((), NET_RULES[:2], NET_RULES, NESTED)


def _record(trace: Trace) -> tuple[object, ...]:
    lines = [(line.cell, line.digit, line.on, line.because, line.rule) for line in trace.lines]
    return lines, trace.broken, trace.placed, trace.gone, trace.needs


def _traced(
    grid: CandidateGrid, rules: tuple[Rule, ...], cell: int, digit: int, *, python: bool
) -> tuple[tuple[object, ...], int]:
    trace = Trace(grid, rules)
    with limits(node_limit=10**12):
        (trace.run_py if python else trace.run)(cell, digit)
        return _record(trace), nodes_used()


def _same_traces(grid: CandidateGrid, rng: random.Random, each: int) -> int:
    """``each`` random assumptions per rule set traced both ways: the same record. Returns how
    many broke the grid."""
    assert _c_trace(grid.geometry, NESTED) is not None
    open_cells = [c for c in range(grid.geometry.ncells) if grid.empty >> c & 1 and grid.cands[c]]
    broken = 0
    before = list(grid.cands), list(grid.where), grid.empty
    for rules in RULE_SETS:
        for _ in range(each if open_cells else 0):
            cell = rng.choice(open_cells)
            digit = rng.choice([d + 1 for d in range(grid.size) if grid.cands[cell] >> d & 1])
            want = _traced(grid, rules, cell, digit, python=True)
            got = _traced(grid, rules, cell, digit, python=False)
            assert got == want, (rules, cell, digit)
            broken += want[0][1] is not None
    assert (list(grid.cands), list(grid.where), grid.empty) == before
    return broken


@needs_c
def test_c_and_python_traces_agree_on_hard_puzzles_and_variants() -> None:
    rng = random.Random(31)
    states = list(hard_states(8, 130, 2, 29, 37, 3))
    assert sum(_same_traces(grid, rng, 2) for grid in [*states, *quiet_states(iter(states))])


@needs_c
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_traces_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    grids = known_states(ident, geometry, givens, solution, 5, 3, settled=True)
    rng = random.Random(zlib.crc32(ident.encode()))
    for grid in grids:
        _same_traces(grid, rng, 1)


@needs_c
def test_a_nested_trace_stops_at_the_node_limit_as_the_python_one_does() -> None:
    """The fifth rule's inner searches count one unit an assumption: given a budget one unit
    short of what the trace needs, both stop there, having counted the same."""
    checked = 0
    for grid in quiet_states(hard_states(6, 170, 0, 1, 41, 2)):
        cells = [c for c in range(grid.geometry.ncells) if grid.empty >> c & 1]
        for cell in cells[:4]:
            digit = (grid.cands[cell] & -grid.cands[cell]).bit_length()
            _, used = _traced(grid, NESTED, cell, digit, python=True)
            if not used:
                continue
            stops = []
            for python in (True, False):
                trace = Trace(grid, NESTED)
                with limits(node_limit=used - 1):
                    with pytest.raises(LogicTimeout):
                        (trace.run_py if python else trace.run)(cell, digit)
                    stops.append(nodes_used())
            assert stops[0] == stops[1] == used
            checked += 1
    assert checked


@needs_c
def test_a_contradiction_branch_is_the_same_without_the_record_of_candidates() -> None:
    """A contradiction's branch asks the C core for the lines alone (``keep`` false)."""
    rng = random.Random(3)
    found = 0
    for grid in quiet_states(hard_states(6, 170, 1, 31, 53, 2)):
        cells = [c for c in range(grid.geometry.ncells) if grid.empty >> c & 1]
        for cell in rng.sample(cells, min(4, len(cells))):
            for d in range(grid.size):
                if not grid.cands[cell] >> d & 1:
                    continue
                spec = Trace(grid, NET_RULES)
                spec.run_py(cell, d + 1)
                got = contradiction_branch(grid, NET_RULES, cell, d + 1)
                want = None if spec.broken is None else spec.branch(spec.broken[1], spec.broken[0])
                assert got == want
                found += want is not None
    assert found
