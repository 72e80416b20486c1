"""Nishio: a forcing chain that follows one digit alone.

Assume digit d in a cell and follow d only: the cell's peers lose d, and a house left with one
place for d gets it. If some house is left with no place for d, or two of the places d must take
see each other, the assumption was false and d goes from the cell.

Sudoku Explainer rates this kind of forcing chain (its "Nishio") 7.5, below the forcing chains
that follow every digit (8.5), so its scale needs it on its path: a puzzle whose hardest step is
a one-digit contradiction would otherwise be rated as one that needs a full forcing chain.

The deductions are counted in rounds (every single place of the round found, then all taken), so
the count, hence the chain's length, depends only on the grid, never on how cells are numbered.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...notation import digit_char
from ..engine.budget import checkpoint
from ..engine.grid import CandidateGrid, bits
from ..engine.memo import remembered_steps
from ..engine.propagate import c_core, c_tables
from ..engine.step import Step
from .forcing import contradiction_step

#: The technique and form the steps are rated as (a form of the catalog's "Forcing Chain").
FORM = "Nishio Forcing Chain"


def deductions(grid: CandidateGrid, cell: int, d: int) -> int | None:
    """How many places digit ``d`` (0-based) takes, after ``cell``, before following it alone
    from ``cell`` breaks the grid; None when it does not break it."""
    t = grid.t
    hb, peers = t.house_bits, t.peer_bits
    plane = grid.where[d] & ~(peers[cell] | 1 << cell)
    taken = 1 << cell
    # the houses still waiting for d: those without it placed, and not holding ``cell``
    waiting = [h for h, hbits in enumerate(hb) if not grid.placed[h] >> d & 1 and not hbits & taken]
    count = 0
    while True:
        singles = 0
        for h in waiting:
            spots = plane & hb[h]
            if not spots:
                return count  # a house with no place left for d
            if not spots & (spots - 1):
                singles |= spots
        if not singles:
            return None
        rest = singles
        while rest:
            low = rest & -rest
            rest ^= low
            if peers[low.bit_length() - 1] & singles:
                return count  # two places d must take see each other
        count += singles.bit_count()
        taken |= singles
        rest = singles
        while rest:
            low = rest & -rest
            rest ^= low
            plane &= ~peers[low.bit_length() - 1]
        plane &= ~singles
        waiting = [h for h in waiting if not hb[h] & taken]


@remembered_steps
def iter_nishio(grid: CandidateGrid) -> Iterator[Step]:
    """Every shortest one-digit contradiction of the grid, as steps."""
    best, found = _shortest(grid)
    for cell, d in found:
        yield contradiction_step(
            grid, (), FORM, cell, d + 1, best, FORM, how=f" (following {digit_char(d + 1)} alone)"
        )


def _shortest(grid: CandidateGrid) -> tuple[int, list[tuple[int, int]]]:
    """The one-digit contradictions in the fewest deductions: that count and the candidates
    ``(cell, digit index)``, by digit then cell (none: ``(0, [])``).

    In the C core (``nishio``) where the geometry's tables are there; :func:`_shortest_py` is
    its specification and is used otherwise. The outcome is the same either way."""
    capsule = c_tables(grid.geometry)
    if capsule is None:
        return _shortest_py(grid)
    core = c_core()
    assert core is not None
    checkpoint(grid.size)  # the work the Python code counts, one unit a digit
    found = core.nishio(capsule, grid.where, grid.placed)
    return (0, []) if found is None else found


def _shortest_py(grid: CandidateGrid) -> tuple[int, list[tuple[int, int]]]:
    """:func:`_shortest` in Python: the specification of the C core's ``nishio``."""
    best: int | None = None
    found: list[tuple[int, int]] = []
    for d in range(grid.size):
        checkpoint()
        for cell in bits(grid.where[d]):
            got = deductions(grid, cell, d)
            if got is None or (best is not None and got > best):
                continue
            if best is None or got < best:
                best, found = got, []
            found.append((cell, d))
    return (0, []) if best is None else (best, found)


def find_nishio(grid: CandidateGrid) -> Step | None:
    """The first shortest one-digit contradiction, or None."""
    found = iter_nishio(grid)
    return found[0] if found else None
