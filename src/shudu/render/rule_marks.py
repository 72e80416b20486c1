"""Drawings of the rules that mark cells and edges: killer cages and sums, odd and even cells,
restricted cells, quadruples, kropki dots, X and V, greater-than signs, all-different groups."""

from __future__ import annotations

from collections.abc import Iterable

from ..notation import VALUE_CHARS, cell_name
from ..rules import Rule
from .canvas import CAGE, DOT, SHADE, SMALL, SUM_CAGE, WHITE, Canvas, edge_pairs, unit
from .shapes import Circle, Path, Point, Rect, Text

INSET = 0.09  # how far a cage's outline runs inside its cells
# A point of a cage's outline, exactly: (2x, k) per axis for x = 2x / 2 + k * INSET.
_Key = tuple[int, int, int, int]


def _point(key: _Key) -> Point:
    hx, kx, hy, ky = key
    return (hx / 2 + kx * INSET, hy / 2 + ky * INSET)


def _edges(cells: set[int], n: int) -> dict[_Key, _Key]:
    """The outline's segments, clockwise, inset into the cells (of a grid ``n`` wide): start → end."""

    def inside(r: int, c: int) -> bool:
        return r >= 0 and 0 <= c < n and r * n + c in cells

    segments: dict[_Key, _Key] = {}
    # (outward normal, clockwise tangent) as (d_row, d_col), for the top, right, bottom, left sides
    for (orow, ocol), (trow, tcol) in (
        ((-1, 0), (0, 1)),
        ((0, 1), (1, 0)),
        ((1, 0), (0, -1)),
        ((0, -1), (-1, 0)),
    ):
        for cell in cells:
            r, c = divmod(cell, n)
            if inside(r + orow, c + ocol):
                continue
            ends = []
            for s in (-1, 1):  # the start (behind the tangent) and the end (ahead of it)
                # the corner of the cell on this side, in half cells, then the inset in INSET units
                hx, hy = 2 * c + 1 + s * tcol + ocol, 2 * r + 1 + s * trow + orow
                kx, ky = -ocol, -orow
                if not inside(r + s * trow, c + s * tcol):
                    kx, ky = kx - s * tcol, ky - s * trow
                elif inside(r + s * trow + orow, c + s * tcol + ocol):
                    kx, ky = kx + s * tcol, ky + s * trow
                ends.append((hx, kx, hy, ky))
            segments[ends[0]] = ends[1]
    return segments


def cage_outlines(cells: Iterable[int], n: int) -> list[tuple[Point, ...]]:
    """The closed outlines (one per piece, and one per hole) of a cage, inset into its cells (of
    a grid ``n`` wide)."""
    segments = _edges(set(cells), n)
    loops = []
    while segments:
        start, end = next(iter(segments.items()))
        del segments[start]
        keys = [start]
        while end != start and end in segments:
            keys.append(end)
            end = segments.pop(end)
        points = [_point(k) for k in keys]
        # drop the points in the middle of a straight run
        loops.append(
            tuple(
                p
                for i, p in enumerate(points)
                if not _collinear(points[i - 1], p, points[(i + 1) % len(points)])
            )
        )
    return loops


def _collinear(a: Point, b: Point, c: Point) -> bool:
    return abs((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])) < 1e-9


def _outline(
    cells: Iterable[int],
    canvas: Canvas,
    colour: str,
    kind: str,
    dash: tuple[float, float],
    width: float = 0.025,
) -> None:
    for loop in cage_outlines(cells, canvas.cols):
        canvas.over.append(Path(loop, width, colour, kind, closed=True, dash=dash))


def draw_cage(rule: Rule, canvas: Canvas) -> None:
    """A dashed outline inside the cage's cells, the total small in its top-left cell."""
    _outline(rule.cells, canvas, CAGE, "rule-cage", (0.08, 0.06))
    if rule.params and rule.params[0]:
        canvas.small_text(min(rule.cells), str(rule.params[0]), CAGE, "rule-cage-total")


def _caged(canvas: Canvas, cells: Iterable[int], kinds: tuple[str, ...]) -> bool:
    group = frozenset(cells)
    return any(r.kind in kinds and frozenset(r.cells) == group for r in canvas.rules)


def draw_sum(rule: Rule, canvas: Canvas) -> None:
    """Like a cage, dotted and blue; a sum over an all-different group (an ISS cage that counts a
    cell twice) is drawn as the cage it is."""
    if _caged(canvas, rule.cells, ("all-different",)):
        _outline(rule.cells, canvas, CAGE, "rule-sum", (0.08, 0.06))
        colour = CAGE
    else:
        _outline(rule.cells, canvas, SUM_CAGE, "rule-sum", (0.001, 0.07), 0.035)
        colour = SUM_CAGE
    total = str(rule.params[0])
    if rule.params[1:] and any(c != 1 for c in rule.params[1:]):
        canvas.note("weighted sums: each cell counts times its weight")
    canvas.small_text(min(rule.cells), total, colour, "rule-sum-total")


