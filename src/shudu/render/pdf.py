"""PDF pages of puzzles through fpdf2 (the optional extra ``book``).

:func:`book_pdf` lays out numbered, labelled puzzles 1, 2, 4 or 6 to a page, their solutions at
the back and an optional title page. Every grid is painted from the same
:class:`~shudu.render.scene.Scene` shapes as the SVG, so a printed page matches the picture.
fpdf2 is pure Python and small, and its built-in fonts need no font files, so the same input
gives the same bytes on every machine (the creation date is fixed).
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .scene import Circle, Line, Path, Rect, RenderError, Scene, Text, draw

if TYPE_CHECKING:
    from fpdf import FPDF

#: Page sizes in millimetres (width, height), portrait.
PAGE_SIZES: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: Puzzles a page → (columns, rows).
LAYOUTS: dict[int, tuple[int, int]] = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3)}
#: Solutions a page at the back, whatever the puzzles' layout.
SOLUTIONS_PER_PAGE = 6

_MARGIN = 15.0  # mm around the page
_FOOTER = 8.0  # mm at the bottom for the page number
_GAP = 10.0  # mm between slots
_LABEL = 7.0  # mm above each grid for its number and label
_PT = 25.4 / 72  # mm in a point
_FONT = "Helvetica"
#: Fixed so that a book's bytes depend only on what is in it.
_CREATED = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)


@dataclass(frozen=True)
class BookEntry:
    """One puzzle of a book: its number, its label (the difficulty), the board and its solution."""

    number: int
    label: str
    puzzle: Any
    solution: Any = None


def page_count(entries: int, per_page: int, *, title: bool = False, solutions: bool = True) -> int:
    """How many pages :func:`book_pdf` writes for ``entries`` puzzles."""
    pages = math.ceil(entries / per_page)
    if solutions:
        pages += math.ceil(entries / SOLUTIONS_PER_PAGE)
    return pages + (1 if title else 0)


def check_layout(per_page: int, page_size: str) -> tuple[tuple[int, int], tuple[float, float]]:
    """(columns, rows) and the page's (width, height) in mm; a clear error for anything else."""
    if isinstance(per_page, bool) or per_page not in LAYOUTS:
        raise RenderError(f"per_page must be 1, 2, 4 or 6 puzzles a page, not {per_page!r}")
    size = page_size.lower() if isinstance(page_size, str) else page_size
    if size not in PAGE_SIZES:
        raise RenderError(f"unknown page size {page_size!r}; choose a4 or letter")
    return LAYOUTS[per_page], PAGE_SIZES[size]


def require_fpdf() -> None:
    """Raise a clear error when fpdf2, which writes the PDF, is not installed."""
    try:
        import fpdf  # noqa: F401
    except ImportError:
        raise RenderError("PDF books need fpdf2: pip install 'shudu[book]'") from None


def check_text(text: str, what: str) -> str:
    """``text`` if the PDF's built-in fonts can print it."""
    for ch in text:
        if ord(ch) > 0xFF or not ch.isprintable():
            raise RenderError(
                f"the {what} can only use Latin-1 characters (the PDF's built-in fonts): {ch!r} is not one"
            )
    return text


