"""A board drawn as plain shapes (rectangles, lines, text), for the SVG and PDF writers alike.

:func:`draw` turns a board (and optionally its pencil marks, a solution and a step) into a
:class:`Scene` in units of one cell = 1. The writers only scale and emit the shapes, so the SVG
and a page of a puzzle book show the same picture. Boards are read by their attributes (a
``Puzzle`` or ``Grid`` has ``geometry`` and ``cells``; a player's board has ``puzzle``,
``entries`` and ``candidates``; a step has ``cells``, ``digits``, ``houses``, ``placements``,
``eliminations`` and ``structure``), so this layer sits below the value types and the logic.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from ..errors import ShuduError
from ..geometry import Geometry
from ..notation import digit_char
from .canvas import Canvas
from .rules import draw_rules
from .shapes import Circle, Line, Path, Rect, Scene, Shape, Text

__all__ = [
    "Circle",
    "Line",
    "Path",
    "Rect",
    "RenderError",
    "Scene",
    "Shape",
    "Text",
    "board_parts",
    "candidate_spot",
    "draw",
    "region_ids",
    "simple_candidates",
]

Cell = int

#: Colours of the picture (CSS names or hex), one place to change them.
INK = "#000000"
GRID_LINE = "#555555"
ENTRY = "#1f4fbf"
SOLUTION = "#7a7a7a"
CANDIDATE = "#505050"
PATTERN = "#fff2a8"
HOUSE = "#dcebff"
PLACED = "#2e8b3c"
STRUCK = "#d0312d"
LINK = "#7b2cbf"
#: Fills of extra regions (windoku windows, pyramids, custom regions), cycled.
REGION_FILLS = ("#e3e3e3", "#d6ecd2", "#f5dccb", "#dcd6f0", "#f4e6b8", "#cfe6ec")


class RenderError(ShuduError):
    """Something given to draw is not a board, step or candidate set shudu can draw."""


Mode = Literal["puzzle", "solution"]


def board_parts(board: Any) -> tuple[Geometry, tuple[int, ...], tuple[int, ...], tuple[int, ...] | None]:
    """(geometry, givens, entries, candidates) of a Puzzle, Grid or player's board."""
    if hasattr(board, "puzzle") and hasattr(board, "entries"):  # a player's board
        puzzle = board.puzzle
        return puzzle.geometry, tuple(puzzle.cells), tuple(board.entries), board.candidates
    if hasattr(board, "geometry") and hasattr(board, "cells"):
        cells = tuple(board.cells)
        if type(board).__name__ == "Grid":  # a player's work or a solution: no givens as such
            return board.geometry, (0,) * len(cells), cells, None
        return board.geometry, cells, (0,) * len(cells), None
    raise RenderError(f"cannot draw a {type(board).__name__}; give a Puzzle, a Grid or a board")


def simple_candidates(geo: Geometry, values: Sequence[int]) -> tuple[int, ...]:
    """Each open cell's digits (bit d-1) that no placed peer holds; 0 for a placed cell."""
    full = (1 << geo.size) - 1
    out = []
    for cell, value in enumerate(values):
        if value:
            out.append(0)
            continue
        mask = full
        for peer in geo.peers[cell]:
            if values[peer]:
                mask &= ~(1 << (values[peer] - 1))
        out.append(mask)
    return tuple(out)


