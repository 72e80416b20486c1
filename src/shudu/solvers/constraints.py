"""Solver ``constraints``: any mix of rules, by propagation to a fixed point and search.

The puzzle's houses (rows, columns, boxes or jigsaw regions, extra regions), its variant links
(anti-knight, anti-king) and its rules (killer cages, arrows, thermometers, dots, lines …,
compiled by :mod:`shudu.rules`) become propagators over bit-mask domains. After each choice the
propagators run until none changes a domain; the search tries a digit in a cell with the fewest
digits for its weight (or in one of a digit's two places in a house, where that weighs more),
then takes it out and chooses afresh. Every full grid is checked against each rule's own
definition before it is given as a solution.

The search here is the pure-Python engine, the specification of the kinds' propagators
(:mod:`shudu.solvers._propagators_py`, :mod:`shudu.solvers._conditions_py`). Its C twin
(``core/constraints*.c`` of the C core, docs/core.md) runs the same search step for step — the
same propagation, the same choices, so the same solutions in the same order and the same
statistics — some 50 times faster. :func:`encode_network` writes the network as the flat records
the C engine reads. The C engine runs when the C core is built, unless
``SHUDU_IMPLEMENTATION=python`` forces the Python one (:mod:`shudu._backend`; ``IMPLEMENTATION``
says which is chosen).
A network with the generic condition ``"rule"`` (a rule checked by trying its digits; no rule
type compiles to it now) cannot run in C: such a puzzle is searched by the Python engine.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from array import array
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .. import _backend
from ..geometry import Geometry
from ..puzzle import Puzzle
from ..rules import (
    AllDifferent,
    Kind,
    LineCondition,
    OrderedChain,
    Relation,
    Shape,
    WeightedSum,
    check_grid,
    compile_rules,
)
from ._conditions_py import make, near_cells
from ._propagators_py import AllDifferentProp, IntersectionProp, Prop, RelationProp, SumProp
from .base import UNLIMITED, Budget, SearchTimeout, Solver, Stats
from .implied import implied_sums

__all__ = [
    "IMPLEMENTATION",
    "ConstraintSolver",
    "Intersection",
    "encode_network",
    "network_sources",
    "rule_kinds",
    "shape_of",
    "solutions_from",
]

#: How many nodes between two looks at the clock (a node here costs microseconds, not nanoseconds).
CHECK_EVERY = 16


def shape_of(geometry: Geometry) -> Shape:
    """What the rules may know of a geometry: its size, each cell's region, and the rules."""
    region_of = [0] * geometry.ncells
    for house in geometry.houses:
        if house.kind in ("box", "region"):
            for cell in house.cells:
                region_of[cell] = house.index
    cols = geometry.cols if geometry.is_rect else 0
    return Shape(geometry.size, tuple(region_of), geometry.variant.rules, cols)


@dataclass
class _Network:
    props: list[Prop]
    watch: list[list[int]]
    shape: Shape
    #: How often the propagators of each cell failed, and the branches on it (plus one): the
    #: branching prefers such cells.
    weight: list[int]


@dataclass(frozen=True)
class _Layout:
    """The cells as the engines number them. A tall grid (more rows than columns, so its columns
    are the houses and its rows shorter groups) is searched column by column: its cell
    ``r * cols + c`` is the engines' ``c * rows + r``, in every house, link and rule (each cell
    list renamed in its own order), its domains and its solutions. The search breaks its ties in
    the order of the cells, so it fills the grid house by house, as it does a wide grid's rows;
    row by row, it would spread each digit's places over the short rows and meet a dead end only
    many rows later. Any other grid keeps its own numbering (``order`` None)."""

    #: The engines' number of each cell of the grid, or None.
    order: tuple[int, ...] | None
    houses: tuple[tuple[int, ...], ...]
    links: tuple[tuple[int, ...], ...]
    kinds: tuple[Kind, ...]

    def to_engine(self, values: Sequence[int]) -> list[int]:
        """Per-cell values (digits, domains) of the grid, in the engines' order."""
        out = list(values)
        if self.order is not None:
            for cell, new in enumerate(self.order):
                out[new] = values[cell]
        return out

    def to_grid(self, values: Sequence[int]) -> tuple[int, ...]:
        """Per-cell values in the engines' order, back in the grid's."""
        if self.order is None:
            return tuple(values)
        return tuple(values[new] for new in self.order)


def _renamed(kind: Kind, order: Sequence[int]) -> Kind:
    """A kind on renamed cells (its parameters are digits and counts, never cells)."""
    if isinstance(kind, Relation):
        return dataclasses.replace(kind, a=order[kind.a], b=order[kind.b])
    return dataclasses.replace(kind, cells=tuple(order[c] for c in kind.cells))


