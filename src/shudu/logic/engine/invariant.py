"""A fingerprint of a candidate grid that every isomorph of the grid shares.

Two grids that differ only by how they are written down (digits relabelled, rows and columns
permuted within bands and stacks, bands and stacks permuted, the grid transposed) get the same
fingerprint; grids that are not isomorphs almost never do. The solving path uses it to choose
among steps that are alike in every other way it compares (:func:`~shudu.logic.solver.chosen`),
so that the choice, and the ratings that follow, never depend on the order cells are numbered in.

The fingerprint is a colour refinement (Weisfeiler–Leman) of the grid seen as a graph of cells,
digits and houses: a cell starts with its number of candidates, a digit with its number of
places, a house with its kind (rows and columns are alike: a transposition swaps them); each
round, every node's colour takes in the colours of its neighbours, and the fingerprint is the
multiset of the final colours. Only integers and tuples of them are hashed, whose hashes are the
same in every process.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .grid import CandidateGrid, bits
from .propagate import c_core, c_tables

#: Rounds of refinement: each lets a colour see one step further across the grid.
ROUNDS = 3


def _kinds(grid: CandidateGrid) -> list[int]:
    """Each house's kind: 0 for a row or column (a transposition swaps them), 1 for a box or
    region, 2 for an extra region."""
    t = grid.t
    kind = [0] * len(t.house_bits)
    for h in t.boxes:
        kind[h] = 1
    for h in t.extras:
        kind[h] = 2
    return kind


def around(grid: CandidateGrid, candidates: Iterable[tuple[int, int]]) -> tuple[object, ...]:
    """A cheap partial fingerprint: for each of ``candidates`` (cell, digit), the cell's number of
    candidates and the digit's number of places in each of the cell's houses, by kind. Equal on
    isomorphs when ``candidates`` are mapped along."""
    kind = _kinds(grid)
    house_bits, cell_houses = grid.t.house_bits, grid.geometry.cell_houses
    out = []
    for cell, digit in candidates:
        plane = grid.where[digit - 1]
        places = sorted((kind[h], (plane & house_bits[h]).bit_count()) for h in cell_houses[cell])
        out.append((grid.cands[cell].bit_count(), tuple(places)))
    return tuple(sorted(out))


def fingerprint(grid: CandidateGrid) -> int:
    """The grid's fingerprint: equal on isomorphs (see the module's docstring)."""
    *_, last = refinements(grid)
    return last


#: Whether the C core's rounds may be used: cleared for good where its check finds that this
#: interpreter hashes tuples otherwise (then ``refine`` raises NotImplementedError).
_use_c = True


def refinements(grid: CandidateGrid) -> Iterator[int]:
    """The fingerprint after each round of refinement (:data:`ROUNDS` of them), each finer than
    the one before: grids can be told apart round by round, and most need only the first.
    Each round runs in the C core when it is built for the grid's geometry (``refine``: the
    same colours, hashed as this interpreter hashes the tuples); :func:`refinements_py` is the
    specification."""
    global _use_c
    core = c_core() if _use_c else None
    tables = c_tables(grid.geometry) if core is not None else None
    if core is not None and tables is not None:
        cell, digit, house = _start(grid)
        state = (grid.cands, grid.where, grid.placed, grid.values, grid.empty)
        try:
            print_, cell, digit, house = core.refine(tables, *state, cell, digit, house)
        except NotImplementedError:
            _use_c = False
        else:
            yield print_
            for _ in range(ROUNDS - 1):
                print_, cell, digit, house = core.refine(tables, *state, cell, digit, house)
                yield print_
            return
    yield from refinements_py(grid)


def _start(grid: CandidateGrid) -> tuple[list[int], list[int], list[int]]:
    """The colours refinement starts from: a cell's number of candidates (-1 given, -2 placed), a
    digit's number of places, a house's kind."""
    cell = [
        mask.bit_count() if grid.empty >> c & 1 else (-1 if grid.givens >> c & 1 else -2)
        for c, mask in enumerate(grid.cands)
    ]
    return cell, [plane.bit_count() for plane in grid.where], _kinds(grid)


def refinements_py(grid: CandidateGrid) -> Iterator[int]:
    """:func:`refinements` in Python, the specification of the C core's rounds."""
    t = grid.t
    n = grid.size
    cands, where = grid.cands, grid.where
    house_bits = t.house_bits
    house_cells = grid.geometry.house_cells
    cell_houses = grid.geometry.cell_houses
    places = [[(where[d] & hbits).bit_count() for d in range(n)] for hbits in house_bits]
    cell, digit, house = _start(grid)
    for _ in range(ROUNDS):
        house = [
            hash(
                (
                    house[h],
                    tuple(sorted(cell[c] for c in house_cells[h])),
                    tuple(sorted(hash((digit[d], count)) for d, count in enumerate(places[h]))),
                )
            )
            for h in range(len(house_bits))
        ]
        digit = [
            hash(
                (
                    digit[d],
                    tuple(sorted(hash((house[h], row[d])) for h, row in enumerate(places) if row[d])),
                    tuple(sorted(cell[c] for c in bits(where[d]))),
                )
            )
            for d in range(n)
        ]
        cell = [
            hash(
                (
                    cell[c],
                    tuple(sorted(digit[d] for d in bits(cands[c]))),
                    tuple(sorted(house[h] for h in cell_houses[c])),
                )
            )
            for c in range(len(cands))
        ]
        yield hash((tuple(sorted(cell)), tuple(sorted(digit)), tuple(sorted(house))))
