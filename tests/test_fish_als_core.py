"""The C parts of the fish and the almost locked sets against their Python specifications: the
basic and complex fish, the ALS finders and the ALS listings with their links, on random
candidate states of real puzzles."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from logic_states import PUZZLES, grid_fields, hard_states, known_states, quiet_states
from shudu import parse_puzzle
from shudu.geometry import Geometry
from shudu.logic.engine import propagate
from shudu.logic.engine.budget import LogicTimeout, limits, nodes_used
from shudu.logic.engine.grid import CandidateGrid
from shudu.logic.engine.propagate import is_quiet
from shudu.logic.table import EVERY_FINDER
from shudu.logic.techniques import als_first, als_listings, complex_fish, fish

from conftest import C_CORE, needs_c, shared_lines

CORE = C_CORE
needs_core = needs_c


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
    grids = known_states(ident, geometry, givens, solution, 4, 6, settled=True)
    assert sum(_same_fish(grid) for grid in grids) or geometry.size < 6


@needs_core
def test_c_and_python_fish_agree_on_hard_puzzles_and_variants() -> None:
    states = list(hard_states(10, 110, 3, 17, 37, 6))
    assert sum(_same_fish(grid) for grid in [*states, *quiet_states(iter(states))])


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
    for grid in list(hard_states(4, 200, 2, 30, 53, 1)):
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


# --- the almost-locked-set finders (als_first) -------------------------------------------------


def _same_als(grid: CandidateGrid) -> int:
    """The C core's first ALS-XZ, ALS-XY-Wing and Death Blossom are the Python code's, and the
    grid is left as it was. Returns how many of the three found a step."""
    before = grid_fields(grid)
    count = 0
    for fast, spec in (
        (als_first._xz, als_first._xz_py),
        (als_first._xy_wing, als_first._xy_wing_py),
        (als_first._death_blossom, als_first._death_blossom_py),
    ):
        want = spec(grid)
        assert fast(grid) == want
        count += want is not None
    assert grid_fields(grid) == before
    return count


@needs_core
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_als_finders_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    grids = known_states(ident, geometry, givens, solution, 3, 3, settled=True)
    assert sum(_same_als(grid) for grid in grids) or geometry.size < 6


@needs_core
def test_c_and_python_als_finders_agree_on_hard_puzzles_and_variants() -> None:
    states = list(hard_states(8, 130, 3, 19, 31, 3))
    assert sum(_same_als(grid) for grid in [*states, *quiet_states(iter(states))])


@needs_core
def test_the_c_als_search_stops_at_its_limits() -> None:
    """The C search counts its work against the node limit and honours the deadline; its
    finders keep their listings (the ``iter_`` twins of :mod:`shudu.logic.techniques.als_listings`)."""
    line = shared_lines("forum_hardest_1106.txt", 1)[0].split()[0]
    puzzle = parse_puzzle(line)
    grid = CandidateGrid.from_values(puzzle.geometry, list(puzzle.cells))
    propagate.settle(grid)
    for search in (als_first._xz, als_first._xy_wing, als_first._death_blossom):
        with limits(node_limit=10**9):
            search(grid)
            used = nodes_used()
        assert used > 0
        with pytest.raises(LogicTimeout), limits(node_limit=used - 1):
            search(grid)
        with pytest.raises(LogicTimeout), limits(timeout=0.0):
            search(grid)
    listed = {f.first: f.iter_steps for f in EVERY_FINDER}
    assert listed[als_first.find_als_xz] is als_listings.iter_als_xz
    assert listed[als_first.find_als_xy_wing] is als_listings.iter_als_xy_wing
    assert listed[als_first.find_death_blossom] is als_listings.iter_death_blossom


# --- the almost locked sets and their links (als_listings) ----------------------------------------------


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
        sets = als_listings._list_sets(grid, cands, most)
        assert sets == als_listings._list_sets_py(grid.geometry, cands, grid.empty, most)
        for want, overlap in ((als_listings.LINKS, False), (als_listings.LINKS_OVERLAPPING, True)):
            fast = als_listings._c_als_sets(grid, most, want)
            assert fast is not None
            spec = als_listings._links_of_py(grid.geometry, sets, overlap)
            assert [list(d.items()) for d in fast] == [list(d.items()) for d in spec]
            links += sum(map(len, fast))
        if most > (4 if quiet else 2):
            continue
        # the ALS-XY-Wings over any sets, in order, with the same work counted
        with limits(node_limit=10**12):
            wings = als_listings._c_als_sets(grid, most, als_listings.XY_WINGS)
            used = nodes_used()
        with limits(node_limit=10**12):
            spec_wings = list(als_listings._xy_wing_hits_py(grid, sets, tuple(spec)))
            assert nodes_used() == used
        assert wings is not None and [tuple(hit) for hit in wings] == spec_wings
    return links


@needs_core
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_als_listings_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    grids = known_states(ident, geometry, givens, solution, 5, 3, settled=True)
    assert sum(_same_als_listing(grid) for grid in grids) or geometry.size < 6


@needs_core
def test_c_and_python_als_listings_agree_on_hard_puzzles_and_variants() -> None:
    states = list(hard_states(8, 130, 3, 19, 71, 3))
    assert sum(_same_als_listing(grid) for grid in [*states, *quiet_states(iter(states))])


@needs_core
def test_the_c_als_listing_counts_its_work_and_stops_at_its_limits() -> None:
    line = shared_lines("forum_hardest_1106.txt", 1)[0].split()[0]
    puzzle = parse_puzzle(line)
    grid = CandidateGrid.from_values(puzzle.geometry, list(puzzle.cells))
    propagate.settle(grid)
    sets = als_listings._list_sets_py(grid.geometry, tuple(grid.cands), grid.empty, 8)
    for want in (
        als_listings.SETS,
        als_listings.LINKS,
        als_listings.LINKS_OVERLAPPING,
        als_listings.XY_WINGS,
    ):
        with limits(node_limit=10**9):
            assert als_listings._c_als_sets(grid, 8, want) is not None
            used = nodes_used()
        if want == als_listings.XY_WINGS:  # a unit a pivot's partner, the sets uncounted
            _, links = als_listings.restricted_links(grid, 8, overlap=True)
            assert used == sum(map(len, links))
        else:
            assert used == len(sets)
        with pytest.raises(LogicTimeout), limits(node_limit=used - 1):
            als_listings._c_als_sets(grid, 8, want)
        with pytest.raises(LogicTimeout), limits(timeout=0.0):
            als_listings._c_als_sets(grid, 8, want)
