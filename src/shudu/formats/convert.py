"""Every format by name: which one a text is written in, and one puzzle read or written in any."""

from __future__ import annotations

import json
import math

from ..errors import EmptyInputError, ParseError, ShapeError
from .cells import DECORATION
from .document import FORMATS, Document
from .fpuzzles import format_fpuzzles, parse_fpuzzles
from .hodoku import format_hodoku, parse_hodoku
from .ipuz import format_ipuz, parse_ipuz
from .iss import format_iss, is_iss
from .json_form import to_json
from .limits import check_text, load_json
from .pencil_marks import format_pm, parse_pm, pm_tokens
from .sadman import format_sdk, format_sdm, parse_sdk
from .simple_sudoku import format_ss, parse_ss
from .sudokupad import format_sudokupad, is_sudokupad, parse_sudokupad
from .text import format_grid, parse_puzzle


def detect_format(text: str) -> str:
    """The name of the format ``text`` is written in (one of :data:`FORMATS`)."""
    if not isinstance(text, str):
        raise TypeError(f"detect_format() takes text (str), not {type(text).__name__}")
    s = text.strip()
    if not s:
        raise EmptyInputError("empty input")
    if s.startswith(":"):
        return "hodoku"
    if is_iss(s):
        return "iss"
    if is_sudokupad(s):
        return "sudokupad"
    if "f-puzzles" in s or "sudokupad" in s or "fpuzzles" in s:
        return "fpuzzles"
    if s.startswith("{"):
        if '"kind"' in s and "ipuz" in s:
            return "ipuz"
        if '"grid"' in s and '"size"' in s and '"givens"' not in s:
            return "fpuzzles"
        if '"cellSize"' in s and '"cells"' in s:
            return "sudokupad"
        return "json"
    if not any(c.isspace() for c in s) and "|" not in s:
        return "line"
    if s.startswith("*") or s.startswith("|"):
        return "ss" if "*" in s.splitlines()[0] else "pm" if _many_candidates(s) else "grid"
    if _many_candidates(s):
        return "pm"
    if any(line.strip().startswith("#") for line in s.splitlines()) and "|" not in s:
        return "sdk"
    return "grid" if "\n" in s or any(c in s for c in DECORATION) else "line"


def _many_candidates(text: str) -> bool:
    tokens = pm_tokens(text)
    n = math.isqrt(len(tokens))
    return n >= 4 and n * n == len(tokens) and any(len(t) > 1 for t in tokens)


def read_document(text: str, fmt: str | None = None, *, line: int | None = None) -> Document:
    """One puzzle in any format of :data:`FORMATS` (detected when ``fmt`` is None)."""
    check_text(text, reader="read_document", line=line)
    if fmt is not None and not isinstance(fmt, str):
        raise TypeError(f"fmt must be a format name (str) or None, not {type(fmt).__name__}")
    fmt = fmt or detect_format(text)
    if fmt in ("line", "grid", "json", "iss"):
        return Document(parse_puzzle(text, line=line))
    readers = {
        "hodoku": parse_hodoku,
        "sdk": parse_sdk,
        "ss": parse_ss,
        "pm": parse_pm,
        "fpuzzles": parse_fpuzzles,
        "sudokupad": parse_sudokupad,
        "ipuz": parse_ipuz,
    }
    if fmt not in readers:
        raise ParseError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    return readers[fmt](text, line=line)


def write_document(doc: Document, fmt: str) -> str:
    """``doc`` in format ``fmt`` (one of :data:`FORMATS`). A format that cannot hold the puzzle's
    constraint rules is a ParseError that names them: no rule is dropped silently."""
    rules = doc.puzzle.geometry.variant.rules
    if rules and fmt not in ("json", "iss", "fpuzzles", "sudokupad"):
        kinds = ", ".join(dict.fromkeys(rule.kind for rule in rules))
        raise ParseError(
            f"format {fmt!r} cannot hold the puzzle's rules ({kinds}); use iss, fpuzzles, sudokupad or json"
        )
    geo = doc.puzzle.geometry
    if geo.is_rect and fmt not in ("json", "iss", "grid"):
        raise ParseError(f"format {fmt!r} cannot say a {geo.dims} grid; use iss or json")
    if fmt == "iss":
        return format_iss(doc.puzzle)
    if fmt == "line":
        return doc.puzzle.to_string()
    if fmt == "grid":
        return format_grid(doc.puzzle)
    if fmt == "json":
        return json.dumps(to_json(doc.puzzle))
    writers = {
        "hodoku": format_hodoku,
        "sdk": format_sdk,
        "ss": format_ss,
        "pm": format_pm,
        "fpuzzles": format_fpuzzles,
        "sudokupad": format_sudokupad,
        "ipuz": format_ipuz,
    }
    if fmt not in writers:
        raise ParseError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    return writers[fmt](doc)