def region_ids(geo: Geometry) -> tuple[int, ...] | None:
    """The box or jigsaw region of every cell (None when the grid has neither)."""
    if geo.variant.layout is not None:
        return tuple(geo.variant.layout)
    if geo.box is None:
        return None
    high, wide = geo.box
    cols = geo.cols
    return tuple((c // cols) // high * (cols // wide) + (c % cols) // wide for c in range(geo.ncells))


def _is_diagonal(region: Sequence[int], n: int) -> bool:
    cells = set(region)
    return cells == {i * n + i for i in range(n)} or cells == {i * n + n - 1 - i for i in range(n)}


def candidate_spot(cell: Cell, digit: int, n: int, cols: int | None = None) -> tuple[float, float]:
    """Centre of ``digit``'s pencil mark inside ``cell``, of ``n`` digits on a grid ``cols``
    wide (``n`` when not given)."""
    width = n if cols is None else cols
    k = math.isqrt(n - 1) + 1 if n > 1 else 1
    row, col = divmod(digit - 1, k)
    return (cell % width + (col + 0.5) / k, cell // width + (row + 0.5) / k)


def _centre(
    cells: Iterable[Cell], digit: int | None, n: int, cols: int, with_marks: bool
) -> tuple[float, float]:
    points = [
        candidate_spot(c, digit, n, cols)
        if digit is not None and with_marks
        else (c % cols + 0.5, c // cols + 0.5)
        for c in cells
    ]
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def draw(
    board: Any,
    *,
    solution: Any = None,
    candidates: bool | Sequence[int] = False,
    step: Any = None,
) -> Scene:
    """The shapes of ``board``: shading, rules, givens, entries, pencil marks, a solution, a step.

    ``solution`` is a board (or n·n ints) whose digits fill the open cells in grey.
    ``candidates`` is ``True`` (the digits the placed ones allow, or the board's own pencil marks)
    or one bit mask per cell (bit d-1 for digit d). A ``step`` shades its pattern cells and
    houses, strikes its eliminations, rings its placements and draws its chain links (strong
    solid, weak dashed); it shows the pencil marks unless ``candidates`` is given otherwise.
    The puzzle's constraint rules are drawn under the digits (:mod:`.rules`); clues outside the
    grid widen the picture, and grid-wide rules are noted under it.
    """
    geo, givens, entries, marks = board_parts(board)
    n, rows, cols, ncells = geo.size, geo.rows, geo.cols, geo.ncells
    base = geo.variant.digit_base
    values = tuple(g or e for g, e in zip(givens, entries, strict=True))
    drawn = draw_rules(geo.variant.rules, rows, cols)
    notes, note_size = _wrap(_rule_notes(geo) + drawn.notes, cols + drawn.margins[0] + drawn.margins[2])
    scene = _frame(rows, cols, drawn, len(notes), note_size)
    shapes = scene.shapes

    _shading(scene, geo, step)
    shapes.extend(drawn.under)
    _grid_lines(scene, geo)
    shapes.extend(drawn.over)

    fill: tuple[int, ...] = ()
    if solution is not None:
        fill = tuple(solution.cells if hasattr(solution, "cells") else solution)
        if len(fill) != ncells:
            raise RenderError(f"the solution has {len(fill)} cells; the board has {ncells}")
    for cell in range(ncells):
        x, y = cell % cols + 0.5, cell // cols + 0.5
        if givens[cell]:
            shapes.append(Text(x, y, 0.62, digit_char(givens[cell], base), INK, "given", bold=True))
        elif entries[cell]:
            shapes.append(Text(x, y, 0.62, digit_char(entries[cell], base), ENTRY, "entry"))
        elif fill and fill[cell]:
            shapes.append(Text(x, y, 0.62, digit_char(fill[cell], base), SOLUTION, "solution"))

    masks: tuple[int, ...] = ()
    if candidates is not False or step is not None:
        if isinstance(candidates, bool):
            masks = tuple(marks) if marks is not None else simple_candidates(geo, values)
        else:
            masks = tuple(candidates)
            if len(masks) != ncells:
                raise RenderError(f"{len(masks)} candidate sets given; the board has {ncells} cells")
    open_cells = [c for c in range(ncells) if not values[c] and not (fill and fill[c])]
    _marks(scene, n, cols, masks, open_cells, step, base)

    structure = getattr(step, "structure", None) if step is not None else None
    if structure is not None:
        _links(scene, structure, n, cols, bool(masks))
    top = rows + drawn.margins[3]
    for i, note in enumerate(notes):
        y = top + 0.3 + note_size * 1.4 * i
        shapes.append(Text(scene.x0 + scene.width / 2, y, note_size, note, INK, "rule"))
    return scene


NOTE_SIZE = 0.32  # the notes under the grid: their largest font size, in cells
SMALLEST_NOTE = 0.2
_EM_PER_CHAR = 0.55  # the width of an average character of the notes, in ems


def _wrap(notes: Sequence[str], width: float) -> tuple[list[str], float]:
    """The notes as lines that fit ``width`` cells, and their font size: as large as lets the
    longest note fit on one line (down to a smallest size, below which a note breaks between words)."""
    if not notes:
        return [], NOTE_SIZE
    room = width * 0.95 / _EM_PER_CHAR
    size = max(SMALLEST_NOTE, min(NOTE_SIZE, room / max(len(n) for n in notes)))
    most = max(12, int(room / size))
    lines: list[str] = []
    for note in notes:
        line = ""
        for word in note.split(" "):
            if line and len(line) + 1 + len(word) > most:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return lines, size


def _frame(rows: int, cols: int, drawn: Canvas, notes: int, note_size: float) -> Scene:
    """The scene's extent: the grid, the margins its outside clues need, and its notes."""
    left, up, right, down = drawn.margins
    height = rows + up + down + (note_size * 1.4 * notes + 0.15 if notes else 0)
    return Scene(cols + left + right, height, x0=-left, y0=-up)


def _shading(scene: Scene, geo: Geometry, step: Any) -> None:
    """Extra regions, a step's houses and pattern cells, lowest first, and the X diagonals."""
    n = geo.cols  # the diagonals: of a square grid only
    square = geo.rows == geo.cols
    shapes = scene.shapes
    for i, region in enumerate(geo.variant.regions):
        if square and _is_diagonal(region, n):
            continue
        colour = REGION_FILLS[i % len(REGION_FILLS)]
        shapes.extend(Rect(c % n, c // n, 1, 1, colour, "region") for c in region)
    if step is not None:
        by_name = {h.name: h for h in geo.houses}
        for name in getattr(step, "houses", ()):
            house = by_name.get(name)
            if house is not None:
                shapes.extend(Rect(c % n, c // n, 1, 1, HOUSE, "house") for c in house.cells)
        shapes.extend(Rect(c % n, c // n, 1, 1, PATTERN, "pattern") for c in getattr(step, "cells", ()))
    for region in geo.variant.regions:
        if square and _is_diagonal(region, n):
            main = 0 in region
            shapes.append(Line(0, 0 if main else n, n, n if main else 0, 0.03, GRID_LINE, "diagonal", True))


def _marks(
    scene: Scene,
    n: int,
    cols: int,
    masks: Sequence[int],
    open_cells: Sequence[int],
    step: Any,
    base: int = 1,
) -> None:
    """The pencil marks of the open cells (``n`` digits, a grid ``cols`` wide), a step's
    eliminations struck and placements ringed (``base``: the value of digit 1)."""
    shapes = scene.shapes
    struck = {(c, d) for c, d in getattr(step, "eliminations", ())} if step is not None else set()
    placed = {(c, d) for c, d in getattr(step, "placements", ())} if step is not None else set()
    if not masks:
        for cell, d in placed:
            char = digit_char(d, base)
            shapes.append(Text(cell % cols + 0.5, cell // cols + 0.5, 0.62, char, PLACED, "placement"))
        return
    k = math.isqrt(n - 1) + 1
    for cell in open_cells:
        mask = masks[cell]
        for c, d in struck | placed:
            if c == cell:
                mask |= 1 << (d - 1)
        for d in range(1, n + 1):
            if not mask >> (d - 1) & 1:
                continue
            x, y = candidate_spot(cell, d, n, cols)
            if (cell, d) in placed:
                shapes.append(Circle(x, y, 0.45 / k, PLACED, "placement"))
                shapes.append(Text(x, y, 0.7 / k, digit_char(d, base), PLACED, "candidate", bold=True))
            elif (cell, d) in struck:
                shapes.append(Text(x, y, 0.7 / k, digit_char(d, base), STRUCK, "candidate"))
                r = 0.35 / k
                shapes.append(Line(x - r, y + r, x + r, y - r, 0.04, STRUCK, "struck"))
            else:
                shapes.append(Text(x, y, 0.7 / k, digit_char(d, base), CANDIDATE, "candidate"))


def _rule_notes(geo: Geometry) -> list[str]:
    rules = [
        name
        for name, on in (("anti-knight", geo.variant.anti_knight), ("anti-king", geo.variant.anti_king))
        if on
    ]
    if not rules:
        return []
    return [
        " and ".join(rules)
        + ": no equal digits a "
        + " or ".join(("knight's" if r == "anti-knight" else "king's") for r in rules)
        + " move apart"
    ]


def _grid_lines(scene: Scene, geo: Geometry) -> None:
    """Thin lines between all cells, thick ones between boxes or jigsaw regions (none on a grid
    without either), and the frame."""
    rows, cols = geo.rows, geo.cols
    ids = region_ids(geo)
    thin, thick = 0.02, 0.07
    for i in range(1, max(rows, cols)):
        if i < cols:
            scene.shapes.append(Line(i, 0, i, rows, thin, GRID_LINE, "cell-line"))
        if i < rows:
            scene.shapes.append(Line(0, i, cols, i, thin, GRID_LINE, "cell-line"))
    if ids is not None:
        for r in range(rows):
            for c in range(cols):
                cell = r * cols + c
                if c + 1 < cols and ids[cell] != ids[cell + 1]:
                    scene.shapes.append(Line(c + 1, r, c + 1, r + 1, thick, INK, "border"))
                if r + 1 < rows and ids[cell] != ids[cell + cols]:
                    scene.shapes.append(Line(c, r + 1, c + 1, r + 1, thick, INK, "border"))
    for x1, y1, x2, y2 in ((0, 0, cols, 0), (cols, 0, cols, rows), (cols, rows, 0, rows), (0, rows, 0, 0)):
        scene.shapes.append(Line(x1, y1, x2, y2, thick, INK, "frame"))


def _links(scene: Scene, structure: Any, n: int, cols: int, with_marks: bool) -> None:
    """A chain's links (strong solid, weak dashed) or a net's implications, as lines."""
    if hasattr(structure, "links"):
        for link in structure.links:
            a, b = link.start, link.end
            da = a.digits[0] if len(a.digits) == 1 else None
            db = b.digits[0] if len(b.digits) == 1 else None
            x1, y1 = _centre(a.cells, da, n, cols, with_marks)
            x2, y2 = _centre(b.cells, db, n, cols, with_marks)
            strong = link.kind == "strong"
            scene.shapes.append(Line(x1, y1, x2, y2, 0.035, LINK, f"link-{link.kind}", dashed=not strong))
    elif hasattr(structure, "branches"):
        for branch in structure.branches:
            lines = branch.lines
            for i, line in enumerate(lines):
                for before in line.because or ((i - 1,) if i else ()):
                    if 0 <= before < len(lines):
                        start = lines[before]
                        x1, y1 = _centre((start.cell,), start.digit, n, cols, with_marks)
                        x2, y2 = _centre((line.cell,), line.digit, n, cols, with_marks)
                        kind = "link-strong" if line.on else "link-weak"
                        scene.shapes.append(Line(x1, y1, x2, y2, 0.03, LINK, kind, dashed=not line.on))
