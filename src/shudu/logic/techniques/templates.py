"""Templates: every way one digit can still fill the grid.

A *template* of a digit is a set of cells, one in every row (and so one in every column, box and
region), where the digit is placed or still a candidate, none two of them peers. The digit's final
places are one of its templates. A cell in every template holds the digit (Template Set); a
candidate in no template does not (Template Delete).

Templates of different digits never share a cell, so before that a digit's templates are narrowed:
a template that takes a cell every template of another digit needs goes, until none goes.

The count of templates grows fast with the grid and the open cells, so the search is bounded: past
:data:`MAX_TEMPLATES` templates of one digit it finds nothing, and it calls the logic budget's
checkpoint as it goes.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...notation import digit_char
from ..engine.budget import checkpoint
from ..engine.grid import CandidateGrid, CellSet, bits
from ..engine.step import Step, make_step

#: Past this many templates of one digit the search gives up (it would take too long).
MAX_TEMPLATES = 20000


def templates(grid: CandidateGrid, d: int, limit: int = MAX_TEMPLATES) -> list[CellSet] | None:
    """Every template of digit index ``d`` as a cell set; None past ``limit`` of them."""
    t = grid.t
    hb, peer_bits = t.house_bits, t.peer_bits
    digit = d + 1
    rows = []
    for r in t.rows:
        placed = [c for c in grid.geometry.house_cells[r] if grid.values[c] == digit]
        rows.append(1 << placed[0] if placed else grid.where[d] & hb[r])
    if not all(rows):
        return []
    out: list[CellSet] = []

    extras = [hb[h] for h in t.extras]

    def fill(i: int, chosen: CellSet, blocked: CellSet) -> bool:
        if i == len(rows):
            if all(chosen & extra for extra in extras):
                out.append(chosen)
            if len(out) % 256 == 0:
                checkpoint(256)
            return len(out) <= limit
        for cell in bits(rows[i] & ~blocked):
            if not fill(i + 1, chosen | 1 << cell, blocked | peer_bits[cell]):
                return False
        return True

    if not fill(0, 0, 0):
        return None
    return out


def _narrowed(grid: CandidateGrid) -> list[list[CellSet]] | None:
    """Each digit's templates, less those that take a cell every template of another digit needs,
    until none goes (the digit's true template always stays: it shares no cell with another's)."""
    every = []
    for d in range(grid.size):
        found = templates(grid, d)
        if found is None:
            return None
        every.append(found)
    while True:
        forced = []
        for found in every:
            common = grid.empty if found else 0
            for template in found:
                common &= template
            forced.append(common)
        changed = False
        for d, found in enumerate(every):
            taken = 0
            for e, cells in enumerate(forced):
                if e != d:
                    taken |= cells
            keep = [template for template in found if not template & taken]
            if len(keep) != len(found):
                every[d] = keep
                changed = True
        checkpoint()
        if not changed:
            break
    return every


def iter_template_set(grid: CandidateGrid) -> Iterator[Step]:
    """Every Template Set step: a digit whose templates all hold some open cell."""
    every = _narrowed(grid)
    if every is None:
        return
    for d, found in enumerate(every):
        if not found:
            continue
        common = grid.empty
        for template in found:
            common &= template
        common &= grid.where[d]
        if common:
            digit = d + 1
            yield make_step(
                grid,
                "Template Set",
                f"every way {digit_char(digit)} can still fill the grid ({len(found)} of them) uses "
                f"{grid.names(common)}",
                placements=[(c, digit) for c in bits(common)],
                cells=list(bits(common)),
                digits=[digit],
            )


def iter_template_delete(grid: CandidateGrid) -> Iterator[Step]:
    """Every Template Delete step: a digit with candidates no template uses."""
    every = _narrowed(grid)
    if every is None:
        return
    for d, found in enumerate(every):
        if not found:
            continue
        used = 0
        for template in found:
            used |= template
        unused = grid.where[d] & ~used
        if unused:
            digit = d + 1
            yield make_step(
                grid,
                "Template Delete",
                f"no way {digit_char(digit)} can still fill the grid ({len(found)} of them) uses "
                f"{grid.names(unused)}",
                eliminations=[(c, digit) for c in bits(unused)],
                cells=list(bits(unused)),
                digits=[digit],
            )


def find_template_set(grid: CandidateGrid) -> Step | None:
    return next(iter_template_set(grid), None)


def find_template_delete(grid: CandidateGrid) -> Step | None:
    return next(iter_template_delete(grid), None)


__all__ = [
    "find_template_delete",
    "find_template_set",
    "iter_template_delete",
    "iter_template_set",
    "templates",
]
