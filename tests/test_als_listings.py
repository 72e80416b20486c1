"""ALS listings: chains, wings and Death Blossoms whose sets may share cells.

Every step is checked on random pencil-mark states against a plain backtracking search (each
eliminated candidate leaves no completion). A Death Blossom's net is read independently: one branch
per stem digit, each petal a real almost locked set whose places of that digit all see the stem and
whose places of the eliminated digit are all seen by every target.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, islice
from pathlib import Path

import pytest

from reglib_cases import check_case, read_library
from shudu.logic.engine import budget
from shudu.logic.engine.chain_structure import Net
from shudu.logic.engine.grid import CandidateGrid
from shudu.logic.engine.step import Step
from shudu.logic.techniques import als_first, als_listings
from test_kraken import assert_eliminations_false
from test_soundness import states

LIBRARY = Path(__file__).resolve().parents[2] / "shared" / "data" / "hodoku_reglib_even.txt"

LISTINGS: dict[str, Callable[[CandidateGrid], Iterator[Step]]] = {
    "ALS-XY-Wing": als_listings.iter_als_xy_wing,
    "ALS-XY-Chain": als_listings.iter_als_xy_chain,
    "Death Blossom": als_listings.iter_death_blossom,
}


def _sees(grid: CandidateGrid, a: int, b: int) -> bool:
    return a != b and b in grid.geometry.peers[a]


@pytest.mark.parametrize("name", sorted(LISTINGS))
def test_every_listed_elimination_leaves_no_completion(name: str) -> None:
    found = 0
    for i, (source, grid) in enumerate(states(seed=77)):
        if i % 6:
            continue
        try:
            with budget.limits(node_limit=20000):
                steps = list(islice(LISTINGS[name](grid), 10))
        except budget.LogicTimeout:
            continue
        for step in steps:
            found += 1
            assert_eliminations_false(grid, step, source.solution)
    assert found >= 5


def _petal_exists(grid: CandidateGrid, step: Step, stem: int, d: int, d_cells: set[int], z: int) -> bool:
    """Whether some ALS among the step's cells has exactly ``d_cells`` as its places of ``d`` and
    holds ``z`` only where every target sees it."""
    pool = [c for c in step.cells if c != stem]
    targets = [c for c, _ in step.eliminations]
    for house in grid.geometry.house_cells:
        inside = [c for c in pool if c in house and not grid.values[c]]
        for size in range(1, len(inside) + 1):
            for cells in combinations(inside, size):
                union = 0
                for c in cells:
                    union |= grid.cands[c]
                if union.bit_count() != size + 1:
                    continue
                if {c for c in cells if grid.has(c, d)} != d_cells:
                    continue
                z_places = [c for c in cells if grid.has(c, z)]
                if z_places and all(_sees(grid, t, p) for t in targets for p in z_places):
                    return True
    return False


def test_death_blossom_nets_show_the_stem_and_each_petal() -> None:
    found = 0
    for i, (_, grid) in enumerate(states(seed=78)):
        if i % 3:
            continue
        for step in islice(als_listings.iter_death_blossom(grid), 6):
            found += 1
            net = step.structure
            assert isinstance(net, Net)
            stem = net.branches[0].lines[0].cell
            (z,) = {d for _, d in step.eliminations}
            assert sorted(b.lines[0].digit for b in net.branches) == grid.candidates(stem)
            for branch in net.branches:
                head, *rest = branch.lines
                assert head.cell == stem and head.on
                d = head.digit
                petal = {line.cell for line in rest if line.digit == d}
                assert petal and all(not line.on for line in rest)
                assert all(_sees(grid, stem, c) and grid.has(c, d) for c in petal)
                assert {(line.cell, line.digit) for line in rest if line.digit == z} == set(step.eliminations)
                assert _petal_exists(grid, step, stem, d, petal, z), step.explanation
            assert step.explanation.count(f"({grid.candidates(stem)[0]}){grid.name(stem)}-") == 1
    assert found >= 3


def test_the_solving_path_blossom_carries_the_same_structure() -> None:
    for i, (_, grid) in enumerate(states(seed=79)):
        if i % 3:
            continue
        step = als_first.find_death_blossom.uncached(grid)  # type: ignore[attr-defined]
        if step is not None:
            assert isinstance(step.structure, Net)
            listed = [s.eliminations for s in als_listings.iter_death_blossom(grid)]
            assert any(set(step.eliminations) <= set(e) for e in listed)
            return
    pytest.skip("no Death Blossom on the solving path of these states")


#: Library lines whose sets share cells: wings, chains and blossoms.
OVERLAPPING = {"0902-2", "0903-1", "0903", "0904-2"}


def test_library_cases_with_overlapping_sets_pass() -> None:
    if not LIBRARY.exists():
        pytest.skip(f"no HoDoKu library at {LIBRARY}")
    cases = [
        c for c in read_library(LIBRARY) if (f"{c.code}-{c.variant}" if c.variant else c.code) in OVERLAPPING
    ]
    assert cases
    for case in cases:
        outcome = check_case(case, timeout=60)
        assert outcome.passed and not outcome.unsound, (case.line, outcome.reason)
