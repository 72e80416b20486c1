"""The graph the grouped chains and continuous nice loops search
(:mod:`shudu.logic.techniques.grouped_chains`).

Nodes are ints: ``cell * n + digit`` for a single candidate, ``n**3 + k`` for the k-th group of
cells (a group node: a digit's places where two houses meet; or the places of a digit in an
almost locked set). Strong links join the two nodes that hold all of a digit's places in a
house, the two candidates of a bivalue cell, and two digits of an ALS; weak links join the nodes
of a digit whose cells all see each other's, and (with ``bivalue``) a cell's candidates. Both
loop finders search the same graph of a grid (:func:`graph_of`, remembered per grid).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache, lru_cache

from ...geometry import Geometry
from ..engine.budget import c_limits, c_spent, checkpoint
from ..engine.grid import CandidateGrid, bits, tables
from ..engine.memo import remember
from ..engine.propagate import C_STOPPED, c_core, c_tables
from .aic import c_ends, c_graph, layers
from .als_listings import almost_locked_sets


class Graph:
    """Nodes (cells, digit) with their strong and weak links."""

    def __init__(
        self,
        grid: CandidateGrid,
        *,
        digits: range | list[int],
        bivalue: bool,
        groups: bool,
        als_cells: int = 0,
    ) -> None:
        self.grid = grid
        n = grid.size
        self.base = n**3
        self.groups: list[tuple[int, int]] = []
        self.group_id: dict[tuple[int, int], int] = {}
        self.strong: dict[int, set[int]] = {}
        #: Strong links that hold only through an almost locked set: (a, b) → the set's cells.
        self.als: dict[tuple[int, int], int] = {}
        self._seen: dict[int, int] = {}
        self._strong(digits, groups=groups)
        if bivalue:
            for cell in bits(grid.empty):
                mask = grid.cands[cell]
                if mask.bit_count() == 2:
                    x = mask.bit_length() - 1
                    self._link(cell * n + x, cell * n + (mask ^ (1 << x)).bit_length() - 1)
        if als_cells > 1:
            self._als_links(als_cells, digits)
        self.weak = self._weak(in_cell=bivalue)
        self._c_graph: object | None = None
        self._c_ends: object | None = None
        self._c_read = False

    def _strong(self, digits: range | list[int], *, groups: bool) -> None:
        """The strong links of each digit's houses, in the C core (``loop_strong``) where the
        geometry's tables are there; :meth:`_strong_py` is its specification. The C core adds
        the links to :attr:`strong` as the specification does, one by one in its order, so the
        sets iterate as the specification's do."""
        capsule = c_tables(self.grid.geometry)
        core = c_core()
        if capsule is None or core is None:
            self._strong_py(digits, groups=groups)
            return
        made = core.loop_strong(capsule, self.grid.where, list(digits), groups, self.strong)
        # the group nodes, numbered as node() numbers them (the graph has none yet)
        self.group_id.update(zip(made, range(self.base, self.base + len(made)), strict=True))
        self.groups.extend(made)

    def _strong_py(self, digits: range | list[int], *, groups: bool) -> None:
        """:meth:`_strong` in Python: per digit, per house, a conjugate pair's two places, or
        (with ``groups``) the pairs of segments that hold all of the digit's places there."""
        grid, n = self.grid, self.grid.size
        geometry = grid.geometry
        strong = self.strong
        node = self.node
        for d in digits:
            where = grid.where[d]
            for h, hbits in enumerate(grid.t.house_bits):
                spots = where & hbits
                count = spots.bit_count()
                if count < 2:
                    continue
                if count == 2:
                    # a conjugate pair (as _link(node(a), node(b)) would add it)
                    a = spots.bit_length() - 1
                    na, nb = a * n + d, ((spots ^ (1 << a)).bit_length() - 1) * n + d
                    strong.setdefault(na, set()).add(nb)
                    strong.setdefault(nb, set()).add(na)
                elif groups:
                    # strong links between two segments (where h meets other houses) that
                    # hold all the places (as _link(node(one), node(other)) would add them)
                    for one, other in _segment_pairs(geometry, h, spots):
                        na, nb = node(one, d), node(other, d)
                        strong.setdefault(na, set()).add(nb)
                        strong.setdefault(nb, set()).add(na)

    def layers(
        self, start: int, limit: int, *, closing: bool = False, ends: bool = False
    ) -> Iterator[tuple[int, int, dict[int, list[int]]]]:
        """:func:`~shudu.logic.techniques.aic.layers` of this graph (its links read into the C core once).
        The C search may leave out the states the caller would pass over: with ``closing``,
        those whose node is not weakly linked to ``start``; with ``ends``, those for which
        :func:`_ends` is empty."""
        self._read()
        only = True if closing else self._c_ends if ends else None
        return layers(self.strong, self.weak, start, limit, self._c_graph, only)

    def closing_starts(self, starts: list[int], limit: int) -> list[int]:
        """Of ``starts``, those whose search (:meth:`layers` with ``closing``, until each node
        weakly linked to the start has been met) closes a loop of three links or more: all of
        them where the search runs in Python. In the C core one call sweeps the starts
        (``chain_sweep``) and counts the others' layers against the logic budget, as the
        Python loop of :func:`~shudu.logic.techniques.grouped_chains._closed_loops` does."""
        self._read()
        core = c_core()
        if self._c_graph is None or core is None:
            return starts
        code, units, kept = core.chain_sweep(self._c_graph, starts, limit, *c_limits())
        c_spent(units, stopped=code == C_STOPPED)
        return list(kept)

    def search(self, starts: list[int], limit: int) -> list[int] | None:
        """A grouped chain's search in one call of the C core (``chain_search`` with the first
        group node as its group base), as
        :func:`~shudu.logic.techniques.grouped_chains.find_grouped_chain`'s loop over the starts
        does it: the shortest chain through a group node whose ends eliminate (an empty list: none).
        None where the search runs in Python, or the graph has ALS nodes."""
        self._read()
        core = c_core()
        if self._c_graph is None or self._c_ends is None or core is None or self.als:
            return None
        code, units, path = core.chain_search(
            self._c_graph, starts, limit, self._c_ends, *c_limits(), self.base
        )  # fmt: skip
        c_spent(units, stopped=code == C_STOPPED)
        return [] if path is None else list(path)

    def _read(self) -> None:
        """Read the graph and its ends into the C core, once (nothing where it cannot go)."""
        if not self._c_read:
            self._c_graph, self._c_read = c_graph(self.strong, self.weak), True
            self._c_ends = c_ends(self.grid, self._c_graph, self.groups, proves=False)

    def _als_links(self, most: int, digits: range | list[int]) -> None:
        """ALS nodes: in an almost locked set of two or more cells, "no x in the set" leaves as
        many digits as cells, so every other digit z is in it: (x in the set) = (z in the set)."""
        wanted = 0
        for d in digits:
            wanted |= 1 << d
        for s in almost_locked_sets(self.grid, most):
            if s.cells & (s.cells - 1) == 0:
                continue  # one cell: a bivalue cell, linked already
            ds = [d for d in bits(s.digits) if wanted >> d & 1]
            checkpoint(len(ds) ** 2)
            nodes = [self.node(s.holding[d], d) for d in ds]
            for i, a in enumerate(nodes):
                for b in nodes[i + 1 :]:
                    if b in self.strong.get(a, ()):
                        continue
                    self._link(a, b)
                    self.als[a, b] = self.als[b, a] = s.cells

    def node(self, cells: int, d: int) -> int:
        if not cells & (cells - 1):
            return (cells.bit_length() - 1) * self.grid.size + d
        key = (cells, d)
        if key not in self.group_id:
            self.group_id[key] = self.base + len(self.groups)
            self.groups.append(key)
        return self.group_id[key]

    def cells_of(self, node: int) -> tuple[int, int]:
        """(cell set, digit) of a node."""
        if node >= self.base:
            return self.groups[node - self.base]
        cell, d = divmod(node, self.grid.size)
        return 1 << cell, d

    def _link(self, a: int, b: int) -> None:
        self.strong.setdefault(a, set()).add(b)
        self.strong.setdefault(b, set()).add(a)

    def _weak(self, *, in_cell: bool) -> dict[int, list[int]]:
        """Per node, the nodes of its digit whose cells all see all of its cells (outside them),
        in the order of :attr:`strong`; with ``in_cell``, a cell's other candidates too. In the
        C core (``chain_weak``) where the geometry's tables are there; :meth:`_weak_py` is its
        specification."""
        capsule = c_tables(self.grid.geometry)
        core = c_core()
        if capsule is None or core is None:
            return self._weak_py(in_cell=in_cell)
        nodes = list(self.strong)
        if self.als:  # ALS nodes make the graph large: the work the Python code counts
            digits = [self.cells_of(node)[1] for node in nodes]
            per_digit = Counter(digits)
            checkpoint(sum(per_digit[d] for d in digits))
        # each node's cells and digit as cells_of gives them: the C core reads them off the ids
        outs = core.chain_weak(capsule, nodes, self.groups, None, self.grid.cands, self.base, in_cell)
        return dict(zip(nodes, outs, strict=True))

    def _weak_py(self, *, in_cell: bool) -> dict[int, list[int]]:
        """:meth:`_weak` in Python: the specification of the C core's ``chain_weak``."""
        n = self.grid.size
        peer_bits = self.grid.t.peer_bits
        by_digit: dict[int, list[tuple[int, int]]] = {}
        for node in self.strong:
            cells, d = self.cells_of(node)
            by_digit.setdefault(d, []).append((node, cells))
        weak: dict[int, list[int]] = {}
        for node in self.strong:
            cells, d = self.cells_of(node)
            if self.als:
                checkpoint(len(by_digit[d]))  # ALS nodes make the graph large
            seeing = -1
            for c in bits(cells):
                seeing &= peer_bits[c]
            out = [other for other, ocells in by_digit[d] if not ocells & ~seeing and not ocells & cells]
            if in_cell and node < self.base:
                cell = node // n
                out += [
                    cell * n + e
                    for e in bits(self.grid.cands[cell])
                    if e != d and cell * n + e in self.strong
                ]
            weak[node] = out
        return weak

    def seen_by(self, node: int) -> int:
        """The cells that see every cell of ``node``, outside it."""
        out = self._seen.get(node)
        if out is None:
            cells, _ = self.cells_of(node)
            out = -1
            for c in bits(cells):
                out &= self.grid.t.peer_bits[c]
            out &= ~cells
            self._seen[node] = out
        return out


