"""Grouped chains and continuous nice loops.

A *group node* is a digit in two or more cells where two houses meet (a box and a line): "the
digit is in one of these cells". Group nodes link like single candidates: strongly when a house's
places of the digit fall into exactly two nodes, weakly to every node of the digit that sees all
their cells. With them, X-chains and AICs reach further (grouped X-Chain, grouped AIC).

An *ALS node* is a digit of an almost locked set (n cells of one house holding n + 1 digits):
"the digit is in the set". Without x the set holds n digits in n cells, so each other digit z is
in it: (x in the set) = (z in the set) is a strong link, and the digit's places in the set link
weakly to every node of the digit that sees them all. The listings go through ALS nodes too, after
the chains and loops that group nodes alone make (as HoDoKu's grouped chains do).

A *continuous nice loop* is a chain that closes on itself: "a is false" leads, link by link, back
to "a is false". Then every weak link of the loop holds strongly too: a digit on a weak link
between two cells goes from every cell that sees both, and a cell whose two candidates form a weak
link loses every other candidate. A strong link through an ALS then holds exactly once: one of its
two digits is missing from the set, so the set holds all its other digits, and each goes from the
cells that see all its places in the set.

Nodes are ints: ``cell * n + digit`` for a single candidate, ``n**3 + k`` for the k-th group of
cells (a group node's, or the places of a digit in an ALS). The graph of a grid is built in
:mod:`shudu.logic.techniques.grouped_graph`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from itertools import pairwise

from ...notation import digit_char
from ..engine.chain_structure import Chain, LinkKind, Node, Shortest
from ..engine.grid import CandidateGrid, bits
from ..engine.memo import remember, remembered, remembered_steps
from ..engine.step import Step, make_step
from .aic import MAX_LINKS, trace
from .grouped_graph import ALS_NODE_CELLS, Graph, graph_of


def _bfs(graph: Graph, start: int, limit: int, goal: Callable[[int, int], bool]) -> list[int] | None:
    """Shortest alternating path of states (node * 2 + on) from ``start`` off, until ``goal(state,
    path_length)`` says yes; None past ``limit`` links. Only that path is written out. ``goal``
    holds only where :func:`_ends` of the start and the state's node is not empty."""
    for state, links, parents in graph.layers(start, limit, ends=True):
        if goal(state, links):
            return trace(parents, state)
    return None


#: The most shortest paths a loop search writes out to one closing node; past it, those met first.
PATHS_PER_END = 16


def _apart_paths(graph: Graph, parents: dict[int, list[int]], end: int) -> list[list[int]]:
    """The shortest paths from the start to ``end`` (up to :data:`PATHS_PER_END`) whose nodes
    share no candidate, so that each link of the loop counts once (its strong links hold at
    least one true node each and its weak links at most one, so exactly), and a loop is not
    missed because the first shortest path met crosses itself."""
    found: list[list[int]] = []
    taken = [0] * graph.grid.size
    path: list[int] = []

    def walk(state: int) -> None:
        cells, d = graph.cells_of(state >> 1)
        if taken[d] & cells:
            return
        taken[d] |= cells
        path.append(state)
        if not parents[state]:
            found.append(path[::-1])
        for before in parents[state]:
            if len(found) >= PATHS_PER_END:
                break
            walk(before)
        path.pop()
        taken[d] ^= cells

    walk(end)
    return found


def _ends(graph: Graph, s: int, y: int) -> list[tuple[int, int]]:
    """What "s or y is true" eliminates (nodes of one digit, or two candidates of cells)."""
    grid, n = graph.grid, graph.grid.size
    ds = graph.cells_of(s)[1]
    dy = graph.cells_of(y)[1]
    if s == y:
        return []
    if ds == dy:
        targets = grid.where[ds] & graph.seen_by(s) & graph.seen_by(y)
        return [(c, ds + 1) for c in bits(targets)]
    if s >= graph.base or y >= graph.base:
        return []
    cs, cy = s // n, y // n
    if cs == cy:
        return [(cs, e + 1) for e in bits(grid.cands[cs]) if e not in (ds, dy)]
    if grid.t.peer_bits[cs] >> cy & 1:
        return [(c, e + 1) for c, e in ((cs, dy), (cy, ds)) if grid.cands[c] >> e & 1]
    return []


