"""Files of puzzles: one a line (the line form or JSON, so .sdm files too), or grid blocks."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import EmptyInputError, ParseError, ShuduError
from ..geometry import Box
from ..puzzle import Puzzle, size_from_cells
from ..variants import VariantLike
from .cells import DECORATION
from .text import parse_block, parse_puzzle


@dataclass(frozen=True)
class Entry:
    """One puzzle read from a file or stream: its 1-based line, its text, and it or its error."""

    line: int
    text: str
    puzzle: Puzzle | None
    error: ShuduError | None


_BOM = "\ufeff"


def decode_line(raw: str | bytes, number: int) -> tuple[str, ParseError | None]:
    """The text of one input line, and the error when it is bytes that are not UTF-8.

    The text of an undecodable line has U+FFFD for each bad byte, so it can still be shown.
    """
    if isinstance(raw, str):
        return raw, None
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        column = len(raw[: exc.start].decode("utf-8")) + 1
        error = ParseError(
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {column})",
            line=number,
            column=column,
        )
        return raw.decode("utf-8", errors="replace"), error


def read_puzzles(
    lines: Iterable[str | bytes],
    *,
    box: Box | str | None = None,
    variant: VariantLike = None,
) -> Iterator[Entry]:
    """Puzzles from a file: one a line (line form or JSON), or grid blocks separated by blank lines.

    ``lines`` may be text or bytes (a file opened in binary): a bytes line that is not UTF-8 gives
    an Entry with its error and the other lines are read as usual. A UTF-8 byte order mark at the
    start of the first line is dropped. Blank lines and ``#`` comments are skipped. A bad puzzle
    gives an Entry with its error, and reading goes on. A file with no puzzle at all raises
    :class:`EmptyInputError`.
    """
    block: list[str] = []
    block_start = 0
    block_error: ParseError | None = None
    block_mode: bool | None = None
    found = False
    for number, raw in enumerate(lines, start=1):
        text, error = decode_line(raw, number)
        if number == 1 and text.startswith(_BOM):
            text = text[len(_BOM) :]
        text = text.rstrip("\r\n")
        content = text.strip()
        if block_mode is None and content and not content.startswith("#") and error is None:
            block_mode = not content.startswith("{") and _looks_like_row(content)
        if block_mode:
            if content and not content.startswith("#"):
                if not block:
                    block_start = number
                block.append(text)
                block_error = block_error or error
                continue
            if block and not content:
                found = True
                yield _block_entry(block_start, block, block_error, box, variant)
                block, block_error = [], None
            continue
        if not content or content.startswith("#"):
            continue  # a comment is skipped whatever its encoding
        found = True
        if error is not None:
            yield Entry(number, content, None, error)
            continue
        yield _entry(number, content, box, variant, parse_puzzle)
    if block:
        found = True
        yield _block_entry(block_start, block, block_error, box, variant)
    if not found:
        raise EmptyInputError("the input holds no puzzle (only blank lines or # comments)")


def _looks_like_row(content: str) -> bool:
    """Whether a first line is one row of a grid block rather than a whole puzzle."""
    if any(c in content for c in DECORATION):
        return True
    try:
        size_from_cells(len(content))
    except ParseError:
        return len(content) < 16
    return False


def _block_entry(
    start: int, rows: list[str], error: ParseError | None, box: Box | str | None, variant: VariantLike
) -> Entry:
    text = "\n".join(rows)
    if error is not None:
        return Entry(start, text, None, error)
    return _entry(start, text, box, variant, parse_block)


def _entry(number: int, text: str, box: Box | str | None, variant: VariantLike, parse: Any) -> Entry:
    try:
        return Entry(number, text, parse(text, box=box, variant=variant, line=number), None)
    except ShuduError as exc:
        return Entry(number, text, None, exc.at_line(number))
