"""Sue de Coq: a naked set spread over the meeting of a box and a line.

Take two or three open cells where a box meets a line, holding digits V (at least two more digits
than cells). Add cells L from the rest of the line and B from the rest of the box such that L's
digits and B's digits are apart and all the cells together hold exactly as many digits as there
are cells. Then each of those digits goes in them exactly once: L's digits (and V's digits that
neither L nor B holds) go from the rest of the line, B's digits (and the same extra ones) from the
rest of the box. Works for any two houses that meet in two or more cells (extra regions too).

L and B need not be almost locked sets themselves: as their digits are apart, no digit can be
both in the line's cells and in the box's, and each house holds a digit once, so no digit is
twice among all the cells; with as many digits as cells, each is there once. The solving path
takes L and B almost locked (the classic form); the listing takes any L and B.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from functools import cache, lru_cache
from itertools import combinations

from ...geometry import Geometry
from ..engine.budget import checkpoint
from ..engine.grid import CandidateGrid, bits, digits_of, tables
from ..engine.memo import barren, mark_barren, remembered
from ..engine.step import Step, digit_list, distinct, make_step

#: The most cells taken from the rest of the line, or of the box.
MAX_SIDE = 3


@remembered
def find_sue_de_coq(grid: CandidateGrid) -> Step | None:
    return next(_sue_de_coq(grid, locked_sides=True), None)


def iter_sue_de_coq(grid: CandidateGrid) -> Iterator[Step]:
    """Every Sue de Coq of the grid, with any sets L and B (the classic ones first)."""
    return distinct(
        itertools.chain(_sue_de_coq(grid, locked_sides=True), _sue_de_coq(grid, locked_sides=False))
    )


def _sue_de_coq(grid: CandidateGrid, *, locked_sides: bool) -> Iterator[Step]:
    """The Sue de Coqs whose L and B are almost locked sets (``locked_sides``) or any sets."""
    cands, where, empty = grid.cands, grid.where, grid.empty
    houses = grid.geometry.houses
    hb = grid.t.house_bits
    # a meeting's Sue de Coqs depend on its two houses' candidates alone: those searched in
    # vain are skipped
    tag = ("sue de coq", locked_sides, id(grid.t))
    for box, line, inter, line_rest, box_rest, both in _meetings(grid.geometry):
        here = hb[box] | hb[line]
        middle_cells = bits(inter & empty)
        if len(middle_cells) < 2:
            continue
        key = (tag, box, line, empty & here, tuple([cands[c] for c in both]))
        if barren(key):
            continue
        fruitful = False
        # the cells of the meeting that hold two digits more than cells, before the sides
        middles = []
        for size in range(2, len(middle_cells) + 1):
            for middle in combinations(middle_cells, size):
                v = 0
                for c in middle:
                    v |= cands[c]
                if v.bit_count() >= size + 2:
                    middles.append((size, middle, v))
        if not middles:
            mark_barren(key)
            continue
        # an almost locked side of k cells holds k + 1 digits: no cell of it holds more
        most = MAX_SIDE + 1 if locked_sides else grid.size
        line_sides = _sides(
            tuple((c, m) for c in line_rest if empty >> c & 1 and (m := cands[c]).bit_count() <= most),
            locked_sides,
        )
        box_sides = line_sides and _sides(
            tuple((c, m) for c in box_rest if empty >> c & 1 and (m := cands[c]).bit_count() <= most),
            locked_sides,
        )
        if not box_sides:  # no set on one side or the other
            mark_barren(key)
            continue
        for size, middle, v in middles:
            mask = sum(1 << c for c in middle)
            line_sets = [side for side in line_sides if side[1] & v]
            box_sets = [side for side in box_sides if side[1] & v]
            for l_cells, l_digits in line_sets:
                checkpoint()
                for b_cells, b_digits in box_sets:
                    if l_digits & b_digits:
                        continue
                    total = v | l_digits | b_digits
                    count = size + l_cells.bit_count() + b_cells.bit_count()
                    if total.bit_count() != count:
                        continue
                    extra = v & ~l_digits & ~b_digits
                    line_out = hb[line] & ~mask & ~l_cells
                    box_out = hb[box] & ~mask & ~b_cells
                    elims = [(c, d + 1) for d in bits(l_digits | extra) for c in bits(where[d] & line_out)]
                    elims += [(c, d + 1) for d in bits(b_digits | extra) for c in bits(where[d] & box_out)]
                    if not elims:
                        continue
                    used = mask | l_cells | b_cells
                    fruitful = True
                    yield make_step(
                        grid,
                        "Sue de Coq",
                        f"{grid.names(mask)} hold {digit_list(digits_of(v))}; with {grid.names(l_cells)} "
                        f"in {houses[line].name} and {grid.names(b_cells)} in {houses[box].name} they "
                        f"make {count} cells for {count} digits",
                        eliminations=elims,
                        cells=list(bits(used)),
                        digits=digits_of(total),
                        houses=[houses[box].name, houses[line].name],
                        length=2 * count,
                    )
        if not fruitful:
            mark_barren(key)


@cache
def _meetings(
    geometry: Geometry,
) -> tuple[tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
    """Each box (or region) and line that meet: (box, line, the cells they share, the line's
    other cells, the box's other cells, all their cells)."""
    houses = geometry.houses
    hb = tables(geometry).house_bits
    return tuple(
        (
            box,
            line,
            inter,
            tuple(bits(hb[line] & ~inter)),
            tuple(bits(hb[box] & ~inter)),
            tuple(bits(hb[line] | hb[box])),
        )
        for box, line, inter in tables(geometry).overlaps
        if houses[box].kind in ("box", "region") and houses[line].kind not in ("box", "region")
    )


@lru_cache(maxsize=1024)
def _sides(rest: tuple[tuple[int, int], ...], locked: bool) -> tuple[tuple[int, int], ...]:
    """(cells, digits) of each set of up to :data:`MAX_SIDE` cells of ``rest`` (each cell with
    its candidates): only the almost locked ones when ``locked``, else those with more digits
    than cells. Remembered: a house's open cells change little from one grid of a path to the
    next."""
    out = []
    for k in range(1, MAX_SIDE + 1):
        for combo in combinations(rest, k):
            digits = 0
            for _, mask in combo:
                digits |= mask
            if digits.bit_count() == k + 1 or (not locked and digits.bit_count() > k + 1):
                out.append((sum(1 << c for c, _ in combo), digits))
    return tuple(out)
