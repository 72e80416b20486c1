"""The drawings of a SudokuPad page as the reader sees them: numbers, colours, points and marks,
and where a mark sits on the grid."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from ...errors import ParseError


def read_number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ParseError(f"{where}: {value!r} is not a number")
    return float(value)


def read_colour(value: Any) -> str:
    if not isinstance(value, str):
        return ""
    s = value.strip().lower()
    if re.fullmatch(r"#[0-9a-f]{3}", s):
        s = "#" + "".join(c * 2 for c in s[1:])
    return s[:7]


def is_dark(colour: str) -> bool:
    return (
        colour.startswith("#")
        and len(colour) == 7
        and sum(int(colour[i : i + 2], 16) for i in (1, 3, 5)) < 150
    )


def read_integer(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*-?[0-9]{1,7}\s*", value):
        return int(value)
    return None


class Mark:
    """An overlay or underlay: a rectangle or a circle at a centre, perhaps with text."""

    def __init__(self, item: Any, layer: str, index: int, n: int) -> None:
        if not isinstance(item, dict):
            raise ParseError(f"SudokuPad {layer} {index} is not an object")
        self.where = f"SudokuPad {layer} {index}"
        centre = item.get("center")
        if not isinstance(centre, list) or len(centre) != 2:
            raise ParseError(f'{self.where} has no "center" [row, column]')
        self.y, self.x = (read_coordinate(v, n, self.where) for v in centre)
        self.width = read_number(item.get("width", 0.5), self.where)
        self.height = read_number(item.get("height", 0.5), self.where)
        if not (0 <= self.width <= n + 2 and 0 <= self.height <= n + 2):
            raise ParseError(f"{self.where}: {self.width:g} by {self.height:g} is no size on a {n}x{n} grid")
        self.rounded = bool(item.get("rounded"))
        self.fill = read_colour(item.get("backgroundColor"))
        self.border = read_colour(item.get("borderColor"))
        text = item.get("text", "")
        self.text = "" if text is None else str(text).strip()
        self.layer = layer
        self.n = n
        self.used = False

    def describe(self) -> str:
        shape = "circle" if self.rounded else "rectangle"
        text = f" with text {self.text!r}" if self.text else ""
        colour = f" ({self.fill or self.border})" if self.fill or self.border else ""
        return f"{self.where}: a {shape}{colour}{text} at row {self.y:g}, column {self.x:g}"

    def at(self, y: float, x: float) -> bool:
        return abs(self.y - y) < 0.05 and abs(self.x - x) < 0.05

    def covers(self) -> list[tuple[int, int]]:
        """The cells a circle or pill covers (each cell whose centre lies inside it)."""
        out = []
        for r in range(math.floor(self.y - self.height / 2), math.ceil(self.y + self.height / 2)):
            for c in range(math.floor(self.x - self.width / 2), math.ceil(self.x + self.width / 2)):
                if abs(r + 0.5 - self.y) <= self.height / 2 and abs(c + 0.5 - self.x) <= self.width / 2:
                    out.append((r, c))
        return out


def read_coordinate(value: Any, n: int, where: str) -> float:
    """A row or column coordinate, on the grid or up to two cells beside it."""
    number = read_number(value, where)
    if not -2 <= number <= n + 2:
        raise ParseError(f"{where}: {number:g} lies far outside the {n}x{n} grid")
    return number


def read_points(item: Any, n: int, where: str) -> list[tuple[float, float]]:
    points = item.get("wayPoints") if isinstance(item, dict) else None
    if not isinstance(points, list) or len(points) < 2:
        raise ParseError(f'{where} has no "wayPoints" (two or more [row, column])')
    out = []
    for p in points:
        if not isinstance(p, list) or len(p) != 2:
            raise ParseError(f"{where}: {p!r} is not a point [row, column]")
        out.append((read_coordinate(p[0], n, where), read_coordinate(p[1], n, where)))
    return out


def cell_of(point: tuple[float, float]) -> tuple[int, int]:
    return math.floor(point[0]), math.floor(point[1])


def cells_along(points: Sequence[tuple[float, float]], where: str) -> list[tuple[int, int]]:
    """The cells a line passes through, its points at cell centres (or in their cells); a stretch
    between two points runs straight or diagonally through the cells between them."""
    cells = [cell_of(points[0])]
    for point in points[1:]:
        r, c = cells[-1]
        tr, tc = cell_of(point)
        dr, dc = tr - r, tc - c
        if dr and dc and abs(dr) != abs(dc):
            raise ParseError(
                f"{where}: the stretch to row {point[0]:g}, column {point[1]:g} is neither straight "
                "nor diagonal"
            )
        steps = max(abs(dr), abs(dc))
        for k in range(1, steps + 1):
            cells.append((r + k * (dr > 0) - k * (dr < 0), c + k * (dc > 0) - k * (dc < 0)))
    return cells


def circle_around(rc: tuple[int, int], *, centred: bool = False) -> Callable[[Mark], bool]:
    """Whether a mark is a circle over the cell (``centred``: with its centre at the cell's)."""

    def fits(mark: Mark) -> bool:
        if centred:
            return mark.rounded and mark.at(rc[0] + 0.5, rc[1] + 0.5)
        return mark.rounded and rc in mark.covers()

    return fits


def edge_of(mark: Mark, n: int) -> tuple[int, int] | None:
    """The two cells a mark sits between (at the middle of their shared edge), or None."""
    y, x = mark.y, mark.x
    if y % 1 == 0.5 and x.is_integer() and 0 < x < n and 0 <= y < n:
        r, c = int(y), int(x)
        return (r * n + c - 1, r * n + c)
    if x % 1 == 0.5 and y.is_integer() and 0 < y < n and 0 <= x < n:
        r, c = int(y), int(x)
        return ((r - 1) * n + c, r * n + c)
    return None


def outside_line(mark: Mark, n: int) -> tuple[int, ...] | None:
    """The row or column read from a clue in the cell beside the grid, in order from it."""
    r, c = math.floor(mark.y), math.floor(mark.x)
    if r in (-1, n) and 0 <= c < n:
        cells = tuple(k * n + c for k in range(n))
        return cells[::-1] if r == n else cells
    if c in (-1, n) and 0 <= r < n:
        cells = tuple(r * n + k for k in range(n))
        return cells[::-1] if c == n else cells
    return None
