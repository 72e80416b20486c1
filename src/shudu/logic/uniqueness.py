"""Uniqueness techniques: Unique Rectangles (types 1-6), Hidden Rectangle and BUG+1.

They assume the puzzle has exactly one solution, so the solver uses them only when told it has
(``uniqueness=True``). A *deadly pattern* is one that could be swapped into a second solution: four
cells on two rows, two columns and two boxes holding only the same two digits. The techniques
eliminate whatever would leave one. They need plain rows, columns and boxes (or jigsaw regions):
extra regions and anti-knight/king links could break the swap, so there they find nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations

from ..geometry import Geometry
from ..puzzle import digit_char
from ..variants import Cell
from .grid import CandidateGrid, bits, digits_of, tables
from .step import Step, digit_list, make_step

#: The four cells of a rectangle: (r1, c1), (r1, c2), (r2, c1), (r2, c2).
Rectangle = tuple[Cell, Cell, Cell, Cell]


def _plain(grid: CandidateGrid) -> bool:
    return not grid.t.extras and not grid.t.has_links


def _rectangles(grid: CandidateGrid) -> Iterator[tuple[Rectangle, int, int]]:
    """Every (cells, a, b): four open cells on two rows, columns and boxes sharing digits a and b."""
    n = grid.size
    cands = grid.cands
    box_of = _box_of(grid.geometry)
    for r1, r2 in combinations(range(n), 2):
        # the columns where both rows are open with two or more candidates in common
        shared = []
        for c in range(n):
            common = cands[r1 * n + c] & cands[r2 * n + c]
            if common & (common - 1):
                shared.append((c, common))
        for i, (c1, common1) in enumerate(shared):
            for c2, common2 in shared[i + 1 :]:
                common = common1 & common2
                if not common & (common - 1):
                    continue
                cells = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
                b = [box_of[c] for c in cells]
                if -1 in b or len(set(b)) != 2 or b.count(b[0]) != 2:
                    continue
                for a, z in combinations(bits(common), 2):
                    yield cells, a, z


@cache
def _box_of(geometry: Geometry) -> tuple[int, ...]:
    """Per cell, its box (or jigsaw region): -1 for none."""
    boxes = set(tables(geometry).boxes)
    return tuple(next((h for h in hs if h in boxes), -1) for hs in geometry.cell_houses)


def find_unique_rectangle(grid: CandidateGrid) -> Step | None:
    """Unique Rectangle types 1 to 6 (the first rectangle that gives any)."""
    return _unique_rectangle(grid, type_6=True)


def find_unique_rectangle_1_to_5(grid: CandidateGrid) -> Step | None:
    """Unique Rectangle types 1 to 5: the forms Sudoku Explainer knows (its type 2 covers 5)."""
    return _unique_rectangle(grid, type_6=False)


def _unique_rectangle(grid: CandidateGrid, *, type_6: bool) -> Step | None:
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
            step = _type_3(grid, cells, extra, a, b, base) or (
                type_6 and _type_6(grid, cells, extra, a, b, base)
            )
            if step:
                return step
    return None


_SETS = {2: "pair", 3: "triple", 4: "quad"}


def _type_3(
    grid: CandidateGrid, cells: Rectangle, extra: Sequence[Cell], a: int, b: int, base: str
) -> Step | None:
    """Type 3: the two extra cells share a house, and their extra digits with k - 1 other cells of
    that house make a naked set of k digits (one of the extra cells must hold an extra digit)."""
    cands, where, hb = grid.cands, grid.where, grid.t.house_bits
    pair = (1 << a) | (1 << b)
    more = (cands[extra[0]] | cands[extra[1]]) & ~pair
    if more.bit_count() < 2:
        return None
    both = (1 << extra[0]) | (1 << extra[1])
    for h in grid.geometry.cell_houses[extra[0]]:
        hbits = hb[h]
        if not hbits >> extra[1] & 1:
            continue
        others = [c for c in bits(hbits & grid.empty & ~both) if cands[c].bit_count() <= 4]
        for size in range(1, 4):
            for combo in combinations(others, size):
                union = more
                for c in combo:
                    union |= cands[c]
                if union.bit_count() != size + 1:
                    continue
                inside = both | sum(1 << c for c in combo)
                elims = [(c, d + 1) for d in bits(union) for c in bits(where[d] & hbits & ~inside)]
                if not elims:
                    continue
                house = grid.geometry.houses[h].name
                kind = f"Unique Rectangle Type 3 ({_SETS[size + 1]})"
                return make_step(
                    grid,
                    "Unique Rectangle Type 3",
                    f"{base} unless {grid.names(extra)} hold one of {digit_list(digits_of(more))}; as one "
                    f"cell with {grid.names(combo)} they make a naked {_SETS[size + 1]} of "
                    f"{digit_list(digits_of(union))} in {house}",
                    eliminations=elims,
                    cells=[*cells, *combo],
                    digits=[a + 1, b + 1, *digits_of(union)],
                    houses=[house],
                    kind=kind,
                )
    return None


def _type_6(
    grid: CandidateGrid, cells: Rectangle, extra: Sequence[Cell], a: int, b: int, base: str
) -> Step | None:
    """Type 6: the two extra cells lie diagonally and a UR digit lies only in the rectangle in both
    of its rows (or both columns): it cannot go in the extra cells, or the other digit would fill
    the remaining corners."""
    n, where, hb, t = grid.size, grid.where, grid.t.house_bits, grid.t
    e1, e2 = extra
    if e1 // n == e2 // n or e1 % n == e2 % n:
        return None
    rect = sum(1 << c for c in cells)
    lines = (
        [hb[t.rows[e1 // n]], hb[t.rows[e2 // n]]],
        [hb[t.columns[e1 % n]], hb[t.columns[e2 % n]]],
    )
    for x in (a, b):
        for pair_of_lines in lines:
            if all(where[x] & line == rect & line for line in pair_of_lines):
                return make_step(
                    grid,
                    "Unique Rectangle Type 6",
                    f"{base}; {digit_char(x + 1)} lies only in the rectangle along both of its lines, "
                    f"so it cannot go in {grid.names(extra)}",
                    eliminations=[(e1, x + 1), (e2, x + 1)],
                    cells=cells,
                    digits=[a + 1, b + 1],
                    kind="Unique Rectangle Type 6",
                )
    return None


def find_hidden_rectangle(grid: CandidateGrid) -> Step | None:
    """Hidden Rectangle: one corner holds only the two digits; if one of them lies only in the
    rectangle along both the row and the column of the opposite corner, the opposite corner cannot
    hold the other digit."""
    if not _plain(grid):
        return None
    n, cands, where, hb, t = grid.size, grid.cands, grid.where, grid.t.house_bits, grid.t
    for cells, a, b in _rectangles(grid):
        pair = (1 << a) | (1 << b)
        rect = sum(1 << c for c in cells)
        for i, corner in enumerate(cells):
            if cands[corner] != pair:
                continue
            opposite = cells[3 - i]
            row, column = hb[t.rows[opposite // n]], hb[t.columns[opposite % n]]
            for x, y in ((a, b), (b, a)):
                if where[x] & row == rect & row and where[x] & column == rect & column:
                    return make_step(
                        grid,
                        "Hidden Rectangle",
                        f"{grid.names(cells)} would form a deadly pattern of {digit_list([a + 1, b + 1])}; "
                        f"{digit_char(x + 1)} lies only in the rectangle along the row and the column of "
                        f"{grid.name(opposite)}, so {grid.name(opposite)} cannot be {digit_char(y + 1)}",
                        eliminations=[(opposite, y + 1)],
                        cells=cells,
                        digits=[a + 1, b + 1],
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
