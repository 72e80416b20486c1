"""Uniqueness techniques: Unique Rectangles and BUG+1.

They assume the puzzle has exactly one solution, so the solver uses them only when told it has
(``uniqueness=True``). A *deadly pattern* is one that could be swapped into a second solution: four
cells on two rows, two columns and two boxes holding only the same two digits. The techniques
eliminate whatever would leave one. They need plain rows, columns and boxes (or jigsaw regions):
extra regions and anti-knight/king links could break the swap, so there they find nothing.
"""

from __future__ import annotations

from itertools import combinations

from ..puzzle import digit_char
from .grid import CandidateGrid, bits, digits_of
from .step import Step, digit_list, make_step


def _plain(grid: CandidateGrid) -> bool:
    return not grid.t.extras and not grid.t.has_links


def _rectangles(grid: CandidateGrid):
    """Every (cells, a, b): four open cells on two rows, columns and boxes sharing digits a and b."""
    n = grid.size
    cands, values = grid.cands, grid.values
    cell_houses = grid.geometry.cell_houses
    boxes = set(grid.t.boxes)
    for r1, r2 in combinations(range(n), 2):
        for c1, c2 in combinations(range(n), 2):
            cells = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
            if any(values[c] for c in cells):
                continue
            common = cands[cells[0]] & cands[cells[1]] & cands[cells[2]] & cands[cells[3]]
            if common.bit_count() < 2:
                continue
            in_boxes = [h for c in cells for h in cell_houses[c] if h in boxes]
            if len(set(in_boxes)) != 2 or in_boxes.count(in_boxes[0]) != 2:
                continue
            for a, b in combinations(bits(common), 2):
                yield cells, a, b


def find_unique_rectangle(grid: CandidateGrid) -> Step | None:
    """Unique Rectangle types 1, 2, 4 and 5."""
    if not _plain(grid):
        return None
    cands, peer_bits, where = grid.cands, grid.t.peer_bits, grid.where
    hb = grid.t.house_bits
    for cells, a, b in _rectangles(grid):
        pair = (1 << a) | (1 << b)
        extra = [c for c in cells if cands[c] != pair]
        ab = digit_list([a + 1, b + 1])
        base = f"{grid.names(cells)} would form a deadly pattern of {ab}"
        if len(extra) == 1:
            cell = extra[0]
            return make_step(
                grid,
                "Unique Rectangle Type 1",
                f"{base} unless {grid.name(cell)} is neither",
                eliminations=[(cell, a + 1), (cell, b + 1)],
                cells=cells,
                digits=[a + 1, b + 1],
                kind="Unique Rectangle Type 1",
            )
        rest = {cands[c] & ~pair for c in extra}
        if 2 <= len(extra) <= 3 and len(rest) == 1:
            more = rest.pop()
            if more.bit_count() == 1:
                z = more.bit_length() - 1
                targets = where[z]
                for c in extra:
                    targets &= peer_bits[c]
                if targets:
                    same_line = len(extra) == 2 and (
                        extra[0] // grid.size == extra[1] // grid.size
                        or extra[0] % grid.size == extra[1] % grid.size
                    )
                    name = "Unique Rectangle Type 2" if same_line else "Unique Rectangle Type 5"
                    return make_step(
                        grid,
                        name,
                        f"{base} unless one of {grid.names(extra)} is {digit_char(z + 1)}",
                        eliminations=[(c, z + 1) for c in bits(targets)],
                        cells=cells,
                        digits=[a + 1, b + 1, z + 1],
                        kind=name,
                    )
        if len(extra) == 2:
            both = (1 << extra[0]) | (1 << extra[1])
            for h, hbits in enumerate(hb):
                if hbits & both != both:
                    continue
                for keep, drop in ((a, b), (b, a)):
                    if where[keep] & hbits == both:
                        return make_step(
                            grid,
                            "Unique Rectangle Type 4",
                            f"{base}; {digit_char(keep + 1)} in {grid.geometry.houses[h].name} must go in "
                            f"{grid.names(extra)}, so neither may be {digit_char(drop + 1)}",
                            eliminations=[(c, drop + 1) for c in extra],
                            cells=cells,
                            digits=[a + 1, b + 1],
                            houses=[grid.geometry.houses[h].name],
                            kind="Unique Rectangle Type 4",
                        )
    return None


def find_bug_plus_one(grid: CandidateGrid) -> Step | None:
    """Bivalue Universal Grave + 1: every open cell has two candidates but one, which has three;
    the digit that appears three times in its houses must go there, or the grid would have no or
    two solutions."""
    if not _plain(grid):
        return None
    odd = None
    for cell in bits(grid.empty):
        count = grid.cands[cell].bit_count()
        if count == 2:
            continue
        if count != 3 or odd is not None:
            return None
        odd = cell
    if odd is None:
        return None
    hb = grid.t.house_bits
    for h in grid.geometry.cell_houses[odd]:
        for d in bits(grid.cands[odd]):
            if (grid.where[d] & hb[h]).bit_count() == 3:
                digit = d + 1
                return make_step(
                    grid,
                    "Bivalue Universal Grave + 1",
                    f"every open cell but {grid.name(odd)} holds two candidates and {digit_char(digit)} "
                    f"appears three times in {grid.geometry.houses[h].name}",
                    placements=[(odd, digit)],
                    cells=[odd],
                    digits=digits_of(grid.cands[odd]),
                    houses=[grid.geometry.houses[h].name],
                )
    return None