def book_pdf(
    entries: Sequence[BookEntry],
    *,
    per_page: int = 4,
    page_size: str = "a4",
    title: str | None = None,
    subtitle: str | None = None,
    solutions: bool = True,
) -> bytes:
    """The PDF of a puzzle book: an optional title page, the puzzles ``per_page`` to a page
    (1, 2, 4 or 6), each with its number and label, then the solutions, 6 to a page."""
    layout, (width, height) = check_layout(per_page, page_size)
    if not entries:
        raise RenderError("a book needs at least one puzzle")
    if title is not None:
        check_text(title, "title")
    if subtitle is not None:
        check_text(subtitle, "subtitle")
    for entry in entries:
        check_text(entry.label, "label")
    require_fpdf()
    from fpdf import FPDF

    pdf = FPDF(unit="mm", format=(width, height))
    pdf.set_auto_page_break(False)
    pdf.set_creation_date(_CREATED)
    pdf.set_creator("shudu")
    if title:
        pdf.set_title(title)
    pdf.set_margins(_MARGIN, _MARGIN, _MARGIN)

    if title is not None:
        pdf.add_page()
        _title_page(pdf, title, subtitle, width, height)
    for start in range(0, len(entries), per_page):
        pdf.add_page()
        for slot, entry in enumerate(entries[start : start + per_page]):
            box = _slot(slot, layout, width, height, header=0.0)
            _puzzle(pdf, draw(entry.puzzle), box, f"No. {entry.number}", entry.label, 11)
        _footer(pdf, width, height)
    if solutions:
        solved = [e for e in entries if e.solution is not None]
        if len(solved) != len(entries):
            raise RenderError("every puzzle of a book with solutions needs its solution")
        per, grid = SOLUTIONS_PER_PAGE, LAYOUTS[SOLUTIONS_PER_PAGE]
        for start in range(0, len(entries), per):
            pdf.add_page()
            pdf.set_font(_FONT, "B", 14)
            pdf.set_text_color(0, 0, 0)
            pdf.text(_MARGIN, _MARGIN + 14 * _PT * 0.7, "Solutions")
            for slot, entry in enumerate(entries[start : start + per]):
                box = _slot(slot, grid, width, height, header=10.0)
                scene = draw(entry.puzzle, solution=entry.solution)
                _puzzle(pdf, scene, box, f"No. {entry.number}", entry.label, 9)
            _footer(pdf, width, height)
    return bytes(pdf.output())


def _title_page(pdf: FPDF, title: str, subtitle: str | None, width: float, height: float) -> None:
    pdf.set_text_color(0, 0, 0)
    pdf.set_font(_FONT, "B", 28)
    pdf.set_xy(_MARGIN, height * 0.35)
    pdf.multi_cell(width - 2 * _MARGIN, 28 * _PT * 1.3, title, align="C")
    if subtitle:
        pdf.set_font(_FONT, "", 13)
        pdf.set_xy(_MARGIN, pdf.get_y() + 8)
        pdf.multi_cell(width - 2 * _MARGIN, 13 * _PT * 1.4, subtitle, align="C")


def _footer(pdf: FPDF, width: float, height: float) -> None:
    pdf.set_font(_FONT, "", 9)
    pdf.set_text_color(90, 90, 90)
    text = str(pdf.page_no())
    pdf.text((width - pdf.get_string_width(text)) / 2, height - _MARGIN + _FOOTER / 2, text)


def _slot(
    index: int, layout: tuple[int, int], width: float, height: float, *, header: float
) -> tuple[float, float, float, float]:
    """(x, y, w, h) in mm of slot ``index`` (row by row) on a page."""
    cols, rows = layout
    top = _MARGIN + header
    area_w = width - 2 * _MARGIN
    area_h = height - top - _MARGIN - _FOOTER
    w = (area_w - (cols - 1) * _GAP) / cols
    h = (area_h - (rows - 1) * _GAP) / rows
    row, col = divmod(index, cols)
    return (_MARGIN + col * (w + _GAP), top + row * (h + _GAP), w, h)


def _puzzle(
    pdf: FPDF, scene: Scene, box: tuple[float, float, float, float], number: str, label: str, pt: float
) -> None:
    """A grid centred in its slot, its number left and its label right above it."""
    x, y, w, h = box
    unit = min(w / scene.width, (h - _LABEL) / scene.height)
    left = x + (w - scene.width * unit) / 2
    top = y + _LABEL
    pdf.set_text_color(0, 0, 0)
    pdf.set_font(_FONT, "B", pt)
    baseline = top - 2.0
    pdf.text(left, baseline, number)
    if label:
        pdf.set_font(_FONT, "", pt)
        pdf.text(left + scene.width * unit - pdf.get_string_width(label), baseline, label)
    # cell (0, 0) lies inside the picture by the margin that clues outside the grid take
    paint(pdf, scene, left - scene.x0 * unit, top - scene.y0 * unit, unit)


