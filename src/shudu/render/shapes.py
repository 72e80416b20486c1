"""The plain shapes a picture is made of, in units of one cell = 1, for the SVG and PDF writers.

Every shape carries a ``kind``, written as its SVG ``class`` so that a picture can be checked or
restyled. Colours are ``#rrggbb`` (the PDF writer reads them so).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Point = tuple[float, float]
Anchor = Literal["start", "middle", "end"]


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str
    kind: str


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float
    colour: str
    kind: str
    dashed: bool = False


@dataclass(frozen=True)
class Circle:
    """A ring of ``colour`` (``width`` 0: none), filled with ``fill`` when it is given."""

    x: float
    y: float
    r: float
    colour: str
    kind: str
    fill: str | None = None
    width: float = 0.03


@dataclass(frozen=True)
class Text:
    x: float  # centre, or the left (right) end when anchored at the start (end)
    y: float  # centre
    size: float
    text: str
    colour: str
    kind: str
    bold: bool = False
    anchor: Anchor = "middle"


@dataclass(frozen=True)
class Path:
    """A polyline (a polygon when ``closed``): stroked ``width`` wide in ``colour`` (``width`` 0:
    not stroked), filled with ``fill`` when given, with round caps and joins, dashed
    (``dash`` = (dash, gap)) and see-through (``opacity`` < 1) if asked."""

    points: tuple[Point, ...]
    width: float
    colour: str
    kind: str
    fill: str | None = None
    closed: bool = False
    dash: tuple[float, float] | None = None
    opacity: float = 1.0


Shape = Rect | Line | Circle | Text | Path


@dataclass
class Scene:
    """Shapes in cell units; the grid spans (0, 0) to (n, n), notes go below it.

    The picture spans ``x0`` to ``x0 + width`` and ``y0`` to ``y0 + height``: ``x0`` and ``y0``
    are negative when clues outside the grid take a margin on the left or above it."""

    width: float
    height: float
    shapes: list[Shape] = field(default_factory=list)
    x0: float = 0.0
    y0: float = 0.0

    def of_kind(self, kind: str) -> list[Shape]:
        return [s for s in self.shapes if s.kind == kind]
