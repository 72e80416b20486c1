"""The formats of other programs: round trips, detection, lz-string, errors that name the place."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from shudu.cli import printing
from shudu.cli._common import Commands, Output, Parser
from shudu.errors import ParseError, ShapeError, ShuduError
from shudu.formats import (
    FORMATS,
    Document,
    detect_format,
    lz_compress_base64,
    lz_decompress_base64,
    parse_hodoku,
    parse_pm,
    parse_puzzle,
    read_document,
    write_document,
)

PUZZLE = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
LAYOUT = "111222333111222333141252663144255563445556663444458666777758999778888999777888999"

# Fixtures written for these tests, each in the other program's own layout.
SDK = "#AUnknown\n#DA test puzzle\n8........\n..36.....\n.7..9.2..\n.5...7...\n....457..\n...1...3.\n..1....68\n..85...1.\n.9....4..\n"
SS = """*-----------*
|8..|...|...|
|..3|6..|...|
|.7.|.9.|2..|
|---+---+---|
|.5.|..7|...|
|...|.45|7..|
|...|1..|.3.|
|---+---+---|
|..1|...|.68|
|..8|5..|.1.|
|.9.|...|4..|
*-----------*
"""
PM_4X4 = """
.-----------.-----------.
| 1    23   | 234   4   |
| 34   4    | 1     2   |
:-----------+-----------:
| 2    1    | 4     3   |
| 4    3    | 2     1   |
'-----------'-----------'
"""
HODOKU = (
    ":0100:5:8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..:512 513::::"
)


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_round_trips_a_standard_puzzle(fmt: str) -> None:
    doc = Document(parse_puzzle(PUZZLE))
    text = write_document(doc, fmt)
    assert read_document(text).puzzle == doc.puzzle
    assert read_document(text, fmt).puzzle == doc.puzzle


@pytest.mark.parametrize(
    "variant",
    ["x", "pyramid", "windoku", "anti-knight", "x+anti-king", {"variant": "jigsaw", "layout": LAYOUT}],
)
def test_fpuzzles_keeps_the_variants(variant: Any) -> None:
    doc = Document(parse_puzzle("." * 80 + "1", variant=variant))
    link = write_document(doc, "fpuzzles")
    assert link.startswith("https://www.f-puzzles.com/?load=")
    assert detect_format(link) == "fpuzzles"
    assert read_document(link).puzzle == doc.puzzle


def test_fpuzzles_keeps_entries_and_pencil_marks() -> None:
    puzzle = parse_puzzle("1" + "." * 15)
    entries = (0, 2) + (0,) * 14
    marks = (0, 0, 0b1100) + (0,) * 13
    doc = Document(puzzle, entries, marks, "small")
    back = read_document(write_document(doc, "fpuzzles"))
    assert back == doc


def test_custom_regions_survive_fpuzzles_as_regions() -> None:
    puzzle = parse_puzzle("." * 16, variant={"regions": [[0, 5, 10, 3]]})
    back = read_document(write_document(Document(puzzle), "fpuzzles")).puzzle
    assert {frozenset(r) for r in back.variant.regions} == {frozenset((0, 5, 10, 3))}


def test_sudokupad_links_read() -> None:
    data = json.dumps({"size": 4, "grid": [[{"value": 1, "given": True}, {}, {}, {}]] + [[{}] * 4] * 3})
    for link in (
        "https://sudokupad.app/fpuzzles" + lz_compress_base64(data),
        "https://www.f-puzzles.com/?load=" + lz_compress_base64(data).replace("+", "%2B"),
        data,
    ):
        assert read_document(link, "fpuzzles").puzzle.cells == (1,) + (0,) * 15


@pytest.mark.parametrize(
    "text",
    ["", "a", "aaaaaaaaaaaaaaaaaaaaaa", '{"size":9,"grid":[[{"value":5,"given":true}]]}', "ümlaut ☃ ∑"],
)
def test_lz_string_agrees_with_the_reference_package(text: str) -> None:
    lzstring = pytest.importorskip("lzstring", reason="the lzstring package cross-checks lz-string")
    reference = lzstring.LZString()
    assert lz_compress_base64(text) == reference.compressToBase64(text)
    assert lz_decompress_base64(reference.compressToBase64(text)) == text


def test_sdk_and_ss_fixtures_read() -> None:
    sdk = read_document(SDK)
    assert sdk.puzzle == parse_puzzle(PUZZLE) and sdk.title == "A test puzzle"
    assert detect_format(SDK) == "sdk"
    assert write_document(sdk, "sdk").splitlines()[0] == "#DA test puzzle"
    assert detect_format(SS) == "ss" and read_document(SS).puzzle == parse_puzzle(PUZZLE)
    assert write_document(sdk, "ss") == SS.strip()


def test_pencil_mark_grid_keeps_candidates_and_reads_singles_as_givens() -> None:
    doc = parse_pm(PM_4X4)
    assert detect_format(PM_4X4) == "pm"
    assert doc.puzzle.to_string() == "1..4.41221434321"
    assert doc.candidates is not None and doc.candidates[1] == 0b110 and doc.candidates[4] == 0b1100
    assert parse_pm(write_document(doc, "pm")) == doc


def test_hodoku_line_keeps_entries_and_deleted_candidates() -> None:
    doc = parse_hodoku(HODOKU)
    assert doc.puzzle == parse_puzzle(PUZZLE)
    assert doc.candidates is not None
    assert not doc.candidates[1] >> 4 & 1 and not doc.candidates[2] >> 4 & 1  # 512, 513 deleted
    assert parse_hodoku(write_document(doc, "hodoku")) == doc
    placed = ":0000::+8" + PUZZLE[1:] + "::::"
    entry = parse_hodoku(placed)
    assert entry.entries[0] == 8 and entry.puzzle.cells[0] == 0
    assert write_document(entry, "hodoku").startswith(":0000::+8")


@pytest.mark.parametrize(
    ("text", "fmt", "message"),
    [
        (":0000::12::::", "hodoku", "has 2 cells"),
        (":0000::" + PUZZLE + ":5x3:::", "hodoku", "'5x3' is not written"),
        ("#D title\n8........\n..36....\n", "sdk", "line 3: an .sdk puzzle is nine rows"),
        ("https://www.f-puzzles.com/?load=!!!", "fpuzzles", "not base64"),
        ('{"size": 4, "grid": [], "thermometer": [1]}', "fpuzzles", "must be 4 rows"),
        (
            json.dumps({"size": 4, "grid": [[{}] * 4] * 4, "thermometer": [{"lines": []}]}),
            "fpuzzles",
            "'thermometer' is not a rule shudu has",
        ),
        ('{"kind": ["http://ipuz.org/crossword#1"]}', "ipuz", "an ipuz sudoku"),
        ("1 23 4\n5 6", "pm", "n·n cells"),
    ],
)
def test_bad_input_gets_a_specific_error(text: str, fmt: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        read_document(text, fmt)


def test_formats_that_cannot_hold_a_variant_say_so() -> None:
    doc = Document(parse_puzzle("." * 80 + "1", variant="x"))
    for fmt in ("sdk", "ss", "hodoku", "ipuz"):
        with pytest.raises(ShapeError, match="json or fpuzzles"):
            write_document(doc, fmt)


def run(argv: list[str]) -> Output:
    parser = Parser(prog="shudu")
    printing.register(Commands(parser.add_subparsers(dest="command")))
    args = parser.parse_args(argv)
    out = Output(io.StringIO(), io.StringIO())
    args.run(args, out)
    return out


def test_cli_convert(tmp_path: Path) -> None:
    source = tmp_path / "p.sdk"
    source.write_text(SDK)
    out = run(["convert", "-i", str(source), "--to", "ss"])
    assert isinstance(out.out, io.StringIO) and out.out.getvalue().strip() == SS.strip()
    target = tmp_path / "p.ipuz"
    run(["convert", PUZZLE, "--to", "ipuz", "-o", str(target)])
    assert read_document(target.read_text()).puzzle == parse_puzzle(PUZZLE)


def test_cli_convert_reports_bad_input() -> None:
    out = run(["convert", ":0000::12::::", "--to", "line"])
    assert out.bad_input and isinstance(out.err, io.StringIO) and "has 2 cells" in out.err.getvalue()
    with pytest.raises(ShuduError, match="give a puzzle"):
        run(["convert", "--to", "line"])