@cache
def _meetings(geometry: Geometry) -> tuple[tuple[int, ...], ...]:
    """Per house, the cells it shares with each house it meets in two or more cells."""
    t = tables(geometry)
    out: list[list[int]] = [[] for _ in t.house_bits]
    for a, _, inter in t.overlaps:
        out[a].append(inter)
    return tuple(tuple(x) for x in out)


@lru_cache(maxsize=4096)
def _segment_pairs(geometry: Geometry, h: int, spots: int) -> tuple[tuple[int, int], ...]:
    """The pairs of segments of ``spots`` (their parts where house ``h`` meets other houses),
    in order, that are disjoint and hold all of ``spots`` between them. Remembered: a digit's
    places in a house change little from one grid of a path to the next."""
    ordered = sorted({spots & inter for inter in _meetings(geometry)[h] if spots & inter})
    return tuple(
        (one, other)
        for i, one in enumerate(ordered)
        for other in ordered[i + 1 :]
        if not one & other and one | other == spots
    )


#: The largest almost locked set the grouped listings use as a chain node, in cells.
ALS_NODE_CELLS = 8


def graph_of(grid: CandidateGrid, *, als_cells: int = 0) -> Graph:
    """The grouped graph of every digit and bivalue cell of ``grid`` (with ALS nodes of up to
    ``als_cells`` cells). Both loop finders search the same graph of a grid: it is remembered
    inside a rating (:func:`~shudu.logic.engine.memo.remember`, so that a call counts the same work
    however often it runs)."""
    geometry, values, cands = grid.geometry, tuple(grid.values), tuple(grid.cands)

    def build() -> Graph:
        own = grid.copy()  # the grid as it stands now, the graph's own
        return Graph(own, digits=range(own.size), bivalue=True, groups=True, als_cells=als_cells)

    graph: Graph = remember((graph_of, geometry, values, cands, als_cells), build)
    return graph