@functools.lru_cache(maxsize=16)
def _layout(geometry: Geometry) -> _Layout:
    """The engines' numbering of a geometry's cells, its network's houses, links and kinds."""
    shape = shape_of(geometry)
    kinds = tuple(rule_kinds(geometry, shape))
    houses, links = geometry.house_cells, geometry.links
    rows, cols = geometry.rows, geometry.cols
    # the generic condition checks a rule on the grid's own cells: such a network keeps them
    generic = any(isinstance(kind, LineCondition) and kind.rule is not None for kind in kinds)
    if not geometry.is_rect or rows <= cols or generic:
        return _Layout(None, houses, links, kinds)
    order = tuple(c * rows + r for r in range(rows) for c in range(cols))
    new_links: list[tuple[int, ...]] = [()] * geometry.ncells
    for a, linked in enumerate(links):
        new_links[order[a]] = tuple(order[b] for b in linked)
    return _Layout(
        order,
        tuple(tuple(order[c] for c in cells) for cells in houses),
        tuple(new_links),
        tuple(_renamed(kind, order) for kind in kinds),
    )


def _network(geometry: Geometry) -> _Network:
    n = geometry.size
    shape = shape_of(geometry)
    layout = _layout(geometry)
    houses, links = layout.houses, layout.links
    props: list[Prop] = [AllDifferentProp(cells, n) for cells in houses]
    props.extend(IntersectionProp(houses[i], houses[j]) for i, j in _house_pairs(houses))
    for a, linked in enumerate(links):
        props.extend(AllDifferentProp((a, b), n) for b in linked if a < b)
    props.extend(make(kind, shape, houses, links) for kind in layout.kinds)
    watch: list[list[int]] = [[] for _ in range(geometry.ncells)]
    # a cell starts weighing one, and one more for each rule on it: each propagator but a house
    # (an all-different group of n cells), a pair of linked cells and an intersection
    weight = [1] * geometry.ncells
    for i, prop in enumerate(props):
        rule = not isinstance(prop, IntersectionProp) and not (
            isinstance(prop, AllDifferentProp) and (prop.house or len(prop.cells) == 2)
        )
        for cell in set(prop.cells):
            watch[cell].append(i)
            weight[cell] += rule
    return _Network(props, watch, shape, weight)


def _settle(dom: list[int], net: _Network, queue: deque[int], queued: list[bool]) -> bool:
    """Run the queued propagators, and those of every cell they change, until none changes a
    domain; False when one finds its constraint broken (its cells then weigh more in the choice
    of the next branch: they sit where the puzzle is tight)."""
    props, watch = net.props, net.watch
    while queue:
        i = queue.popleft()
        queued[i] = False
        changed = props[i].run(dom)
        if changed is None:
            queue.clear()
            for cell in props[i].cells:
                net.weight[cell] += 1
            return False
        for cell in changed:
            for j in watch[cell]:
                if not queued[j]:
                    queued[j] = True
                    queue.append(j)
    return True


