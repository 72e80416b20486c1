"""The pencil-mark grid of HoDoKu, SudokuWiki and Sukaku: n·n cells, each its candidate digits."""

from __future__ import annotations

import math

from ..errors import ParseError
from ..notation import cell_name, char_digit, digit_char
from ..puzzle import Puzzle
from .cells import build_board
from .document import Document, mask_digits, open_candidates

_PM_SEPARATORS = str.maketrans({c: " " for c in "|:"})
_PM_BORDER = set("-+=*.:'`_#,;/\\|")


def pm_tokens(text: str) -> list[str]:
    """The cells of a pencil-mark grid: whitespace-separated tokens, border-only tokens dropped."""
    return [t for t in text.translate(_PM_SEPARATORS).split() if set(t) - _PM_BORDER]


def parse_pm(text: str, *, line: int | None = None) -> Document:
    """A pencil-mark grid: n·n cells of candidate digits, any borders. A cell of one digit is a given."""
    tokens = pm_tokens(text)
    n = math.isqrt(len(tokens))
    if n * n != len(tokens) or n < 4:
        raise ParseError(f"a pencil-mark grid needs n·n cells (81 for 9x9); found {len(tokens)}", line=line)
    cells: list[int] = []
    masks: list[int] = []
    for i, token in enumerate(tokens):
        mask = 0
        for char in token:
            digit = char_digit(char, n)
            if not digit:
                raise ParseError(
                    f"{cell_name(i, n)}: {char!r} is not a digit of a {n}x{n} grid", line=line, char=char
                )
            mask |= 1 << (digit - 1)
        single = mask.bit_count() == 1
        cells.append(mask.bit_length() if single else 0)
        masks.append(0 if single else mask)
    return Document(build_board(Puzzle, tuple(cells), None, None, line), candidates=tuple(masks))


def format_pm(doc: Document) -> str:
    """The candidate grid with box borders; placed cells show their digit."""
    geo = doc.puzzle.geometry
    values = [g or e for g, e in zip(doc.puzzle.cells, doc.entries, strict=True)]
    masks = doc.candidates or open_candidates(geo, values)
    texts = [digit_char(v) if v else mask_digits(m) for v, m in zip(values, masks, strict=True)]
    rows, cols = geo.rows, geo.cols
    box_rows, box_cols = geo.box or (rows, cols)
    widths = [max(len(texts[r * cols + c]) for r in range(rows)) for c in range(cols)]
    groups = [range(s, s + box_cols) for s in range(0, cols, box_cols)]
    rule = "+" + "+".join("-" * (sum(widths[c] + 1 for c in g) + 1) for g in groups) + "+"
    out = [rule]
    for r in range(rows):
        parts = [" " + " ".join(texts[r * cols + c].ljust(widths[c]) for c in g) + " " for g in groups]
        out.append("|" + "|".join(parts) + "|")
        if (r + 1) % box_rows == 0:
            out.append(rule)
    return "\n".join(out)
