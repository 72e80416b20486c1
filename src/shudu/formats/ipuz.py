"""ipuz, the open puzzle format: its sudoku kind."""

from __future__ import annotations

import json
from typing import Any

from ..errors import ParseError, ShapeError
from ..geometry import default_box
from ..notation import char_digit, digit_char
from ..puzzle import Puzzle
from .cells import build_board
from .document import Document
from .limits import load_json


def parse_ipuz(text: str, *, line: int | None = None) -> Document:
    """An ipuz sudoku (``"kind": ["http://ipuz.org/sudoku#1"]``): ``puzzle`` rows, ``empty`` value."""
    try:
        data = load_json(text, what="the ipuz JSON")
    except ParseError as exc:
        raise exc.at_line(line) if line is not None else exc from None
    kinds = data.get("kind") if isinstance(data, dict) else None
    if not isinstance(kinds, list) or not any("sudoku" in str(k) for k in kinds):
        raise ParseError('an ipuz sudoku has "kind": ["http://ipuz.org/sudoku#1"]', line=line)
    rows = data.get("puzzle")
    empty = data.get("empty", 0)
    if not isinstance(rows, list) or not rows or any(not isinstance(r, list) for r in rows):
        raise ParseError('an ipuz sudoku has "puzzle": a list of rows', line=line)
    charset = str(data.get("charset") or "")
    cells: list[int] = []
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if isinstance(value, dict):
                value = value.get("given", value.get("cell", empty))
            if value == empty or value is None or value == "#":
                cells.append(0)
            elif isinstance(value, int) and not isinstance(value, bool) and value > 0:
                cells.append(value)
            elif isinstance(value, str) and charset and value in charset:
                cells.append(charset.index(value) + 1)
            elif isinstance(value, str) and char_digit(value, len(rows)):
                cells.append(char_digit(value, len(rows)) or 0)
            else:
                raise ParseError(f"ipuz cell r{r + 1}c{c + 1} holds {value!r}, not a digit", line=line)
    return Document(build_board(Puzzle, tuple(cells), None, None, line), title=str(data.get("title") or ""))


def format_ipuz(doc: Document) -> str:
    geo = doc.puzzle.geometry
    if not geo.variant.is_standard:
        raise ShapeError(f"ipuz has no {geo.variant.name} rules; use json or fpuzzles for this puzzle")
    if geo.box != default_box(geo.size):
        raise ShapeError("ipuz has no way to give the box shape; use json for this puzzle")
    n = geo.size
    data: dict[str, Any] = {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/sudoku#1"],
        "charset": "".join(digit_char(d) for d in range(1, n + 1)),
        "empty": 0,
        "boxes": True,
        "puzzle": [list(doc.puzzle.cells[r * n : (r + 1) * n]) for r in range(n)],
    }
    if doc.title:
        data["title"] = doc.title
    return json.dumps(data)
