"""Drawings of the rules along lines of cells: thermometers, arrows, and the coloured lines
(whispers, renban, palindromes, between lines and the rest), in SudokuPad's visual language."""

from __future__ import annotations

from ..rules import Rule
from .canvas import ARROW, LINE_STYLES, THERMO, WHITE, Canvas, arrowhead, unit
from .outside import draw_outside, full_line
from .shapes import Circle, Path

CIRCLE_R = 0.4  # an arrow's or a between line's circle


def draw_thermo(rule: Rule, canvas: Canvas) -> None:
    """A thick grey line through the cells' centres, a bulb on the first cell."""
    points = canvas.path(rule.cells)
    x, y = points[0]
    canvas.under.append(Path(points, 0.3, THERMO, "rule-thermo"))
    canvas.under.append(Circle(x, y, CIRCLE_R, THERMO, "rule-thermo-bulb", fill=THERMO, width=0))


def draw_slow_thermo(rule: Rule, canvas: Canvas) -> None:
    """A thermometer, hollow: a thin white line runs along the middle of its tube and bulb."""
    draw_thermo(rule, canvas)
    points = canvas.path(rule.cells)
    x, y = points[0]
    canvas.under.append(Circle(x, y, 0.2, WHITE, "rule-slow-thermo", width=0.05))
    start = (x + unit(points[0], points[1])[0] * 0.2, y + unit(points[0], points[1])[1] * 0.2)
    canvas.under.append(Path((start, *points[1:]), 0.05, WHITE, "rule-slow-thermo"))


def _arrow_line(points: tuple[tuple[float, float], ...], canvas: Canvas, kind: str) -> None:
    """A thin grey line along ``points``, an open arrowhead at its end."""
    canvas.over.append(Path(points, 0.045, ARROW, kind))
    direction = unit(points[-2], points[-1])
    tip = (points[-1][0] + direction[0] * 0.1, points[-1][1] + direction[1] * 0.1)
    canvas.over.append(Path(arrowhead(tip, direction), 0.045, ARROW, kind + "-head"))


def draw_arrow(rule: Rule, canvas: Canvas) -> None:
    """A circle (a pill over 2 or 3 cells) and a line from it through the other cells, to an arrowhead."""
    k = rule.params[0] if rule.params else 1
    circle, line = rule.cells[:k], rule.cells[k:]
    first = canvas.centre(line[0])
    # the line leaves the circle from its cell nearest to the line's first cell
    start = min(circle, key=lambda c: sum((a - b) ** 2 for a, b in zip(canvas.centre(c), first, strict=True)))
    _arrow_line(canvas.path((start, *line)), canvas, "rule-arrow")
    if k == 1:
        x, y = canvas.centre(circle[0])
        canvas.ring(x, y, CIRCLE_R, "rule-arrow-circle")
    else:
        canvas.pill((canvas.centre(circle[0]), canvas.centre(circle[-1])), "rule-arrow-pill", CIRCLE_R)


def draw_double_arrow(rule: Rule, canvas: Canvas) -> None:
    """A thin grey line between two circles, one at each end."""
    canvas.over.append(Path(canvas.path(rule.cells), 0.045, ARROW, "rule-double-arrow"))
    for cell in (rule.cells[0], rule.cells[-1]):
        x, y = canvas.centre(cell)
        canvas.ring(x, y, CIRCLE_R, "rule-double-arrow-circle")


def draw_line(rule: Rule, canvas: Canvas) -> None:
    """A thick, see-through line in the rule's colour, round at its ends and bends."""
    colour, width, opacity = LINE_STYLES[rule.kind]
    loop = rule.kind == "sum-line" and rule.params[1:2] == (1,)
    points = canvas.path(rule.cells)
    kind = f"rule-{rule.kind}"
    if len(points) == 1:  # a line of one cell: a dot of the line's colour
        x, y = points[0]
        canvas.under.append(Circle(x, y, width / 2, colour, kind, fill=colour, width=0))
        return
    canvas.under.append(Path(points, width, colour, kind, closed=loop, opacity=opacity))


def draw_between(rule: Rule, canvas: Canvas) -> None:
    """A grey line between two circles, one at each end."""
    colour, width, _ = LINE_STYLES["between"]
    canvas.under.append(Path(canvas.path(rule.cells), width, colour, "rule-between"))
    for cell in (rule.cells[0], rule.cells[-1]):
        x, y = canvas.centre(cell)
        canvas.ring(x, y, CIRCLE_R, "rule-between-circle", colour, 0.05)


def draw_whisper(rule: Rule, canvas: Canvas) -> None:
    """A green line. A gap other than 5 (Dutch whispers: 4) is noted when every whisper has it;
    when the gaps differ, each is written small at the first cell of its lines (once for lines
    that meet)."""
    draw_line(rule, canvas)
    gap = _gap(rule)
    whispers = [r for r in canvas.rules if r.kind == "whisper"]
    if all(_gap(r) == gap for r in whispers):
        if gap != 5:
            canvas.note(f"whisper lines: neighbours differ by {gap} or more")
        return
    cells = set(rule.cells)
    for earlier in whispers[: whispers.index(rule)]:
        if _gap(earlier) == gap and cells & set(earlier.cells):
            return
    canvas.small_text(rule.cells[0], str(gap), "#1e6e1e", "rule-whisper-gap")
    canvas.note("whisper lines: neighbours differ by at least the small green number")


def _gap(rule: Rule) -> int:
    return rule.params[0] if rule.params else 5


def draw_modular(rule: Rule, canvas: Canvas) -> None:
    """A teal line; its modulus is noted unless it is 3."""
    draw_line(rule, canvas)
    mod = rule.params[0] if rule.params else 3
    if mod != 3:
        canvas.note(f"modular lines: any {mod} cells in a row differ modulo {mod}")


def draw_sum_line(rule: Rule, canvas: Canvas) -> None:
    """A golden line; its total is noted."""
    draw_line(rule, canvas)
    canvas.note(f"sum lines: split into stretches adding up to {rule.params[0]}")


def draw_lunchbox(rule: Rule, canvas: Canvas) -> None:
    """A blue-grey line with its total small at its first cell (a whole row or column: outside)."""
    if full_line(rule, canvas):
        draw_outside(rule, canvas)
        return
    draw_line(rule, canvas)
    canvas.small_text(rule.cells[0], str(rule.params[0]), "#2d4a66", "rule-lunchbox-total")
