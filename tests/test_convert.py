"""The formats of other programs: round trips, detection, lz-string, errors that name the place."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from shudu.cli import printing
from shudu.cli._base import Commands, Output, Parser
from shudu.errors import EmptyInputError, ParseError, ShapeError, ShuduError
from shudu.formats import (
    FORMATS,
    Document,
    detect_format,
    format_sdm,
    lz_compress_base64,
    lz_decompress_base64,
    parse_hodoku,
    parse_pm,
    parse_puzzle,
    parse_sdm,
    read_document,
    read_puzzles,
    split_documents,
    write_document,
    write_documents,
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
            json.dumps({"size": 4, "grid": [[{}] * 4] * 4, "minimum": [{"cell": "R1C1"}]}),
            "fpuzzles",
            "'minimum' is not a rule shudu has",
        ),
        (
            json.dumps({"size": 4, "grid": [[{}] * 4] * 4, "thermometer": [{"lines": []}]}),
            "fpuzzles",
            "thermometer 1 has no line",
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


# A .sdm file written for these tests: SadMan's one puzzle a line, 0 for an empty cell.
SDM = (
    "800000000003600000070090200050007000000045700000100030001000068008500010090000400\n"
    "000198005100060000705002000020907000000003020000001900000000004000500010500000000\n"
    "000000000100000040000000098001007053907650000603020900209000000000500000004200800\n"
)
SDM_PUZZLES = [parse_puzzle(line) for line in SDM.split()]


def test_sdm_reads_and_writes_every_puzzle() -> None:
    docs = parse_sdm(SDM)
    assert [doc.puzzle for doc in docs] == SDM_PUZZLES
    assert format_sdm(docs) == SDM.strip().replace("0", ".")
    with pytest.raises(ParseError, match=r"line 2: .*'x'"):
        parse_sdm(PUZZLE + "\n" + "x" + PUZZLE[1:] + "\n")
    with pytest.raises(ShapeError, match="sdm holds standard 9x9"):
        format_sdm([Document(parse_puzzle("1" + "." * 15))])


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_sdm_file_converts_to_every_format_and_back(fmt: str, tmp_path: Path) -> None:
    source = tmp_path / "three.sdm"
    source.write_text(SDM)
    middle = tmp_path / f"three.{fmt}"
    out = run(["convert", "-i", str(source), "--to", fmt, "-o", str(middle)])
    assert not out.bad_input
    text = middle.read_text()
    assert [read_document(piece).puzzle for _, piece in split_documents(text)] == SDM_PUZZLES
    back = tmp_path / "back.sdm"
    out = run(["convert", "-i", str(middle), "--to", "sdk", "-o", str(back)])
    assert not out.bad_input
    assert back.read_text() == SDM.replace("0", ".")


def test_several_puzzles_of_each_format_split_where_they_were_joined() -> None:
    docs = [Document(p) for p in SDM_PUZZLES]
    for fmt in FORMATS:
        joined = write_documents(docs, fmt)
        pieces = split_documents(joined)
        assert len(pieces) == 3, fmt
        assert [read_document(text, fmt).puzzle for _, text in pieces] == SDM_PUZZLES, fmt
    # .sdk holds one puzzle: several go out as .sdm lines unless refused
    assert write_documents(docs, "sdk") == format_sdm(docs)
    assert write_documents(docs[:1], "sdk", sdm=True) == SDM_PUZZLES[0].to_string()
    with pytest.raises(ShapeError, match=r"write several as \.sdm"):
        write_documents(docs, "sdk", sdm=False)


def test_split_documents_keeps_one_puzzle_whole() -> None:
    assert split_documents(SDK) == [(1, SDK)]
    assert split_documents(SS) == [(1, SS)]
    pretty = json.dumps({"givens": PUZZLE, "variant": "x"}, indent=2)
    assert split_documents(pretty) == [(1, pretty)]
    big = "\n".join("." * 16 for _ in range(16))  # a 16x16 grid, not sixteen 4x4 puzzles
    assert split_documents(big) == [(1, big)]
    assert read_document(big).puzzle.geometry.size == 16
    # two .sdk puzzles with their metadata, and a comment block that is no puzzle
    two = "# two puzzles\n\n" + SDK + "\n" + SDK.replace("A test puzzle", "Another")
    pieces = split_documents(two)
    assert [n for n, _ in pieces] == [3, 15]
    assert [read_document(t).title for _, t in pieces] == ["A test puzzle", "Another"]
    with pytest.raises(EmptyInputError):
        split_documents("# only a comment\n\n")


def test_a_hodoku_library_reads_one_puzzle_a_line() -> None:
    other = HODOKU.replace(":0100:5:8", ":0000::1").replace(":512 513:", ":")
    library = f"# a library\n#\n{HODOKU}\n{other}\n"
    pieces = split_documents(library)
    assert [n for n, _ in pieces] == [3, 4]
    docs = [read_document(text) for _, text in pieces]
    assert docs[0].candidates is not None and docs[1].candidates is None
    assert write_documents(docs, "hodoku").splitlines() == [
        write_document(read_document(HODOKU), "hodoku"),
        write_document(read_document(other), "hodoku"),
    ]


def test_cli_convert_reports_a_bad_puzzle_of_a_file_by_its_line(tmp_path: Path) -> None:
    source = tmp_path / "bad.sdm"
    lines = SDM.split()
    source.write_text(f"{lines[0]}\n\n{lines[1][:-1]}\n{lines[2]}\n")
    out = run(["convert", "-i", str(source), "--to", "line"])
    assert out.bad_input and isinstance(out.err, io.StringIO) and isinstance(out.out, io.StringIO)
    assert out.err.getvalue().startswith("shudu: line 3: ")
    assert out.out.getvalue().split() == [SDM_PUZZLES[0].to_string(), SDM_PUZZLES[2].to_string()]


def test_a_sdm_file_is_read_wherever_puzzles_are_read(tmp_path: Path) -> None:
    from shudu.batch import read_items

    source = tmp_path / "three.sdm"
    source.write_text("# a comment line\n" + SDM.replace("\n", "\r\n"))
    with source.open("rb") as stream:
        entries = list(read_puzzles(stream))
    assert [(e.line, e.puzzle) for e in entries] == [
        (2, SDM_PUZZLES[0]),
        (3, SDM_PUZZLES[1]),
        (4, SDM_PUZZLES[2]),
    ]
    items = list(read_items(str(source), defer=False))
    assert [(item.line, item.puzzle) for item in items] == [(e.line, e.puzzle) for e in entries]
