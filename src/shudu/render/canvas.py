"""Where the drawings of constraint rules go: shapes under and over the grid lines, notes, and the
margins that clues outside the grid need; and the colours of SudokuPad's visual language.

Each rule's drawing function (the table in :mod:`.rules`) receives the rule and a
:class:`Canvas`, and adds shapes to it in cell units (the grid spans (0, 0) to (cols, rows)).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..rules import Rule
from .shapes import Circle, Path, Point, Rect, Shape, Text

#: Colours of the rules, after SudokuPad's: one place to change them.
CAGE = "#000000"
SUM_CAGE = "#2f6fbf"
THERMO = "#c8c8c8"
ARROW = "#9a9a9a"
DOT = "#000000"
SHADE = "#d3d3d3"
CLUE = "#000000"
SMALL = "#3b3b3b"
WHITE = "#ffffff"
#: Lines: colour, width (cells), opacity.
LINE_STYLES: dict[str, tuple[str, float, float]] = {
    "whisper": ("#3fc43f", 0.2, 0.75),
    "renban": ("#d94fdb", 0.2, 0.7),
    "palindrome": ("#a8a8a8", 0.2, 0.8),
    "between": ("#a8a8a8", 0.09, 0.9),
    "entropic": ("#ff9a1f", 0.2, 0.75),
    "modular": ("#1aa3a3", 0.2, 0.7),
    "parity-line": ("#e05252", 0.2, 0.7),
    "region-sum-line": ("#2f7fff", 0.2, 0.7),
    "zipper": ("#8c6ff0", 0.2, 0.7),
    "sum-line": ("#c79a00", 0.2, 0.75),
    "lunchbox": ("#6e8aa6", 0.2, 0.7),
}
#: Font sizes (cells) of the small texts: cage totals, restricted digits, quadruples.
SMALL_TEXT = 0.24
DIGIT_WIDTH = 0.6  # a digit's width, in ems (for white backings and brackets)


@dataclass
class Canvas:
    """The drawings of a puzzle's rules on a grid of ``rows`` x ``cols`` cells (cell
    ``row * cols + col``), in cell units, as the table's functions add them."""

    rows: int
    cols: int
    rules: Sequence[Rule] = ()
    #: Drawn under the grid lines (lines, thermometers, shaded cells) and over them (cages, dots, texts).
    under: list[Shape] = field(default_factory=list)
    over: list[Shape] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: Cells' corners taken by a small text already (so that a second one moves on).
    corners: set[tuple[int, str]] = field(default_factory=set)
    #: Outside the grid: the furthest any clue reaches left, up, right and down (0: none).
    margins: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0])

    def centre(self, cell: int) -> Point:
        return (cell % self.cols + 0.5, cell // self.cols + 0.5)

    def row_col(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.cols)

    def path(self, cells: Iterable[int]) -> tuple[Point, ...]:
        return tuple(self.centre(c) for c in cells)

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def outside(self, x: float, y: float, reach: float = 0.5) -> None:
        """Mark that something is drawn around (x, y), up to ``reach`` from it, so the margins grow."""
        for side, beyond in enumerate((reach - x, reach - y, x + reach - self.cols, y + reach - self.rows)):
            if beyond > 0:
                self.margins[side] = max(self.margins[side], math.ceil(beyond * 2) / 2)

    def small_text(self, cell: int, text: str, colour: str, kind: str, corner: str = "top-left") -> None:
        """A small text in a corner of ``cell`` on a white backing (a cage's total, restricted digits)."""
        if (cell, corner) in self.corners and corner == "top-left":
            corner = "bottom-left"
        self.corners.add((cell, corner))
        r, c = self.row_col(cell)
        size = SMALL_TEXT
        w = len(text) * DIGIT_WIDTH * size + 0.04
        h = size * 0.95
        left = corner.endswith("left")
        x = c + 0.03 if left else c + 0.97 - w
        y = r + 0.03 if corner.startswith("top") else r + 0.97 - h
        self.over.append(Rect(x, y, w, h, WHITE, kind + "-backing"))
        self.over.append(Text(x + 0.02, y + h / 2, size, text, colour, kind, anchor="start"))

    def ring(
        self, x: float, y: float, r: float, kind: str, colour: str = ARROW, width: float = 0.045
    ) -> None:
        self.over.append(Circle(x, y, r, colour, kind, fill=WHITE, width=width))

    def pill(self, points: Sequence[Point], kind: str, half: float = 0.4) -> None:
        """A rounded outline around ``points`` (a pill over two or three cells): white inside."""
        width = 0.045
        self.over.append(Path(tuple(points), 2 * half + width, ARROW, kind))
        self.over.append(Path(tuple(points), 2 * half - width, WHITE, kind + "-fill"))


def unit(a: Point, b: Point) -> Point:
    """The unit vector from a to b ((0, 0) when they coincide)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    return (dx / length, dy / length) if length else (0.0, 0.0)


def arrowhead(tip: Point, direction: Point, length: float = 0.28, spread: float = 0.75) -> tuple[Point, ...]:
    """An open arrowhead (three points, the tip in the middle) pointing along ``direction``."""
    dx, dy = direction
    cos, sin = math.cos(spread), math.sin(spread)
    left = (-(dx * cos - dy * sin) * length, -(dx * sin + dy * cos) * length)
    right = (-(dx * cos + dy * sin) * length, -(-dx * sin + dy * cos) * length)
    return ((tip[0] + left[0], tip[1] + left[1]), tip, (tip[0] + right[0], tip[1] + right[1]))


def edge_pairs(cells: Sequence[int], cols: int) -> list[tuple[int, int]]:
    """Every two of the cells (of a grid ``cols`` wide) that share an edge, as (earlier, later)
    in the rule's order."""
    out = []
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            ra, ca = divmod(a, cols)
            rb, cb = divmod(b, cols)
            if abs(ra - rb) + abs(ca - cb) == 1:
                out.append((a, b))
    return out
