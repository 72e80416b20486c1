"""Naked and hidden subsets (pairs, triples, quads) within a house.

A naked subset is k cells of a house holding only k digits between them: those digits go from
every cell that sees all the subset's cells holding them (so a locked pair clears its box and its
line at once). A hidden subset is k digits that fit only k cells of a house: those cells lose
every other digit.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

from ...geometry import Geometry
from ..engine import propagate
from ..engine.budget import checkpoint
from ..engine.grid import TABLES_CACHE_SIZE, CandidateGrid, bits, digits_of
from ..engine.step import Step, digit_list, make_step

_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def find_naked_pair(grid: CandidateGrid) -> Step | None:
    return next(iter_naked(grid, 2), None)


def find_naked_triple(grid: CandidateGrid) -> Step | None:
    return next(iter_naked(grid, 3), None)


def find_naked_quad(grid: CandidateGrid) -> Step | None:
    return next(iter_naked(grid, 4), None)


def find_locked_pair(grid: CandidateGrid) -> Step | None:
    """A naked pair inside both a box and a line."""
    return next(iter_naked(grid, 2, locked=True), None)


def find_locked_triple(grid: CandidateGrid) -> Step | None:
    return next(iter_naked(grid, 3, locked=True), None)


def find_hidden_pair(grid: CandidateGrid) -> Step | None:
    return next(iter_hidden(grid, 2), None)


def find_hidden_triple(grid: CandidateGrid) -> Step | None:
    return next(iter_hidden(grid, 3), None)


def find_hidden_quad(grid: CandidateGrid) -> Step | None:
    return next(iter_hidden(grid, 4), None)


def iter_naked_pair(grid: CandidateGrid) -> Iterator[Step]:
    return iter_naked(grid, 2)


def iter_naked_triple(grid: CandidateGrid) -> Iterator[Step]:
    return iter_naked(grid, 3)


def iter_naked_quad(grid: CandidateGrid) -> Iterator[Step]:
    return iter_naked(grid, 4)


def iter_locked_pair(grid: CandidateGrid) -> Iterator[Step]:
    return iter_naked(grid, 2, locked=True)


def iter_locked_triple(grid: CandidateGrid) -> Iterator[Step]:
    return iter_naked(grid, 3, locked=True)


def iter_hidden_pair(grid: CandidateGrid) -> Iterator[Step]:
    return iter_hidden(grid, 2)


def iter_hidden_triple(grid: CandidateGrid) -> Iterator[Step]:
    return iter_hidden(grid, 3)


def iter_hidden_quad(grid: CandidateGrid) -> Iterator[Step]:
    return iter_hidden(grid, 4)


def iter_naked(grid: CandidateGrid, k: int, *, locked: bool = False) -> Iterator[Step]:
    """Every naked subset of k cells (only locked ones, or only the others), each set of cells once."""
    houses = grid.geometry.houses
    hb = grid.t.house_bits
    for h, inside, union in naked(grid, k, locked=locked):
        cells = list(bits(inside))
        common_houses = [g for g, gbits in enumerate(hb) if inside & gbits == inside]
        # The digits go from the houses holding every cell of the subset (HoDoKu's definition;
        # a digit held by fewer of its cells rules out more, but that is another deduction).
        shared = 0
        for g in common_houses:
            shared |= hb[g]
        elims = [(c, d + 1) for d in bits(union) for c in bits(grid.where[d] & shared & ~inside)]
        name = f"{'Locked' if locked else 'Naked'} {_NAMES[k]}"
        yield make_step(
            grid,
            name,
            f"{grid.names(cells)} hold only {digit_list(digits_of(union))} within {houses[h].name}",
            eliminations=elims,
            cells=cells,
            digits=digits_of(union),
            houses=[houses[g].name for g in common_houses],
        )


#: A naked subset: (house, its cells, their digits), both as bit sets.
Naked = tuple[int, int, int]


def naked(grid: CandidateGrid, k: int, *, locked: bool = False) -> Iterator[Naked]:
    """Every naked subset of k cells that eliminates something (only locked ones, or only the
    others), each set of cells once, in the order :func:`iter_naked` lists its steps. The C core
    finds them where it can (:func:`naked_py` is its specification)."""
    checkpoint()
    found = _c_subsets(grid, k, 1 if locked else 0)
    if found is not None:
        return iter(found)
    return naked_py(grid, k, locked=locked)


def _c_subsets(grid: CandidateGrid, k: int, mode: int) -> list[tuple[int, int, int]] | None:
    """The C core's subsets (mode 0 naked, 1 locked, 2 hidden), or None where it cannot go."""
    capsule = propagate.c_tables(grid.geometry)
    if capsule is None or not 1 <= k <= 4:
        return None
    core = propagate.c_core()
    assert core is not None
    found: list[tuple[int, int, int]] | None = core.subsets(
        capsule, grid.cands, grid.where, grid.placed, grid.values, grid.empty, k, mode
    )
    return found