def draw_all_different(rule: Rule, canvas: Canvas) -> None:
    """A note (the cells of an ISS cage with a repeated cell are drawn by their sum)."""
    if _caged(canvas, rule.cells, ("sum", "cage")):
        return
    names = " ".join(cell_name(c, canvas.cols) for c in rule.cells)
    if len(rule.cells) <= 5:
        canvas.note(f"no digit repeats in {names}")
    else:
        count = sum(1 for r in canvas.rules if r.kind == "all-different")
        canvas.note(f"no digit repeats in each of the {count} all-different groups")


def draw_odd(rule: Rule, canvas: Canvas) -> None:
    """A grey circle in each cell."""
    for cell in rule.cells:
        x, y = canvas.centre(cell)
        canvas.under.append(Circle(x, y, 0.36, SHADE, "rule-odd", fill=SHADE, width=0))


def draw_even(rule: Rule, canvas: Canvas) -> None:
    """A grey square in each cell."""
    for cell in rule.cells:
        r, c = canvas.row_col(cell)
        canvas.under.append(Rect(c + 0.15, r + 0.15, 0.7, 0.7, SHADE, "rule-even"))


def draw_candidates(rule: Rule, canvas: Canvas) -> None:
    """The digits a cell may hold, small in its bottom-right corner."""
    text = "".join(VALUE_CHARS[d] for d in rule.params)
    for cell in rule.cells:
        canvas.small_text(cell, text, SMALL, "rule-candidates", corner="bottom-right")


def draw_quad(rule: Rule, canvas: Canvas) -> None:
    """A white circle on the corner the four cells share, its digits small inside (two a row)."""
    rows = [canvas.row_col(c)[0] for c in rule.cells]
    cols = [canvas.row_col(c)[1] for c in rule.cells]
    x, y = min(cols) + 1.0, min(rows) + 1.0
    canvas.over.append(Circle(x, y, 0.31, DOT, "rule-quad", fill=WHITE, width=0.025))
    digits = [VALUE_CHARS[d] for d in rule.params]
    lines = [digits] if len(digits) <= 2 else [digits[:2], digits[2:4]]
    size = 0.22 if len(lines) == 1 else 0.2
    for i, line in enumerate(lines):
        ty = y + (i - (len(lines) - 1) / 2) * size * 1.1
        canvas.over.append(Text(x, ty, size, " ".join(line), DOT, "rule-quad-digits"))


def _edge_marks(rule: Rule, canvas: Canvas) -> list[tuple[Point, Point]]:
    """(the middle of the edge, the unit vector from the earlier cell to the later) of each pair."""
    out = []
    for a, b in edge_pairs(rule.cells, canvas.cols):
        pa, pb = canvas.centre(a), canvas.centre(b)
        out.append((((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2), unit(pa, pb)))
    return out


def draw_white_dot(rule: Rule, canvas: Canvas) -> None:
    """A white dot with a black ring on the edge between each two neighbours."""
    for (x, y), _ in _edge_marks(rule, canvas):
        canvas.over.append(Circle(x, y, 0.12, DOT, "rule-white-dot", fill=WHITE, width=0.03))


def draw_black_dot(rule: Rule, canvas: Canvas) -> None:
    """A black dot on the edge between each two neighbours."""
    for (x, y), _ in _edge_marks(rule, canvas):
        canvas.over.append(Circle(x, y, 0.12, DOT, "rule-black-dot", fill=DOT, width=0.03))


def draw_x(rule: Rule, canvas: Canvas) -> None:
    """The letter X on the edge between each two neighbours."""
    _letters(rule, canvas, "X", "rule-x")


def draw_v(rule: Rule, canvas: Canvas) -> None:
    """The letter V on the edge between each two neighbours."""
    _letters(rule, canvas, "V", "rule-v")


def _letters(rule: Rule, canvas: Canvas, letter: str, kind: str) -> None:
    for (x, y), _ in _edge_marks(rule, canvas):
        canvas.over.append(Circle(x, y, 0.14, WHITE, kind + "-backing", fill=WHITE, width=0))
        canvas.over.append(Text(x, y, 0.34, letter, DOT, kind, bold=True))


def draw_greater(rule: Rule, canvas: Canvas) -> None:
    """A chevron on the edge between each two neighbours, its point at the smaller (later) cell."""
    for (x, y), (dx, dy) in _edge_marks(rule, canvas):
        px, py = -dy, dx
        back, wing, tip = 0.07, 0.15, 0.08
        points = (
            (x - back * dx + wing * px, y - back * dy + wing * py),
            (x + tip * dx, y + tip * dy),
            (x - back * dx - wing * px, y - back * dy - wing * py),
        )
        canvas.over.append(Path(points, 0.05, DOT, "rule-greater"))
