"""The solving path's almost-locked-set finders: the first ALS-XZ, ALS-XY-Wing or Death Blossom.

The techniques are described in :mod:`shudu.logic.techniques.als_listings`, with the listings of
every step. Each finder here looks for the first step in a fixed order (the sets as
:func:`~shudu.logic.techniques.als_listings.almost_locked_sets` lists them, their restricted commons as
:func:`~shudu.logic.techniques.als_listings.restricted_links` finds them). The search runs in the C core
(``als``) where the geometry's tables are there (at most 128 cells, 64 houses, 16 digits); the
``_py`` functions below are its specification and are used otherwise (or with
``SHUDU_IMPLEMENTATION=python``). The step found is the same either way. The C search counts one unit of
the logic budget for each set it lists, each set whose links it searches and each node of a
Death Blossom's search, and stops at the deadline.
"""

from __future__ import annotations

from typing import Any

from ...notation import digit_char
from ..engine.budget import c_limits, c_spent, checkpoint
from ..engine.grid import CandidateGrid, bits, digits_of
from ..engine.memo import remembered
from ..engine.propagate import c_core, c_tables
from ..engine.step import Step, make_step
from .als_listings import (
    MAX_CELLS,
    Als,
    _blossom_step,
    _describe,
    _make,
    _targets,
    almost_locked_sets,
    restricted_links,
)

#: The finders of the C core's ``als``, by number.
XZ, XY_WING, DEATH_BLOSSOM = 0, 1, 2
#: What the C core's ``als`` says of its search: no step, a step, stopped by the limits.
_NONE, _FOUND, _STOPPED = 0, 1, 2

#: An ALS-XZ: sets A and B, their restricted common X, the eliminations.
XzFound = tuple[Als, Als, int, list[tuple[int, int]]]
#: An ALS-XY-Wing: the pivot C, the wings A and B, X (A–C) and Y (B–C), the eliminations.
XyFound = tuple[Als, Als, Als, int, int, list[tuple[int, int]]]
#: A Death Blossom: the stem, a petal per stem digit, Z, the cells that lose it.
BlossomFound = tuple[int, list[Als], int, int]


@remembered
def find_als_xz(grid: CandidateGrid) -> Step | None:
    found = _xz(grid)
    if found is None:
        return None
    a, b, x, elims = found
    return make_step(
        grid,
        "ALS-XZ",
        f"the sets {_describe(grid, a)} and {_describe(grid, b)} cannot both hold "
        f"{digit_char(x + 1)}, so one of them is locked",
        eliminations=elims,
        cells=list(bits(a.cells | b.cells)),
        digits=digits_of(a.digits | b.digits),
        length=2 * (a.cells | b.cells).bit_count(),
    )


@remembered
def find_als_xy_wing(grid: CandidateGrid) -> Step | None:
    found = _xy_wing(grid)
    if found is None:
        return None
    c, a, b, x, y, elims = found
    return make_step(
        grid,
        "ALS-XY-Wing",
        f"{_describe(grid, c)} cannot lose both {digit_char(x + 1)} to "
        f"{_describe(grid, a)} and {digit_char(y + 1)} to {_describe(grid, b)}, "
        "so one of those two is locked",
        eliminations=elims,
        cells=list(bits(a.cells | b.cells | c.cells)),
        digits=digits_of(a.digits | b.digits | c.digits),
        length=2 * (a.cells | b.cells | c.cells).bit_count(),
    )


@remembered
def find_death_blossom(grid: CandidateGrid) -> Step | None:
    found = _death_blossom(grid)
    if found is None:
        return None
    stem, petals, z, targets = found
    return _blossom_step(grid, stem, petals, z, targets)


# --- the searches: in the C core, or in Python ----------------------------------------------------


def _c_search(grid: CandidateGrid, finder: int) -> tuple[list[Als], int, int, int, int, list[Any]] | None:
    """The C core's search of one finder: (sets, x, y, stem, z, eliminations) of its step, or
    None (no step). LogicTimeout past the limits."""
    capsule = c_tables(grid.geometry)
    core = c_core()
    assert capsule is not None and core is not None
    code, units, step = core.als(capsule, grid.cands, grid.where, grid.empty, MAX_CELLS, finder, *c_limits())
    c_spent(units, stopped=code == _STOPPED)
    if code == _NONE:
        return None
    raw, x, y, stem, z, elims = step
    cands = tuple(grid.cands)
    sets = [_make(cells, digits, house, grid.size, cands, grid.t.peer_bits) for cells, digits, house in raw]
    return sets, x, y, stem, z, elims


