"""Files of puzzles: one a line (the line form or JSON, so .sdm files too), or grid blocks."""

from __future__ import annotations

import reprlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import EmptyInputError, ParseError, ShuduError
from ..geometry import Box, BoxLike
from ..puzzle import Puzzle, size_from_cells
from ..variants import VariantLike
from .cells import DECORATION, checked_options
from .limits import MAX_TEXT_LENGTH
from .text import parse_block, parse_puzzle


@dataclass(frozen=True)
class Entry:
    """One puzzle read from a file or stream: its 1-based line, its text, and it or its error."""

    line: int
    text: str
    puzzle: Puzzle | None
    error: ShuduError | None


_BOM = "\ufeff"
#: How many characters of a line too long to read are kept to show it.
_SHOWN = 100


def decode_line(raw: object, number: int) -> tuple[str, ParseError | None]:
    """The text of one input line, and the error when it cannot be read: bytes that are not
    UTF-8, a line longer than :data:`~shudu.formats.limits.MAX_TEXT_LENGTH` characters (bytes,
    for bytes), or an item that is neither text nor bytes.

    The text of an undecodable line has U+FFFD for each bad byte, so it can still be shown; that
    of a line too long is its start, then ``…``; that of an item that is no text its short repr.
    """
    if not isinstance(raw, str | bytes | bytearray):
        return reprlib.repr(raw), ParseError(
            f"a line must be text (str) or bytes, not {type(raw).__name__}", line=number
        )
    if len(raw) > MAX_TEXT_LENGTH:
        start = raw[:_SHOWN] if isinstance(raw, str) else bytes(raw[:_SHOWN]).decode("utf-8", "replace")
        unit = "characters" if isinstance(raw, str) else "bytes"
        return start + "…", ParseError(
            f"the line is {len(raw)} {unit} long; at most {MAX_TEXT_LENGTH} are read", line=number
        )
    if isinstance(raw, str):
        return raw, None
    try:
        return bytes(raw).decode("utf-8"), None
    except UnicodeDecodeError as exc:
        column = len(raw[: exc.start].decode("utf-8")) + 1
        error = ParseError(
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {column})",
            line=number,
            column=column,
        )
        return bytes(raw).decode("utf-8", errors="replace"), error


def read_puzzles(
    lines: Iterable[str | bytes],
    *,
    box: BoxLike = None,
    variant: VariantLike = None,
) -> Iterator[Entry]:
    """Puzzles from a file: one a line (line form or JSON), or grid blocks separated by blank lines.

    ``lines`` may be text or bytes (a file opened in binary): a line that cannot be read (bytes
    that are not UTF-8, a line over :data:`~shudu.formats.limits.MAX_TEXT_LENGTH` characters, an
    item that is not text) gives an Entry with its error and the other lines are read as usual.
    A UTF-8 byte order mark at the start of the first line is dropped. Blank lines and ``#``
    comments are skipped. A bad puzzle gives an Entry with its error, and reading goes on. A file
    with no puzzle at all raises :class:`EmptyInputError`. ``lines`` that is one str or bytes
    (not lines), a ``box`` or a ``variant`` of the wrong type, is a :class:`TypeError` at once.
    """
    if isinstance(lines, str | bytes | bytearray) or not isinstance(lines, Iterable):
        raise TypeError(
            f"read_puzzles() takes an iterable of lines (a file, a list of str or bytes), "
            f"not {'one ' if isinstance(lines, str | bytes | bytearray) else ''}{type(lines).__name__}"
        )
    shape = checked_options(box, variant)
    return _read(lines, shape, variant)


def _read(lines: Iterable[object], box: Box | None, variant: VariantLike) -> Iterator[Entry]:
    block = _Block()
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
                block.add(number, text, error)
            elif block.rows and not content:
                found = True
                yield block.entry(box, variant)
            continue
        if not content or content.startswith("#"):
            continue  # a comment is skipped whatever its encoding
        found = True
        if error is not None:
            yield Entry(number, content, None, error)
            continue
        yield _entry(number, content, box, variant, parse_puzzle)
    if block.rows:
        found = True
        yield block.entry(box, variant)
    if not found:
        raise EmptyInputError("the input holds no puzzle (only blank lines or # comments)")


class _Block:
    """The rows of a grid block read so far, at most :data:`MAX_TEXT_LENGTH` characters of them."""

    def __init__(self) -> None:
        self.rows: list[str] = []
        self.start = 0
        self.length = 0
        self.error: ParseError | None = None

    def add(self, number: int, text: str, error: ParseError | None) -> None:
        if not self.rows:
            self.start = number
        self.length += len(text) + 1
        if self.length > MAX_TEXT_LENGTH and self.error is None:
            self.error = ParseError(
                f"the grid block is over {MAX_TEXT_LENGTH} characters long (at line {number}); "
                "separate the puzzles by blank lines",
                line=self.start,
            )
        self.error = self.error or error
        if self.length <= MAX_TEXT_LENGTH or not self.rows:
            self.rows.append(text)

    def entry(self, box: Box | None, variant: VariantLike) -> Entry:
        text = "\n".join(self.rows)
        start, error = self.start, self.error
        self.rows, self.length, self.error = [], 0, None
        if error is not None:
            return Entry(start, text, None, error)
        return _entry(start, text, box, variant, parse_block)


def _looks_like_row(content: str) -> bool:
    """Whether a first line is one row of a grid block rather than a whole puzzle."""
    if any(c in content for c in DECORATION):
        return True
    try:
        size_from_cells(len(content))
    except ParseError:
        return len(content) < 16
    return False


def _entry(number: int, text: str, box: Box | None, variant: VariantLike, parse: Any) -> Entry:
    try:
        return Entry(number, text, parse(text, box=box, variant=variant, line=number), None)
    except ShuduError as exc:
        return Entry(number, text, None, exc.at_line(number))
