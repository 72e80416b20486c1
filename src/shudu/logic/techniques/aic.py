"""Chains: X-Chain, XY-Chain and alternating inference chains (AIC, discontinuous nice loops).

A chain alternates strong links (one of the two ends is true: a digit's two places in a house, or
a cell's two candidates) and weak links (the two ends are not both true: one digit in two cells
that see each other, or two digits of one cell). Starting from "the first candidate is false" and
following the links, each step forces the next; the far end is then true. So the first or the last
candidate is true, and any candidate that sees both loses out. A chain whose far end is the first
candidate itself proves that candidate.

Candidates are plain ints ``cell * n + (digit - 1)``. The search is breadth first from every
start, so the chain found is the shortest of its kind. It runs in the C core when it is built
(``chain_bfs``, for graphs of :data:`C_GRAPH_NODES` nodes or more); :func:`layers_py` is its
specification.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache, partial
from typing import Any

from ...geometry import Geometry
from ...notation import digit_char
from ..engine.budget import c_limits, c_spent, checkpoint
from ..engine.chain_structure import Chain, LinkKind, Node, Shortest
from ..engine.grid import CandidateGrid, bits, tables
from ..engine.memo import barren, mark_barren
from ..engine.propagate import C_STOPPED, c_core, c_tables
from ..engine.step import Step, make_step

#: Longest chain looked for (links).
MAX_LINKS = 21
#: The fewest nodes of a graph whose searches run in the C core (both ways give the same).
C_GRAPH_NODES = 8

Links = dict[int, list[int]]


def _conjugates(grid: CandidateGrid, strong: Links, digits: range | list[int]) -> None:
    n = grid.size
    for d in digits:
        for a, b in _conjugate_pairs(grid.geometry, grid.where[d]):
            na, nb = a * n + d, b * n + d
            if nb not in strong.setdefault(na, []):
                strong[na].append(nb)
                strong.setdefault(nb, []).append(na)


@lru_cache(maxsize=4096)
def _conjugate_pairs(geometry: Geometry, where: int) -> tuple[tuple[int, int], ...]:
    """The two places (the higher first) of a digit's places ``where`` in each house that holds
    exactly two, house by house. Remembered: most digits' places are the same from one grid of
    a path to the next."""
    out = []
    for hbits in tables(geometry).house_bits:
        spots = where & hbits
        if spots.bit_count() == 2:
            a = spots.bit_length() - 1
            out.append((a, (spots ^ (1 << a)).bit_length() - 1))
    return tuple(out)


def _bivalues(grid: CandidateGrid, strong: Links) -> None:
    n = grid.size
    for cell in bits(grid.empty):
        mask = grid.cands[cell]
        if mask.bit_count() == 2:
            x = mask.bit_length() - 1
            y = (mask ^ (1 << x)).bit_length() - 1
            strong.setdefault(cell * n + x, []).append(cell * n + y)
            strong.setdefault(cell * n + y, []).append(cell * n + x)


def _weak(grid: CandidateGrid, strong: Links, *, in_cell: bool) -> Links:
    """Weak links from every candidate with a strong link to the others with one: per node, the
    nodes of its digit in its cells' peers, by cell, then (with ``in_cell``) its cell's other
    candidates. In the C core (``chain_weak``, which lists a digit's nodes in the order it is
    given them: here ascending, so by cell) where the geometry's tables are there;
    :func:`_weak_py` is its specification."""
    capsule = c_tables(grid.geometry)
    core = c_core()
    if capsule is None or core is None or len(strong) < C_GRAPH_NODES:
        return _weak_py(grid, strong, in_cell=in_cell)
    n = grid.size
    nodes = sorted(strong)
    cells = [1 << (node // n) for node in nodes]
    digits = [node % n for node in nodes]
    outs = core.chain_weak(capsule, nodes, cells, digits, grid.cands, n**3, in_cell)
    by_node = dict(zip(nodes, outs, strict=True))
    return {node: by_node[node] for node in strong}


def _weak_py(grid: CandidateGrid, strong: Links, *, in_cell: bool) -> Links:
    """:func:`_weak` in Python: the specification of its use of the C core's ``chain_weak``."""
    n = grid.size
    peer_bits = grid.t.peer_bits
    by_digit = [0] * n
    for node in strong:
        cell, d = divmod(node, n)
        by_digit[d] |= 1 << cell
    weak: Links = {}
    for node in strong:
        cell, d = divmod(node, n)
        out = [c * n + d for c in bits(by_digit[d] & peer_bits[cell])]
        if in_cell:
            out += [cell * n + e for e in bits(grid.cands[cell]) if e != d and cell * n + e in strong]
        weak[node] = out
    return weak