# files of several puzzles: one a line (.sdm, HoDoKu libraries, links, JSON lines) or blocks

#: Formats that write several puzzles as blocks separated by a blank line (the others: one a line).
_BLOCK_FORMATS = ("grid", "ss", "pm")


def split_documents(text: str) -> list[tuple[int, str]]:
    """The puzzles of a file in any format, each as (its first line, its text).

    A file reads as one puzzle a line (a ``.sdm`` file, HoDoKu library lines, links, JSON lines,
    the line form) when every line that is not blank or a ``#`` comment is a whole puzzle; else as
    blocks separated by blank lines (``.sdk``, ``.ss``, pencil-mark grids, grid blocks) when there
    are several; else as one puzzle. A JSON document and a square block of rows without
    decoration (a 16x16 grid) are always one puzzle.
    """
    if not isinstance(text, str):
        raise TypeError(f"split_documents() takes text (str), not {type(text).__name__}")
    lines = text.splitlines()
    content = [(n, raw.strip()) for n, raw in enumerate(lines, start=1) if raw.strip()]
    puzzles = [(n, c) for n, c in content if not c.startswith("#")]
    if not puzzles:
        raise EmptyInputError("the input holds no puzzle (only blank lines or # comments)")
    stripped = text.strip()
    if stripped.startswith("{") and _is_json(stripped):
        return [(1, text)]
    widths = {len(c) for _, c in puzzles}
    square = len(widths) == 1 and widths == {len(puzzles)}
    if len(puzzles) > 1 and not square and all(_is_whole_line(c) for _, c in puzzles):
        return puzzles
    blocks: list[tuple[int, list[str]]] = []
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            if blocks and blocks[-1][1]:
                blocks.append((0, []))
            continue
        if not blocks or not blocks[-1][1]:
            blocks[-1:] = [(number, [])]
        blocks[-1][1].append(raw)
    found = [(n, "\n".join(rows)) for n, rows in blocks if any(not r.strip().startswith("#") for r in rows)]
    if len(found) > 1:
        return found
    return [(1, text)]


def _is_json(text: str) -> bool:
    try:
        load_json(text)
    except ParseError:
        return False
    return True


def _is_whole_line(content: str) -> bool:
    """Whether one line of a file is a whole puzzle on its own (not a row of a drawn grid)."""
    if content.startswith("{"):
        return content.endswith("}")
    if content.startswith(":"):
        return True  # a HoDoKu library line (its deleted candidates are separated by spaces)
    if any(c.isspace() for c in content):
        return False
    fmt = detect_format(content)
    if fmt == "iss":
        return True
    if fmt == "line":
        # as long as a whole 4x4 puzzle: a bad puzzle line is still a line (and its error its own)
        return len(content) >= 16
    return fmt in ("fpuzzles", "sudokupad")


def document_separator(fmt: str) -> str:
    """What goes between the puzzles of a file in format ``fmt``: a blank line between the drawn
    formats' blocks (grid, ss, pm), a line break between the others' lines."""
    return "\n\n" if fmt in _BLOCK_FORMATS else "\n"


def write_documents(docs: list[Document], fmt: str, *, sdm: bool | None = None) -> str:
    """Several puzzles in format ``fmt``, separated by :func:`document_separator`.

    ``sdk`` holds one puzzle: several are written as an ``.sdm`` file, one puzzle a line
    (``sdm=True`` asks for that form for one puzzle too, ``sdm=False`` refuses several)."""
    as_sdm = fmt == "sdk" and (len(docs) > 1 if sdm is None else sdm)
    if as_sdm:
        return format_sdm(docs)
    if fmt == "sdk" and len(docs) > 1:
        raise ShapeError("an .sdk file holds one puzzle; write several as .sdm")
    return document_separator(fmt).join(write_document(doc, fmt) for doc in docs)
