"""Cell and house forcing chains over direct links only (Sudoku Explainer's multiple forcing chains).

From an assumption, follow only the links the grid shows as it stands: a digit placed removes its
cell's other candidates and the digit from the cell's peers; a candidate removed from a cell with
two candidates places the other, and removed from a house where the digit had two places, places
it in the other. Nothing is recomputed along the way (no single that only the chain's own
eliminations would make): that is what makes these chains "static", and cheaper to follow by eye
than the forcing chains of :mod:`forcing`, which follow every single as the grid changes.

Where every candidate of a cell, or every place of a digit in a house, leads to the same
placement or elimination, it holds. Sudoku Explainer rates these 8.0 plus the bonus for their
length (the chains' nodes, each counted with all it needs, less two), below the dynamic forcing
chains (8.5) that its path tries next, so its scale needs them on its path.

The walk from every candidate runs in the C core when it is built (``direct_forcing``, for
geometries of at most 128 cells, 64 houses and 16 digits); :func:`_conclusions_py` is its
specification. Steps are built here, for the conclusions the caller keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cached_property

from ...notation import digit_char
from ..catalog import length_bonus
from ..engine.budget import checkpoint
from ..engine.chain_structure import Branch, Implication, Net
from ..engine.grid import CandidateGrid, bits
from ..engine.memo import remembered_steps
from ..engine.propagate import c_core, c_tables, is_quiet, settle
from ..engine.step import Step, describe_outcome, make_step

Node = tuple[int, int, bool]  # (cell, digit 0-based, on)

FORMS = ("Cell Forcing Chain", "House Forcing Chain")


class Reach:
    """Where one assumption leads over direct links, wave by wave: ``waves[k]`` holds, per digit,
    the cells that wave made true (even k) or false (odd k). Wave 0 is the assumption; a node of
    wave k has k + 1 nodes on its chain, itself and the assumption included."""

    def __init__(self, waves: list[list[int]], on: list[int], off: list[int]) -> None:
        self.waves = waves
        self.on = on
        self.off = off

    def depth(self, cell: int, d: int, on: bool) -> int:
        bit = 1 << cell
        for k in range(0 if on else 1, len(self.waves), 2):
            if self.waves[k][d] & bit:
                return k + 1
        raise KeyError((cell, d, on))


class Links:
    """The direct links of one grid, and where each assumption leads over them."""

    def __init__(self, grid: CandidateGrid) -> None:
        self.grid = grid
        self._reached: dict[tuple[int, int], Reach] = {}

    @cached_property
    def partner(self) -> list[dict[int, int]]:
        """Per digit, per cell: the cells that get the digit when this cell loses it (worked out
        when first followed: most grids' searches in C conclude nothing to write out)."""
        grid = self.grid
        out: list[dict[int, int]] = [{} for _ in range(grid.size)]
        for d, plane in enumerate(grid.where):
            partner = out[d]
            for hbits in grid.t.house_bits:
                spots = plane & hbits
                rest = spots & (spots - 1)
                if spots and rest and not rest & (rest - 1):
                    for c in bits(spots):
                        partner[c] = partner.get(c, 0) | (spots & ~(1 << c))
        return out

    @cached_property
    def pairs(self) -> int:
        """The cells with two candidates."""
        grid = self.grid
        return sum(1 << c for c in bits(grid.empty) if grid.cands[c].bit_count() == 2)

    def follow(self, cell: int, d: int) -> Reach:
        """Every node the assumption "``d`` in ``cell``" reaches, wave by wave, until nothing is
        new or a wave would make a candidate both true and false (that wave is left out)."""
        key = (cell, d)
        known = self._reached.get(key)
        if known is not None:
            return known
        grid = self.grid
        n = grid.size
        digits = range(n)
        cands, where, peers = grid.cands, grid.where, grid.t.peer_bits
        partner, pairs = self.partner, self.pairs
        on = [0] * n
        off = [0] * n
        on[d] = 1 << cell
        wave = on[:]
        waves = [wave]
        while True:
            out = [0] * n  # what the new true candidates make false
            for v in digits:
                cells = wave[v]
                while cells:
                    low = cells & -cells
                    cells ^= low
                    c = low.bit_length() - 1
                    others = cands[c] & ~(1 << v)
                    while others:
                        w = others & -others
                        others ^= w
                        out[w.bit_length() - 1] |= low
                    out[v] |= where[v] & peers[c]
            wave = []
            for v in digits:
                if out[v] & on[v]:
                    break
                wave.append(out[v] & ~off[v])
            if len(wave) < n or not any(wave):
                break
            waves.append(wave)
            off = [off[v] | wave[v] for v in digits]
            out = [0] * n  # what the new false candidates make true
            for v in digits:
                cells = wave[v]
                if not cells:
                    continue
                here = partner[v]
                while cells:
                    low = cells & -cells
                    cells ^= low
                    c = low.bit_length() - 1
                    if pairs & low:
                        out[(cands[c] & ~(1 << v)).bit_length() - 1] |= low
                    out[v] |= here.get(c, 0)
            wave = []
            for v in digits:
                if out[v] & off[v]:
                    break
                wave.append(out[v] & ~on[v])
            if len(wave) < n or not any(wave):
                break
            waves.append(wave)
            on = [on[v] | wave[v] for v in digits]
        reach = self._reached[key] = Reach(waves, on, off)
        return reach

    def chain(self, cell: int, d: int, node: Node) -> list[Node]:
        """The chain from the assumption "``d`` in ``cell``" to ``node``, each node linked to the
        first node of the wave before that implies it (its own cell first, then by cell)."""
        reach = self.follow(cell, d)
        grid = self.grid
        cands, peers = grid.cands, grid.t.peer_bits
        chain = [node]
        c, v, is_on = node
        for k in range(reach.depth(c, v, is_on) - 1, 0, -1):
            before = reach.waves[k - 1]
            if is_on:  # made true by a false candidate: its cell's other one, or its partner's
                other = (cands[c] & ~(1 << v)).bit_length() - 1
                if self.pairs >> c & 1 and before[other] >> c & 1:
                    c, v = c, other
                else:
                    c = next(p for p in bits(before[v]) if self.partner[v].get(p, 0) >> c & 1)
            else:  # made false by a true candidate: of its own cell, or a peer with its digit
                own = [w for w in bits(cands[c] & ~(1 << v)) if before[w] >> c & 1]
                if own:
                    v = own[0]
                else:
                    c = (before[v] & peers[c] & -(before[v] & peers[c])).bit_length() - 1
            is_on = not is_on
            chain.append((c, v, is_on))
        chain.reverse()
        return chain


class _Dynamic:
    """Where each assumption leads with every single followed (:func:`settle`, in the C core when
    it is built). What direct links reach, singles reach too, so a choice of assumptions whose
    outcomes share no placement and no elimination has no forcing chain over direct links either,
    and is passed over before its chains are followed."""

    def __init__(self, grid: CandidateGrid) -> None:
        self.grid = grid
        self.quiet = is_quiet(grid)
        #: per assumption: the candidates it fills and the candidates it removes, each as one
        #: bit set (digit by digit, a grid's cells apart); None when it breaks the grid
        self._seen: dict[tuple[int, int], tuple[int, int] | None] = {}

    def outcome(self, cell: int, d: int) -> tuple[int, int] | None:
        key = (cell, d)
        if key not in self._seen:
            grid = self.grid
            got = settle(grid.copy(), start=(cell, d + 1), quiet=self.quiet).grid
            if got is None:
                self._seen[key] = None
            else:
                width = len(grid.cands)
                filled = [0] * grid.size
                values = got.values
                for c in bits(grid.empty & ~got.empty):
                    filled[values[c] - 1] |= 1 << c
                placed = removed = 0
                for e in range(grid.size - 1, -1, -1):
                    placed = placed << width | filled[e]
                    removed = removed << width | (grid.where[e] & ~got.where[e] & ~filled[e])
                self._seen[key] = (placed, removed)
        return self._seen[key]

    def may_agree(self, options: list[tuple[int, int]]) -> bool:
        placed = removed = -1
        live = False
        for c, d in options:
            got = self.outcome(c, d)
            if got is not None:
                live = True
                placed &= got[0]
                removed &= got[1]
        return not live or bool(placed | removed)


Conclusion = tuple[int, Node, list[tuple[int, int]], str | None]


def _conclusions(grid: CandidateGrid) -> tuple[Links, list[Conclusion]]:
    """Every conclusion the cell and house forcing chains reach, with the fewest nodes that reach
    it and the assumptions that do: (nodes, conclusion, assumptions, house), fewest nodes first.

    In the C core (``direct_forcing``) where the geometry's tables are there (at most 128 cells,
    64 houses, 16 digits); :func:`_conclusions_py` is its specification and is used otherwise.
    The outcome is the same either way."""
    capsule = c_tables(grid.geometry)
    if capsule is None:
        return _conclusions_py(grid)
    core = c_core()
    assert core is not None
    keys = _choice_keys(grid)
    checkpoint(len(keys))  # the work the Python walk counts, one unit a choice
    found = core.direct_forcing(capsule, grid.cands, grid.where, grid.empty)
    # each conclusion once: its nodes and itself order it; a choice is written out only when
    # a conclusion names it
    made: dict[int, tuple[list[tuple[int, int]], str | None]] = {}
    ranked = []
    for nodes, cell, d, on, index in sorted(found):
        choice = made.get(index)
        if choice is None:
            choice = made[index] = _choice(grid, keys[index])
        ranked.append((nodes, (cell, d, on), *choice))
    return Links(grid), ranked


def _conclusions_py(grid: CandidateGrid) -> tuple[Links, list[Conclusion]]:
    """:func:`_conclusions` in Python: the specification of the C core's ``direct_forcing``."""
    links = Links(grid)
    n = grid.size
    found: dict[Node, tuple[int, list[tuple[int, int]], str | None]] = {}
    dynamic = _Dynamic(grid)
    for options, house in _choices(grid):
        checkpoint()
        if not dynamic.may_agree(options):
            continue
        reached = [links.follow(c, d) for c, d in options]
        for on in (True, False):
            for d in range(n):
                common = grid.empty
                for r in reached:
                    common &= (r.on if on else r.off)[d]
                    if not common:
                        break
                if on:  # not the assumptions themselves
                    common &= ~sum(1 << c for c, e in options if e == d)
                else:  # only candidates still there
                    common &= grid.where[d]
                for cell in bits(common):
                    node = (cell, d, on)
                    nodes = sum(r.depth(cell, d, on) for r in reached)
                    if node not in found or nodes < found[node][0]:
                        found[node] = (nodes, options, house)
    ranked = sorted((nodes, node, options, house) for node, (nodes, options, house) in found.items())
    return links, ranked


def steps(grid: CandidateGrid, rank: Callable[[int], object] | None = None) -> list[Step]:
    """The steps of :func:`iter_static_forcing`; with ``rank`` (of a step's length), only those
    ranked lowest, the others never built."""
    links, ranked = _conclusions(grid)
    if rank is not None and ranked:
        low = rank(_length(ranked[0][0]))
        ranked = [entry for entry in ranked if rank(_length(entry[0])) == low]
    return [_step(grid, links, node, nodes, options, house) for nodes, node, options, house in ranked]


@remembered_steps
def iter_static_forcing(grid: CandidateGrid) -> Iterator[Step]:
    """Every cell and house forcing chain over direct links, the shortest (fewest nodes) first
    for each conclusion."""
    return iter(steps(grid))


def find_static_forcing(grid: CandidateGrid) -> Step | None:
    found = iter_static_forcing(grid)
    return found[0] if found else None


@remembered_steps
def iter_easiest_static_forcing(grid: CandidateGrid) -> list[Step]:
    """The cell and house forcing chains over direct links of the lowest rating on Sudoku
    Explainer's scale (:func:`~shudu.logic.catalog.length_bonus` of their length): its path keeps
    no other, so no other is built."""
    return steps(grid, rank=length_bonus)


def find_easiest_static_forcing(grid: CandidateGrid) -> Step | None:
    found = iter_easiest_static_forcing(grid)
    return found[0] if found else None


def _length(nodes: int) -> int:
    """A chain's length as Sudoku Explainer counts it: its nodes less two."""
    return max(nodes - 2, 0)


def _choices(grid: CandidateGrid) -> Iterator[tuple[list[tuple[int, int]], str | None]]:
    """The assumptions to try together: the candidates of each cell with three or more (a cell
    with two is a house of its own kind: chains from both its candidates are a simpler
    technique), then the places of each digit in each house."""
    for key in _choice_keys(grid):
        yield _choice(grid, key)


#: A choice in short: (-1, cell, its candidates) or (house, digit, the digit's places there).
ChoiceKey = tuple[int, int, int]


def _choice_keys(grid: CandidateGrid) -> list[ChoiceKey]:
    """The choices of :func:`_choices`, in its order, in short."""
    keys = [(-1, cell, mask) for cell in bits(grid.empty) if (mask := grid.cands[cell]).bit_count() >= 3]
    keys += [
        (h, d, spots)
        for h, hbits in enumerate(grid.t.house_bits)
        for d, plane in enumerate(grid.where)
        if (spots := plane & hbits) & (spots - 1)
    ]
    return keys


def _choice(grid: CandidateGrid, key: ChoiceKey) -> tuple[list[tuple[int, int]], str | None]:
    """A choice written out: its assumptions (cell, digit index) and its house's name (None: a
    cell's candidates)."""
    h, a, mask = key
    if h < 0:
        return [(a, d) for d in bits(mask)], None
    return [(c, a) for c in bits(mask)], grid.geometry.houses[h].name


def _branch(grid: CandidateGrid, chain: list[Node]) -> Branch:
    """A chain as a branch, each node citing the one before it by the rule of its direct link: a
    naked single (the cell had two candidates), a hidden single (the house had two places for the
    digit), a peer holding the digit, or the cell holding another."""
    lines = []
    for i, (cell, d, on) in enumerate(chain):
        if i == 0:
            rule = "assumption"
        else:
            before = chain[i - 1]
            if on and before[0] == cell:
                rule = "naked single"
            elif on:
                rule = f"hidden single in {_pair_house(grid, before[0], cell, d)}"
            elif before[0] == cell:
                rule = f"{grid.name(before[0])} holds {digit_char(before[1] + 1)}"
            else:
                rule = f"sees {grid.name(before[0])}"
        lines.append(Implication(cell, d + 1, on, (i - 1,) if i else (), rule))
    return Branch(tuple(lines))


def _pair_house(grid: CandidateGrid, a: int, b: int, d: int) -> str:
    """The name of a house whose only places for digit index ``d`` are cells ``a`` and ``b``."""
    pair = (1 << a) | (1 << b)
    houses = grid.geometry.houses
    return next(houses[h].name for h, hbits in enumerate(grid.t.house_bits) if grid.where[d] & hbits == pair)


def _step(
    grid: CandidateGrid,
    links: Links,
    node: Node,
    nodes: int,
    options: list[tuple[int, int]],
    house: str | None,
) -> Step:
    cell, d, on = node
    outcome = describe_outcome(grid.size, [(cell, d + 1)] if on else [], [] if on else [(cell, d + 1)])
    net = Net(tuple(_branch(grid, links.chain(c, e, node)) for c, e in options), outcome=outcome)
    if house is None:
        label = f"whichever digit {grid.name(options[0][0])} holds"
    else:
        label = f"wherever {digit_char(options[0][1] + 1)} goes in {house}"
    return make_step(
        grid,
        FORMS[0] if house is None else FORMS[1],
        f"{label}, the direct links agree",
        structure=net,
        placements=[(cell, d + 1)] if on else [],
        eliminations=[] if on else [(cell, d + 1)],
        cells=sorted({c for c, _ in options}),
        digits=sorted({e + 1 for _, e in options}),
        houses=[house] if house else [],
        length=_length(nodes),
        kind=FORMS[0] if house is None else FORMS[1],
    )
