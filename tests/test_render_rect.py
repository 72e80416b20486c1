"""Pictures of grids that are not square: R rows x C columns, boxes where the grid has them,
rules and outside clues on the right sides, and the square grid's picture as before."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from shudu.formats import parse_puzzle
from shudu.formats.iss import parse_iss
from shudu.render import render, svg_to_png
from shudu.render.scene import draw

SVG = "{http://www.w3.org/2000/svg}"
DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "iss_constraint_puzzles.tsv"

#: 4x6 (boxes of 2x3) with a cage, a skyscraper clue read from the right of row 2 and a little
#: killer from the top right corner.
BUILT = ".Shape~4x6.~R1C1_1~R4C6_2.Cage~9~R1C1~R1C2.Skyscraper~R2~~3.LittleKiller~10~R1C6"


def elements(svg: str, kind: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if e.get("class") == kind]


def frame(svg: str) -> tuple[float, float]:
    """The frame's width and height, from its four sides."""
    sides = elements(svg, "frame")
    assert len(sides) == 4
    xs = [float(e.get(a, "nan")) for e in sides for a in ("x1", "x2")]
    ys = [float(e.get(a, "nan")) for e in sides for a in ("y1", "y2")]
    assert min(xs) == 0 and min(ys) == 0
    return max(xs), max(ys)


def cell_lines(svg: str) -> tuple[set[float], set[float]]:
    """The x of the thin vertical lines and the y of the horizontal ones."""
    lines = elements(svg, "cell-line")
    vertical = {float(e.get("x1", "nan")) for e in lines if e.get("x1") == e.get("x2")}
    horizontal = {float(e.get("y1", "nan")) for e in lines if e.get("y1") == e.get("y2")}
    assert len(vertical) + len(horizontal) == len(lines)
    return vertical, horizontal


def check_grid(svg: str, rows: int, cols: int) -> None:
    """An R x C grid: the frame C wide and R high, a thin line between every two columns and rows."""
    width, height = frame(svg)
    assert (width, height) == (cols, rows) and width * rows == height * cols
    vertical, horizontal = cell_lines(svg)
    assert vertical == set(range(1, cols)) and horizontal == set(range(1, rows))
    # cells (cols x rows of them) bounded by those lines
    assert (len(vertical) + 1) * (len(horizontal) + 1) == rows * cols


def borders(svg: str) -> set[tuple[float, ...]]:
    return {tuple(float(e.get(a, "nan")) for a in ("x1", "y1", "x2", "y2")) for e in elements(svg, "border")}


def test_a_2x3_grid_of_4_digits_has_no_boxes_only_its_frame() -> None:
    puzzle = parse_puzzle(".Shape~2x3~4.~R1C1_1~R2C3_4")
    svg = render(puzzle)
    check_grid(svg, 2, 3)
    assert borders(svg) == set()
    givens = elements(svg, "given")
    assert [(g.get("x"), g.get("y"), g.text) for g in givens] == [("0.5", "0.5", "1"), ("2.5", "1.5", "4")]
    scene = draw(puzzle)
    assert (scene.width, scene.height) == (3, 2)


def test_a_4x6_grid_draws_its_boxes_cage_and_outside_clues() -> None:
    puzzle = parse_puzzle(BUILT)
    svg = render(puzzle)
    check_grid(svg, 4, 6)
    # boxes of 2 rows x 3 columns: a thick line down the middle, one across
    vertical = {b for b in borders(svg) if b[0] == b[2]}
    horizontal = {b for b in borders(svg) if b[1] == b[3]}
    assert vertical == {(3, r, 3, r + 1) for r in range(4)}
    assert horizontal == {(c, 2, c + 1, 2) for c in range(6)}
    # the cage: its outline inside R1C1-R1C2, its total in R1C1's corner
    (outline,) = elements(svg, "rule-cage")
    points = [
        float(v) for v in outline.get("d", "").replace("M", " ").replace("L", " ").replace("Z", " ").split()
    ]
    assert min(points[0::2]) > 0 and max(points[0::2]) < 2 and min(points[1::2]) > 0 and max(points[1::2]) < 1
    (total,) = elements(svg, "rule-cage-total")
    assert total.text == "9" and float(total.get("x", "nan")) < 1 and float(total.get("y", "nan")) < 1
    # the skyscraper clue right of row 2, outside the grid's right side
    (sky,) = elements(svg, "rule-skyscraper")
    assert (sky.text, float(sky.get("x", "nan")), float(sky.get("y", "nan"))) == ("3", 6.5, 1.5)
    # the little killer diagonally before R1C6, above the top right corner
    (little,) = elements(svg, "rule-little-killer")
    assert little.text == "10"
    assert float(little.get("x", "nan")) > 6 and float(little.get("y", "nan")) < 0
    # the picture grows to the right and up to hold them, not left or down
    scene = draw(puzzle)
    assert scene.x0 == 0 and scene.y0 < 0 and scene.width > 6 and scene.y0 + scene.height == 4


