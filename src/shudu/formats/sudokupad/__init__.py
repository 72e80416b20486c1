"""SudokuPad's own puzzles: links that carry SudokuPad's JSON (``sudokupad.app/ctc…``: the JSON
lz-string compressed in base64; ``…/scl…``: the JSON in SudokuPad's short form, compressed).

SudokuPad stores a puzzle as a picture: the givens, the regions, the cages with their totals,
and lines, arrows and shapes (``overlays`` above the digits, ``underlays`` below) that say
nothing of their meaning. The reader gives a drawing its rule by the conventions of SudokuPad's
own converter from f-puzzles, which shudu's writer follows too (docs/formats.md lists them): a
grey line with a bulb is a thermometer, a small black dot between two cells a black kropki dot,
an ``X`` on an edge an X … A drawing that matches no convention (a line of a colour no rule has,
a circle that is no arrow's) is a ParseError that names it: nothing is dropped silently.
"""

from __future__ import annotations

from ._link import is_sudokupad, sudokupad_payload
from ._read import parse_sudokupad
from ._tables import LINE_COLOURS
from ._write import format_sudokupad

__all__ = ["LINE_COLOURS", "format_sudokupad", "is_sudokupad", "parse_sudokupad", "sudokupad_payload"]