class _Search:
    """One search over a puzzle: the network, the budget, the statistics."""

    def __init__(self, puzzle: Puzzle, budget: Budget, stats: Stats) -> None:
        self.puzzle, self.budget, self.stats = puzzle, budget, stats
        self.net = _network(puzzle.geometry)
        self.layout = _layout(puzzle.geometry)
        self.nodes = 0
        #: The cells of the houses (all-different groups of n cells), in the network's order.
        self.houses = [p.cells for p in self.net.props if isinstance(p, AllDifferentProp) and p.house]

    def _propagate(self, dom: list[int], seeds: list[int] | None) -> bool:
        net = self.net
        queued = [False] * len(net.props)
        if seeds is None:
            queue = deque(range(len(net.props)))
            queued = [True] * len(net.props)
        else:
            queue = deque()
            for cell in seeds:
                for j in net.watch[cell]:
                    if not queued[j]:
                        queued[j] = True
                        queue.append(j)
        return _settle(dom, net, queue, queued)

    def _tick(self) -> None:
        self.nodes += 1
        self.stats.nodes += 1
        budget = self.budget
        if budget.node_limit is not None and self.nodes > budget.node_limit:
            raise SearchTimeout(f"node limit of {budget.node_limit} reached")
        if (
            self.nodes % CHECK_EVERY == 0
            and budget.deadline is not None
            and time.monotonic() > budget.deadline
        ):
            raise SearchTimeout("time limit reached")

    def solutions(self, start: Sequence[int] | None = None) -> Iterator[tuple[int, ...]]:
        """The solutions, from the givens' domains or from ``start`` (a domain per cell)."""
        n = self.puzzle.geometry.size
        full = (1 << n) - 1
        layout = self.layout
        cells = layout.to_engine(self.puzzle.cells)
        dom = [1 << (v - 1) if v else full for v in cells] if start is None else layout.to_engine(start)
        if not self._propagate(dom, None):
            return
        self.stats.settled += sum(1 for v, d in zip(cells, dom, strict=True) if not v and not d & (d - 1))
        # A frame tries a digit in its cell, then (when that branch is done) takes the digit out
        # of the cell and chooses afresh: a binary search tree, where a failure on the way
        # moves the next choice to where the puzzle is tight.
        stack: list[tuple[list[int], int, int, bool]] = [(dom, -1, 0, False)]
        while stack:
            dom, cell, digit, out = stack.pop()
            if cell >= 0:
                self._tick()
                if out:
                    dom[cell] &= ~digit
                else:
                    dom[cell] = digit
                if not self._propagate(dom, [cell]):
                    self.net.weight[cell] += 1  # the branch failed: its cell weighs more too
                    continue
            pick = self._pick(dom, self.net.weight)
            if pick < 0:
                grid = layout.to_grid([d.bit_length() for d in dom])
                if check_grid(grid, self.net.shape) is None:
                    yield grid
                continue
            self.stats.guesses += 1
            pick, digit = self._pick_digit(dom, pick)
            stack.append((dom[:], pick, digit, True))
            stack.append((dom, pick, digit, False))

    def _pick_digit(self, dom: list[int], cell: int) -> tuple[int, int]:
        """The digit to try in the chosen cell, which may move the choice to another cell: a
        digit with two places left in a house (in the order of the houses, lowest digit first)
        whose heavier place weighs more for its two options than the cell for its digits; that
        place then, else the cell's lowest digit."""
        weight = self.net.weight
        d = dom[cell]
        digit, count = d & -d, d.bit_count()
        if count <= 2:
            return cell, digit
        best = weight[cell] / count
        for cells in self.houses:
            once = twice = more = 0
            for c in cells:
                v = dom[c]
                more |= twice & v
                twice |= once & v
                once |= v
            two = twice & ~more
            while two:
                v = two & -two
                two ^= v
                a, b = (c for c in cells if dom[c] & v)
                c = b if weight[b] > weight[a] else a
                score = weight[c] / 2
                if score > best:
                    best, cell, digit = score, c, v
        return cell, digit

    @staticmethod
    def _pick(dom: list[int], weight: list[int]) -> int:
        """The open cell with the fewest digits left for its weight (dom/wdeg), or -1 when none
        is open."""
        best, score = -1, 1e30
        for cell, d in enumerate(dom):
            if d & (d - 1):
                k = d.bit_count() / weight[cell]
                if k < score:
                    best, score = cell, k
        return best


# --- the C engine -------------------------------------------------------------------------------


#: The C core when it runs (:mod:`shudu._backend` chooses, for every layer alike), else None.
_core: ModuleType | None = _backend.CORE
#: Which engine runs: ``"c"`` or ``"python"``.
IMPLEMENTATION = _backend.IMPLEMENTATION

#: The kinds of the C engine's records (``CK_*`` of core/constraints.h), by name.
RECORD_KINDS = {
    "all-different": 0, "intersection": 1, "relation": 2, "sum": 3, "chain": 4,
    "allowed": 5, "renban": 6, "between": 7, "sandwich": 8, "x-sum": 9, "skyscraper": 10,
    "sum-line": 11, "quad": 12, "cover": 13, "lunchbox": 14,
}  # fmt: skip


@dataclass(frozen=True)
class Intersection:
    """Two houses that share two or more cells (an :class:`IntersectionProp`)."""

    first: tuple[int, ...]
    second: tuple[int, ...]


Source = Kind | Intersection


def rule_kinds(geometry: Geometry, shape: Shape) -> list[Kind]:
    """The kinds the rules of ``shape`` compile to, then the sums they imply over the houses
    (:mod:`shudu.solvers.implied`); on a grid that is not square, its rows, columns and boxes
    of fewer than n cells first, each an all-different group."""
    kinds: list[Kind] = [AllDifferent(group.cells) for group in geometry.groups]
    kinds.extend(compile_rules(shape))
    kinds.extend(implied_sums(geometry.size, geometry.house_cells, [h.kind for h in geometry.houses], kinds))
    return kinds