def naked_py(grid: CandidateGrid, k: int, *, locked: bool = False) -> Iterator[Naked]:
    """:func:`naked` in Python."""
    cands, where = grid.cands, grid.where
    hb = grid.t.house_bits
    done: set[int] = set()
    few = _at_most(grid, k)
    partners = locked_partners(grid.geometry) if locked else ()
    for h, hbits in enumerate(hb):
        open_cells = hbits & grid.empty
        if open_cells.bit_count() <= k or (open_cells & few).bit_count() < k:
            continue
        checkpoint()
        small = list(bits(open_cells & few))
        if locked:
            # the cells of a locked subset share a box (or region) and another house, two by two
            small = [c for c in small if partners[c] & few & open_cells]
            if len(small) < k:
                continue
        for combo in combinations(small, k):
            if locked and any(not partners[a] >> b & 1 for a, b in combinations(combo, 2)):
                continue
            union = 0
            for c in combo:
                union |= cands[c]
            if union.bit_count() != k:
                continue
            inside = sum(1 << c for c in combo)
            if inside in done:
                continue
            done.add(inside)
            common_houses = [g for g, gbits in enumerate(hb) if inside & gbits == inside]
            reach = 0  # the cells outside the subset that hold one of its digits
            for d in bits(union):
                reach |= where[d]
            reach &= ~inside
            if locked != _locked(grid, k, common_houses, reach):
                continue
            shared = 0
            for g in common_houses:
                shared |= hb[g]
            if reach & shared:
                yield h, inside, union


def _locked(grid: CandidateGrid, k: int, common_houses: list[int], reach: int) -> bool:
    """Whether a naked subset of ``k`` cells sharing ``common_houses`` is *locked* (HoDoKu's
    definition): a pair or triple whose cells share a box (or jigsaw region) and another house,
    that removes digits from both, from the box and from the other house outside the box. One
    that removes digits from one of them only is a naked subset of that house, and so is a quad
    (HoDoKu has no locked quads; a 16x16 grid's box and line may share four cells)."""
    if k > 3 or len(common_houses) < 2:
        return False
    houses, hb = grid.geometry.houses, grid.t.house_bits
    for b in common_houses:
        box = hb[b]
        if houses[b].kind not in ("box", "region") or not reach & box:
            continue
        if any(reach & hb[g] & ~box for g in common_houses if g != b):
            return True
    return False


def _at_most(grid: CandidateGrid, k: int) -> int:
    """The open cells with at most ``k`` candidates, as a cell set."""
    counts = [0] * (k + 1)  # counts[i]: cells seen in more than i planes so far
    for plane in grid.where:
        for i in range(k, 0, -1):
            counts[i] |= counts[i - 1] & plane
        counts[0] |= plane
    return grid.empty & ~counts[k]


@lru_cache(maxsize=TABLES_CACHE_SIZE)
def locked_partners(geometry: Geometry) -> tuple[int, ...]:
    """Per cell, the cells it shares two houses with, one of them a box or jigsaw region."""
    houses, cell_houses = geometry.houses, geometry.cell_houses
    out = []
    for a in range(geometry.ncells):
        mine = set(cell_houses[a])
        partners = 0
        for b in range(geometry.ncells):
            common = [h for h in cell_houses[b] if h in mine]
            if b != a and len(common) >= 2 and any(houses[h].kind in ("box", "region") for h in common):
                partners |= 1 << b
        out.append(partners)
    return tuple(out)


def iter_hidden(grid: CandidateGrid, k: int) -> Iterator[Step]:
    """Every hidden subset of k digits in the grid."""
    for found in hidden(grid, k):
        yield hidden_step(grid, found)


#: A hidden subset: (house, its digits, the cells they fit, the eliminations).
Hidden = tuple[int, tuple[int, ...], int, list[tuple[int, int]]]


def hidden(grid: CandidateGrid, k: int) -> Iterator[Hidden]:
    """Every hidden subset of k digits that eliminates something, in the order
    :func:`iter_hidden` lists its steps, without building the steps. The C core finds them
    where it can (:func:`hidden_py` is its specification)."""
    checkpoint()
    found = _c_subsets(grid, k, 2)
    if found is None:
        yield from hidden_py(grid, k)
        return
    cands = grid.cands
    for h, union, keep in found:
        elims = [(c, d + 1) for c in bits(union) for d in bits(cands[c] & ~keep)]
        yield h, tuple(d + 1 for d in bits(keep)), union, elims


def hidden_py(grid: CandidateGrid, k: int) -> Iterator[Hidden]:
    """:func:`hidden` in Python."""
    cands, where = grid.cands, grid.where
    done: set[tuple[int, int]] = set()
    for h, hbits in enumerate(grid.t.house_bits):
        open_cells = hbits & grid.empty
        if open_cells.bit_count() <= k:
            continue
        checkpoint()
        few = [d for d, plane in enumerate(where) if (spots := plane & hbits) and spots.bit_count() <= k]
        if len(few) < k:
            continue
        for combo in combinations(few, k):
            union = 0
            for d in combo:
                union |= where[d]
            union &= hbits
            if union.bit_count() != k:
                continue
            keep = sum(1 << d for d in combo)
            if (union, keep) in done:
                continue
            done.add((union, keep))
            elims = [(c, d + 1) for c in bits(union) for d in bits(cands[c] & ~keep)]
            if elims:
                yield h, tuple(d + 1 for d in combo), union, elims


def hidden_step(grid: CandidateGrid, found: Hidden) -> Step:
    """The step of a subset :func:`hidden` gives."""
    h, digits, union, elims = found
    return make_step(
        grid,
        f"Hidden {_NAMES[len(digits)]}",
        f"{digit_list(digits)} fit only {grid.names(union)} within {grid.geometry.houses[h].name}",
        eliminations=elims,
        cells=list(bits(union)),
        digits=digits,
        houses=[grid.geometry.houses[h].name],
    )
