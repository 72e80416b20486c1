"""Locked candidates: a digit confined to where two houses overlap leaves the rest of the other.

Pointing: the digit's places in a box all lie in one row or column. Claiming: its places in a row
or column all lie in one box. Extra regions and jigsaw regions take part like boxes.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from ...geometry import Geometry
from ...notation import digit_char
from ..engine import propagate
from ..engine.grid import TABLES_CACHE_SIZE, CandidateGrid, bits, tables
from ..engine.step import Step, make_step

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
    its steps (by overlap, as in the geometry's tables, then by digit), without building the
    steps. The C core finds them where it can (:func:`locked_py` is its specification)."""
    capsule = propagate.c_tables(grid.geometry)
    if capsule is not None:
        core = propagate.c_core()
        assert core is not None
        found = core.locked(capsule, grid.cands, grid.where, grid.placed, grid.values, grid.empty, pointing)
        if found is not None:
            for _, d, a, b, inside, out in found:
                yield a, b, d + 1, inside, out
            return
    yield from locked_py(grid, pointing=pointing)


def locked_py(grid: CandidateGrid, *, pointing: bool) -> Iterator[Locked]:
    """:func:`locked` in Python."""
    hb = grid.t.house_bits
    where = grid.where
    found: list[tuple[int, int, int, int, int, int]] = []
    for a, abits, meeting in _overlaps_of(grid.geometry, pointing):
        for d, plane in enumerate(where):
            inside = plane & abits
            # two or more places in ``a``, all inside an overlap: one that holds the first of them
            if inside & (inside - 1):
                for rank, b, inter in meeting.get((inside & -inside).bit_length() - 1, ()):
                    if not inside & ~inter:
                        out = plane & hb[b] & ~inter
                        if out:
                            found.append((rank, d, a, b, inside, out))
    found.sort()
    for _, d, a, b, inside, out in found:
        yield a, b, d + 1, inside, out


#: The overlaps of one house: for each of its cells, ``(rank, b, a & b)`` of the overlaps that
#: hold the cell (``rank``: the overlap's place in the tables, the order patterns are listed in).
Meeting = dict[int, tuple[tuple[int, int, int], ...]]


@lru_cache(maxsize=2 * TABLES_CACHE_SIZE)
def _overlaps_of(geometry: Geometry, pointing: bool) -> tuple[tuple[int, int, Meeting], ...]:
    """The overlaps of the tables grouped by their first house ``a`` (box-like ones when
    ``pointing``, the others when not): ``(a, cells of a, the overlaps meeting each cell)``."""
    houses = geometry.houses
    t = tables(geometry)
    groups: dict[int, dict[int, list[tuple[int, int, int]]]] = {}
    for rank, (a, b, inter) in enumerate(t.overlaps):
        if (houses[a].kind in _BOXLIKE) == pointing:
            meeting = groups.setdefault(a, {})
            for cell in bits(inter):
                meeting.setdefault(cell, []).append((rank, b, inter))
    return tuple(
        (a, t.house_bits[a], {cell: tuple(found) for cell, found in meeting.items()})
        for a, meeting in groups.items()
    )


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
