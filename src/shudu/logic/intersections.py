"""Locked candidates: a digit confined to where two houses overlap leaves the rest of the other.

Pointing: the digit's places in a box all lie in one row or column. Claiming: its places in a row
or column all lie in one box. Extra regions and jigsaw regions take part like boxes.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..notation import digit_char
from .grid import CandidateGrid, bits
from .step import Step, make_step

_BOXLIKE = ("box", "region")


def find_pointing(grid: CandidateGrid) -> Step | None:
    """Locked candidates type 1: the places of a digit in a box lie in one line."""
    return next(iter_locked(grid, pointing=True), None)


def find_claiming(grid: CandidateGrid) -> Step | None:
    """Locked candidates type 2: the places of a digit in a line lie in one box."""
    return next(iter_locked(grid, pointing=False), None)


def iter_pointing(grid: CandidateGrid) -> Iterator[Step]:
    return iter_locked(grid, pointing=True)


def iter_claiming(grid: CandidateGrid) -> Iterator[Step]:
    return iter_locked(grid, pointing=False)


def iter_locked(grid: CandidateGrid, *, pointing: bool) -> Iterator[Step]:
    """Every pointing (or claiming) step of the grid."""
    for found in locked(grid, pointing=pointing):
        yield locked_step(grid, found, pointing=pointing)


#: A locked-candidates pattern: (house a, house b, digit, cells of a holding it, cells it leaves).
Locked = tuple[int, int, int, int, int]


def locked(grid: CandidateGrid, *, pointing: bool) -> Iterator[Locked]:
    """Every pointing (or claiming) pattern of the grid, in the order :func:`iter_locked` lists
    its steps, without building the steps."""
    houses = grid.geometry.houses
    hb = grid.t.house_bits
    where = grid.where
    for a, b, inter in grid.t.overlaps:
        if (houses[a].kind in _BOXLIKE) != pointing:
            continue
        abits = hb[a]
        for d, plane in enumerate(where):
            inside = plane & abits
            if inside & (inside - 1) and not inside & ~inter:
                out = plane & hb[b] & ~inter
                if out:
                    yield a, b, d + 1, inside, out


def locked_step(grid: CandidateGrid, found: Locked, *, pointing: bool) -> Step:
    """The step of a pattern :func:`locked` gives."""
    a, b, digit, inside, out = found
    houses = grid.geometry.houses
    technique = "Locked candidates (pointing)" if pointing else "Locked candidates (claiming)"
    return make_step(
        grid,
        technique,
        f"in {houses[a].name}, {digit_char(digit)} lies only where it meets {houses[b].name}",
        eliminations=[(c, digit) for c in bits(out)],
        cells=list(bits(inside)),
        digits=[digit],
        houses=[houses[a].name, houses[b].name],
    )
