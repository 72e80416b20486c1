"""Puzzle books: the PDF read back with pypdf, one page rendered to pixels, and the command line."""

from __future__ import annotations

import io
import math
import shutil
import subprocess
from pathlib import Path

import pytest

import shudu
from shudu.cli import main
from shudu.errors import OptionError, ShuduError
from shudu.render.scene import RenderError

pytest.importorskip("fpdf", reason="puzzle books need fpdf2 (the book extra)")
pypdf = pytest.importorskip("pypdf", reason="the book tests read the PDF back with pypdf")

from shudu.book import book, puzzle_seed  # noqa: E402
from shudu.render.pdf import BookEntry, book_pdf  # noqa: E402

#: A 4x4 puzzle and its one solution.
SMALL = "1...........4..."


def read(pdf: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(pdf))


def texts(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in read(pdf).pages]


@pytest.mark.parametrize(("per_page", "puzzle_pages"), [(1, 7), (2, 4), (4, 2), (6, 2)])
def test_each_layout_has_its_pages_and_the_solutions_at_the_back(per_page: int, puzzle_pages: int) -> None:
    pdf = book(7, size=4, level="easy", per_page=per_page, seed=11)
    pages = texts(pdf)
    solution_pages = 2  # 7 solutions, 6 a page
    assert len(pages) == puzzle_pages + solution_pages
    for page in pages[:puzzle_pages]:
        assert "Solutions" not in page
    for page in pages[puzzle_pages:]:
        assert page.startswith("Solutions")
    # every puzzle's number and label on the page it belongs to, in order
    for number in range(1, 8):
        page = pages[(number - 1) // per_page]
        assert f"No. {number}" in page
        solutions = pages[puzzle_pages + (number - 1) // 6]
        assert f"No. {number}" in solutions
    assert all(
        page.count("easy") == min(per_page, 7 - i * per_page) for i, page in enumerate(pages[:puzzle_pages])
    )


def test_title_page_and_mix_labels() -> None:
    pdf = book(5, size=9, mix=("easy", "medium"), per_page=6, title="Morning puzzles", seed=4)
    pages = texts(pdf)
    assert len(pages) == 1 + 1 + 1
    assert "Morning puzzles" in pages[0]
    assert "5 easy, medium 9x9 puzzles, seed 4" in pages[0]
    assert read(pdf).metadata.title == "Morning puzzles"
    labels = [line.split()[-1] for line in pages[1].splitlines() if line.startswith("No. ")]
    assert labels == ["easy", "medium", "easy", "medium", "easy"]


def test_labels_are_the_rated_levels() -> None:
    """Each label is the level shudu.rate gives the puzzle the book holds."""
    pdf = book(3, size=9, mix=("easy", "medium", "hard"), per_page=1, seed=21)
    pages = texts(pdf)
    for index in range(3):
        made = shudu.generate(9, level=("easy", "medium", "hard")[index], seed=puzzle_seed(21, index))
        level = shudu.rate(made.puzzle).level
        assert f"No. {index + 1} {level}" in pages[index].replace("\n", " ")


def test_the_givens_and_solution_are_painted() -> None:
    puzzle = shudu.parse_puzzle(SMALL)
    solution = shudu.solve(puzzle).solution
    assert solution is not None
    pdf = book_pdf([BookEntry(1, "easy", puzzle, solution)], per_page=1)
    puzzle_page, solution_page = texts(pdf)
    # the digits on the puzzle page: the givens, plus "No. 1" and the page number 1
    digits = [ch for ch in puzzle_page if ch.isdigit()]
    assert sorted(digits) == sorted(["1", "4", "1", "1"])
    rows = [solution.to_string()[r * 4 : r * 4 + 4] for r in range(4)]
    lines = [line.replace(" ", "") for line in solution_page.splitlines()]
    for row in rows:
        assert row in lines


def test_same_seed_same_bytes_other_seed_other_book() -> None:
    first = book(4, size=6, level="easy", seed=5, title="Six")
    assert first == book(4, size=6, level="easy", seed=5, title="Six")
    assert first != book(4, size=6, level="easy", seed=6, title="Six")


@pytest.mark.parametrize(("page_size", "points"), [("a4", (595.28, 841.89)), ("Letter", (612.0, 792.0))])
def test_page_sizes(page_size: str, points: tuple[float, float]) -> None:
    pdf = book(1, size=4, level="easy", page_size=page_size, seed=1)
    for page in read(pdf).pages:
        assert float(page.mediabox.width) == pytest.approx(points[0], abs=0.1)
        assert float(page.mediabox.height) == pytest.approx(points[1], abs=0.1)


def test_variant_regions_and_rules_are_drawn() -> None:
    pdf = book(1, size=9, variant="anti-knight", level="easy", per_page=1, seed=2)
    assert "knight's move" in texts(pdf)[0]


def _pixels(pdf: bytes, tmp_path: Path) -> tuple[int, int, bytes]:
    """Page 1 as (width, height, greyscale bytes), through pypdfium2 or poppler's pdftoppm."""
    try:
        import PIL  # noqa: F401  (pypdfium2 hands its bitmaps over as Pillow images)
        import pypdfium2  # type: ignore[import-untyped]
    except ImportError:
        pypdfium2 = None
    if pypdfium2 is not None:
        image = pypdfium2.PdfDocument(pdf)[0].render(scale=1).to_pil().convert("L")
        return image.width, image.height, image.tobytes()
    if shutil.which("pdftoppm") is None:
        pytest.skip("rendering a page needs pypdfium2 or poppler's pdftoppm")
    source = tmp_path / "book.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-gray", "-r", "72", "-f", "1", "-l", "1", str(source), str(tmp_path / "page")],
        check=True,
    )
    (page,) = tmp_path.glob("page*.pgm")
    data = page.read_bytes()
    # binary PGM: P5 width height maxval, then the pixels
    header = data.split(maxsplit=4)
    return int(header[1]), int(header[2]), header[4]


