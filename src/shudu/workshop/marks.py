"""Basic candidates: the pencil marks a player's "show candidates" fills in.

A cell's basic candidates are the digits left once two things are taken away, each from the
placed digits alone: what its peers hold (rows, columns, boxes, extra regions, anti-knight and
anti-king links, and the cells a rule keeps apart: two cells of a killer cage, of a strict
thermometer …), and what each constraint rule on its own forbids. A rule is judged against the
candidates its cells have from their peers, as the logic engine's rule contradiction judges it
(:func:`~shudu.logic.techniques.rule_fit.rule_fit`: every way of filling the rule's open cells,
checked by the rule's definition; a rule with too many ways to try gets the constraint engine's
propagator of its kinds instead). Every rule is judged against the same marks, once: nothing
one rule removes is passed on to another, and no search runs, so the marks show what the rules
say directly and no deeper deduction.

The marks are sound: a digit that some way of finishing the board puts in a cell is kept there
(every removal follows from one rule or one peer and the placed digits). A rule the placed
digits already break removes nothing; the board's conflict is the player's to see.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import ShuduError
from ..formats import PuzzleLike, as_puzzle
from ..geometry import BoxLike
from ..logic.engine.grid import CandidateGrid, bits
from ..logic.techniques.rule_fit import rule_fit
from ..logic.techniques.rule_steps import propagated
from ..variants import VariantLike

__all__ = ["basic_candidates"]


def basic_candidates(
    puzzle: PuzzleLike,
    entries: Sequence[int] | None = None,
    *,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> tuple[tuple[int, ...], ...]:
    """Per cell in reading order, its basic candidates (a placed cell: its digit).

    ``entries`` are the player's digits (n·n of them, 0 for an empty cell; a given's cell is
    read as its given). Entries that repeat a digit are taken as they are: the marks are those
    of the board as it stands. A puzzle's text, ``box`` and ``variant`` are read as by
    :func:`shudu.solve`; entries of the wrong length or range raise
    :class:`~shudu.errors.ShuduError`.
    """
    board = as_puzzle(puzzle, box=box, variant=variant)
    geometry, n = board.geometry, board.size
    values = list(board.cells)
    if entries is not None:
        entries = list(entries)
        if len(entries) != n * n:
            raise ShuduError(f"entries has {len(entries)} cells; a {n}x{n} puzzle needs {n * n}")
        for cell, digit in enumerate(entries):
            if isinstance(digit, bool) or not isinstance(digit, int) or not 0 <= digit <= n:
                raise ShuduError(f"entries: {geometry.cell_name(cell)} holds {digit!r}; use 0 (empty) to {n}")
            if not values[cell]:
                values[cell] = digit
    grid = CandidateGrid.from_values(geometry, values)
    keep = list(grid.cands)
    rules = grid.t.rules
    for index, item in enumerate(rules.items if rules is not None else ()):
        fit = rule_fit(grid, index, item)
        if fit is not None:
            cells, used = fit
            if any(used):  # none used: the placed digits break the rule already
                for cell, mask in zip(cells, used, strict=True):
                    keep[cell] &= mask
            continue
        for cell, digit in propagated(grid, index) or ():
            keep[cell] &= ~(1 << (digit - 1))
    return tuple(
        (value,) if value else tuple(d + 1 for d in bits(mask))
        for value, mask in zip(values, keep, strict=True)
    )
