"""Singles: the last open cell of a house, a cell with one candidate, a digit with one place.

Singles are most of the steps of every solving path, so they are found with whole-grid bit
operations and their steps are built directly (the wording is the one :func:`make_step` gives).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from ..notation import digit_char
from .catalog import Technique, resolve
from .grid import TABLES_CACHE_SIZE, CandidateGrid, Tables
from .step import Step


@cache
def _form(name: str) -> tuple[Technique, str]:
    """(technique, form name) of a declared single's name, looked up once."""
    found = resolve(name)
    return found.technique, found.name


def _single(
    grid: CandidateGrid, kind: str, reason: str, cell: int, digit: int, houses: tuple[str, ...]
) -> Step:
    """The step placing ``digit`` in ``cell``, worded as :func:`make_step` words it."""
    technique, name = _form(kind)
    return Step(
        technique=technique,
        name=name,
        explanation=f"{name}: {reason}, so {grid.name(cell)} = {digit_char(digit)}",
        size=grid.size,
        placements=((cell, digit),),
        cells=(cell,),
        digits=(digit,),
        houses=houses,
        reason=reason,
    )


def find_full_house(grid: CandidateGrid) -> Step | None:
    """A house with one open cell: it takes the one digit the house lacks."""
    return next(iter_full_house(grid), None)


def iter_full_house(grid: CandidateGrid) -> Iterator[Step]:
    """Every full house of the grid, each cell once (named by the first house it fills)."""
    empty = grid.empty
    lone = [
        h for h, hbits in enumerate(grid.t.house_bits) if (cells := hbits & empty) and not cells & (cells - 1)
    ]
    cands = grid.cands
    done = 0
    for h in lone:
        open_cells = grid.t.house_bits[h] & empty
        if not open_cells & done:
            cell = open_cells.bit_length() - 1
            mask = cands[cell]
            if mask and not mask & (mask - 1):
                done |= open_cells
                digit = mask.bit_length()
                house = grid.geometry.houses[h].name
                yield _single(
                    grid,
                    "Full house",
                    f"{grid.name(cell)} is the last open cell of {house}, "
                    f"which lacks only {digit_char(digit)}",
                    cell,
                    digit,
                    (house,),
                )


def find_naked_single(grid: CandidateGrid) -> Step | None:
    """A cell with one candidate left."""
    return next(iter_naked_single(grid), None)


def lone_candidates(grid: CandidateGrid) -> int:
    """The open cells with exactly one candidate left, as a cell set."""
    ones = twos = 0
    for plane in grid.where:
        twos |= ones & plane
        ones |= plane
    return grid.empty & ones & ~twos


def iter_naked_single(grid: CandidateGrid) -> Iterator[Step]:
    """Every cell with one candidate left, lowest cell first."""
    cands = grid.cands
    lone = lone_candidates(grid)
    while lone:
        low = lone & -lone
        cell = low.bit_length() - 1
        lone ^= low
        digit = cands[cell].bit_length()
        yield _single(
            grid, "Naked single", f"{grid.name(cell)} can only hold {digit_char(digit)}", cell, digit, ()
        )


def find_hidden_single(grid: CandidateGrid) -> Step | None:
    """A digit with one place left in a house (boxes first, then rows, columns, extra regions)."""
    return next(iter_hidden_single(grid), None)


def iter_hidden_single(grid: CandidateGrid) -> Iterator[Step]:
    """Every hidden single of the grid, each placement once (named by the first house that has it)."""
    houses, cells = _naming_order(grid.t)
    seen: set[tuple[int, int]] = set()
    for rank, digit, cell in _hidden_places(grid, cells):
        if (cell, digit) not in seen:
            seen.add((cell, digit))
            yield _hidden_step(grid, houses[rank], cell, digit)


def iter_box_singles(grid: CandidateGrid) -> Iterator[Step]:
    """The hidden singles of every box (or region) in turn, digits ascending in each: a cell
    and digit once per box that has it."""
    boxes = grid.t.boxes
    hb = grid.t.house_bits
    for rank, digit, cell in _hidden_places(grid, tuple(hb[h] for h in boxes)):
        yield _hidden_step(grid, boxes[rank], cell, digit)


def _hidden_places(grid: CandidateGrid, houses: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """(rank of the house in ``houses``, digit, cell) of each digit with one place left in one
    of ``houses`` (cell sets), by rank then digit."""
    found: list[tuple[int, int, int]] = []
    for d, where in enumerate(grid.where):
        if where:
            found += [
                (rank, d + 1, spots.bit_length() - 1)
                for rank, hbits in enumerate(houses)
                if (spots := where & hbits) and not spots & (spots - 1)
            ]
    found.sort()
    return found


#: Per :class:`Tables` (by identity, kept alive here): the houses in naming order and their cells.
_NAMING: dict[int, tuple[Tables, tuple[int, ...], tuple[int, ...]]] = {}


def _naming_order(t: Tables) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(house indices, their cell sets) in the order boxes, rows, columns, extra regions."""
    known = _NAMING.get(id(t))
    if known is None or known[0] is not t:
        if len(_NAMING) >= TABLES_CACHE_SIZE:
            _NAMING.clear()
        order = (*t.boxes, *t.rows, *t.columns, *t.extras)
        known = _NAMING[id(t)] = (t, order, tuple(t.house_bits[h] for h in order))
    return known[1], known[2]


def hidden_singles_in(grid: CandidateGrid, h: int) -> Iterator[Step]:
    """The hidden singles of house ``h``: each digit with one place left there."""
    hbits = grid.t.house_bits[h]
    if not hbits & grid.empty:
        return
    for d, where in enumerate(grid.where):
        spots = where & hbits
        if spots and not spots & (spots - 1):
            yield _hidden_step(grid, h, spots.bit_length() - 1, d + 1)


def _hidden_step(grid: CandidateGrid, h: int, cell: int, digit: int) -> Step:
    house = grid.geometry.houses[h]
    if (grid.t.house_bits[h] & grid.empty).bit_count() == 1:
        kind = "Full house"
    elif house.kind in ("box", "region"):
        kind = "Hidden single in box"
    else:
        kind = "Hidden single in line"
    return _single(
        grid,
        kind,
        f"{digit_char(digit)} can only go in {grid.name(cell)} within {house.name}",
        cell,
        digit,
        (house.name,),
    )