def network_sources(geometry: Geometry) -> tuple[Shape, list[Source]]:
    """What the network of a geometry is built from, in the order of :func:`_network`: an
    all-different group per house, the intersections, the links, the compiled rules and the
    sums they imply; on the grid's own cell numbers (the engines search a tall grid's cells
    renumbered, :class:`_Layout`)."""
    shape = shape_of(geometry)
    houses = geometry.house_cells
    sources: list[Source] = [*_geometry_sources(houses, geometry.links)]
    sources.extend(rule_kinds(geometry, shape))
    return shape, sources


@functools.lru_cache(maxsize=16)
def _house_pairs(houses: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int], ...]:
    """The pairs of houses (by number, in order) that share two cells or more."""
    sets = [set(house) for house in houses]
    return tuple(
        (i, j) for i in range(len(houses)) for j in range(i + 1, len(houses)) if len(sets[i] & sets[j]) >= 2
    )


@functools.lru_cache(maxsize=16)
def _geometry_sources(
    houses: tuple[tuple[int, ...], ...], links: tuple[tuple[int, ...], ...]
) -> tuple[Source, ...]:
    """The sources of a geometry without its rules: the houses, their intersections, the links."""
    sources: list[Source] = [AllDifferent(tuple(cells)) for cells in houses]
    sources.extend(Intersection(houses[i], houses[j]) for i, j in _house_pairs(houses))
    for a, linked in enumerate(links):
        sources.extend(AllDifferent((a, b)) for b in linked if a < b)
    return tuple(sources)


@functools.lru_cache(maxsize=16)
def _geometry_records(
    size: int, houses: tuple[tuple[int, ...], ...], links: tuple[tuple[int, ...], ...]
) -> bytes:
    """The records of :func:`_geometry_sources` (as :func:`encode_network` writes them)."""
    records = encode_network(_geometry_sources(houses, links), size, houses)
    assert records is not None
    return records.tobytes()


@functools.lru_cache(maxsize=16)
def _rule_records(geometry: Geometry) -> tuple[Shape, bytes | None]:
    """The shape of a geometry and the records of its rules (:func:`encode_network` of
    :func:`rule_kinds`), built once: every puzzle of one rule set, and every search of one
    puzzle, shares them (None when they cannot run in C)."""
    shape = shape_of(geometry)
    layout = _layout(geometry)
    rules = encode_network(layout.kinds, geometry.size, layout.houses, layout.links)
    return shape, None if rules is None else rules.tobytes()


def _condition_params(kind: LineCondition) -> tuple[int, ...] | None:
    """The parameters of a line condition's record, or None when the C engine lacks it."""
    name, params = kind.name, kind.params
    if name == "between":
        return ()
    if name in ("allowed", "sandwich", "x-sum", "lunchbox"):
        return params[:1]
    if name == "skyscraper":
        return params[:2]
    if name == "sum-line":
        return params[0], int(len(params) > 1 and params[1] == 1)
    if name == "quad":  # as _conditions_py._quad counts them: each digit, in first-seen order
        needs: dict[int, int] = {}
        for d in params:
            needs[1 << (d - 1)] = needs.get(1 << (d - 1), 0) + 1
        return tuple(x for pair in needs.items() for x in pair)
    return None


def _record(
    source: Source, size: int, houses: Sequence[Sequence[int]], links: Sequence[Sequence[int]]
) -> tuple[int, Sequence[int], Sequence[int]] | None:
    """One propagator's record: its kind, cells and parameters (core/constraints.h)."""
    if isinstance(source, Intersection):
        prop = IntersectionProp(source.first, source.second)
        return RECORD_KINDS["intersection"], prop.cells, (len(prop.shared), len(prop.first_rest))
    if isinstance(source, AllDifferent):
        return RECORD_KINDS["all-different"], source.cells, (int(len(source.cells) == size),)
    if isinstance(source, Relation):
        rel = RelationProp(source, size)
        return RECORD_KINDS["relation"], rel.cells, (*rel.fwd, *rel.rev)
    if isinstance(source, WeightedSum):
        sums = SumProp(source, size, houses)
        combos, group = sums.combos, sums.group
        flags = int(combos is not None) | 2 * int(group is not None)
        params = (source.total, flags, *source.coeffs, *(group or ()), *(combos or ()))
        return RECORD_KINDS["sum"], source.cells, params
    if isinstance(source, OrderedChain):
        return RECORD_KINDS["chain"], source.cells, (int(source.strict),)
    if isinstance(source, LineCondition) and source.name == "renban":
        near = near_cells(source.cells, houses, links)
        return RECORD_KINDS["renban"], source.cells, tuple(x for pair in near for x in pair)
    if isinstance(source, LineCondition) and source.name == "cover":
        near = near_cells(source.cells, houses, links)
        params = (len(source.params), *source.params, *(x for pair in near for x in pair))
        return RECORD_KINDS["cover"], source.cells, params
    cond = _condition_params(source)
    return None if cond is None else (RECORD_KINDS[source.name], source.cells, cond)


