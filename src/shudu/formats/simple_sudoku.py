"""Simple Sudoku's ``.ss``: the grid drawn with ``|`` and ``-`` borders and ``*`` corners."""

from __future__ import annotations

from ..puzzle import Puzzle
from .cells import block_cells, build_board
from .document import Document, require_nine


def parse_ss(text: str, *, line: int | None = None) -> Document:
    """A Simple Sudoku ``.ss`` grid: rows ``|..3|6..|...|`` between ``*-----------*`` borders."""
    kept = [raw for raw in text.splitlines() if raw.strip() and set(raw.strip()) - set("*-+|= ")]
    cells = block_cells("\n".join(r.replace("*", " ") for r in kept), line=line)
    return Document(build_board(Puzzle, cells, None, None, line))


def format_ss(doc: Document) -> str:
    require_nine("ss", doc.puzzle)
    rows = [doc.puzzle.to_string()[i : i + 9] for i in range(0, 81, 9)]
    out = ["*-----------*"]
    for r, row in enumerate(rows):
        if r in (3, 6):
            out.append("|---+---+---|")
        out.append(f"|{row[:3]}|{row[3:6]}|{row[6:]}|")
    out.append("*-----------*")
    return "\n".join(out)
