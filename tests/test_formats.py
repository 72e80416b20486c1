"""Text formats: line, grid block, JSON, files; round trips and precise errors."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shudu import Grid, Puzzle
from shudu.errors import ConflictError, EmptyInputError, ParseError, ShapeError, ShuduError, VariantError
from shudu.formats import (
    as_puzzle,
    format_grid,
    parse_block,
    parse_grid,
    parse_json,
    parse_puzzle,
    read_puzzles,
    to_json,
)

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."

SIZES = [4, 6, 8, 9, 10, 12, 16, 25]


@st.composite
def grids(draw: st.DrawFn, sizes: list[int] = SIZES) -> Grid:
    """Any assignment of digits (conflicts allowed: a Grid does not forbid them)."""
    size = draw(st.sampled_from(sizes))
    cells = draw(st.lists(st.integers(0, size), min_size=size * size, max_size=size * size))
    return Grid(cells)


@given(grids())
def test_line_round_trip(grid: Grid) -> None:
    assert parse_grid(grid.to_string()) == grid
    assert parse_grid(grid.to_string().lower().replace(".", "0")) == grid


@given(grids())
def test_grid_block_round_trip(grid: Grid) -> None:
    assert parse_block(format_grid(grid), kind=Grid) == grid


@given(grids(), st.sampled_from(["standard", "x", "anti-king", "x+anti-knight"]))
def test_json_round_trip(grid: Grid, variant: str) -> None:
    grid = Grid(grid.cells, variant=variant)
    text = json.dumps(to_json(grid))
    assert parse_json(text, kind=Grid) == grid
    assert parse_puzzle(text, kind=Grid) == grid


@given(st.lists(st.integers(0, 80), min_size=9, max_size=9, unique=True))
def test_json_round_trip_custom_regions(region: list[int]) -> None:
    grid = parse_grid("." * 81, variant={"variant": "x+custom", "regions": [region]})
    back = parse_json(json.dumps(to_json(grid)), kind=Grid)
    assert back == grid
    assert back.variant.regions[-1] == tuple(region)


def test_json_jigsaw_round_trip() -> None:
    layout = "1122112233443344"
    p = parse_puzzle("1...............", variant={"layout": layout})
    data = to_json(p)
    assert data["variant"] == "jigsaw" and data["layout"] == layout
    assert parse_json(data) == p


def test_sixteen_uses_letters_case_insensitively() -> None:
    line = "G" + "." * 255
    assert parse_puzzle(line)[0] == 16
    assert parse_puzzle(line.lower()) == parse_puzzle(line)
    with pytest.raises(ParseError, match=r"'H' at position 1 \(r1c1\) is not a digit of a 16x16 puzzle"):
        parse_puzzle("H" + "." * 255)


def test_line_errors_say_where() -> None:
    with pytest.raises(ParseError) as caught:
        parse_puzzle(INKALA[:10] + "x" + INKALA[11:], line=7)
    err = caught.value
    assert (err.line, err.column, err.char) == (7, 11, "x")
    assert str(err).startswith("line 7: character 'x' at position 11 (r2c2)")
    with pytest.raises(ParseError, match="80 cells, which is not a square grid"):
        parse_puzzle(INKALA[:80])
    with pytest.raises(ParseError, match="not a digit of a 4x4 puzzle"):
        parse_puzzle("5" + "." * 15)


def test_block_with_decoration() -> None:
    text = """
    8 . . | . . . | . . .
    . . 3 | 6 . . | . . .
    . 7 . | . 9 . | 2 . .
    ------+-------+------
    . 5 . | . . 7 | . . .
    . . . | . 4 5 | 7 . .
    . . . | 1 . . | . 3 .
    ------+-------+------
    . . 1 | . . . | . 6 8
    . . 8 | 5 . . | . 1 .
    . 9 . | . . . | 4 . .
    """
    assert parse_puzzle(text) == parse_puzzle(INKALA)
    assert parse_puzzle(text.replace(".", "_")) == parse_puzzle(INKALA)


def test_block_errors() -> None:
    with pytest.raises(ParseError, match="grid row 2 has 8 cells; expected 9"):
        rows = [INKALA[i : i + 9] for i in range(0, 81, 9)]
        rows[1], rows[2] = rows[1][:8], rows[2] + rows[1][8]
        parse_block("\n".join(rows))
    with pytest.raises(ParseError, match="the grid has 3 rows"):
        parse_block("1234\n1234\n" + "." * 28)


def test_json_form_and_errors() -> None:
    p = parse_json({"size": 9, "box": [3, 3], "variant": "pyramid", "givens": "." * 81})
    assert p.variant.name == "pyramid"
    assert parse_json({"givens": [0] * 36, "box": "3x2"}).box == (3, 2)
    rows = parse_json({"givens": ["1...", "....", "....", "...."]})
    assert rows[0] == 1
    with pytest.raises(ParseError, match='no "givens"'):
        parse_json({"size": 9})
    with pytest.raises(ParseError, match="unknown JSON field 'givns'"):
        parse_json({"givns": "." * 81})
    with pytest.raises(ParseError, match='"size" is 6 but the givens have 81 cells'):
        parse_json({"size": 6, "givens": "." * 81})
    with pytest.raises(ParseError, match="invalid JSON"):
        parse_puzzle('{"givens": ')
    with pytest.raises(ShapeError, match="do not tile"):
        parse_json({"givens": "." * 36, "box": [3, 3]})
    with pytest.raises(VariantError, match="region 1 has 2 cells"):
        parse_json({"givens": "." * 81, "regions": [["r1c1", "r1c2"]]})


def test_read_puzzles_keeps_line_numbers() -> None:
    text = f"# a comment\n\n{INKALA}\nnot a puzzle\n   \n{INKALA.replace('8', '.', 1)}\n"
    entries = list(read_puzzles(io.StringIO(text)))
    assert [e.line for e in entries] == [3, 4, 6]
    assert entries[0].puzzle == parse_puzzle(INKALA)
    assert entries[1].puzzle is None and entries[1].error is not None
    assert str(entries[1].error).startswith("line 4: ")
    assert entries[2].puzzle is not None and entries[2].error is None


def test_read_puzzles_json_lines_and_blocks() -> None:
    json_line = json.dumps({"givens": "." * 81, "variant": "x"})
    entries = list(read_puzzles([json_line, INKALA]))
    assert entries[0].puzzle is not None and entries[0].puzzle.variant.name == "x"
    blocks = format_grid(parse_puzzle(INKALA)) + "\n\n" + format_grid(parse_puzzle("." * 81)) + "\n"
    entries = list(read_puzzles(io.StringIO(blocks)))
    assert [e.line for e in entries] == [1, 13]
    assert entries[0].puzzle == parse_puzzle(INKALA)


def test_empty_input() -> None:
    with pytest.raises(EmptyInputError, match="holds no puzzle"):
        list(read_puzzles(io.StringIO("# nothing\n\n")))


def test_pretty_grid_marks_extra_regions() -> None:
    drawn = format_grid(parse_puzzle("." * 81, variant="pyramid"))
    lines = drawn.splitlines()
    assert lines[0] == ". . . | . . . | . . ."
    assert lines[3] == "------+-------+------"
    assert (
        "# extra regions: a = pyramid top, b = pyramid bottom, c = pyramid left, d = pyramid right" in lines
    )
    assert "# . . a a a a a . ." in lines
    assert str(parse_puzzle("." * 81, variant="pyramid")) == "." * 81  # str() is the line form
    assert parse_block(drawn) == parse_puzzle("." * 81)  # the map is a comment to the parser
    six = format_grid(parse_puzzle("." * 36)).splitlines()
    assert six[0] == ". . . | . . ." and six[2] == "------+------"


def test_as_puzzle_resolves_puzzle_like_arguments() -> None:
    puzzle = parse_puzzle(INKALA)
    assert as_puzzle(puzzle) is puzzle
    assert as_puzzle(INKALA) == puzzle
    assert as_puzzle(format_grid(puzzle)) == puzzle
    assert as_puzzle(json.dumps(to_json(puzzle))) == puzzle
    assert as_puzzle("." * 16, variant="x").variant.name == "x"
    assert as_puzzle("." * 36, box="3x2").box == (3, 2)
    with pytest.raises(TypeError, match="expected a Puzzle or puzzle text, not list"):
        as_puzzle([0] * 81)  # type: ignore[arg-type]


def test_parse_grid_allows_conflicts_parse_puzzle_does_not() -> None:
    text = "11" + "." * 14
    assert isinstance(parse_grid(text), Grid) and not parse_grid(text).is_valid
    with pytest.raises(ConflictError):
        parse_puzzle(text)


@given(st.text(alphabet='123456789ABCDEFGH.0_ |-+\n{}"givens:[],x', max_size=300))
def test_text_always_goes_through_the_checks(text: str) -> None:
    """Whatever the text, a parsed puzzle is as checked as one built from ints (no trusted path)."""
    try:
        puzzle = parse_puzzle(text)
    except ShuduError:
        return
    size = puzzle.size
    assert len(puzzle.cells) == size * size
    assert all(isinstance(v, int) and 0 <= v <= size for v in puzzle.cells)
    assert next(puzzle.conflicts(), None) is None
    assert Puzzle(puzzle.cells, geometry=puzzle.geometry) == puzzle


def test_read_puzzles_takes_bytes_and_isolates_bad_utf8() -> None:
    lines = [
        INKALA.encode() + b"\n",
        "# a comment in Latin-1: caf\u00e9".encode("latin-1") + b"\n",
        b"12\xff4" + b"." * 12 + b"\n",
        "\u00e9".encode("latin-1") + b"\n",
        INKALA.replace("8", ".", 1).encode() + b"\r\n",
    ]
    entries = list(read_puzzles(lines))
    assert [e.line for e in entries] == [1, 3, 4, 5]
    assert entries[0].puzzle == parse_puzzle(INKALA)
    bad = entries[1]
    assert bad.puzzle is None and isinstance(bad.error, ParseError)
    assert str(bad.error) == "line 3: not UTF-8 text (byte 0xff at column 3)"
    assert (bad.error.line, bad.error.column) == (3, 3)
    assert "\ufffd" in bad.text
    assert str(entries[2].error) == "line 4: not UTF-8 text (byte 0xe9 at column 1)"
    assert entries[3].puzzle is not None and entries[3].error is None


def test_read_puzzles_bad_utf8_inside_a_grid_block() -> None:
    rows = format_grid(parse_puzzle(INKALA)).encode().splitlines(keepends=True)
    broken = [*rows[:4], b". \x80 .\n", *rows[4:]]
    entries = list(read_puzzles([*broken, b"\n", *rows]))
    assert [e.line for e in entries] == [1, 14]
    assert str(entries[0].error) == "line 5: not UTF-8 text (byte 0x80 at column 3)"
    assert entries[1].puzzle == parse_puzzle(INKALA)


@pytest.mark.parametrize("as_bytes", [True, False])
def test_read_puzzles_drops_a_leading_bom(as_bytes: bool) -> None:
    text = "\ufeff" + INKALA + "\n" + "\ufeff" + INKALA + "\n"
    lines: list[str] | list[bytes] = (
        text.encode().splitlines(keepends=True) if as_bytes else text.splitlines(keepends=True)
    )
    first, second = read_puzzles(lines)
    assert first.puzzle == parse_puzzle(INKALA) and first.text == INKALA
    # only the start of the input is a byte order mark; later it is a stray character
    assert second.puzzle is None and "82 cells" in str(second.error)


def test_read_puzzles_bom_before_a_grid_block() -> None:
    block = "\ufeff" + format_grid(parse_puzzle(INKALA)) + "\n"
    (entry,) = read_puzzles(io.BytesIO(block.encode()))
    assert entry.puzzle == parse_puzzle(INKALA)


def test_the_package_keeps_every_name_its_importers_use() -> None:
    import shudu.formats as formats

    used = [
        "DECORATION",
        "FORMATS",
        "Document",
        "Entry",
        "PuzzleLike",
        "as_puzzle",
        "decode_line",
        "detect_format",
        "format_grid",
        "lz_compress_base64",
        "lz_decompress_base64",
        "parse_block",
        "parse_grid",
        "parse_hodoku",
        "parse_json",
        "parse_pm",
        "parse_puzzle",
        "read_document",
        "read_puzzles",
        "to_json",
        "write_document",
    ]
    assert set(used) <= set(formats.__all__)
    assert all(getattr(formats, name) is not None for name in formats.__all__)
