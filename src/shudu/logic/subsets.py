"""Naked and hidden subsets (pairs, triples, quads) within a house.

A naked subset is k cells of a house holding only k digits between them: those digits go from
every cell that sees all the subset's cells holding them (so a locked pair clears its box and its
line at once). A hidden subset is k digits that fit only k cells of a house: those cells lose
every other digit.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from .budget import checkpoint
from .grid import CandidateGrid, bits, digits_of
from .step import Step, digit_list, make_step

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
    cands, where = grid.cands, grid.where
    houses = grid.geometry.houses
    done: set[int] = set()
    for h, hbits in enumerate(grid.t.house_bits):
        open_cells = hbits & grid.empty
        if open_cells.bit_count() <= k:
            continue
        checkpoint()
        small = [c for c in bits(open_cells) if cands[c].bit_count() <= k]
        for combo in combinations(small, k):
            union = 0
            for c in combo:
                union |= cands[c]
            if union.bit_count() != k:
                continue
            inside = sum(1 << c for c in combo)
            if inside in done:
                continue
            done.add(inside)
            common_houses = [g for g, gbits in enumerate(grid.t.house_bits) if inside & gbits == inside]
            is_locked = len(common_houses) >= 2 and any(
                houses[g].kind in ("box", "region") for g in common_houses
            )
            if locked != is_locked:
                continue
            # The digits go from the houses holding every cell of the subset (HoDoKu's definition;
            # a digit held by fewer of its cells rules out more, but that is another deduction).
            shared = 0
            for g in common_houses:
                shared |= grid.t.house_bits[g]
            elims = []
            for d in bits(union):
                seen = where[d] & shared & ~inside
                elims += [(c, d + 1) for c in bits(seen)]
            if elims:
                name = f"{'Locked' if locked else 'Naked'} {_NAMES[k]}"
                yield make_step(
                    grid,
                    name,
                    f"{grid.names(combo)} hold only {digit_list(digits_of(union))} within {houses[h].name}",
                    eliminations=elims,
                    cells=combo,
                    digits=digits_of(union),
                    houses=[houses[g].name for g in common_houses],
                )


def iter_hidden(grid: CandidateGrid, k: int) -> Iterator[Step]:
    """Every hidden subset of k digits in the grid."""
    for found in hidden(grid, k):
        yield hidden_step(grid, found)


#: A hidden subset: (house, its digits, the cells they fit, the eliminations).
Hidden = tuple[int, tuple[int, ...], int, list[tuple[int, int]]]


def hidden(grid: CandidateGrid, k: int) -> Iterator[Hidden]:
    """Every hidden subset of k digits that eliminates something, in the order
    :func:`iter_hidden` lists its steps, without building the steps."""
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
