"""SVG, written directly from a :class:`~shudu.render.scene.Scene`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from .scene import Circle, Line, Rect, Scene, Text, draw

#: Pixels per cell unless asked otherwise.
CELL_PX = 40
_MARGIN = 0.25  # cells of white space around the grid


def to_svg(scene: Scene, *, cell_px: float = CELL_PX) -> str:
    """The SVG document of a scene, ``cell_px`` pixels to a cell."""
    m = _MARGIN
    width = (scene.width + 2 * m) * cell_px
    height = (scene.height + 2 * m) * cell_px
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="{-m:g} {-m:g} {scene.width + 2 * m:g} {scene.height + 2 * m:g}">',
        f'<rect class="background" x="{-m:g}" y="{-m:g}" width="{scene.width + 2 * m:g}" '
        f'height="{scene.height + 2 * m:g}" fill="#ffffff"/>',
    ]
    for shape in scene.shapes:
        cls = quoteattr(shape.kind)
        if isinstance(shape, Rect):
            out.append(
                f'<rect class={cls} x="{shape.x:g}" y="{shape.y:g}" width="{shape.w:g}" '
                f'height="{shape.h:g}" fill="{shape.fill}"/>'
            )
        elif isinstance(shape, Line):
            dash = f' stroke-dasharray="{shape.width * 3:g} {shape.width * 2:g}"' if shape.dashed else ""
            out.append(
                f'<line class={cls} x1="{shape.x1:g}" y1="{shape.y1:g}" x2="{shape.x2:g}" '
                f'y2="{shape.y2:g}" stroke="{shape.colour}" stroke-width="{shape.width:g}" '
                f'stroke-linecap="square"{dash}/>'
            )
        elif isinstance(shape, Circle):
            out.append(
                f'<circle class={cls} cx="{shape.x:g}" cy="{shape.y:g}" r="{shape.r:g}" fill="none" '
                f'stroke="{shape.colour}" stroke-width="0.03"/>'
            )
        elif isinstance(shape, Text):
            weight = ' font-weight="bold"' if shape.bold else ""
            out.append(
                f'<text class={cls} x="{shape.x:g}" y="{shape.y:g}" font-size="{shape.size:g}" '
                f'font-family="DejaVu Sans, Arial, sans-serif" text-anchor="middle" '
                f'dominant-baseline="central" fill="{shape.colour}"{weight}>{escape(shape.text)}</text>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def render(
    board: Any,
    *,
    solution: Any = None,
    candidates: bool | Sequence[int] = False,
    step: Any = None,
    cell_px: float = CELL_PX,
) -> str:
    """An SVG picture of a Puzzle, Grid or player's board; see :func:`~shudu.render.scene.draw`."""
    return to_svg(draw(board, solution=solution, candidates=candidates, step=step), cell_px=cell_px)
