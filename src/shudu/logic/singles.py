"""Singles: the last open cell of a house, a cell with one candidate, a digit with one place."""

from __future__ import annotations

from collections.abc import Iterator

from ..notation import digit_char
from .grid import CandidateGrid
from .step import Step, make_step


def find_full_house(grid: CandidateGrid) -> Step | None:
    """A house with one open cell: it takes the one digit the house lacks."""
    return next(iter_full_house(grid), None)


def iter_full_house(grid: CandidateGrid) -> Iterator[Step]:
    """Every full house of the grid, each cell once (named by the first house it fills)."""
    empty = grid.empty
    done = 0
    for h, hbits in enumerate(grid.t.house_bits):
        open_cells = hbits & empty
        if open_cells and not open_cells & (open_cells - 1) and not open_cells & done:
            cell = open_cells.bit_length() - 1
            mask = grid.cands[cell]
            if mask and not mask & (mask - 1):
                done |= open_cells
                digit = mask.bit_length()
                house = grid.geometry.houses[h].name
                yield make_step(
                    grid,
                    "Full house",
                    f"{grid.name(cell)} is the last open cell of {house}, "
                    f"which lacks only {digit_char(digit)}",
                    placements=[(cell, digit)],
                    cells=[cell],
                    digits=[digit],
                    houses=[house],
                )


def find_naked_single(grid: CandidateGrid) -> Step | None:
    """A cell with one candidate left."""
    return next(iter_naked_single(grid), None)


def iter_naked_single(grid: CandidateGrid) -> Iterator[Step]:
    """Every cell with one candidate left."""
    cands = grid.cands
    empty = grid.empty
    while empty:
        low = empty & -empty
        cell = low.bit_length() - 1
        empty ^= low
        mask = cands[cell]
        if mask and not mask & (mask - 1):
            digit = mask.bit_length()
            yield make_step(
                grid,
                "Naked single",
                f"{grid.name(cell)} can only hold {digit_char(digit)}",
                placements=[(cell, digit)],
                cells=[cell],
                digits=[digit],
            )


def find_hidden_single(grid: CandidateGrid) -> Step | None:
    """A digit with one place left in a house (boxes first, then rows, columns, extra regions)."""
    return next(iter_hidden_single(grid), None)


def iter_hidden_single(grid: CandidateGrid) -> Iterator[Step]:
    """Every hidden single of the grid, each placement once (named by the first house that has it)."""
    t = grid.t
    seen: set[tuple[int, int]] = set()
    for h in (*t.boxes, *t.rows, *t.columns, *t.extras):
        for step in hidden_singles_in(grid, h):
            if step.placements[0] not in seen:
                seen.add(step.placements[0])
                yield step


def hidden_singles_in(grid: CandidateGrid, h: int) -> Iterator[Step]:
    """The hidden singles of house ``h``: each digit with one place left there."""
    hbits = grid.t.house_bits[h]
    if not hbits & grid.empty:
        return
    for d, where in enumerate(grid.where):
        spots = where & hbits
        if spots and not spots & (spots - 1):
            cell = spots.bit_length() - 1
            digit = d + 1
            house = grid.geometry.houses[h]
            lone = (hbits & grid.empty).bit_count() == 1
            yield make_step(
                grid,
                "Hidden single",
                f"{digit_char(digit)} can only go in {grid.name(cell)} within {house.name}",
                placements=[(cell, digit)],
                cells=[cell],
                digits=[digit],
                houses=[house.name],
                kind="Full house"
                if lone
                else ("Hidden single in box" if house.kind in ("box", "region") else "Hidden single in line"),
            )
