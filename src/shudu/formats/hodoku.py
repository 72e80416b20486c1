"""HoDoKu library lines: ``:code:candidates:givens:deleted:eliminations:placements:extra``."""

from __future__ import annotations

from ..errors import ParseError
from ..notation import char_digit, digit_char
from ..puzzle import Puzzle
from .cells import build_board
from .document import Document, open_candidates, require_nine


def parse_hodoku(text: str, *, line: int | None = None) -> Document:
    """A HoDoKu library line: givens (``+d`` a placed digit) and deleted candidates ``<d><r><c>``."""
    fields = text.strip().split(":")
    if len(fields) < 5 or fields[0]:
        raise ParseError(
            "a HoDoKu library line reads ':code:candidates:givens:deleted:eliminations:placements:'",
            line=line,
        )
    givens: list[int] = []
    entries: list[int] = []
    plus = False
    for char in fields[3]:
        if char == "+":
            plus = True
            continue
        digit = char_digit(char, 9)
        if digit is None:
            raise ParseError(f"the givens field holds {char!r}, not a digit or . or +", line=line, char=char)
        givens.append(0 if plus else digit)
        entries.append(digit if plus else 0)
        plus = False
    if len(givens) != 81:
        raise ParseError(f"the givens field has {len(givens)} cells; a HoDoKu line has 81", line=line)
    puzzle = build_board(Puzzle, tuple(givens), None, None, line)
    deleted: list[tuple[int, int]] = []
    for token in fields[4].split():
        if len(token) != 3 or not token.isdigit() or "0" in token:
            raise ParseError(
                f"deleted candidate {token!r} is not written <digit><row><column> (436)", line=line
            )
        digit, row, col = (int(ch) for ch in token)
        deleted.append(((row - 1) * 9 + col - 1, digit))
    candidates = None
    if deleted:
        masks = list(open_candidates(puzzle.geometry, [g or e for g, e in zip(givens, entries, strict=True)]))
        for cell, digit in deleted:
            masks[cell] &= ~(1 << (digit - 1))
        candidates = tuple(masks)
    return Document(puzzle, tuple(entries), candidates)


def format_hodoku(doc: Document) -> str:
    """``:0000::givens:deleted:::`` (no technique: the code field is 0000, the others empty)."""
    require_nine("hodoku", doc.puzzle)
    givens = "".join(
        f"+{digit_char(e)}" if e and not g else digit_char(g)
        for g, e in zip(doc.puzzle.cells, doc.entries, strict=True)
    )
    deleted = []
    if doc.candidates is not None:
        values = [g or e for g, e in zip(doc.puzzle.cells, doc.entries, strict=True)]
        full = open_candidates(doc.puzzle.geometry, values)
        for cell, (have, allowed) in enumerate(zip(doc.candidates, full, strict=True)):
            for d in range(9):
                if allowed >> d & 1 and not have >> d & 1:
                    deleted.append(f"{d + 1}{cell // 9 + 1}{cell % 9 + 1}")
    return f":0000::{givens}:{' '.join(deleted)}:::"
