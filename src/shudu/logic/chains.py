"""Chains: X-Chain, XY-Chain and alternating inference chains (AIC, discontinuous nice loops).

A chain alternates strong links (one of the two ends is true: a digit's two places in a house, or
a cell's two candidates) and weak links (the two ends are not both true: one digit in two cells
that see each other, or two digits of one cell). Starting from "the first candidate is false" and
following the links, each step forces the next; the far end is then true. So the first or the last
candidate is true, and any candidate that sees both loses out. A chain whose far end is the first
candidate itself proves that candidate.

Candidates are plain ints ``cell * n + (digit - 1)``. The search is breadth first from every
start, so the chain found is the shortest of its kind.
"""

from __future__ import annotations

from ..puzzle import digit_char
from .grid import CandidateGrid, bits
from .step import Step, make_step

#: Longest chain looked for (links).
MAX_LINKS = 21

Links = dict[int, list[int]]


def _conjugates(grid: CandidateGrid, strong: Links, digits: range | list[int]) -> None:
    n = grid.size
    for d in digits:
        where = grid.where[d]
        for hbits in grid.t.house_bits:
            spots = where & hbits
            if spots.bit_count() == 2:
                a = spots.bit_length() - 1
                b = (spots ^ (1 << a)).bit_length() - 1
                na, nb = a * n + d, b * n + d
                if nb not in strong.setdefault(na, []):
                    strong[na].append(nb)
                    strong.setdefault(nb, []).append(na)


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
    """Weak links from every candidate with a strong link to the others with one."""
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
    for d in range(grid.size):
        strong: Links = {}
        _conjugates(grid, strong, [d])
        step = _search(grid, strong, _weak(grid, strong, in_cell=False), "X-Chain", best)
        if step:
            best = step
    return best


def find_xy_chain(grid: CandidateGrid) -> Step | None:
    strong: Links = {}
    _bivalues(grid, strong)
    return _search(grid, strong, _weak(grid, strong, in_cell=False), "XY-Chain", None)


def find_aic(grid: CandidateGrid) -> Step | None:
    strong: Links = {}
    _conjugates(grid, strong, range(grid.size))
    _bivalues(grid, strong)
    return _search(grid, strong, _weak(grid, strong, in_cell=True), "AIC", None)


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


def _search(grid: CandidateGrid, strong: Links, weak: Links, name: str, best: Step | None) -> Step | None:
    limit = best.length if best else MAX_LINKS + 1
    for s in sorted(strong):
        # states: candidate * 2 + (1 if on else 0); the start is off
        parent = {s * 2: -1}
        frontier = [s * 2]
        links = 0
        found = None
        while frontier and links + 1 < limit and found is None:
            links += 1
            nxt = []
            for state in frontier:
                node, on = state >> 1, state & 1
                for other in weak[node] if on else strong[node]:
                    new = other * 2 + (0 if on else 1)
                    if new in parent:
                        continue
                    parent[new] = state
                    nxt.append(new)
                    if not on:
                        placements, elims = _outcome(grid, s, other)
                        if placements or elims:
                            found = (new, placements, elims)
                            break
                if found:
                    break
            frontier = nxt
        if found:
            end, placements, elims = found
            path = []
            state = end
            while state != -1:
                path.append(state)
                state = parent[state]
            path.reverse()
            best = _chain_step(grid, name, path, placements, elims)
            limit = best.length
    return best


def _chain_step(
    grid: CandidateGrid,
    name: str,
    path: list[int],
    placements: list[tuple[int, int]],
    elims: list[tuple[int, int]],
) -> Step:
    n = grid.size
    text = []
    for i, state in enumerate(path):
        cell, d = divmod(state >> 1, n)
        if i:
            text.append("=" if state & 1 else "-")
        text.append(f"{digit_char(d + 1)}{grid.name(cell)}")
    chain = "".join(text)
    s_cell, s_d = divmod(path[0] >> 1, n)
    e_cell, e_d = divmod(path[-1] >> 1, n)
    first = f"{digit_char(s_d + 1)} in {grid.name(s_cell)}"
    last = f"{digit_char(e_d + 1)} in {grid.name(e_cell)}"
    if placements:
        reason = f"if {first} were false, the chain {chain} would make it true"
    else:
        reason = f"the chain {chain} shows that {first} or {last} is true"
    cells = []
    for state in path:
        cell = (state >> 1) // n
        if cell not in cells:
            cells.append(cell)
    return make_step(
        grid,
        name,
        reason,
        placements=placements,
        eliminations=elims,
        cells=cells,
        digits=[(state >> 1) % n + 1 for state in path],
        length=len(path) - 1,
    )
