"""Sudoku Explainer's direct forms: a pointing, claiming or hidden subset that at once leaves a
hidden single, shown as one step that places that single.

Sudoku Explainer rates these lower than the intersection or subset alone (docs/rating.md); only its
path (:func:`~shudu.logic.rating.se_order`) takes them. Each listing gives its steps in the order
the pattern's own listing finds them, and leaves the grid as it is.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..engine.grid import CandidateGrid, bits
from ..engine.step import Step, make_step
from . import intersections, singles, subsets

__all__ = [
    "iter_direct_claiming",
    "iter_direct_hidden_pair",
    "iter_direct_hidden_triple",
    "iter_direct_pointing",
]


def _direct_steps(grid: CandidateGrid, step: Step, name: str, *, subset: bool) -> Iterator[Step]:
    """Sudoku Explainer's "direct" form of ``step`` (an intersection when not ``subset``, else a
    hidden subset): one step per hidden single it makes, placing that single."""
    trial = grid.copy()
    trial.apply(step)
    for single in _singles_from(trial, step, subset=subset):
        yield make_step(
            grid,
            name,
            f"{step.reason}; then {single.reason}",
            placements=single.placements,
            eliminations=step.eliminations,
            cells=step.cells,
            digits=step.digits,
            houses=step.houses,
        )


def iter_direct_pointing(grid: CandidateGrid) -> Iterator[Step]:
    """Every direct pointing: a pointing that at once leaves a hidden single (in a box)."""
    return _direct_locked(grid, "Direct pointing", pointing=True)


def iter_direct_claiming(grid: CandidateGrid) -> Iterator[Step]:
    """Every direct claiming: a claiming that at once leaves a hidden single (in a line)."""
    return _direct_locked(grid, "Direct claiming", pointing=False)


def iter_direct_hidden_pair(grid: CandidateGrid) -> Iterator[Step]:
    """Every direct hidden pair: a hidden pair that at once leaves a hidden single."""
    return _direct_hidden(grid, 2, "Direct hidden pair")


def iter_direct_hidden_triple(grid: CandidateGrid) -> Iterator[Step]:
    """Every direct hidden triple: a hidden triple that at once leaves a hidden single."""
    return _direct_hidden(grid, 3, "Direct hidden triple")


def _direct_locked(grid: CandidateGrid, name: str, *, pointing: bool) -> Iterator[Step]:
    """The direct form of locked candidates: :func:`_direct_steps` of each pattern.

    As in Sudoku Explainer, the single must appear in a house of the same kind as the one the
    digit is locked in (another box for pointing, another row or column for claiming from a row
    or column) that the eliminations cross. A pattern that leaves no such single is passed over
    before its step is built."""
    hb = grid.t.house_bits
    houses_of = grid.geometry.houses
    cell_houses = grid.geometry.cell_houses
    for found in intersections.locked(grid, pointing=pointing):
        a, digit, out = found[0], found[2], found[4]
        kind = houses_of[a].kind
        plane = grid.where[digit - 1] & ~out
        houses = sorted({h for c in bits(out) for h in cell_houses[c] if houses_of[h].kind == kind})
        if any((spots := plane & hb[h]) and not spots & (spots - 1) for h in houses):
            step = intersections.locked_step(grid, found, pointing=pointing)
            yield from _direct_steps(grid, step, name, subset=False)


def _direct_hidden(grid: CandidateGrid, k: int, name: str) -> Iterator[Step]:
    """The direct form of hidden subsets of ``k`` digits: :func:`_direct_steps` of each subset.
    A subset after whose eliminations no house
    where it is hidden has a digit with one place is passed over before its step is built."""
    hb = grid.t.house_bits
    cell_houses = grid.geometry.cell_houses
    for found in subsets.hidden(grid, k):
        digits, cells, elims = found[1], found[2], found[3]
        planes = grid.where[:]
        for c, d in elims:
            planes[d - 1] &= ~(1 << c)
        if any(
            (spots := plane & hbits) and not spots & (spots - 1)
            for hbits in _holding(hb, cell_houses, cells)
            if all(not planes[d - 1] & hbits & ~cells for d in digits)
            for plane in planes
        ):
            step = subsets.hidden_step(grid, found)
            yield from _direct_steps(grid, step, name, subset=True)


def _holding(house_bits: Sequence[int], cell_houses: Sequence[Sequence[int]], cells: int) -> Iterator[int]:
    """The cell sets of the houses that hold every cell of ``cells`` (a non-empty set): the houses
    of its first cell that hold the rest."""
    first = (cells & -cells).bit_length() - 1
    for h in cell_houses[first]:
        if house_bits[h] & cells == cells:
            yield house_bits[h]


def _singles_from(grid: CandidateGrid, step: Step, *, subset: bool) -> Iterator[Step]:
    """The hidden singles that ``step`` made: of another digit in a house where it is a hidden
    subset (``subset``), or of its digit in a house of the kind it is locked in (an intersection
    names that house first) that its eliminations cross."""
    houses_of = grid.geometry.houses
    if subset:
        # every house where the subset is hidden (its digits have no place there outside its
        # cells): a subset listed once may be hidden in a row and in a box at the same time
        cells = sum(1 << c for c in step.cells)
        hb = grid.t.house_bits
        houses = sorted(
            h
            for h in grid.geometry.cell_houses[step.cells[0]]
            if hb[h] & cells == cells and all(not grid.where[d - 1] & hb[h] & ~cells for d in step.digits)
        )
    else:
        kind = next(house.kind for house in houses_of if house.name == step.houses[0])
        cell_houses = grid.geometry.cell_houses
        houses = sorted(
            {h for c, _ in step.eliminations for h in cell_houses[c] if houses_of[h].kind == kind}
        )
    for h in houses:
        for single in singles.hidden_singles_in(grid, h):
            if subset or single.digits == step.digits:
                yield single
