"""The C part of the chains against its Python specification: the chains' and loops' breadth-first
search, their strong links and listings, on random candidate states of real puzzles."""

from __future__ import annotations

import random
import zlib
from collections import defaultdict
from collections.abc import Callable, Collection, Iterator
from functools import partial

import pytest

from logic_states import PUZZLES, hard_states, known_states, quiet_states, random_state
from shudu.geometry import Geometry
from shudu.logic.engine import propagate
from shudu.logic.engine.budget import LogicTimeout, limits, nodes_used
from shudu.logic.engine.grid import CandidateGrid
from shudu.logic.techniques import aic, grouped_chains, grouped_graph

from conftest import C_CORE, needs_c

CORE = C_CORE
needs_core = needs_c


# --- the chains' breadth-first search (aic.layers) ------------------------------------------


def _walk(
    search: Iterator[tuple[int, int, dict[int, list[int]]]],
) -> tuple[list[object], dict[int, list[int]], int]:
    """What a search yields (each "on" state, its layer and its traced path), the map of parents
    it gave (the C search's reads its entries as they are looked up), and the work it counted."""
    met: list[object] = []
    parents: dict[int, list[int]] = {}
    with limits(node_limit=10**12):
        for state, links, parents in search:
            met.append((state, links, aic.trace(parents, state)))
        used = nodes_used()
    return met, parents, used


def _same_searches(grid: CandidateGrid, rng: random.Random) -> int:
    """The C search and the Python one agree on the graphs of the chain and loop finders, and
    with a filter the C search gives exactly the states its caller's own test keeps: those
    weakly linked to the start (a loop's closing nodes), or whose ends prove something (as
    :func:`aic._outcome` and :func:`grouped_chains._ends` say)."""
    strong: dict[int, list[int]] = {}
    aic._bivalues(grid, strong)

    def outcome(start: int, node: int) -> bool:
        return any(aic._outcome(grid, start, node))

    grouped = grouped_graph.Graph(grid, digits=range(grid.size), bivalue=True, groups=True, als_cells=8)
    for graph_of in (grouped, grouped_graph.Graph(grid, digits=[0, 2], bivalue=False, groups=True)):
        for in_cell in (True, False):  # the weak links read in C are the Python code's
            fast = graph_of._weak(in_cell=in_cell)
            assert list(fast.items()) == list(graph_of._weak_py(in_cell=in_cell).items())
    graphs = [
        (*aic._aic_graph(grid), (), True, outcome),
        (strong, aic._weak(grid, strong, in_cell=False), (), True, outcome),
        (grouped.strong, grouped.weak, grouped.groups, False, partial(grouped_chains._ends, grouped)),
    ]
    count = 0
    for links_strong, links_weak, groups, proves, test in graphs:
        assert CORE is not None
        graph = CORE.chain_graph(links_strong, links_weak)  # whatever its size
        ends = aic.c_ends(grid, graph, groups, proves=proves)
        starts = sorted(links_strong)
        for start in rng.sample(starts, min(6, len(starts))):
            limit = rng.choice((aic.MAX_LINKS + 1, aic.MAX_LINKS, 4))
            want = _walk(aic.layers_py(links_strong, links_weak, start, limit))
            got = _walk(aic.layers(links_strong, links_weak, start, limit, graph))
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
                kept = _walk(aic.layers(links_strong, links_weak, start, limit, graph, only))
                assert kept[0] == [met for met in want[0] if keep(met[0] >> 1)]  # type: ignore[index]
                assert kept[2] == want[2]
    return count


def _chain_finds(grids: list[CandidateGrid]) -> list[object]:
    """The X-Chain, AIC and XY-Chain each finder finds on each grid, and the work it counted."""
    out: list[object] = []
    for grid in grids:
        for find in (aic.find_x_chain, aic.find_aic, aic.find_xy_chain):
            with limits(node_limit=10**12):
                step = find(grid.copy())
                out.append((step.to_json() if step else None, nodes_used()))
    return out


@needs_core
def test_a_chain_search_in_one_c_call_finds_what_the_loop_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    """``chain_search`` (the whole search of a finder in one call) gives the chain the Python
    loop over the starts gives, and counts the same work."""
    states = list(hard_states(6, 170, 2, 23, 37, 2))
    grids = states + list(quiet_states(iter(states)))
    fast = _chain_finds(grids)
    # one unit of work short, the C search stops too
    grid, used = next((g, u) for g, (step, u) in zip(grids, fast[1::3], strict=True) if step)  # type: ignore[misc]
    with pytest.raises(LogicTimeout), limits(node_limit=used - 1):
        aic.find_aic(grid.copy())
    monkeypatch.setattr(aic, "c_ends", lambda *args, **kwargs: None)
    assert _chain_finds(grids) == fast
    assert sum(step is not None for step, _ in fast)  # type: ignore[misc]


def _grouped_finds(grids: list[CandidateGrid]) -> list[tuple[object, int]]:
    """The grouped chain found on each grid, and the work counted."""
    out: list[tuple[object, int]] = []
    for grid in grids:
        with limits(node_limit=10**12):
            step = grouped_chains.find_grouped_chain(grid.copy())
            out.append((step.to_json() if step else None, nodes_used()))
    return out


