"""A player's board in text: the fields of its JSON form and the cells of a candidate grid, as plain data.

The logic engine's :class:`~shudu.logic.engine.board.Board` is built from what these return (its
:func:`~shudu.logic.engine.board.parse_board` tells the forms apart); nothing here knows a
candidate grid's rules. The cells of a candidate grid are read by :func:`shudu.formats.parse_pm`,
a HoDoKu library line by :func:`shudu.formats.parse_hodoku`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..errors import ParseError, VariantError
from ..notation import char_digit, digit_char, digit_range
from ..puzzle import Puzzle
from ..variants import parse_cell

#: Characters that draw the borders of a candidate grid (besides whitespace).
_BORDER = re.compile(r"[|\-+=*.:'`_#,;/\\]+")


def board_entries(raw: Any, puzzle: Puzzle) -> tuple[int, ...]:
    """The player's digits of a JSON board: a string like the givens', or a list of ints."""
    ncells, size = len(puzzle.cells), puzzle.size
    if raw is None:
        return (0,) * ncells
    if isinstance(raw, str):
        text = raw.strip()
        if len(text) != ncells:
            raise ParseError(f'"entries" must give {ncells} cells, like the givens, not {len(text)}')
        entries = []
        for i, char in enumerate(text):
            digit = char_digit(char, size)
            if digit is None:
                raise ParseError(
                    f'"entries": {char!r} at {puzzle.geometry.cell_name(i)} is not a digit of '
                    f"{digit_range(size)} or '.'",
                    column=i + 1,
                    char=char,
                )
            entries.append(digit)
    elif isinstance(raw, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in raw):
        entries = list(raw)
        if len(entries) != ncells or not all(0 <= v <= size for v in entries):
            raise ParseError(f'"entries" must give {ncells} cells of 0 (none) to {size}')
    else:
        raise ParseError('"entries" must be a string of cells or a list of digits')
    for cell, (g, e) in enumerate(zip(puzzle.cells, entries, strict=True)):
        if g and e and g != e:
            raise ParseError(f'"entries" puts {digit_char(e)} in {puzzle.geometry.cell_name(cell)}, a given')
    return tuple(0 if g else e for g, e in zip(puzzle.cells, entries, strict=True))


def board_pencil(raw: Any, puzzle: Puzzle) -> dict[int, int]:
    """Pencil marks of a JSON board as cell → digit set: an object from cell names to digits, or a
    list of n·n strings."""
    if raw is None:
        return {}
    size = puzzle.size
    if isinstance(raw, Mapping):
        try:
            items = [(parse_cell(k, size), v) for k, v in raw.items()]
        except VariantError as exc:
            raise ParseError(f'"pencil": {exc}') from None
    elif isinstance(raw, list) and len(raw) == len(puzzle.cells):
        items = [(i, v) for i, v in enumerate(raw) if v]
    else:
        raise ParseError(f'"pencil" must map cell names to digits, or list {len(puzzle.cells)} strings')
    out = {}
    for cell, marks in items:
        text = "".join(str(m) for m in marks) if isinstance(marks, list) else str(marks)
        mask = 0
        for char in text:
            digit = char_digit(char, size)
            if not digit:
                raise ParseError(f"pencil mark {char!r} of {puzzle.geometry.cell_name(cell)} is not a digit")
            mask |= 1 << (digit - 1)
        out[cell] = mask
    return out


def candidate_tokens(text: str) -> list[str] | None:
    """The cells of a candidate grid, or None when ``text`` is not one (a plain puzzle line)."""
    if not any(ch.isspace() for ch in text.strip()):
        return None  # cells of candidates are separated by spaces; a puzzle line has none
    tokens = _BORDER.sub(" ", text).split()
    n = round(len(tokens) ** 0.5)
    if n < 4 or n * n != len(tokens) or all(len(t) == 1 for t in tokens):
        return None
    return tokens


def parse_candidate(token: str) -> tuple[int, int]:
    """(cell, digit) of HoDoKu's ``<digit><row><column>`` candidate notation (``436``: r3c6, 4)."""
    if len(token) != 3 or not token.isdigit() or "0" in token:
        raise ParseError(f"{token!r} is not a candidate written <digit><row><column>, such as 436")
    digit, row, col = (int(ch) for ch in token)
    return (row - 1) * 9 + col - 1, digit