def find_x_chain(grid: CandidateGrid) -> Step | None:
    best = None
    # a digit's X-Chains depend on its places alone: places searched in vain are skipped
    tag = ("x-chain", id(grid.t))
    for d in range(grid.size):
        where = grid.where[d]
        if not where or barren((tag, where)):
            continue
        strong: Links = {}
        _conjugates(grid, strong, [d])
        step = _search(grid, strong, _weak(grid, strong, in_cell=False), "X-Chain", best)
        if step is not None and step is not best:
            best = step
        elif best is None:  # searched without a length bound: there is none
            mark_barren((tag, where))
    return best


def iter_x_chain(grid: CandidateGrid) -> Iterator[Step]:
    """Every X-Chain: per digit, the shortest chain between each pair of ends that eliminates."""
    seen: Shortest[Step] = Shortest()
    for d in range(grid.size):
        strong: Links = {}
        _conjugates(grid, strong, [d])
        _all(grid, strong, _weak(grid, strong, in_cell=False), "X-Chain", seen)
    yield from seen.steps()


def find_xy_chain(grid: CandidateGrid) -> Step | None:
    strong: Links = {}
    _bivalues(grid, strong)
    return _search(grid, strong, _weak(grid, strong, in_cell=False), "XY-Chain", None)


def iter_xy_chain(grid: CandidateGrid) -> Iterator[Step]:
    """Every XY-Chain (bivalue cells linked by a shared digit) whose two ends hold one digit."""
    strong: Links = {}
    _bivalues(grid, strong)
    weak = _weak(grid, strong, in_cell=False)
    n = grid.size
    seen: Shortest[Step] = Shortest()
    _all(grid, strong, weak, "XY-Chain", seen, ends_alike=n)
    yield from seen.steps()


def find_remote_pair(grid: CandidateGrid) -> Step | None:
    return next(iter_remote_pair(grid), None)


def iter_remote_pair(grid: CandidateGrid) -> Iterator[Step]:
    """Every Remote Pair: an XY-Chain of cells that all hold the same two digits (the chain's two
    ends then hold both digits between them, so a cell seeing both loses both)."""
    n = grid.size
    pairs: dict[int, int] = {}
    for cell in bits(grid.empty):
        mask = grid.cands[cell]
        if mask.bit_count() == 2:
            pairs[mask] = pairs.get(mask, 0) | 1 << cell
    for mask, cells in sorted(pairs.items()):
        if cells.bit_count() < 4:
            continue
        strong: Links = {}
        x = mask.bit_length() - 1
        y = (mask ^ (1 << x)).bit_length() - 1
        for cell in bits(cells):
            strong[cell * n + x] = [cell * n + y]
            strong[cell * n + y] = [cell * n + x]
        weak = _weak(grid, strong, in_cell=False)
        seen: Shortest[Step] = Shortest()
        for first, end, length, parents in _paths(grid, strong, weak):
            last = end >> 1
            if first % n != last % n or length < 8:
                continue
            a, b = first // n, last // n
            common = grid.t.peer_bits[a] & grid.t.peer_bits[b] & ~(1 << a | 1 << b)
            elims = [(c, d + 1) for d in (x, y) for c in bits(grid.where[d] & common)]
            if elims:
                build = partial(_traced_step, grid, "Remote Pair", parents, end, [], elims)
                seen.offer(tuple(sorted(elims)), length, build)
        yield from seen.steps()


def find_aic(grid: CandidateGrid) -> Step | None:
    strong: Links = {}
    _conjugates(grid, strong, range(grid.size))
    _bivalues(grid, strong)
    return _search(grid, strong, _weak(grid, strong, in_cell=True), "AIC", None)


def iter_aic(grid: CandidateGrid) -> Iterator[Step]:
    """Every AIC over single candidates (conjugate pairs and bivalue cells) whose two ends lie in
    two cells (HoDoKu's AIC; chains closing on one cell are discontinuous nice loops)."""
    n = grid.size
    seen: Shortest[Step] = Shortest()
    for s, end, length, parents in _paths(grid, *_aic_graph(grid), proving=True):
        y = end >> 1
        if s // n == y // n:
            continue
        placements, elims = _outcome(grid, s, y)
        if elims:
            key = (tuple(placements), tuple(sorted(elims)))
            seen.offer(key, length, partial(_traced_step, grid, "AIC", parents, end, placements, elims))
    yield from seen.steps()