@needs_core
def test_a_grouped_chain_search_in_one_c_call_finds_what_the_loop_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A grouped chain's search in one call (``chain_search`` with a group base) gives the
    chain the Python loop over the starts gives, and counts the same work."""
    states = list(hard_states(6, 170, 2, 23, 59, 2))
    grids = states + list(quiet_states(iter(states)))
    fast = _grouped_finds(grids)
    # one unit of work short, the C search stops too
    grid, used = next((g, u) for g, (step, u) in zip(grids, fast, strict=True) if step)
    with pytest.raises(LogicTimeout), limits(node_limit=used - 1):
        grouped_chains.find_grouped_chain(grid.copy())
    monkeypatch.setattr(grouped_graph.Graph, "search", lambda self, starts, limit: None)
    assert _grouped_finds(grids) == fast
    assert sum(step is not None for step, _ in fast)


def _loop_sweeps(grids: list[CandidateGrid]) -> list[object]:
    """The loops each grid's sweep finds, plain and through groups and ALS nodes, and the work
    it counted."""
    out: list[object] = []
    for grid in grids:
        for als_cells in (0, grouped_chains.ALS_NODE_CELLS):
            with limits(node_limit=10**12):
                found = grouped_chains._closed_loops(grid.copy(), als_cells)
                out.append((found, nodes_used()))
    return out


@needs_core
def test_a_loop_sweep_in_one_c_call_finds_what_the_loop_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    """``chain_sweep`` (the continuous nice loops' sweep of every start in one call, leaving to
    Python the starts that close a loop of three links or more) gives the loops the Python loop
    over every start gives, and counts the same work."""
    states = list(hard_states(6, 170, 2, 23, 41, 2))
    grids = states + list(quiet_states(iter(states)))
    fast = _loop_sweeps(grids)
    # one unit of work short, the C sweep stops too
    graph = grouped_graph.graph_of(grids[0])
    starts = sorted(graph.strong)
    with limits(node_limit=10**12):
        graph.closing_starts(starts, grouped_chains.MAX_LINKS)
        swept = nodes_used()
    assert swept
    with pytest.raises(LogicTimeout), limits(node_limit=swept - 1):
        graph.closing_starts(starts, grouped_chains.MAX_LINKS)
    monkeypatch.setattr(grouped_graph.Graph, "closing_starts", lambda self, starts, limit: starts)
    assert _loop_sweeps(grids) == fast
    assert sum(bool(found) for found, _ in fast)  # type: ignore[misc]


@needs_core
@pytest.mark.parametrize(("ident", "geometry", "givens", "solution"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_c_and_python_chain_searches_agree_on_known_puzzles(
    ident: str, geometry: Geometry, givens: list[int], solution: list[int]
) -> None:
    rng = random.Random(zlib.crc32(ident.encode()))
    assert sum(_same_searches(random_state(geometry, givens, solution, rng), rng) for _ in range(3))


@needs_core
def test_c_and_python_chain_searches_agree_on_hard_puzzles_and_variants() -> None:
    rng = random.Random(17)
    assert sum(_same_searches(grid, rng) for grid in hard_states(6, 170, 2, 23, 17, 3))


@needs_core
@pytest.mark.parametrize("seed", range(3))
def test_chain_and_loop_listings_are_the_same_with_the_c_search(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole listings of the finders that search chains and loops (grouped ones through group
    nodes), C search against Python, on random pencil marks of the known-answer puzzles."""
    rng = random.Random(seed)
    finders = (
        aic.iter_aic,
        aic.iter_discontinuous_nice_loop,
        aic.iter_x_chain,
        aic.iter_xy_chain,
        aic.iter_remote_pair,
        grouped_chains.iter_grouped_chain_by_groups,
        grouped_chains._every_loop,
    )
    listed = 0
    for ident, geometry, givens, solution in rng.sample(PUZZLES, 5):
        grid = random_state(geometry, givens, solution, rng)
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
    grid = random_state(geometry, givens, solution, random.Random(5))
    graph = grouped_graph.Graph(grid, digits=range(grid.size), bivalue=True, groups=True)
    start = sorted(graph.strong)[0]
    with_c = _walk(graph.layers(start, aic.MAX_LINKS))
    assert graph._c_graph is not None
    monkeypatch.setattr(propagate, "USE_C", False)
    without = _walk(graph.layers(start, aic.MAX_LINKS))
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
            want = _walk(aic.layers_py(spec_strong, spec_weak, start, 8))
            got = _walk(aic.layers(strong, weak, start, 8, graph))
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
        fast = grouped_graph.Graph(grid, digits=digits, bivalue=False, groups=groups)
        spec = grouped_graph.Graph.__new__(grouped_graph.Graph)
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
    grids = known_states(ident, geometry, givens, solution, 7, 3, settled=True)
    assert sum(_same_strong(grid) for grid in grids)


@needs_core
def test_c_and_python_loop_strong_links_agree_on_hard_puzzles_and_variants() -> None:
    states = list(hard_states(8, 130, 3, 19, 73, 3))
    assert sum(_same_strong(grid) for grid in [*states, *quiet_states(iter(states))])
