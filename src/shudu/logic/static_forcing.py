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
"""

from __future__ import annotations

from collections.abc import Iterator

from ..notation import digit_char
from .budget import checkpoint
from .chain import Branch, Implication, Net
from .grid import CandidateGrid, bits
from .memo import remembered_steps
from .step import Step, make_step

Node = tuple[int, int, bool]  # (cell, digit 0-based, on)

FORMS = ("Cell Forcing Chain", "House Forcing Chain")


class Links:
    """The direct links of one grid: for a removed candidate, what it places."""

    def __init__(self, grid: CandidateGrid) -> None:
        self.grid = grid
        hb = grid.t.house_bits
        #: per digit, per cell: the cells that get the digit when this cell loses it
        self.partner: list[dict[int, int]] = [{} for _ in range(grid.size)]
        for d, plane in enumerate(grid.where):
            for hbits in hb:
                spots = plane & hbits
                rest = spots & (spots - 1)
                if spots and rest and not rest & (rest - 1):
                    for c in bits(spots):
                        partner = self.partner[d]
                        partner[c] = partner.get(c, 0) | (spots & ~(1 << c))
        self._followed: dict[tuple[int, int], dict[Node, Node | None]] = {}

    def follow(self, cell: int, d: int) -> dict[Node, Node | None]:
        """Every node the assumption "``d`` in ``cell``" reaches, each with the node that reached
        it first (breadth first; the assumption's is None). Stops at a contradiction."""
        key = (cell, d)
        if key in self._followed:
            return self._followed[key]
        grid = self.grid
        cands, where, peers = grid.cands, grid.where, grid.t.peer_bits
        parent: dict[Node, Node | None] = {(cell, d, True): None}
        ons: list[tuple[int, int]] = [(cell, d)]
        while ons:
            offs: list[tuple[int, int]] = []
            for c, v in ons:
                source = (c, v, True)
                for w in bits(cands[c] & ~(1 << v)):
                    if (c, w, True) in parent:
                        return self._keep(key, parent)
                    if (c, w, False) not in parent:
                        parent[(c, w, False)] = source
                        offs.append((c, w))
                for p in bits(where[v] & peers[c]):
                    if (p, v, True) in parent:
                        return self._keep(key, parent)
                    if (p, v, False) not in parent:
                        parent[(p, v, False)] = source
                        offs.append((p, v))
            ons = []
            for c, v in offs:
                source = (c, v, False)
                mask = cands[c]
                others = mask & ~(1 << v)
                targets = [(c, others.bit_length() - 1)] if mask.bit_count() == 2 else []
                targets += [(p, v) for p in bits(self.partner[v].get(c, 0))]
                for t in targets:
                    if (*t, False) in parent:
                        return self._keep(key, parent)
                    if (*t, True) not in parent:
                        parent[(*t, True)] = source
                        ons.append(t)
        return self._keep(key, parent)

    def _keep(self, key: tuple[int, int], parent: dict[Node, Node | None]) -> dict[Node, Node | None]:
        self._followed[key] = parent
        return parent


def _depth(parent: dict[Node, Node | None], node: Node) -> int:
    """How many nodes the chain to ``node`` holds, ``node`` and the assumption included."""
    count = 0
    at: Node | None = node
    while at is not None:
        count += 1
        at = parent[at]
    return count


@remembered_steps
def iter_static_forcing(grid: CandidateGrid) -> Iterator[Step]:
    """Every cell and house forcing chain over direct links, the shortest (fewest nodes) first
    for each conclusion."""
    links = Links(grid)
    found: dict[Node, tuple[int, list[tuple[int, int]], str | None]] = {}
    for options, house in _choices(grid):
        checkpoint()
        reached = [links.follow(c, d) for c, d in options]
        common = set(reached[0]).intersection(*reached[1:])
        for node in common:
            cell, d, on = node
            if on and (not grid.empty >> cell & 1 or (cell, d) in options):
                continue  # already placed, or an assumption itself
            if not on and not grid.cands[cell] >> d & 1:
                continue
            nodes = sum(_depth(r, node) for r in reached)
            if node not in found or nodes < found[node][0]:
                found[node] = (nodes, options, house)
    for node, (nodes, options, house) in sorted(found.items(), key=lambda it: (it[1][0], it[0])):
        yield _step(grid, links, node, nodes, options, house)


def find_static_forcing(grid: CandidateGrid) -> Step | None:
    found = iter_static_forcing(grid)
    return found[0] if found else None


find_static_forcing.every = iter_static_forcing  # type: ignore[attr-defined]


def _choices(grid: CandidateGrid) -> Iterator[tuple[list[tuple[int, int]], str | None]]:
    """The assumptions to try together: the candidates of each cell with three or more (a cell
    with two is a house of its own kind: chains from both its candidates are a simpler
    technique), then the places of each digit in each house."""
    for cell in bits(grid.empty):
        mask = grid.cands[cell]
        if mask.bit_count() >= 3:
            yield [(cell, d) for d in bits(mask)], None
    for h, hbits in enumerate(grid.t.house_bits):
        for d, plane in enumerate(grid.where):
            spots = plane & hbits
            if spots & (spots - 1):
                yield [(c, d) for c in bits(spots)], grid.geometry.houses[h].name


def _branch(grid: CandidateGrid, parent: dict[Node, Node | None], node: Node) -> Branch:
    chain: list[Node] = []
    at: Node | None = node
    while at is not None:
        chain.append(at)
        at = parent[at]
    chain.reverse()
    lines = []
    for i, (cell, d, on) in enumerate(chain):
        if i == 0:
            rule = "assumption"
        else:
            before = chain[i - 1]
            if on and before[0] == cell:
                rule = "only candidate left"
            elif on:
                rule = f"only place left for {digit_char(d + 1)}"
            else:
                rule = f"{grid.name(before[0])} holds {digit_char(before[1] + 1)}"
        lines.append(Implication(cell, d + 1, on, (i - 1,) if i else (), rule))
    return Branch(tuple(lines))


def _step(
    grid: CandidateGrid,
    links: Links,
    node: Node,
    nodes: int,
    options: list[tuple[int, int]],
    house: str | None,
) -> Step:
    cell, d, on = node
    net = Net(tuple(_branch(grid, links.follow(c, e), node) for c, e in options))
    if house is None:
        label = f"whichever digit {grid.name(options[0][0])} holds"
    else:
        label = f"wherever {digit_char(options[0][1] + 1)} goes in {house}"
    return make_step(
        grid,
        FORMS[0] if house is None else FORMS[1],
        f"{label}, the direct links agree: {net.text(grid.size)}",
        structure=net,
        placements=[(cell, d + 1)] if on else [],
        eliminations=[] if on else [(cell, d + 1)],
        cells=sorted({c for c, _ in options}),
        digits=sorted({e + 1 for _, e in options}),
        houses=[house] if house else [],
        length=max(nodes - 2, 0),
        kind=FORMS[0] if house is None else FORMS[1],
    )
