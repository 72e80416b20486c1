"""Text formats: shudu's own (one line, a grid block, JSON; files of one puzzle per line) and the
formats of other programs (HoDoKu, SadMan, Simple Sudoku, pencil marks, f-puzzles, ipuz).

This is the one text boundary of the model: every puzzle or grid read from text is read here,
and the value types (:class:`~shudu.puzzle.Puzzle`, :class:`~shudu.puzzle.Grid`) only take ints.
Parsing and printing only: nothing here solves. Every parse error says where (line, position,
cell) and what is wrong. docs/formats.md describes each format with an example.

The modules, each one job: :mod:`.cells` (characters into digits), :mod:`.text` (the line and
the grid block), :mod:`.json_form`, :mod:`.files` (files of many puzzles); :mod:`.document` (what
the other programs' formats share), :mod:`.hodoku`, :mod:`.sadman`, :mod:`.simple_sudoku`,
:mod:`.pencil_marks`, :mod:`.lzstring`, :mod:`.fpuzzles`, :mod:`.sudokupad`, :mod:`.ipuz`,
:mod:`.iss` and :mod:`.iss_forms`; :mod:`.convert` (every
format by name, detection, files of several puzzles in any format); :mod:`.limits` (the one JSON
loader, :func:`load_json`, and the limits on text from users: docs/errors.md lists them).
"""

from __future__ import annotations

from .cells import DECORATION, block_cells, line_cells, size_from_cells_at, text_cells
from .convert import (
    detect_format,
    document_separator,
    read_document,
    split_documents,
    write_document,
    write_documents,
)
from .document import FORMATS, Document
from .files import Entry, decode_line, read_puzzles
from .fpuzzles import format_fpuzzles, parse_fpuzzles
from .hodoku import format_hodoku, parse_hodoku
from .ipuz import format_ipuz, parse_ipuz
from .json_form import parse_json, to_json
from .limits import MAX_JSON_DEPTH, MAX_JSON_DIGITS, MAX_TEXT_LENGTH, JSONSyntaxError, load_json
from .lzstring import lz_compress_base64, lz_decompress_base64
from .pencil_marks import format_pm, parse_pm
from .sadman import format_sdk, format_sdm, parse_sdk, parse_sdm
from .simple_sudoku import format_ss, parse_ss
from .sudokupad import format_sudokupad, parse_sudokupad
from .text import (
    PuzzleLike,
    as_puzzle,
    format_grid,
    format_line,
    parse_block,
    parse_grid,
    parse_line,
    parse_puzzle,
    region_map,
)

__all__ = [
    "DECORATION",
    "FORMATS",
    "MAX_JSON_DEPTH",
    "MAX_JSON_DIGITS",
    "MAX_TEXT_LENGTH",
    "Document",
    "Entry",
    "JSONSyntaxError",
    "PuzzleLike",
    "as_puzzle",
    "block_cells",
    "decode_line",
    "detect_format",
    "document_separator",
    "format_fpuzzles",
    "format_grid",
    "format_hodoku",
    "format_ipuz",
    "format_line",
    "format_pm",
    "format_sdk",
    "format_sdm",
    "format_ss",
    "format_sudokupad",
    "line_cells",
    "load_json",
    "lz_compress_base64",
    "lz_decompress_base64",
    "parse_block",
    "parse_fpuzzles",
    "parse_grid",
    "parse_hodoku",
    "parse_ipuz",
    "parse_json",
    "parse_line",
    "parse_pm",
    "parse_puzzle",
    "parse_sdk",
    "parse_sdm",
    "parse_ss",
    "parse_sudokupad",
    "read_document",
    "read_puzzles",
    "region_map",
    "size_from_cells_at",
    "split_documents",
    "text_cells",
    "to_json",
    "write_document",
    "write_documents",
]