def _uses_group(graph: Graph, path: list[int]) -> bool:
    """Whether a path goes through a group node or an ALS node."""
    if any(state >> 1 >= graph.base for state in path):
        return True
    return bool(graph.als) and any((a >> 1, b >> 1) in graph.als for a, b in pairwise(path))


def _als_of(graph: Graph, path: list[int], i: int) -> int:
    """The cells of the ALS whose strong link holds state ``i`` of a path (0: none)."""
    if not graph.als:
        return 0
    j = i - 1 if path[i] & 1 else i + 1
    if not 0 <= j < len(path):
        return 0
    return graph.als.get((path[i] >> 1, path[j] >> 1), 0)


@remembered
def find_grouped_chain(grid: CandidateGrid) -> Step | None:
    """Grouped X-Chain (one digit) or grouped AIC: the shortest chain through a group node."""
    graph = graph_of(grid)
    starts = sorted(graph.strong)
    path = graph.search(starts, MAX_LINKS + 1)  # the whole search in one call of the C core
    if path is None:
        path = _grouped_chain_py(graph, starts)
    if not path:
        return None
    elims = _ends(graph, path[0] >> 1, path[-1] >> 1)
    name = "Grouped X-Chain" if _one_digit(graph, path) else "Grouped AIC"
    return _step(graph, name, path, elims, "the chain {chain} shows that {first} or {last} is true")


def _grouped_chain_py(graph: Graph, starts: list[int]) -> list[int]:
    """The search of :func:`find_grouped_chain` in Python, the specification of
    :meth:`Graph.search`: from each start in turn, the first chain whose ends eliminate, kept if
    it goes through a group node, each kept chain making the limit its length (an empty list:
    none)."""
    best: list[int] = []
    limit = MAX_LINKS + 1
    for s in starts:

        def goal(state: int, links: int, s: int = s) -> bool:
            return bool(_ends(graph, s, state >> 1))

        path = _bfs(graph, s, limit, goal)
        if path and _uses_group(graph, path):
            best = path
            limit = len(path) - 1
    return best


def iter_grouped_chain(
    grid: CandidateGrid, *, als_nodes: bool = True, proving: bool = True
) -> Iterator[Step]:
    """Every grouped chain and loop: per start, the shortest chain through a group node to each end
    that eliminates (grouped X-Chain or AIC), the same chain read as a grouped discontinuous nice
    loop through one cell it rules out, and every grouped continuous nice loop.

    Chains and loops through group nodes come first, then (unless not ``als_nodes``) those through
    ALS nodes of up to :data:`ALS_NODE_CELLS` cells with other outcomes; chains that prove
    their start are left out when not ``proving``."""
    sizes = (0, ALS_NODE_CELLS) if als_nodes else (0,)
    seen: Shortest[Step] | None = None
    for als_cells in sizes:
        seen = Shortest[Step](seen)  # the ALS pass gives only outcomes the group pass did not
        yield from _grouped_chains(graph_of(grid, als_cells=als_cells), seen, proving=proving)
    seen = None
    for als_cells in sizes:
        seen = Shortest[Step](seen)
        yield from _loops(grid, grouped=True, als_cells=als_cells, seen=seen)


def _grouped_chains(graph: Graph, seen: Shortest[Step], *, proving: bool) -> Iterator[Step]:
    n = graph.grid.size
    for s in sorted(graph.strong):
        # the shortest alternating path from s off to every node it reaches on, written out only
        # where it proves something: back at s (with ``proving``), or with eliminations
        for state, _, parents in graph.layers(s, MAX_LINKS + 1):
            last = state >> 1
            elims = [] if last == s else _ends(graph, s, last)
            if not (elims or (proving and last == s)):
                continue
            path = trace(parents, state)
            if not _uses_group(graph, path):
                continue
            name = "Grouped X-Chain" if _one_digit(graph, path) else "Grouped AIC"
            if last == s:
                _proving(graph, path, name, seen)
                continue
            same_cell = s < graph.base and last < graph.base and s // n == last // n
            forms = [("Grouped Discontinuous Nice Loop" if same_cell else "", elims)]
            if not same_cell:
                # a loop through one eliminated cell: HoDoKu's grouped discontinuous nice loop
                forms += [("Grouped Discontinuous Nice Loop", [e]) for e in elims]
            template = "the chain {chain} shows that {first} or {last} is true"
            for kind, found in forms:
                build = partial(_step, graph, name, path, found, template, kind)
                seen.offer((kind, tuple(sorted(found))), len(path), build)
    yield from seen.steps()


