"""Text formats: one line, a grid block, JSON; files of one puzzle per line.

This is the one text boundary of the model: every puzzle or grid read from text is read here,
and the value types (:class:`~shudu.puzzle.Puzzle`, :class:`~shudu.puzzle.Grid`) only take ints.
Parsing and printing only: nothing here solves. Every parse error says where (line, position,
cell) and what is wrong. docs/formats.md describes each format with an example.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar, overload

from .errors import EmptyInputError, ParseError, ShapeError, ShuduError
from .geometry import Box, default_box, parse_box
from .notation import cell_name, char_digit, digit_char, digit_range
from .puzzle import Grid, Puzzle, _Board, size_from_cells
from .variants import VariantLike, parse_cell, resolve_variant

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
        variant = resolve_variant(fields, size)
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


def parse_grid(
    text: str, *, box: Box | str | None = None, variant: VariantLike = None, line: int | None = None
) -> Grid:
    """A :class:`Grid` (a solution or a player's work) from any text format, as :func:`parse_puzzle`."""
    return parse_puzzle(text, box=box, variant=variant, line=line, kind=Grid)


#: What the API takes as a puzzle: a Puzzle, or text in any format of docs/formats.md.
PuzzleLike = Puzzle | str


def as_puzzle(puzzle: PuzzleLike, *, box: Box | str | None = None, variant: VariantLike = None) -> Puzzle:
    """The Puzzle a puzzle-like argument stands for: a Puzzle as it is, or text in any format.

    ``box`` and ``variant`` apply to text only (a Puzzle already carries its shape).
    """
    if isinstance(puzzle, Puzzle):
        return puzzle
    if isinstance(puzzle, str):
        return parse_puzzle(puzzle, box=box, variant=variant)
    raise TypeError(f"expected a Puzzle or puzzle text, not {type(puzzle).__name__}")


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


# --- the formats of other programs -----------------------------------------------------------
#
# Each reader returns a Document (the givens, the player's placed digits, the pencil marks and a
# title); each writer takes one. docs/formats.md says what each keeps and what it loses.


@dataclass(frozen=True)
class Document:
    """A puzzle as another program stores it: givens, placed digits (0: none), pencil marks
    (one bit mask per cell, bit d-1 for digit d; None: not stored) and a title."""

    puzzle: Puzzle
    entries: tuple[int, ...] = ()
    candidates: tuple[int, ...] | None = None
    title: str = ""

    def __post_init__(self) -> None:
        if not self.entries:
            object.__setattr__(self, "entries", (0,) * len(self.puzzle.cells))


#: Every format ``convert`` reads and writes.
FORMATS = ("line", "grid", "json", "hodoku", "sdk", "ss", "pm", "fpuzzles", "ipuz")


def _nine(fmt: str, board: _Board) -> None:
    if board.geometry.size != 9 or not board.geometry.variant.is_standard or board.geometry.box != (3, 3):
        raise ShapeError(f"{fmt} holds standard 9x9 puzzles only; use json or fpuzzles for this one")


def _mask_digits(mask: int) -> str:
    return "".join(digit_char(d + 1) for d in range(mask.bit_length()) if mask >> d & 1)


def _lines_of(text: str) -> list[tuple[int, str]]:
    return [(i, raw.strip()) for i, raw in enumerate(text.splitlines(), start=1) if raw.strip()]


# hodoku: ":code:candidates:givens:deleted:eliminations:placements:extra" (HoDoKu's library lines)


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
    puzzle = _build(Puzzle, tuple(givens), None, None, line)
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
        masks = list(
            _open_candidates(puzzle.geometry, [g or e for g, e in zip(givens, entries, strict=True)])
        )
        for cell, digit in deleted:
            masks[cell] &= ~(1 << (digit - 1))
        candidates = tuple(masks)
    return Document(puzzle, tuple(entries), candidates)


def _open_candidates(geo: Any, values: list[int]) -> tuple[int, ...]:
    """Each open cell's digits that no placed peer holds (0 for a placed cell)."""
    full = (1 << geo.size) - 1
    out = []
    for cell, value in enumerate(values):
        mask = 0
        if not value:
            mask = full
            for peer in geo.peers[cell]:
                if values[peer]:
                    mask &= ~(1 << (values[peer] - 1))
        out.append(mask)
    return tuple(out)


def format_hodoku(doc: Document) -> str:
    """``:0000::givens:deleted:::`` (no technique: the code field is 0000, the others empty)."""
    _nine("hodoku", doc.puzzle)
    givens = "".join(
        f"+{digit_char(e)}" if e and not g else digit_char(g)
        for g, e in zip(doc.puzzle.cells, doc.entries, strict=True)
    )
    deleted = []
    if doc.candidates is not None:
        values = [g or e for g, e in zip(doc.puzzle.cells, doc.entries, strict=True)]
        full = _open_candidates(doc.puzzle.geometry, values)
        for cell, (have, allowed) in enumerate(zip(doc.candidates, full, strict=True)):
            for d in range(9):
                if allowed >> d & 1 and not have >> d & 1:
                    deleted.append(f"{d + 1}{cell // 9 + 1}{cell % 9 + 1}")
    return f":0000::{givens}:{' '.join(deleted)}:::"


# sdk / sdm (SadMan Software): nine rows of nine, "#" lines of metadata; .sdm one puzzle a line


def parse_sdk(text: str, *, line: int | None = None) -> Document:
    """A SadMan ``.sdk`` puzzle (nine rows, ``.`` empty, ``#A``/``#D``/``#C`` … metadata lines)
    or one ``.sdm`` line."""
    title = ""
    rows: list[tuple[int, str]] = []
    for number, content in _lines_of(text):
        if content.startswith("#"):
            if content[:2] in ("#D", "#N") and not title:
                title = content[2:].strip()
            continue
        rows.append((number, content))
    if len(rows) == 1:
        cells = line_cells(rows[0][1], line=line)
    else:
        if len(rows) != 9 or any(len(r) != 9 for _, r in rows):
            bad = next((n for n, r in rows if len(r) != 9), rows[-1][0] if rows else 1)
            raise ParseError("an .sdk puzzle is nine rows of nine cells", line=(line or 1) + bad - 1)
        cells = _cells("".join(r for _, r in rows), line=line)
    return Document(_build(Puzzle, cells, None, None, line), title=title)


def format_sdk(doc: Document) -> str:
    _nine("sdk", doc.puzzle)
    text = doc.puzzle.to_string()
    head = [f"#D{doc.title}"] if doc.title else []
    return "\n".join(head + [text[i : i + 9] for i in range(0, 81, 9)])


# ss (Simple Sudoku): the grid drawn with | and - borders, "*" corners


def parse_ss(text: str, *, line: int | None = None) -> Document:
    """A Simple Sudoku ``.ss`` grid: rows ``|..3|6..|...|`` between ``*-----------*`` borders."""
    kept = [raw for raw in text.splitlines() if raw.strip() and set(raw.strip()) - set("*-+|= ")]
    cells = block_cells("\n".join(r.replace("*", " ") for r in kept), line=line)
    return Document(_build(Puzzle, cells, None, None, line))


def format_ss(doc: Document) -> str:
    _nine("ss", doc.puzzle)
    rows = [doc.puzzle.to_string()[i : i + 9] for i in range(0, 81, 9)]
    out = ["*-----------*"]
    for r, row in enumerate(rows):
        if r in (3, 6):
            out.append("|---+---+---|")
        out.append(f"|{row[:3]}|{row[3:6]}|{row[6:]}|")
    out.append("*-----------*")
    return "\n".join(out)


# pm: the pencil-mark grid of HoDoKu, SudokuWiki and Sukaku: n·n cells, each its candidate digits


_PM_SEPARATORS = str.maketrans({c: " " for c in "|:"})
_PM_BORDER = set("-+=*.:'`_#,;/\\|")


def _pm_tokens(text: str) -> list[str]:
    """The cells of a pencil-mark grid: whitespace-separated tokens, border-only tokens dropped."""
    return [t for t in text.translate(_PM_SEPARATORS).split() if set(t) - _PM_BORDER]


def parse_pm(text: str, *, line: int | None = None) -> Document:
    """A pencil-mark grid: n·n cells of candidate digits, any borders. A cell of one digit is a given."""
    tokens = _pm_tokens(text)
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
    return Document(_build(Puzzle, tuple(cells), None, None, line), candidates=tuple(masks))


def format_pm(doc: Document) -> str:
    """The candidate grid with box borders; placed cells show their digit."""
    geo = doc.puzzle.geometry
    n = geo.size
    values = [g or e for g, e in zip(doc.puzzle.cells, doc.entries, strict=True)]
    masks = doc.candidates or _open_candidates(geo, values)
    texts = [digit_char(v) if v else _mask_digits(m) for v, m in zip(values, masks, strict=True)]
    box_rows, box_cols = geo.box or (n, n)
    widths = [max(len(texts[r * n + c]) for r in range(n)) for c in range(n)]
    groups = [range(s, s + box_cols) for s in range(0, n, box_cols)]
    rule = "+" + "+".join("-" * (sum(widths[c] + 1 for c in g) + 1) for g in groups) + "+"
    out = [rule]
    for r in range(n):
        parts = [" " + " ".join(texts[r * n + c].ljust(widths[c]) for c in g) + " " for g in groups]
        out.append("|" + "|".join(parts) + "|")
        if (r + 1) % box_rows == 0:
            out.append(rule)
    return "\n".join(out)


# fpuzzles: f-puzzles / SudokuPad links, whose puzzle is lz-string compressed JSON in base64

_LZ_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
_LZ_INDEX = {c: i for i, c in enumerate(_LZ_ALPHABET)}


def lz_decompress_base64(data: str) -> str:
    """lz-string's ``decompressFromBase64`` (the JavaScript library f-puzzles and SudokuPad use)."""
    values = []
    for i, char in enumerate(data):
        if char not in _LZ_INDEX:
            raise ParseError(f"character {char!r} at position {i + 1} is not base64", column=i + 1, char=char)
        values.append(_LZ_INDEX[char])
    if not values:
        raise ParseError("the compressed puzzle is empty")
    pos = [0, 32, values[0], 1]  # [unused, position bit, current value, next index]

    def read(bits: int) -> int:
        out, power = 0, 1
        for _ in range(bits):
            bit = pos[2] & pos[1]
            pos[1] >>= 1
            if pos[1] == 0:
                pos[1] = 32
                pos[2] = values[pos[3]] if pos[3] < len(values) else 0
                pos[3] += 1
            if bit:
                out |= power
            power <<= 1
        return out

    bad = ParseError("the compressed puzzle is not lz-string data (a truncated or altered link?)")
    words: dict[int, str] = {0: "", 1: "", 2: ""}
    first = read(2)
    if first == 2:
        return ""
    if first not in (0, 1):
        raise bad
    w = chr(read(8 if first == 0 else 16))
    words[3] = w
    out = [w]
    size, enlarge, bits = 4, 4, 3
    while True:
        if pos[3] > len(values) + 1:
            raise bad
        code = read(bits)
        if code in (0, 1):
            words[size] = chr(read(8 if code == 0 else 16))
            code = size
            size += 1
            enlarge -= 1
        elif code == 2:
            return "".join(out)
        if enlarge == 0:
            enlarge = 1 << bits
            bits += 1
        if code in words and code > 2:
            entry = words[code]
        elif code == size:
            entry = w + w[0]
        else:
            raise bad
        out.append(entry)
        words[size] = w + entry[0]
        size += 1
        enlarge -= 1
        w = entry
        if enlarge == 0:
            enlarge = 1 << bits
            bits += 1


def lz_compress_base64(text: str) -> str:
    """lz-string's ``compressToBase64``."""
    out: list[str] = []
    state = [0, 0]  # value, position

    def write(value: int, bits: int) -> None:
        for _ in range(bits):
            state[0] = (state[0] << 1) | (value & 1)
            if state[1] == 5:
                out.append(_LZ_ALPHABET[state[0]])
                state[0] = state[1] = 0
            else:
                state[1] += 1
            value >>= 1

    words: dict[str, int] = {}
    to_create: set[str] = set()
    w = ""
    size, enlarge, bits = 3, 2, 2

    def emit(w: str) -> None:
        nonlocal enlarge, bits
        if w in to_create:
            code = ord(w[0])
            if code < 256:
                write(0, bits)
                write(code, 8)
            else:
                write(1, bits)
                write(code, 16)
            enlarge -= 1
            if enlarge == 0:
                enlarge = 1 << bits
                bits += 1
            to_create.discard(w)
        else:
            write(words[w], bits)
        enlarge -= 1
        if enlarge == 0:
            enlarge = 1 << bits
            bits += 1

    for c in text:
        if c not in words:
            words[c] = size
            size += 1
            to_create.add(c)
        if w + c in words:
            w += c
            continue
        emit(w)
        words[w + c] = size
        size += 1
        w = c
    if w:
        emit(w)
    write(2, bits)
    while True:
        state[0] <<= 1
        if state[1] == 5:
            out.append(_LZ_ALPHABET[state[0]])
            break
        state[1] += 1
    result = "".join(out)
    return result + "=" * (-len(result) % 4)


def _fpuzzles_payload(text: str) -> str:
    """The compressed part of an f-puzzles or SudokuPad link, or the text itself."""
    from urllib.parse import parse_qs, unquote, urlsplit

    text = text.strip()
    if "://" not in text and not text.startswith(("www.", "f-puzzles", "sudokupad")):
        return text
    parts = urlsplit(text if "://" in text else "https://" + text)
    load = parse_qs(parts.query).get("load")
    if load:
        return load[0].replace(" ", "+")
    path = unquote(parts.path).lstrip("/")
    for prefix in ("sudoku/fpuzzles", "fpuzzles"):
        if path.startswith(prefix):
            return path[len(prefix) :]
    raise ParseError("the link carries no f-puzzles puzzle (no ?load= part or /fpuzzles… path)")


def parse_fpuzzles(text: str, *, line: int | None = None) -> Document:
    """An f-puzzles / SudokuPad puzzle: a link, its compressed part, or the JSON itself."""
    try:
        raw = text.strip()
        data_text = raw if raw.startswith("{") else lz_decompress_base64(_fpuzzles_payload(raw))
        try:
            data = json.loads(data_text)
        except json.JSONDecodeError as exc:
            raise ParseError(f"the f-puzzles JSON is not valid: {exc.msg}") from None
        return _fpuzzles_document(data)
    except ShuduError as exc:
        raise exc.at_line(line) if line is not None else exc from None


_FPUZZLES_RULES = {"diagonal+", "diagonal-", "antiknight", "antiking", "extraregion"}
_FPUZZLES_KEPT = {"size", "grid", "title", "author", "ruleset", "solution", "highlightConflicts"}


def _fpuzzles_document(data: Any) -> Document:
    if not isinstance(data, dict) or not isinstance(data.get("size"), int) or "grid" not in data:
        raise ParseError('an f-puzzles puzzle is a JSON object with "size" and "grid"')
    n = data["size"]
    grid = data["grid"]
    if (
        not isinstance(grid, list)
        or len(grid) != n
        or any(not isinstance(r, list) or len(r) != n for r in grid)
    ):
        raise ParseError(f'the f-puzzles "grid" must be {n} rows of {n} cells')
    unsupported = sorted(
        k
        for k, v in data.items()
        if k not in _FPUZZLES_RULES | _FPUZZLES_KEPT and v not in (None, [], False, "")
    )
    if unsupported:
        raise ParseError(f"f-puzzles constraint {unsupported[0]!r} is not a rule shudu has")
    givens: list[int] = []
    entries: list[int] = []
    masks: list[int] = []
    labels: list[int] = []
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if not isinstance(cell, dict):
                raise ParseError(f"f-puzzles cell r{r + 1}c{c + 1} is not an object")
            value = cell.get("value", 0) or 0
            if not isinstance(value, int) or not 0 <= value <= n:
                raise ParseError(f"f-puzzles cell r{r + 1}c{c + 1} holds {value!r}, not a digit of 1-{n}")
            given = bool(cell.get("given"))
            givens.append(value if given else 0)
            entries.append(0 if given else value)
            mask = 0
            for d in cell.get("centerPencilMarks", []) or cell.get("candidates", []) or []:
                if isinstance(d, int) and 1 <= d <= n:
                    mask |= 1 << (d - 1)
            masks.append(mask)
            if "region" in cell:
                labels.append(cell["region"] if isinstance(cell["region"], int) else -1)
    fields: dict[str, Any] = {}
    names = [k for k in ("diagonal+", "diagonal-") if data.get(k)]
    if names and len(names) == 2:
        fields["variant"] = "x"
    elif names:
        main = range(n) if names[0] == "diagonal-" else range(n - 1, -1, -1)
        fields.setdefault("regions", []).append([i * n + j for i, j in zip(range(n), main, strict=True)])
    rules = [
        name for key, name in (("antiknight", "anti-knight"), ("antiking", "anti-king")) if data.get(key)
    ]
    for region in data.get("extraregion") or []:
        cells = region.get("cells", []) if isinstance(region, dict) else []
        fields.setdefault("regions", []).append([str(c).lower() for c in cells])
    if "regions" in fields:
        fields.update(_named_regions(fields.pop("regions"), n))
    if labels:
        if len(labels) != n * n:
            raise ParseError("some f-puzzles cells have a region and others not")
        fields["layout"] = [label for label in labels]
        fields["variant"] = "+".join(["jigsaw"] + ([fields["variant"]] if "variant" in fields else []))
    if rules:
        fields["variant"] = "+".join(([fields["variant"]] if "variant" in fields else []) + rules)
    variant: VariantLike = None
    if fields:
        if "regions" in fields and "variant" not in fields:
            fields["variant"] = "custom"
        variant = resolve_variant(fields, n)
    puzzle = Puzzle(givens, variant=variant)
    candidates = tuple(masks) if any(masks) else None
    return Document(puzzle, tuple(entries), candidates, str(data.get("title") or ""))


def _named_regions(regions: list[list[Any]], n: int) -> dict[str, Any]:
    """A named variant (windoku, pyramid) whose regions these are, else the regions as they are."""
    try:
        found = {frozenset(parse_cell(c, n) for c in region) for region in regions}
    except ShuduError:
        return {"regions": regions}
    for name in ("windoku", "pyramid"):
        try:
            named = resolve_variant(name, n)
        except ShuduError:
            continue
        if {frozenset(r) for r in named.regions} == found:
            return {"variant": name}
    return {"regions": regions}


def format_fpuzzles(doc: Document, *, link: bool = True) -> str:
    """An f-puzzles link (``link=False``: the JSON). Lines of pencil marks go as centre marks."""
    geo = doc.puzzle.geometry
    n = geo.size
    variant = geo.variant
    if geo.box is not None and geo.box != default_box(n):
        raise ShapeError(f"f-puzzles draws {n}x{n} with its own boxes only, not {geo.box[0]}x{geo.box[1]}")
    grid = []
    for r in range(n):
        row = []
        for c in range(n):
            i = r * n + c
            cell: dict[str, Any] = {}
            if doc.puzzle.cells[i]:
                cell = {"value": doc.puzzle.cells[i], "given": True}
            elif doc.entries[i]:
                cell = {"value": doc.entries[i]}
            elif doc.candidates is not None and doc.candidates[i]:
                cell = {"centerPencilMarks": [d + 1 for d in range(n) if doc.candidates[i] >> d & 1]}
            if variant.layout is not None:
                cell["region"] = variant.layout[i]
            row.append(cell)
        grid.append(row)
    data: dict[str, Any] = {"size": n, "grid": grid}
    if doc.title:
        data["title"] = doc.title
    extra = []
    for region in variant.regions:
        cells = set(region)
        if cells == {i * n + i for i in range(n)}:
            data["diagonal-"] = True
        elif cells == {i * n + n - 1 - i for i in range(n)}:
            data["diagonal+"] = True
        else:
            extra.append({"cells": [cell_name(c, n).upper() for c in region]})
    if extra:
        data["extraregion"] = extra
    if variant.anti_knight:
        data["antiknight"] = True
    if variant.anti_king:
        data["antiking"] = True
    text = json.dumps(data, separators=(",", ":"))
    return f"https://www.f-puzzles.com/?load={lz_compress_base64(text)}" if link else text


# ipuz: the open puzzle format's sudoku kind


def parse_ipuz(text: str, *, line: int | None = None) -> Document:
    """An ipuz sudoku (``"kind": ["http://ipuz.org/sudoku#1"]``): ``puzzle`` rows, ``empty`` value."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"invalid ipuz JSON: {exc.msg} at line {exc.lineno}", line=line) from None
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
    return Document(_build(Puzzle, tuple(cells), None, None, line), title=str(data.get("title") or ""))


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


# detecting and dispatching


def detect_format(text: str) -> str:
    """The name of the format ``text`` is written in (one of :data:`FORMATS`)."""
    s = text.strip()
    if not s:
        raise EmptyInputError("empty input")
    if s.startswith(":"):
        return "hodoku"
    if "f-puzzles" in s or "sudokupad" in s or "fpuzzles" in s:
        return "fpuzzles"
    if s.startswith("{"):
        if '"kind"' in s and "ipuz" in s:
            return "ipuz"
        if '"grid"' in s and '"size"' in s and '"givens"' not in s:
            return "fpuzzles"
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
    tokens = _pm_tokens(text)
    n = math.isqrt(len(tokens))
    return n >= 4 and n * n == len(tokens) and any(len(t) > 1 for t in tokens)


def read_document(text: str, fmt: str | None = None, *, line: int | None = None) -> Document:
    """One puzzle in any format of :data:`FORMATS` (detected when ``fmt`` is None)."""
    fmt = fmt or detect_format(text)
    if fmt in ("line", "grid", "json"):
        return Document(parse_puzzle(text, line=line))
    readers = {
        "hodoku": parse_hodoku,
        "sdk": parse_sdk,
        "ss": parse_ss,
        "pm": parse_pm,
        "fpuzzles": parse_fpuzzles,
        "ipuz": parse_ipuz,
    }
    if fmt not in readers:
        raise ParseError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    return readers[fmt](text, line=line)


def write_document(doc: Document, fmt: str) -> str:
    """``doc`` in format ``fmt`` (one of :data:`FORMATS`)."""
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
        "ipuz": format_ipuz,
    }
    if fmt not in writers:
        raise ParseError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    return writers[fmt](doc)
