"""The digits of text: a run of cell characters, a line, a grid block; the size from their count.

The one place the readers of every format turn characters into cells. Every error says where
(line, position, cell) and what is wrong.
"""

from __future__ import annotations

from typing import TypeVar

from ..errors import EmptyInputError, ParseError, ShuduError
from ..geometry import Box, BoxLike, check_variant, resolve_box
from ..notation import EMPTY_CHAR, VALUE_CHARS, cell_name, char_digit, char_digits, digit_range
from ..puzzle import _Board, size_from_cells
from ..variants import VariantLike

B = TypeVar("B", bound=_Board)

#: Characters a grid block may use as decoration between cells.
DECORATION = " \t|+-"


def run_cells(text: str, *, line: int | None, offset: int = 0) -> tuple[int, ...]:
    """Digits of a run of cell characters, with the size taken from their count."""
    size = size_from_cells_at(len(text), line)
    digits = tuple(map(char_digits(size).get, text))
    if None not in digits:
        return digits  # type: ignore[return-value]  # no None in it
    cells = []
    for i, char in enumerate(text):
        digit = char_digit(char, size)
        if digit is None:
            raise ParseError(
                f"character {char!r} at position {offset + i + 1} ({cell_name(i, size)}) is not a digit "
                f"of a {size}x{size} puzzle (use {digit_range(size)}, or . or 0 for empty)",
                line=line,
                column=offset + i + 1,
                char=char,
            )
        cells.append(digit)
    return tuple(cells)


def value_cells(text: str, base: int, *, line: int | None = None, size: int = 0) -> tuple[int, ...]:
    """The digits of a run of cell characters that write the digits' values (``0``-``8`` when
    the digits run from 0, :data:`~shudu.notation.VALUE_CHARS`), ``.`` for empty; whitespace and
    ``|`` between them are ignored. ``size``: the number of digits, when the cells are not a
    square grid's."""
    chars = [(i, c) for i, c in enumerate(text) if not c.isspace() and c != "|"]
    square = not size
    size = size or size_from_cells_at(len(chars), line)
    table = {EMPTY_CHAR: 0}
    for index, char in enumerate(VALUE_CHARS[base : base + size], start=1):
        table[char] = table[char.lower()] = index
    cells = []
    for k, (i, char) in enumerate(chars):
        digit = table.get(char)
        if digit is None:
            where = cell_name(k, size) if square else f"cell {k + 1}"
            raise ParseError(
                f"character {char!r} at position {i + 1} ({where}) "
                f"is not a digit of a puzzle of {size} digits that run from {base} (use {VALUE_CHARS[base]}-"
                f"{VALUE_CHARS[base + size - 1]}, or . for empty)",
                line=line,
                column=i + 1,
                char=char,
            )
        cells.append(digit)
    return tuple(cells)


def size_from_cells_at(count: int, line: int | None) -> int:
    try:
        return size_from_cells(count)
    except ParseError as exc:
        raise exc.at_line(line) if line is not None else exc from None


def line_cells(text: str, *, line: int | None = None) -> tuple[int, ...]:
    """The digits of a one-line puzzle (surrounding whitespace ignored)."""
    stripped = text.strip()
    if not stripped:
        raise EmptyInputError("empty puzzle", line=line)
    return run_cells(stripped, line=line, offset=len(text) - len(text.lstrip()))


def checked_options(box: BoxLike, variant: VariantLike) -> Box | None:
    """The box argument of a reader resolved, and the variant argument checked, before any text
    is read: a wrong type is a :class:`TypeError` whatever the text."""
    check_variant(variant)
    return resolve_box(box)


def build_board(
    kind: type[B],
    cells: tuple[int, ...],
    box: BoxLike,
    variant: VariantLike,
    line: int | None,
) -> B:
    try:
        return kind(cells, box=box, variant=variant)
    except ShuduError as exc:
        raise exc.at_line(line) if line is not None else exc from None


def block_cells(text: str, *, line: int | None = None) -> tuple[int, ...]:
    """The digits of a grid block: rows on lines, any of `` |+-`` decoration, ``.0_`` empty.

    Lines starting with ``#`` (such as the region map :func:`format_grid` writes) are skipped.
    """
    rows: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=(line or 1)):
        if raw.lstrip().startswith("#"):
            continue
        row = "".join(c for c in raw if c not in DECORATION).replace("_", ".")
        if row:
            rows.append((number, row))
    if not rows:
        raise EmptyInputError("no grid rows found", line=line)
    total = sum(len(r) for _, r in rows)
    size = size_from_cells_at(total, line)
    if len(rows) not in (1, size):
        raise ParseError(f"the grid has {len(rows)} rows; a {size}x{size} grid needs {size}", line=line)
    cells: list[int] = []
    for r, (number, row) in enumerate(rows):
        if len(rows) > 1 and len(row) != size:
            raise ParseError(f"grid row {r + 1} has {len(row)} cells; expected {size}", line=number)
        for i, char in enumerate(row):
            digit = char_digit(char, size)
            if digit is None:
                cell = cell_name(len(cells), size)
                raise ParseError(
                    f"character {char!r} in grid row {r + 1} ({cell}) is not a digit of a {size}x{size} "
                    f"puzzle (use {digit_range(size)}, or . 0 _ for empty)",
                    line=number,
                    column=i + 1,
                    char=char,
                )
            cells.append(digit)
    return tuple(cells)


def text_cells(text: str, *, line: int | None = None, base: int = 1) -> tuple[int, ...]:
    """The digits of a one-line puzzle or a grid block, whichever ``text`` is (``base``: the
    value of digit 1; on digits from 0 the text writes the values, ``.`` for empty)."""
    if base != 1:
        rows = [raw for raw in text.splitlines() if not raw.lstrip().startswith("#")]
        return value_cells("".join(c for c in "\n".join(rows) if c not in DECORATION), base, line=line)
    stripped = text.strip()
    if "\n" in stripped or any(c in stripped for c in DECORATION):
        return block_cells(text, line=line)
    return line_cells(text, line=line)