def _rgb(colour: str) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    if len(value) != 6:
        raise RenderError(f"the PDF writer takes colours as #rrggbb, not {colour!r}")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def paint(pdf: FPDF, scene: Scene, left: float, top: float, unit: float) -> None:
    """Paint ``scene``'s shapes on the current page, cell (0, 0) at (left, top), ``unit`` mm a cell.

    Shapes are painted in the scene's order, as the SVG writer emits them. Solid lines are
    lengthened by half their width at each end, as the SVG's square line caps are."""
    for shape in scene.shapes:
        if isinstance(shape, Rect):
            pdf.set_fill_color(*_rgb(shape.fill))
            pdf.rect(left + shape.x * unit, top + shape.y * unit, shape.w * unit, shape.h * unit, style="F")
        elif isinstance(shape, Line):
            _line(pdf, shape, left, top, unit)
        elif isinstance(shape, Circle):
            style = ("D" if shape.width else "") + ("F" if shape.fill else "")
            if not style:
                continue
            pdf.set_draw_color(*_rgb(shape.colour))
            pdf.set_line_width(shape.width * unit)
            if shape.fill:
                pdf.set_fill_color(*_rgb(shape.fill))
            pdf.circle(left + shape.x * unit, top + shape.y * unit, shape.r * unit, style=style)
        elif isinstance(shape, Path):
            _path(pdf, shape, left, top, unit)
        elif isinstance(shape, Text):
            size = shape.size * unit  # the em, in mm
            pdf.set_font(_FONT, "B" if shape.bold else "", size / _PT)
            pdf.set_text_color(*_rgb(shape.colour))
            text = check_text(shape.text, "text of a grid")
            width = pdf.get_string_width(text)
            shift = {"start": 0.0, "middle": width / 2, "end": width}[shape.anchor]
            # half the capital height (0.72 em) down from the centre line
            pdf.text(left + shape.x * unit - shift, top + shape.y * unit + 0.36 * size, text)


def _line(pdf: FPDF, shape: Line, left: float, top: float, unit: float) -> None:
    pdf.set_draw_color(*_rgb(shape.colour))
    pdf.set_line_width(shape.width * unit)
    x1, y1, x2, y2 = shape.x1, shape.y1, shape.x2, shape.y2
    if shape.dashed:
        pdf.set_dash_pattern(shape.width * 3 * unit, shape.width * 2 * unit)
    else:
        length = math.hypot(x2 - x1, y2 - y1)
        if length:
            ex, ey = (x2 - x1) / length * shape.width / 2, (y2 - y1) / length * shape.width / 2
            x1, y1, x2, y2 = x1 - ex, y1 - ey, x2 + ex, y2 + ey
    pdf.line(left + x1 * unit, top + y1 * unit, left + x2 * unit, top + y2 * unit)
    if shape.dashed:
        pdf.set_dash_pattern()


def _path(pdf: FPDF, shape: Path, left: float, top: float, unit: float) -> None:
    """A polyline or polygon with round caps and joins, dashed or see-through as asked."""
    from fpdf.enums import StrokeCapStyle, StrokeJoinStyle

    points = [(left + x * unit, top + y * unit) for x, y in shape.points]
    style = ("D" if shape.width else "") + ("F" if shape.fill else "")
    if not style or len(points) < 2:
        return
    with pdf.local_context(
        stroke_cap_style=StrokeCapStyle.ROUND,
        stroke_join_style=StrokeJoinStyle.ROUND,
        stroke_opacity=shape.opacity,
        fill_opacity=shape.opacity,
    ):
        pdf.set_draw_color(*_rgb(shape.colour))
        pdf.set_line_width(shape.width * unit)
        if shape.fill:
            pdf.set_fill_color(*_rgb(shape.fill))
        if shape.dash is not None:
            pdf.set_dash_pattern(shape.dash[0] * unit, shape.dash[1] * unit)
        pdf.polyline(points, polygon=shape.closed, style=style)