def _proving(graph: Graph, path: list[int], name: str, seen: Shortest[Step]) -> None:
    """A grouped chain from a candidate back to itself proves it: the grouped discontinuous nice
    loop places it, or (HoDoKu's form) removes the cell's other candidates."""
    s = path[0] >> 1
    if s >= graph.base:
        return
    n = graph.grid.size
    cell, d = divmod(s, n)
    others = [(cell, e + 1) for e in bits(graph.grid.cands[cell]) if e != d]
    template = "if {first} were false, the chain {chain} would make it true"
    kind = "Grouped Discontinuous Nice Loop"
    for placements, elims in (([(cell, d + 1)], []), ([], others)):
        key = (kind + "+" if placements else kind, tuple(placements or elims))
        if placements or elims:
            build = partial(_step, graph, name, path, elims, template, kind, placements=placements)
            seen.offer(key, len(path), build)


def _one_digit(graph: Graph, path: list[int]) -> bool:
    return len({graph.cells_of(state >> 1)[1] for state in path}) == 1


@remembered_steps
def _every_loop(grid: CandidateGrid) -> list[Step]:
    """Every continuous nice loop over single candidates, one per set of eliminations: what the
    solving path chooses from. A loop through a group node is HoDoKu's grouped continuous nice
    loop: the path meets it with the grouped chains, after the AICs, at their score."""
    return list(_loops(grid, grouped=False))


def find_continuous_nice_loop(grid: CandidateGrid) -> Step | None:
    """A closed alternating loop over single candidates: every weak link of it eliminates."""
    found = _every_loop(grid)
    return found[0] if found else None


def iter_continuous_nice_loop(grid: CandidateGrid) -> Iterator[Step]:
    """Every continuous nice loop over single candidates, one per distinct set of eliminations
    (grouped ones are listed with the grouped chains)."""
    return iter(_every_loop(grid))


def _loops(
    grid: CandidateGrid,
    *,
    grouped: bool,
    als_cells: int = 0,
    seen: Shortest[Step] | None = None,
) -> Iterator[Step]:
    """The continuous nice loops of ``grid`` through group or ALS nodes (``grouped``) or through
    neither."""
    graph = graph_of(grid, als_cells=als_cells)
    seen = Shortest[Step]() if seen is None else seen
    for path, elims, through_group in _closed_loops(grid, als_cells):
        if through_group != grouped:
            continue
        if _one_digit(graph, path):
            kind = "Grouped Continuous Nice Loop" if grouped else "Continuous Nice Loop (X-Cycle)"
        else:
            kind = "Grouped Continuous Nice Loop" if grouped else ""
        template = "the loop {chain} closes, so each weak link holds"
        build = partial(_step, graph, "Continuous Nice Loop", path, elims, template, kind)
        seen.offer(tuple(elims), len(path), build)
    yield from seen.steps()


def _closed_loops(grid: CandidateGrid, als_cells: int) -> list[tuple[list[int], list[tuple[int, int]], bool]]:
    """Every loop of ``graph_of(grid, als_cells=als_cells)`` that eliminates, in the order the
    sweep meets them: from each start in turn, the shortest paths back to it (see
    :func:`_apart_paths`), each with its eliminations and whether it goes through a group or
    ALS node. Swept once per grid inside a rating (:func:`remember`): the plain and grouped
    listings both read it."""

    def sweep() -> list[tuple[list[int], list[tuple[int, int]], bool]]:
        graph = graph_of(grid, als_cells=als_cells)
        found = []
        for s in graph.closing_starts(sorted(graph.strong), MAX_LINKS):
            weak_to_s = set(graph.weak[s])
            # a loop closes on a node weakly linked to s, reached "on": once each of them has
            # been (each is met once, at its shortest depth), no later layer closes a loop
            unmet = len(weak_to_s)
            for end, links, parents in graph.layers(s, MAX_LINKS, closing=True):
                if end >> 1 not in weak_to_s:
                    continue
                unmet -= 1
                if links >= 3:
                    for path in _apart_paths(graph, parents, end):
                        path.append(s * 2)
                        elims = _loop_eliminations(graph, path)
                        if elims:
                            found.append((path, elims, _uses_group(graph, path)))
                if not unmet:
                    break
        return found

    key = (_closed_loops, grid.geometry, tuple(grid.values), tuple(grid.cands), als_cells)
    loops: list[tuple[list[int], list[tuple[int, int]], bool]] = remember(key, sweep)
    return loops