def find_discontinuous_nice_loop(grid: CandidateGrid) -> Step | None:
    return next(iter_discontinuous_nice_loop(grid), None)


def iter_discontinuous_nice_loop(grid: CandidateGrid) -> Iterator[Step]:
    """Every discontinuous nice loop: an AIC read as a loop through one cell, which loses the
    candidates the loop proves false there (or gets the one it proves true).

    From "s is false" the chain makes y true. When s is y the loop proves s (listed twice: placing
    s, and as HoDoKu gives it, removing the cell's other candidates). When s and y share a
    cell, the cell's other candidates go. Otherwise a cell that a digit of both ends rules out
    closes the loop through itself: a cell seeing both ends' digit d loses d, and an end's cell
    loses the other end's digit when the two ends see each other.
    """
    n = grid.size
    peer_bits = grid.t.peer_bits
    seen: Shortest[Step] = Shortest()
    for s, end, length, parents in _paths(grid, *_aic_graph(grid), proving=True):
        y = end >> 1
        placements, elims = _outcome(grid, s, y)
        (cs, ds), (cy, dy) = divmod(s, n), divmod(y, n)
        if placements or cs == cy:
            found = [elims] if elims else [[]]
        elif ds == dy:
            found = [[e] for e in elims]
        else:
            found = [[e] for e in elims if e in ((cs, dy + 1), (cy, ds + 1)) and peer_bits[cs] >> cy & 1]
        for one in found:
            if placements or one:
                build = partial(_traced_step, grid, "Discontinuous Nice Loop", parents, end, placements, one)
                seen.offer((tuple(placements), tuple(one)), length, build)
        if placements:
            # HoDoKu's form of the same loop: the cell's other candidates go
            others = [(cs, e + 1) for e in bits(grid.cands[cs]) if e != ds]
            if others:
                build = partial(
                    _traced_step, grid, "Discontinuous Nice Loop", parents, end, [], others, proves=True
                )
                seen.offer(((), tuple(others)), length, build)
    yield from seen.steps()


def _aic_graph(grid: CandidateGrid) -> tuple[Links, Links]:
    strong: Links = {}
    _conjugates(grid, strong, range(grid.size))
    _bivalues(grid, strong)
    return strong, _weak(grid, strong, in_cell=True)


