"""SVG, written directly from a :class:`~shudu.render.scene.Scene`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from .scene import Circle, Line, Path, Rect, Scene, Shape, draw

#: Pixels per cell unless asked otherwise.
CELL_PX = 40
_MARGIN = 0.25  # cells of white space around the grid
_FONT = "DejaVu Sans, Arial, sans-serif"


def to_svg(scene: Scene, *, cell_px: float = CELL_PX) -> str:
    """The SVG document of a scene, ``cell_px`` pixels to a cell."""
    m = _MARGIN
    x, y = scene.x0 - m, scene.y0 - m
    w, h = scene.width + 2 * m, scene.height + 2 * m
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * cell_px:g}" height="{h * cell_px:g}" '
        f'viewBox="{x:g} {y:g} {w:g} {h:g}">',
        f'<rect class="background" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="#ffffff"/>',
    ]
    out.extend(_element(shape) for shape in scene.shapes)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _element(shape: Shape) -> str:
    """One shape as an SVG element, its kind as its class."""
    cls = quoteattr(shape.kind)
    if isinstance(shape, Rect):
        return (
            f'<rect class={cls} x="{shape.x:g}" y="{shape.y:g}" width="{shape.w:g}" '
            f'height="{shape.h:g}" fill="{shape.fill}"/>'
        )
    if isinstance(shape, Line):
        dash = f' stroke-dasharray="{shape.width * 3:g} {shape.width * 2:g}"' if shape.dashed else ""
        return (
            f'<line class={cls} x1="{shape.x1:g}" y1="{shape.y1:g}" x2="{shape.x2:g}" '
            f'y2="{shape.y2:g}" stroke="{shape.colour}" stroke-width="{shape.width:g}" '
            f'stroke-linecap="square"{dash}/>'
        )
    if isinstance(shape, Circle):
        stroke = f'stroke="{shape.colour}" stroke-width="{shape.width:g}"' if shape.width else 'stroke="none"'
        return (
            f'<circle class={cls} cx="{shape.x:g}" cy="{shape.y:g}" r="{shape.r:g}" '
            f'fill="{shape.fill or "none"}" {stroke}/>'
        )
    if isinstance(shape, Path):
        return _path(shape, cls)
    weight = ' font-weight="bold"' if shape.bold else ""
    return (
        f'<text class={cls} x="{shape.x:g}" y="{shape.y:g}" font-size="{shape.size:g}" '
        f'font-family="{_FONT}" text-anchor="{shape.anchor}" '
        f'dominant-baseline="central" fill="{shape.colour}"{weight}>{escape(shape.text)}</text>'
    )


def _path(shape: Path, cls: str) -> str:
    d = " ".join(f"{'M' if i == 0 else 'L'}{x:.4g} {y:.4g}" for i, (x, y) in enumerate(shape.points))
    if shape.closed:
        d += " Z"
    attrs = [f'fill="{shape.fill or "none"}"']
    if shape.width:
        attrs.append(
            f'stroke="{shape.colour}" stroke-width="{shape.width:g}" '
            'stroke-linecap="round" stroke-linejoin="round"'
        )
    if shape.dash is not None:
        attrs.append(f'stroke-dasharray="{shape.dash[0]:g} {shape.dash[1]:g}"')
    if shape.opacity < 1:
        attrs.append(f'opacity="{shape.opacity:g}"')
    return f'<path class={cls} d="{d}" {" ".join(attrs)}/>'


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