def encode_network(
    sources: Sequence[Source],
    size: int,
    houses: Sequence[Sequence[int]] = (),
    links: Sequence[Sequence[int]] = (),
) -> array[int] | None:
    """The network as the C engine reads it: per propagator, ``kind, ncells, nparams, cells,
    params`` (int32), or None when one cannot run in C (the condition ``"rule"``, or a number
    beyond 32 bits). ``houses`` and ``links`` are the geometry's, whose cells differ (they bound
    sums and renban lines)."""
    out = array("i")
    try:
        for source in sources:
            rec = _record(source, size, houses, links)
            if rec is None:
                return None
            kind, cells, params = rec
            out.extend((kind, len(cells), len(params)))
            out.extend(cells)
            out.extend(params)
    except OverflowError:
        return None
    return out


def _c_search(puzzle: Puzzle, start: Sequence[int] | None = None) -> tuple[Any, Shape, _Layout] | None:
    """A C search over the puzzle's network (from ``start``'s domains if given), or None when
    the network cannot run in C; with the layout of its cells (:class:`_Layout`)."""
    geometry = puzzle.geometry
    shape, rules = _rule_records(geometry)
    if _core is None or rules is None:
        return None
    layout = _layout(geometry)
    # the same records as encode_network of the layout's sources, the geometry's cached
    records = array("i", _geometry_records(geometry.size, layout.houses, layout.links))
    records.frombytes(rules)
    full = (1 << geometry.size) - 1
    if start is None:
        domains = array("I", [1 << (v - 1) if v else full for v in layout.to_engine(puzzle.cells)])
    else:
        domains = array("I", layout.to_engine(start))
    try:
        return _core.ConstraintSearch(geometry.size, records, domains), shape, layout
    except ValueError:  # beyond the C engine's limits (a sum of thousands of cells …)
        return None


def _c_solutions(
    search: Any, shape: Shape, layout: _Layout, budget: Budget, stats: Stats
) -> Iterator[tuple[int, ...]]:
    """The C engine's full grids that keep every rule, lazily: asked for one at a time, so that
    the statistics are those of the Python engine at the same point (a call costs a few
    microseconds, less than the check of the grid)."""
    core = _core
    assert core is not None
    nodes, guesses, started = 0, 0, False
    while True:
        timeout = -1.0 if budget.deadline is None else max(0.0, budget.deadline - time.monotonic())
        grids, code = search.run(1, budget.node_limit, timeout)
        stats.nodes += search.nodes - nodes
        stats.guesses += search.guesses - guesses
        nodes, guesses = search.nodes, search.guesses
        if not started:
            started = True
            stats.settled += search.settled
        for raw in grids:
            grid = layout.to_grid(raw)
            if check_grid(grid, shape) is None:
                yield grid
        if code == core.EXHAUSTED:
            return
        if code == core.BUDGET:
            if budget.node_limit is not None and nodes > budget.node_limit:
                raise SearchTimeout(f"node limit of {budget.node_limit} reached")
            raise SearchTimeout("time limit reached")


class ConstraintSolver(Solver):
    name = "constraints"
    description = (
        "any mix of rules (killer cages, arrows, thermometers, dots, lines, regions): "
        "propagation to a fixed point, then search on the cell with fewest digits for its failures"
    )
    reads_rules = True

    def solutions(
        self, puzzle: Puzzle, *, budget: Budget = UNLIMITED, stats: Stats | None = None
    ) -> Iterator[tuple[int, ...]]:
        stats = stats if stats is not None else Stats()
        found = _c_search(puzzle) if _core is not None else None
        if found is not None:
            yield from _c_solutions(*found, budget, stats)
        else:
            yield from _Search(puzzle, budget, stats).solutions()


def solutions_from(
    geometry: Geometry, domains: Sequence[int], *, budget: Budget = UNLIMITED
) -> Iterator[tuple[int, ...]]:
    """The solutions of a geometry's rules in which every cell holds a digit of its domain (a
    bit mask per cell, bit k for digit k + 1): the search from a candidate grid."""
    values = tuple(d.bit_length() if d and not d & (d - 1) else 0 for d in domains)
    puzzle = Puzzle.trusted(values, geometry)
    stats = Stats()
    found = _c_search(puzzle, domains) if _core is not None else None
    if found is not None:
        yield from _c_solutions(*found, budget, stats)
    else:
        yield from _Search(puzzle, budget, stats).solutions(domains)