def _outcome(grid: CandidateGrid, s: int, y: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """What "s or y is true" proves: (placements, eliminations)."""
    n = grid.size
    cs, ds = divmod(s, n)
    cy, dy = divmod(y, n)
    peer_bits = grid.t.peer_bits
    if s == y:
        return [(cs, ds + 1)], []
    if ds == dy:
        targets = grid.where[ds] & peer_bits[cs] & peer_bits[cy]
        return [], [(c, ds + 1) for c in bits(targets)]
    if cs == cy:
        return [], [(cs, e + 1) for e in bits(grid.cands[cs]) if e not in (ds, dy)]
    if peer_bits[cs] >> cy & 1:
        out = []
        if grid.cands[cs] >> dy & 1:
            out.append((cs, dy + 1))
        if grid.cands[cy] >> ds & 1:
            out.append((cy, ds + 1))
        return [], out
    return [], []


def _paths(
    grid: CandidateGrid, strong: Links, weak: Links, limit: int = MAX_LINKS + 1, *, proving: bool = False
) -> Iterator[tuple[int, int, int, Mapping[int, Sequence[int]]]]:
    """Every start's shortest alternating path (states ``candidate * 2 + on``, the start off) to each
    candidate it reaches on, breadth first: the start, the end state, the path's length (states)
    and the parents that :func:`trace` it (a listing traces only the paths it keeps). With
    ``proving`` the search may leave out the ends that with the start prove nothing
    (:func:`_outcome`)."""
    graph = c_graph(strong, weak)
    only = c_ends(grid, graph, proves=True) if proving else None
    for s in sorted(strong):
        for state, links, parents in layers(strong, weak, s, limit, graph, only):
            yield s, state, links + 1, parents


def c_graph(strong: Mapping[int, Iterable[int]], weak: Mapping[int, Iterable[int]]) -> object | None:
    """The links read once into the C core, for :func:`layers` (None: it runs in Python, as it
    does for a graph of fewer than :data:`C_GRAPH_NODES` nodes, where the call costs more than
    the search)."""
    core = c_core()
    if (
        core is None
        or not isinstance(strong, dict)
        or not isinstance(weak, dict)
        or len(strong) < C_GRAPH_NODES
    ):
        return None
    try:
        graph: object = core.chain_graph(strong, weak)
    except ValueError:  # a node id beyond the C tables
        return None
    return graph


def c_ends(
    grid: CandidateGrid, graph: object | None, groups: Sequence[tuple[int, int]] = (), *, proves: bool
) -> object | None:
    """What the two ends of a chain prove on ``grid``, read into the C core for :func:`layers`
    (None where the search runs in Python): a candidate node is ``cell * n + digit``, and
    ``groups`` are the (cells, digit) of the nodes from ``n ** 3`` on. ``proves``: a chain from
    a candidate back to itself proves it (:func:`_outcome`); else it proves nothing (as
    :func:`~shudu.logic.techniques.grouped_chains._ends` has it)."""
    core = c_core()
    capsule = c_tables(grid.geometry)
    if graph is None or core is None or capsule is None:
        return None
    ends: object = core.chain_ends(capsule, grid.cands, grid.where, list(groups), grid.size**3, proves)
    return ends


class _Parents(dict[int, list[int]]):
    """The map of parents of a search run in the C core, read from its (state, parent) pairs
    when a path is traced (most searches trace none). A layer's pairs are all met before its
    states are yielded, so what was read stays true as the search goes on."""

    def __init__(self, start: int, core: Any, search: object) -> None:
        super().__init__({start: []})
        self._core = core
        self._search = search
        self._read = 0

    def __missing__(self, state: int) -> list[int]:
        words = memoryview(self._core.chain_bfs_edges(self._search, self._read)).cast("i")
        self._read += len(words) // 2
        for i in range(0, len(words), 2):
            self.setdefault(words[i], []).append(words[i + 1])
        if state not in self:
            raise KeyError(state)
        return self[state]


def layers(
    strong: Mapping[int, Iterable[int]],
    weak: Mapping[int, Iterable[int]],
    start: int,
    limit: int,
    graph: object | None = None,
    only: object | None = None,
) -> Iterator[tuple[int, int, dict[int, list[int]]]]:
    """Breadth first from ``start`` off, a strong link into each "on" state and a weak one into
    each "off" state, up to ``limit`` links: each state reached on, once its layer is complete,
    with the links of its shortest paths and the map of parents. A state's parents are all
    those on a shortest path to it, the first met first.

    With ``graph`` (:func:`c_graph` of the same links) the search runs in the C core, which
    gives the same states, layers, parents and budget counts; :func:`layers_py` is its
    specification. There ``only`` may leave out states the caller would pass over: True, those
    whose node is not weakly linked to the start; :func:`c_ends` of the grid, those that with
    the start prove nothing. The caller still tests each state it gets (the Python search
    gives them all)."""
    core = c_core()
    if graph is None or core is None:  # no graph read, or the C path switched off since
        yield from layers_py(strong, weak, start, limit)
        return
    search = core.chain_bfs(graph, start, limit, only)
    parents = _Parents(start * 2, core, search)
    links = 0
    while (layer := core.chain_bfs_layer(search)) is not None:
        links += 1
        checkpoint(layer[0])
        for state in layer[1]:
            yield state, links, parents


def layers_py(
    strong: Mapping[int, Iterable[int]], weak: Mapping[int, Iterable[int]], start: int, limit: int
) -> Iterator[tuple[int, int, dict[int, list[int]]]]:
    """:func:`layers` in Python: the specification of the C core's ``chain_bfs``."""
    depth = {start * 2: 0}
    parents: dict[int, list[int]] = {start * 2: []}
    frontier = [start * 2]
    links = 0
    while frontier and links + 1 < limit:
        links += 1
        nxt = []
        checkpoint(len(frontier))
        for state in frontier:
            node, on = state >> 1, state & 1
            for other in weak[node] if on else strong[node]:
                new = other * 2 + (0 if on else 1)
                known = depth.get(new)
                if known is None:
                    depth[new] = links
                    parents[new] = [state]
                    nxt.append(new)
                elif known == links:
                    parents[new].append(state)
        for new in nxt:
            if new & 1:
                yield new, links, parents
        frontier = nxt


def trace(parents: Mapping[int, Sequence[int]], end: int) -> list[int]:
    """The shortest path from the start to ``end`` through each state's first parent."""
    path = [end]
    while parents[path[-1]]:
        path.append(parents[path[-1]][0])
    path.reverse()
    return path


def _all(
    grid: CandidateGrid,
    strong: Links,
    weak: Links,
    name: str,
    seen: Shortest[Step],
    *,
    ends_alike: int = 0,
) -> None:
    """Every chain of the graph that proves something, offered to ``seen`` (only chains whose
    two ends hold one digit, when ``ends_alike`` gives the grid's size)."""
    for s, end, length, parents in _paths(grid, strong, weak, proving=True):
        if ends_alike and s % ends_alike != (end >> 1) % ends_alike:
            continue
        placements, elims = _outcome(grid, s, end >> 1)
        if not placements and not elims:
            continue
        key = (tuple(placements), tuple(sorted(elims)))
        seen.offer(key, length, partial(_traced_step, grid, name, parents, end, placements, elims))


def _search(grid: CandidateGrid, strong: Links, weak: Links, name: str, best: Step | None) -> Step | None:
    """The first chain, breadth first from each start in turn, that proves something, each
    start's search stopping at the length of the best chain so far. Where the C core reads the
    graph and the grid, the whole search is one call there (``chain_search``, counting each
    layer's frontier against the logic budget as :func:`layers` does); the loop below is its
    specification."""
    limit = best.length if best else MAX_LINKS + 1
    graph = c_graph(strong, weak)
    ends = c_ends(grid, graph, proves=True)
    if ends is not None:  # the whole search in one call of the C core
        core = c_core()
        assert core is not None
        code, units, path = core.chain_search(graph, sorted(strong), limit, ends, *c_limits())
        c_spent(units, stopped=code == C_STOPPED)
        if path is None:
            return best
        placements, elims = _outcome(grid, path[0] >> 1, path[-1] >> 1)
        return _chain_step(grid, name, list(path), placements, elims)
    for s in sorted(strong):
        for end, _, parents in layers(strong, weak, s, limit, graph, ends):
            placements, elims = _outcome(grid, s, end >> 1)
            if placements or elims:
                best = _chain_step(grid, name, trace(parents, end), placements, elims)
                limit = best.length
                break
    return best


def chain_of(nodes: list[Node], kinds: list[LinkKind], *, loop: bool = False) -> Chain:
    return Chain(tuple(nodes), tuple(kinds), loop)


def _path_chain(n: int, path: list[int]) -> Chain:
    """The chain of a path of states: the link into an "on" state is strong, into "off" weak."""
    nodes = []
    for state in path:
        cell, d = divmod(state >> 1, n)
        nodes.append(Node((cell,), (d + 1,)))
    kinds: list[LinkKind] = ["strong" if state & 1 else "weak" for state in path[1:]]
    return chain_of(nodes, kinds)


def _traced_step(
    grid: CandidateGrid,
    name: str,
    parents: Mapping[int, Sequence[int]],
    end: int,
    placements: list[tuple[int, int]],
    elims: list[tuple[int, int]],
    *,
    proves: bool = False,
) -> Step:
    """:func:`_chain_step` of the path to ``end`` that ``parents`` trace."""
    return _chain_step(grid, name, trace(parents, end), placements, elims, proves=proves)


def _chain_step(
    grid: CandidateGrid,
    name: str,
    path: list[int],
    placements: list[tuple[int, int]],
    elims: list[tuple[int, int]],
    kind: str = "",
    *,
    proves: bool = False,
) -> Step:
    """The step of a chain path; ``proves``: the path proves its first candidate (as placements do)
    though the step says so by removing the cell's other candidates."""
    n = grid.size
    chain = _path_chain(n, path)
    text = chain.text(n)
    s_cell, s_d = divmod(path[0] >> 1, n)
    e_cell, e_d = divmod(path[-1] >> 1, n)
    first = f"{digit_char(s_d + 1)} in {grid.name(s_cell)}"
    last = f"{digit_char(e_d + 1)} in {grid.name(e_cell)}"
    if placements or proves:
        reason = f"if {first} were false, the chain {text} would make it true"
    else:
        reason = f"the chain {text} shows that {first} or {last} is true"
    cells = []
    for state in path:
        cell = (state >> 1) // n
        if cell not in cells:
            cells.append(cell)
    return make_step(
        grid,
        name,
        reason,
        structure=chain,
        placements=placements,
        eliminations=elims,
        cells=cells,
        digits=[(state >> 1) % n + 1 for state in path],
        length=len(path) - 1,
        kind=kind,
    )
