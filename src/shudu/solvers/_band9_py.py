"""The propagation of the C core's 9x9 engine, stated plainly in Python.

The 9x9 engine (``core/band9.c``) keeps its candidates per digit and band, 27 bits a word,
and applies its rules in the order that suits those words. This module states the same
rules on one candidate set per cell and applies them until nothing changes:

- **naked single**: a cell with one candidate left holds that digit, and the digit leaves
  the cell's 20 peers (its row, column and box);
- **hidden single**: a digit with one cell left in a row, a column or a box goes there (the
  cell keeps only that digit);
- **band rule**: in a band (three rows), a digit takes one cell in each of the three rows
  and each of the three boxes, so the (row, box) *triads* (the three cells of a row in a
  box) that still hold it must contain a one-to-one matching of the rows to the boxes; the
  digit leaves every triad that lies in no such matching;
- **stack rule**: the band rule turned a quarter: in a stack (three columns), the (column,
  box) triads that hold a digit must contain a one-to-one matching of columns to boxes.

A **contradiction** is a cell without candidates, a house where some digit has no cell, or
a band or stack where some digit's triads hold no matching.

Every rule only removes candidates, and a rule that applies to some candidates still
applies once fewer are left (or the state contradicts itself). So the state the rules end
in does not depend on the order they are applied in: it is the largest set of candidates,
within the givens', that no rule can shrink. That is why this statement, the engine and
the pure-Python twin (:mod:`shudu.solvers._fast_py`, which applies the band and stack rules as a
sweep after singles) reach the same candidates, or all find a contradiction. The tests
compare them through the C module's ``_propagate9``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

__all__ = ["BAND_TRIADS", "PEERS", "STACK_TRIADS", "band_keep", "propagate"]

#: Cells 0..80 in reading order; digits are bits, bit d - 1 for digit d.
ALL_DIGITS = 0x1FF

ROWS = tuple(tuple(9 * r + c for c in range(9)) for r in range(9))
COLUMNS = tuple(tuple(9 * r + c for r in range(9)) for c in range(9))
BOXES = tuple(
    tuple(9 * (3 * br + r) + 3 * bc + c for r in range(3) for c in range(3))
    for br in range(3)
    for bc in range(3)
)
HOUSES = ROWS + COLUMNS + BOXES
PEERS = tuple(tuple(sorted({p for h in HOUSES if c in h for p in h} - {c})) for c in range(81))

#: For each band, its nine triads: triad 3 * r + k is the three cells of row r of the band
#: in box k (box column k of the band).
BAND_TRIADS = tuple(
    tuple(tuple(9 * (3 * band + r) + 3 * k + j for j in range(3)) for r in range(3) for k in range(3))
    for band in range(3)
)

#: For each stack, its nine triads: triad 3 * r + k is the three cells of box row r of the
#: stack in column k of the stack (the same 3x3 matching as a band's, turned a quarter).
STACK_TRIADS = tuple(
    tuple(tuple(9 * (3 * r + j) + 3 * stack + k for j in range(3)) for r in range(3) for k in range(3))
    for stack in range(3)
)


def band_keep(present: int) -> int:
    """Of the triads in ``present`` (bit 3 * r + k), those in some matching of rows to boxes."""
    keep = 0
    for boxes in itertools.permutations(range(3)):
        matching = sum(1 << (3 * r + k) for r, k in enumerate(boxes))
        if present & matching == matching:
            keep |= matching
    return keep


class _Contradiction(Exception):
    pass


def _naked_single(cand: list[int], c: int) -> bool:
    changed = False
    bit = cand[c]
    for p in PEERS[c]:
        if cand[p] & bit:
            cand[p] &= ~bit
            if not cand[p]:
                raise _Contradiction
            changed = True
    return changed


def _hidden_singles(cand: list[int]) -> bool:
    changed = False
    for house in HOUSES:
        for d in range(9):
            bit = 1 << d
            cells = [c for c in house if cand[c] & bit]
            if not cells:
                raise _Contradiction
            if len(cells) == 1 and cand[cells[0]] != bit:
                cand[cells[0]] = bit
                changed = True
    return changed


def _band_rule(cand: list[int]) -> bool:
    changed = False
    for triads in BAND_TRIADS + STACK_TRIADS:
        for d in range(9):
            bit = 1 << d
            present = sum(1 << t for t, cells in enumerate(triads) if any(cand[c] & bit for c in cells))
            keep = band_keep(present)
            if not keep:
                raise _Contradiction
            for t, cells in enumerate(triads):
                if present >> t & 1 and not keep >> t & 1:
                    for c in cells:
                        if cand[c] & bit:
                            cand[c] &= ~bit
                            if not cand[c]:
                                raise _Contradiction
                            changed = True
    return changed


def propagate(givens: Sequence[int] | bytes) -> tuple[int, ...] | None:
    """Each cell's candidates (bit d - 1 for digit d) once the rules are done; None on a
    contradiction. ``givens`` holds 81 digit values in reading order, 0 for empty."""
    if len(givens) != 81 or any(not 0 <= g <= 9 for g in givens):
        raise ValueError("givens must be 81 values 0..9")
    cand = [1 << (g - 1) if g else ALL_DIGITS for g in givens]
    try:
        changed = True
        while changed:
            changed = False
            for c in range(81):
                if cand[c] & (cand[c] - 1) == 0:
                    changed |= _naked_single(cand, c)
            changed = _hidden_singles(cand) or changed
            changed = _band_rule(cand) or changed
    except _Contradiction:
        return None
    return tuple(cand)