def test_a_rectangle_draws_a_solution_and_pencil_marks_in_every_cell() -> None:
    puzzle = parse_puzzle(".Shape~4x6.~R1C1_1~R2C4_2~R3C2_3~R4C5_4")
    solution = [1, 2, 3, 4, 5, 6, 4, 5, 6, 2, 1, 3, 2, 3, 1, 5, 6, 4, 5, 6, 4, 3, 2, 1]
    svg = render(puzzle, solution=solution)
    texts = elements(svg, "given") + elements(svg, "solution")
    assert len(texts) == 24
    spots = {(float(t.get("x", "nan")), float(t.get("y", "nan"))) for t in texts}
    assert spots == {(c + 0.5, r + 0.5) for r in range(4) for c in range(6)}
    marks = elements(render(puzzle, candidates=True), "candidate")
    assert marks and all(0 < float(m.get("x", "nan")) < 6 and 0 < float(m.get("y", "nan")) < 4 for m in marks)


def test_a_rectangle_renders_as_a_png_as_wide_as_its_columns() -> None:
    pytest.importorskip("cairosvg", reason="PNG needs the optional cairosvg")
    png = svg_to_png(render(parse_puzzle(".Shape~4x6.~R1C1_1~R2C4_2~R3C2_3~R4C5_4")))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert 1.2 < width / height < 1.8  # six columns by four rows, with the margins


def test_a_tall_grid_is_taller_than_wide() -> None:
    svg = render(parse_puzzle(".Shape~9x8.~R9C8_8"))
    check_grid(svg, 9, 8)
    assert borders(svg) == set()
    (given,) = elements(svg, "given")
    assert (given.get("x"), given.get("y")) == ("7.5", "8.5")


def test_the_square_grid_is_drawn_as_before() -> None:
    svg = render(parse_puzzle("1" + "." * 80))
    check_grid(svg, 9, 9)
    assert len(borders(svg)) == 2 * 2 * 9  # box edges: two thick lines each way, a cell at a time
    assert {b[0] for b in borders(svg) if b[0] == b[2]} == {3, 6}


def _corpus() -> list[dict[str, str]]:
    if not DATA.exists():
        return []
    with DATA.open(encoding="utf-8") as handle:
        rows = [row for row in csv.DictReader(handle, delimiter="\t") if row["scope"] == "core"]
    return [row for row in rows if parse_iss(row["iss_input"]).geometry.is_rect]


def _digits(text: str) -> list[int]:
    """A published solution as digits: 1-9, or A = 1 … on grids of more than 9 digits."""
    if any(c.isalpha() for c in text):
        return [ord(c.upper()) - ord("A") + 1 for c in text]
    return [int(c) for c in text]


@pytest.mark.skipif(not DATA.exists(), reason="the corpus (../shared/data) is not here")
@pytest.mark.parametrize("row", _corpus(), ids=lambda row: row["name"])
def test_the_corpus_rectangles_render(row: dict[str, str]) -> None:
    puzzle = parse_iss(row["iss_input"])
    geo = puzzle.geometry
    svg = render(puzzle, solution=_digits(row["solution"]))
    check_grid(svg, geo.rows, geo.cols)
    assert len(elements(svg, "given")) + len(elements(svg, "solution")) == geo.ncells
    if geo.box is None:
        assert borders(svg) == set()
    else:
        high, wide = geo.box
        assert {b[0] for b in borders(svg) if b[0] == b[2]} == set(range(wide, geo.cols, wide))
        assert {b[1] for b in borders(svg) if b[1] == b[3]} == set(range(high, geo.rows, high))
    for rule in geo.variant.rules:
        if rule.kind == "skyscraper":  # outside the grid, by the first cell it reads
            clue = [
                t
                for t in elements(svg, "rule-skyscraper")
                if t.text == str(rule.params[0])
                and not (0 < float(t.get("x", "nan")) < geo.cols and 0 < float(t.get("y", "nan")) < geo.rows)
            ]
            assert clue


def test_a_rectangle_fits_a_book_page() -> None:
    pytest.importorskip("fpdf", reason="puzzle books need fpdf2 (the book extra)")
    from shudu.render.pdf import BookEntry, book_pdf

    puzzle = parse_puzzle(BUILT)
    assert book_pdf([BookEntry(1, "4x6", puzzle)], per_page=1, solutions=False)[:5] == b"%PDF-"


def test_shudu_render_draws_a_rectangle_with_its_solution(tmp_path: Path) -> None:
    from shudu.cli import main

    skyscrapers = (
        ".Shape~4x6.Skyscraper~C1~1~4.Skyscraper~C2~2~3.Skyscraper~C3~3~.Skyscraper~C4~3~2"
        ".Skyscraper~C5~2~.Skyscraper~C6~1~.Skyscraper~R4~4~"
    )
    target = tmp_path / "sky.svg"
    err = io.StringIO()
    assert (
        main(["render", "--solution", "-o", str(target), skyscrapers], stdout=io.StringIO(), stderr=err) == 0
    )
    svg = target.read_text(encoding="utf-8")
    check_grid(svg, 4, 6)
    assert len(elements(svg, "solution")) == 24 and len(elements(svg, "rule-skyscraper")) == 10
    assert "Traceback" not in err.getvalue()