def _loop_eliminations(graph: Graph, path: list[int]) -> list[tuple[int, int]]:
    grid, n = graph.grid, graph.grid.size
    on_loop = 0
    for state in path:
        on_loop |= graph.cells_of(state >> 1)[0]
    out: set[tuple[int, int]] = set()
    for i in range(1, len(path)):
        a, b = path[i - 1], path[i]
        if not a & 1:  # a strong link (off → on)
            als = graph.als.get((a >> 1, b >> 1), 0)
            if als:
                # exactly one of the link's two digits is in the set: it holds all its others
                out.update(_als_locked(graph, als, a >> 1, b >> 1, on_loop))
            continue
        u, v = a >> 1, b >> 1
        du = graph.cells_of(u)[1]
        dv = graph.cells_of(v)[1]
        if du == dv:
            targets = grid.where[du] & graph.seen_by(u) & graph.seen_by(v) & ~on_loop
            out.update((c, du + 1) for c in bits(targets))
        elif u < graph.base and v < graph.base and u // n == v // n:
            cell = u // n
            out.update((cell, e + 1) for e in bits(grid.cands[cell]) if e not in (du, dv))
    return sorted(out)


def _als_locked(graph: Graph, als: int, u: int, v: int, on_loop: int) -> Iterator[tuple[int, int]]:
    """The candidates an ALS's digits other than those of nodes ``u`` and ``v`` rule out, when
    all of those digits are in the set."""
    grid = graph.grid
    digits = 0
    for c in bits(als):
        digits |= grid.cands[c]
    for w in bits(digits):
        if w in (graph.cells_of(u)[1], graph.cells_of(v)[1]):
            continue
        seeing = -1
        for c in bits(als):
            if grid.cands[c] >> w & 1:
                seeing &= grid.t.peer_bits[c]
        for c in bits(grid.where[w] & seeing & ~als & ~on_loop):
            yield c, w + 1


def _chain(graph: Graph, path: list[int], loop: bool) -> Chain:
    """The structure of a path of states (a loop's path ends where it began)."""
    states = path[:-1] if loop else path
    nodes = []
    for i, state in enumerate(states):
        cells, d = graph.cells_of(state >> 1)
        als = _als_of(graph, path, i)
        if als:
            nodes.append(Node(tuple(bits(als)), (d + 1,), "als"))
        else:
            nodes.append(Node(tuple(bits(cells)), (d + 1,), "group" if cells & (cells - 1) else "cell"))
    kinds: list[LinkKind] = ["strong" if state & 1 else "weak" for state in path[1:]]
    return Chain(tuple(nodes), tuple(kinds), loop)


def _step(
    graph: Graph,
    name: str,
    path: list[int],
    elims: list[tuple[int, int]],
    template: str,
    kind: str = "",
    *,
    placements: list[tuple[int, int]] | None = None,
) -> Step:
    grid = graph.grid
    loop = len(path) > 1 and path[0] == path[-1]
    chain = _chain(graph, path, loop)
    cells: list[int] = []
    for i, state in enumerate(path):
        node_cells = graph.cells_of(state >> 1)[0] | _als_of(graph, path, i)
        cells += [c for c in bits(node_cells) if c not in cells]
    first_cells, first_d = graph.cells_of(path[0] >> 1)
    last_cells, last_d = graph.cells_of(path[-1] >> 1)
    reason = template.format(
        chain=chain.text(grid.size),
        first=f"{digit_char(first_d + 1)} in {grid.names(first_cells)}",
        last=f"{digit_char(last_d + 1)} in {grid.names(last_cells)}",
    )
    return make_step(
        grid,
        name,
        reason,
        structure=chain,
        placements=placements or [],
        eliminations=elims,
        cells=cells,
        digits=[graph.cells_of(state >> 1)[1] + 1 for state in path],
        length=len(path) - 1,
        kind=kind,
    )


def iter_grouped_chain_by_groups(grid: CandidateGrid) -> Iterator[Step]:
    """Every grouped chain and loop through group nodes alone, none proving its start: what the
    solving path lists when it takes every step of a technique (ALS nodes cost more than the path
    should pay, and the path's grouped chains stay as they were)."""
    return iter_grouped_chain(grid, als_nodes=False, proving=False)