def _xz(grid: CandidateGrid) -> XzFound | None:
    if c_tables(grid.geometry) is None:
        return _xz_py(grid)
    found = _c_search(grid, XZ)
    if found is None:
        return None
    (a, b), x, _, _, _, elims = found
    return a, b, x, elims


def _xy_wing(grid: CandidateGrid) -> XyFound | None:
    if c_tables(grid.geometry) is None:
        return _xy_wing_py(grid)
    found = _c_search(grid, XY_WING)
    if found is None:
        return None
    (c, a, b), x, y, _, _, elims = found
    return c, a, b, x, y, elims


def _death_blossom(grid: CandidateGrid) -> BlossomFound | None:
    if c_tables(grid.geometry) is None:
        return _death_blossom_py(grid)
    found = _c_search(grid, DEATH_BLOSSOM)
    if found is None:
        return None
    petals, _, _, stem, z, elims = found
    return stem, petals, z, sum(1 << cell for cell, _ in elims)


def _xz_py(grid: CandidateGrid) -> XzFound | None:
    """:func:`_xz` in Python: the first pair of linked sets (by the first set, then its links in
    the order found) whose other common digits rule something out."""
    sets, links = restricted_links(grid)
    for i, a in enumerate(sets):
        checkpoint()
        for j, rcc in links[i].items():
            if j < i:
                continue
            b = sets[j]
            x = (rcc & -rcc).bit_length() - 1
            elims = []
            for z in bits(a.digits & b.digits & ~(1 << x)):
                elims += [(c, z + 1) for c in bits(_targets(grid, [a, b], z))]
            if elims:
                return a, b, x, elims
    return None


def _xy_wing_py(grid: CandidateGrid) -> XyFound | None:
    """:func:`_xy_wing` in Python: the first pivot (in set order) with two disjoint wings (in
    index order) linked to it by different digits that rule something out."""
    sets, links = restricted_links(grid)
    for k, c in enumerate(sets):
        checkpoint()
        partners = sorted(links[k].items())
        for p, (i, rcc_a) in enumerate(partners):
            checkpoint()
            a = sets[i]
            for j, rcc_b in partners[p + 1 :]:
                b = sets[j]
                if a.cells & b.cells:
                    continue
                for x in bits(rcc_a):
                    for y in bits(rcc_b & ~(1 << x)):
                        zs = a.digits & b.digits & ~(1 << x) & ~(1 << y)
                        elims = []
                        for z in bits(zs):
                            elims += [(cell, z + 1) for cell in bits(_targets(grid, [a, b], z))]
                        if elims:
                            return c, a, b, x, y, elims
    return None


def _death_blossom_py(grid: CandidateGrid) -> BlossomFound | None:
    """:func:`_death_blossom` in Python: the first stem (by cell) with two or three digits and,
    for the first digit Z it lacks, disjoint petals (in set order) that leave cells seeing every
    Z of them."""
    sets = almost_locked_sets(grid)
    peer_bits = grid.t.peer_bits
    for stem in bits(grid.empty):
        stem_digits = grid.cands[stem]
        if not 2 <= stem_digits.bit_count() <= 3:
            continue
        petals = []
        for d in bits(stem_digits):
            petals.append(
                [
                    s
                    for s in sets
                    if not s.cells >> stem & 1 and s.holding[d] and not s.holding[d] & ~peer_bits[stem]
                ]
            )
        if not all(petals):
            continue
        checkpoint()
        for z in range(grid.size):
            if stem_digits >> z & 1:
                continue
            options = [[s for s in ps if s.digits >> z & 1] for ps in petals]
            if not all(options):
                continue
            found = _blossom(options, z, [], 0, grid.where[z] & ~(1 << stem))
            if found:
                chosen, targets = found
                return stem, chosen, z, targets
    return None


def _blossom(
    options: list[list[Als]], z: int, chosen: list[Als], used: int, targets: int
) -> tuple[list[Als], int] | None:
    """One petal per stem digit, disjoint, leaving some cell that sees every ``z`` of them."""
    if len(chosen) == len(options):
        return (list(chosen), targets) if targets else None
    checkpoint()
    for s in options[len(chosen)]:
        if s.cells & used:
            continue
        narrowed = targets & s.seeing[z]
        if not narrowed:
            continue
        chosen.append(s)
        got = _blossom(options, z, chosen, used | s.cells, narrowed)
        chosen.pop()
        if got:
            return got
    return None
