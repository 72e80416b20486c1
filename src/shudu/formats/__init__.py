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

import importlib
from typing import TYPE_CHECKING, Any

from .cells import DECORATION, block_cells, line_cells, size_from_cells_at, text_cells
from .files import Entry, decode_line, read_puzzles
from .json_form import parse_json, to_json
from .limits import MAX_JSON_DEPTH, MAX_JSON_DIGITS, MAX_TEXT_LENGTH, JSONSyntaxError, load_json
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

#: The other programs' formats and the conversions, loaded on first use (PEP 562): each name
#: and the module of this package that holds it. shudu's own forms above are loaded at once.
_LAZY: dict[str, str] = {
    **dict.fromkeys(["FORMATS", "Document"], "document"),
    **dict.fromkeys(["detect_format", "document_separator", "read_document"], "convert"),
    **dict.fromkeys(["split_documents", "write_document", "write_documents"], "convert"),
    **dict.fromkeys(["format_fpuzzles", "parse_fpuzzles"], "fpuzzles"),
    **dict.fromkeys(["format_hodoku", "parse_hodoku"], "hodoku"),
    **dict.fromkeys(["format_ipuz", "parse_ipuz"], "ipuz"),
    **dict.fromkeys(["lz_compress_base64", "lz_decompress_base64"], "lzstring"),
    **dict.fromkeys(["format_pm", "parse_pm"], "pencil_marks"),
    **dict.fromkeys(["format_sdk", "format_sdm", "parse_sdk", "parse_sdm"], "sadman"),
    **dict.fromkeys(["format_ss", "parse_ss"], "simple_sudoku"),
    **dict.fromkeys(["format_sudokupad", "parse_sudokupad"], "sudokupad"),
}

if TYPE_CHECKING:
    from .convert import (
        detect_format,
        document_separator,
        read_document,
        split_documents,
        write_document,
        write_documents,
    )
    from .document import FORMATS, Document
    from .fpuzzles import format_fpuzzles, parse_fpuzzles
    from .hodoku import format_hodoku, parse_hodoku
    from .ipuz import format_ipuz, parse_ipuz
    from .lzstring import lz_compress_base64, lz_decompress_base64
    from .pencil_marks import format_pm, parse_pm
    from .sadman import format_sdk, format_sdm, parse_sdk, parse_sdm
    from .simple_sudoku import format_ss, parse_ss
    from .sudokupad import format_sudokupad, parse_sudokupad


#: The modules of this package reachable as attributes before they are imported.
_MODULES = frozenset({*_LAZY.values(), "fpuzzles_rules"})


def __getattr__(name: str) -> Any:
    """A name of :data:`_LAZY` or a module of this package, imported the first time it is asked
    for."""
    if name in _LAZY:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    elif name in _MODULES:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


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