def test_a_page_renders_to_a_picture_of_a_grid(tmp_path: Path) -> None:
    pdf = book(1, size=9, level="easy", per_page=1, seed=3)
    width, height, pixels = _pixels(pdf, tmp_path)
    assert abs(width / height - 210 / 297) < 0.01
    dark = sum(1 for p in pixels if p < 128)
    # neither blank nor filled: grid lines and digits cover a few percent of an A4 page
    assert 0.01 < dark / len(pixels) < 0.3
    # the grid is a square centred across the page: dark rows span it left to right
    rows = [pixels[y * width : (y + 1) * width] for y in range(height)]
    full = [y for y, row in enumerate(rows) if sum(1 for p in row if p < 128) > width * 0.6]
    assert full, "no horizontal grid line found"
    line = rows[full[0]]
    left = next(x for x in range(width) if line[x] < 128)
    right = max(x for x in range(width) if line[x] < 128)
    assert math.isclose(left, width - 1 - right, abs_tol=width * 0.02)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"count": 0}, OptionError, "count must be a whole number from 1 to 1000"),
        ({"per_page": 5}, RenderError, "per_page must be 1, 2, 4 or 6"),
        ({"page_size": "a3"}, RenderError, "unknown page size 'a3'"),
        ({"mix": ("easy", "tricky")}, OptionError, "unknown level 'tricky'"),
        ({"mix": ("easy",), "level": "easy"}, OptionError, "not both"),
        ({"title": "数独"}, RenderError, "Latin-1"),
        ({"level": "hard"}, ShuduError, "no 4x4 puzzle is hard"),
        ({"timeout": 0}, OptionError, "timeout"),
    ],
)
def test_bad_options_are_clear_errors(kwargs: dict[str, object], error: type[Exception], words: str) -> None:
    options: dict[str, object] = {"count": 2, "size": 4, "seed": 1, **kwargs}
    with pytest.raises(error, match=words):
        book(**options)  # type: ignore[arg-type]


def test_command_line_writes_the_book(tmp_path: Path) -> None:
    target = tmp_path / "book.pdf"
    out, err = io.StringIO(), io.StringIO()
    argv = ["book", "--size", "4", "--count", "3", "--per-page", "1", "--page", "letter", "--seed", "9"]
    status = main([*argv, "--title", "Small", "-o", str(target)], stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    assert f"wrote {target}: 3 puzzles on 5 pages (seed 9)" in err.getvalue()
    pdf = target.read_bytes()
    assert len(read(pdf).pages) == 1 + 3 + 1
    assert pdf == book(3, size=4, per_page=1, page_size="letter", title="Small", seed=9)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--count", "0"], "--count must be a whole number from 1 to 1000, not '0'"),
        (["--per-page", "5"], "--per-page must be 1, 2, 4 or 6 puzzles a page, not '5'"),
        (["--page", "a3"], "--page must be a4 or letter, not 'a3'"),
        (["--mix", "easy,tricky"], "--mix has an unknown level 'tricky'"),
        (["--level", "easy", "--mix"], "not allowed with argument"),
        (["--timeout", "-1"], "--timeout"),
        (["-o", "book.svg"], "must end in .pdf"),
        (["--size", "4", "--level", "hard"], "no 4x4 puzzle is hard"),
    ],
)
def test_command_line_refuses_bad_options(argv: list[str], message: str, tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    target = ["-o", str(tmp_path / "b.pdf")] if "-o" not in argv else []
    status = main(["book", *argv, *target], stdout=out, stderr=err)
    assert status == 2
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("shudu: ") and message in lines[0]
    assert not (tmp_path / "b.pdf").exists()
