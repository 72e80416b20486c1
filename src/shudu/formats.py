"""Text formats: one line, a grid block, JSON; files of one puzzle per line.

Parsing and printing only: nothing here solves. Every parse error says where (line,
position, cell) and what is wrong. docs/formats.md describes each format with an example.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar, overload

from .errors import EmptyInputError, ParseError, ShapeError, ShuduError
from .geometry import Box, parse_box
from .puzzle import (
    Puzzle,
    VariantLike,
    _Board,
    char_digit,
    digit_char,
    digit_range,
    size_from_cells,
)
from .variants import cell_name
from .variants import from_json as variant_from_json

B = TypeVar("B", bound=_Board)

#: Characters a grid block may use as decoration between cells.
DECORATION = " \t|+-"
#: Fields the JSON form reads; the others listed may appear (in shudu's own output) and are ignored.
_JSON_FIELDS = {"size", "box", "variant", "givens", "puzzle", "regions", "layout"}
_JSON_IGNORED = {
    "line",
    "solution",
    "status",
    "error",
    "count",
    "level",
    "score",
    "se",
    "hardest",
    "clues",
    "seed",
    "name",
    "entries",
    "pencil",
}


def _cells(text: str, *, line: int | None, offset: int = 0) -> tuple[int, ...]:
    """Digits of a run of cell characters, with the size taken from their count."""
    size = size_from_cells_at(len(text), line)
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
    return _cells(stripped, line=line, offset=len(text) - len(text.lstrip()))


def _build(
    kind: type[B],
    cells: tuple[int, ...],
    box: Box | str | None,
    variant: VariantLike,
    line: int | None,
) -> B:
    try:
        return kind(cells, box=box, variant=variant)
    except ShuduError as exc:
        raise exc.at_line(line) if line is not None else exc from None


def parse_line(
    text: str,
    *,
    box: Box | str | None = None,
    variant: VariantLike = None,
    line: int | None = None,
    kind: type[B] = Puzzle,  # type: ignore[assignment]
) -> B:
    """A puzzle from one line of n·n characters: ``1-9`` then ``A-Z``, ``.`` or ``0`` for empty."""
    return _build(kind, line_cells(text, line=line), box, variant, line)


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


def text_cells(text: str, *, line: int | None = None) -> tuple[int, ...]:
    """The digits of a one-line puzzle or a grid block, whichever ``text`` is."""
    stripped = text.strip()
    if "\n" in stripped or any(c in stripped for c in DECORATION):
        return block_cells(text, line=line)
    return line_cells(text, line=line)


def parse_block(
    text: str,
    *,
    box: Box | str | None = None,
    variant: VariantLike = None,
    line: int | None = None,
    kind: type[B] = Puzzle,  # type: ignore[assignment]
) -> B:
    """A puzzle drawn as rows on lines (see :func:`block_cells`)."""
    return _build(kind, block_cells(text, line=line), box, variant, line)


@overload
def parse_json(
    data: str | dict[str, Any],
    *,
    box: Box | str | None = ...,
    variant: VariantLike = ...,
    line: int | None = ...,
) -> Puzzle: ...
@overload
def parse_json(
    data: str | dict[str, Any],
    *,
    box: Box | str | None = ...,
    variant: VariantLike = ...,
    line: int | None = ...,
    kind: type[B],
) -> B: ...
def parse_json(
    data: str | dict[str, Any],
    *,
    box: Box | str | None = None,
    variant: VariantLike = None,
    line: int | None = None,
    kind: type[_Board] = Puzzle,
) -> _Board:
    """A puzzle from the JSON form ``{"size", "box", "variant", "givens", "regions", "layout"}``.

    ``box`` and ``variant`` are the defaults for fields the JSON leaves out.
    """
    try:
        return _parse_json(data, box, variant, line, kind)
    except ShuduError as exc:
        raise exc.at_line(line) if line is not None else exc from None


def _parse_json(
    data: str | dict[str, Any],
    box: Box | str | None,
    variant: VariantLike,
    line: int | None,
    kind: type[B],
) -> B:
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise ParseError(f"invalid JSON: {exc.msg} at column {exc.colno}", column=exc.colno) from None
    if not isinstance(data, dict):
        raise ParseError('a JSON puzzle must be an object with at least "givens"')
    unknown = set(data) - _JSON_FIELDS - _JSON_IGNORED
    if unknown:
        raise ParseError(
            f"unknown JSON field {sorted(unknown)[0]!r}; known: {', '.join(sorted(_JSON_FIELDS))}"
        )
    givens = data.get("givens", data.get("puzzle"))
    if givens is None:
        raise ParseError('JSON puzzle has no "givens"')
    if isinstance(givens, str):
        cells = text_cells(givens)
    elif isinstance(givens, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in givens):
        cells = tuple(givens)
    elif isinstance(givens, list) and all(isinstance(v, str) for v in givens):
        cells = block_cells("\n".join(givens))
    else:
        raise ParseError('"givens" must be a string of cells, a list of digits or a list of row strings')
    size = size_from_cells(len(cells))
    if "size" in data and data["size"] != size:
        raise ParseError(f'"size" is {data["size"]!r} but the givens have {len(cells)} cells ({size}x{size})')
    if "box" in data:
        raw = data["box"]
        if isinstance(raw, str):
            box = parse_box(raw)
        elif isinstance(raw, list) and len(raw) == 2 and all(isinstance(v, int) for v in raw):
            box = (raw[0], raw[1])
        else:
            raise ShapeError(f'"box" must be [rows, columns] or "RxC", not {raw!r}')
    if any(k in data for k in ("variant", "regions", "layout")):
        fields = dict(data)
        if "variant" not in fields and isinstance(variant, str):
            fields["variant"] = variant
        variant = variant_from_json(fields, size)
    return kind(cells, box=box, variant=variant)


@overload
def parse_puzzle(
    text: str, *, box: Box | str | None = ..., variant: VariantLike = ..., line: int | None = ...
) -> Puzzle: ...
@overload
def parse_puzzle(
    text: str,
    *,
    box: Box | str | None = ...,
    variant: VariantLike = ...,
    line: int | None = ...,
    kind: type[B],
) -> B: ...
def parse_puzzle(
    text: str,
    *,
    box: Box | str | None = None,
    variant: VariantLike = None,
    line: int | None = None,
    kind: type[_Board] = Puzzle,
) -> _Board:
    """Any one puzzle: JSON if it starts with ``{``, a grid block if it spans lines or has decoration,
    else one line."""
    stripped = text.strip()
    if stripped.startswith("{"):
        return parse_json(stripped, box=box, variant=variant, line=line, kind=kind)
    return _build(kind, text_cells(text, line=line), box, variant, line)


@dataclass(frozen=True)
class Entry:
    """One puzzle read from a file or stream: its 1-based line, its text, and it or its error."""

    line: int
    text: str
    puzzle: Puzzle | None
    error: ShuduError | None


def read_puzzles(
    lines: Iterable[str],
    *,
    box: Box | str | None = None,
    variant: VariantLike = None,
) -> Iterator[Entry]:
    """Puzzles from a file: one a line (line form or JSON), or grid blocks separated by blank lines.

    Blank lines and ``#`` comments are skipped. A bad puzzle gives an Entry with its error, and
    reading goes on. A file with no puzzle at all raises :class:`EmptyInputError`.
    """
    block: list[str] = []
    block_start = 0
    block_mode: bool | None = None
    found = False
    for number, raw in enumerate(lines, start=1):
        text = raw.rstrip("\r\n")
        content = text.strip()
        if block_mode is None and content and not content.startswith("#"):
            block_mode = not content.startswith("{") and _looks_like_row(content)
        if block_mode:
            if content and not content.startswith("#"):
                if not block:
                    block_start = number
                block.append(text)
                continue
            if block and not content:
                found = True
                yield _entry(block_start, "\n".join(block), box, variant, parse_block)
                block = []
            continue
        if not content or content.startswith("#"):
            continue
        found = True
        yield _entry(number, content, box, variant, parse_puzzle)
    if block:
        found = True
        yield _entry(block_start, "\n".join(block), box, variant, parse_block)
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


def _entry(number: int, text: str, box: Box | str | None, variant: VariantLike, parse: Any) -> Entry:
    try:
        return Entry(number, text, parse(text, box=box, variant=variant, line=number), None)
    except ShuduError as exc:
        return Entry(number, text, None, exc.at_line(number))


# --- writing ------------------------------------------------------------------------------


def format_line(board: _Board) -> str:
    """The one-line form."""
    return board.to_string()


def format_grid(board: _Board) -> str:
    """A drawn grid with box lines; extra regions and jigsaw regions as ``#`` map lines below."""
    geo = board.geometry
    n = geo.size
    box_rows, box_cols = geo.box or (n, n)
    lines = []
    for r in range(n):
        if r and r % box_rows == 0:
            lines.append("-+-".join("-" * (2 * box_cols - 1) for _ in range(n // box_cols)))
        groups = [
            " ".join(digit_char(board.cells[r * n + c]) for c in range(start, start + box_cols))
            for start in range(0, n, box_cols)
        ]
        lines.append(" | ".join(groups))
    maps = region_map(board)
    if maps:
        lines.extend(maps)
    return "\n".join(lines)


def region_map(board: _Board) -> list[str]:
    """``#`` lines that draw the jigsaw regions and extra regions (letters; ``*`` where two overlap)."""
    geo = board.geometry
    n = geo.size
    out: list[str] = []
    if geo.variant.layout is not None:
        out.append("# jigsaw regions:")
        for r in range(n):
            out.append("# " + " ".join(digit_char(geo.variant.layout[r * n + c] + 1) for c in range(n)))
    extras = [h for h in geo.houses if h.kind == "extra"]
    if extras:
        letters = "abcdefghijklmnopqrstuvwxyz"
        marks = ["."] * (n * n)
        for i, house in enumerate(extras):
            for cell in house.cells:
                marks[cell] = letters[i % 26] if marks[cell] == "." else "*"
        legend = ", ".join(f"{letters[i % 26]} = {h.name}" for i, h in enumerate(extras))
        out.append(f"# extra regions: {legend}")
        for r in range(n):
            out.append("# " + " ".join(marks[r * n : (r + 1) * n]))
    if geo.variant.anti_knight or geo.variant.anti_king:
        rules = [
            name
            for name, on in (
                ("anti-knight", geo.variant.anti_knight),
                ("anti-king", geo.variant.anti_king),
            )
            if on
        ]
        out.append(f"# rules: {', '.join(rules)}")
    return out


def to_json(board: _Board) -> dict[str, Any]:
    """The JSON form: enough to rebuild the board with :func:`parse_json`."""
    geo = board.geometry
    out: dict[str, Any] = {"size": geo.size}
    if geo.box is not None:
        out["box"] = list(geo.box)
    if not geo.variant.is_standard:
        out.update(geo.variant.to_json())
    out["givens"] = board.to_string()
    return out
