"""Drawings of the clues outside the grid: little killers (a total and a small diagonal arrow),
sandwiches, X-sums (in angle brackets) and skyscrapers, each at the start of what it reads.

An outside clue lists its cells as seen from the clue, so the clue stands one step before its
first cell, against the direction of the second; the canvas's margins grow to hold it.
"""

from __future__ import annotations

import itertools

from ..rules import Rule
from .canvas import CLUE, DIGIT_WIDTH, Canvas, arrowhead, unit
from .shapes import Path, Point, Text

CLUE_SIZE = 0.42  # a sandwich's, X-sum's or skyscraper's number
LITTLE_SIZE = 0.34  # a little killer's total


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def _step(rule: Rule, canvas: Canvas) -> tuple[int, int]:
    """(d_col, d_row): the direction the clue reads in, from its first cell to the next."""
    rows, cols = canvas.rows, canvas.cols
    r, c = canvas.row_col(rule.cells[0])
    if len(rule.cells) > 1:
        r1, c1 = canvas.row_col(rule.cells[1])
        return (_sign(c1 - c), _sign(r1 - r))
    # one cell: in from the nearest edge (a little killer: diagonally, from the nearest corner)
    if rule.kind == "little-killer":
        return (1 if c <= cols - 1 - c else -1, 1 if r <= rows - 1 - r else -1)
    edges = ((c, (1, 0)), (cols - 1 - c, (-1, 0)), (r, (0, 1)), (rows - 1 - r, (0, -1)))
    return min(edges, key=lambda e: e[0])[1]


def clue_spot(rule: Rule, canvas: Canvas) -> tuple[Point, tuple[int, int]]:
    """Where the clue stands (the centre of the cell before the first one) and its direction."""
    dx, dy = _step(rule, canvas)
    x, y = canvas.centre(rule.cells[0])
    return (x - dx, y - dy), (dx, dy)


def full_line(rule: Rule, canvas: Canvas) -> bool:
    """Whether the rule reads a whole row or column, in order (so that its clue goes outside)."""
    cells = rule.cells
    if len(cells) < 2:
        return False
    step = cells[1] - cells[0]
    straight = all(b - a == step for a, b in itertools.pairwise(cells))
    rows = {canvas.row_col(c)[0] for c in cells}
    column = abs(step) == canvas.cols and len(cells) == canvas.rows
    row = abs(step) == 1 and len(rows) == 1 and len(cells) == canvas.cols
    return straight and (column or row)


def draw_outside(rule: Rule, canvas: Canvas) -> None:
    """The clue's number outside the grid at the start of its row or column; an X-sum's in angle
    brackets."""
    (x, y), _ = clue_spot(rule, canvas)
    text = str(rule.params[0]) if rule.params else "?"
    kind = f"rule-{rule.kind}"
    canvas.over.append(Text(x, y, CLUE_SIZE, text, CLUE, kind))
    if rule.kind == "x-sum":
        half = len(text) * DIGIT_WIDTH * CLUE_SIZE / 2 + 0.07
        h, w = 0.15, 0.08
        for s in (-1, 1):
            bx = x + s * half
            # ⟨ on the left, ⟩ on the right: the point faces away from the number
            points = ((bx, y - h), (bx + s * w, y), (bx, y + h))
            canvas.over.append(Path(points, 0.025, CLUE, "rule-x-sum-bracket"))
    canvas.outside(x, y)


def draw_little_killer(rule: Rule, canvas: Canvas) -> None:
    """The total outside the grid, diagonally before the first cell, and a small arrow to it."""
    (x, y), (dx, dy) = clue_spot(rule, canvas)
    ux, uy = unit((0.0, 0.0), (float(dx), float(dy)))
    canvas.over.append(
        Text(x - 0.1 * dx, y - 0.1 * dy, LITTLE_SIZE, str(rule.params[0]), CLUE, "rule-little-killer")
    )
    start = (x + 0.2 * dx, y + 0.2 * dy)
    tip = (x + 0.42 * dx, y + 0.42 * dy)
    canvas.over.append(Path((start, tip), 0.025, CLUE, "rule-little-killer-arrow"))
    canvas.over.append(Path(arrowhead(tip, (ux, uy), 0.09, 0.6), 0.025, CLUE, "rule-little-killer-arrow"))
    canvas.outside(x, y)
