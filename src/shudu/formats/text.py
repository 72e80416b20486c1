"""shudu's own text forms: one line and a grid block, read and written; any one puzzle read by its look."""

from __future__ import annotations

from typing import overload

from ..errors import ParseError, ShuduError
from ..geometry import BoxLike
from ..notation import digit_char
from ..puzzle import Grid, Puzzle, _Board
from ..variants import Variant, VariantLike
from .cells import B, block_cells, build_board, checked_options, line_cells, text_cells
from .iss import is_iss, parse_iss
from .json_form import parse_json
from .limits import check_text


def parse_line(
    text: str,
    *,
    box: BoxLike = None,
    variant: VariantLike = None,
    line: int | None = None,
    kind: type[B] = Puzzle,  # type: ignore[assignment]
) -> B:
    """A puzzle from one line of n·n characters: ``1-9`` then ``A-Z``, ``.`` or ``0`` for empty."""
    box = checked_options(box, variant)
    check_text(text, reader="parse_line", line=line)
    return build_board(kind, line_cells(text, line=line), box, variant, line)


def parse_block(
    text: str,
    *,
    box: BoxLike = None,
    variant: VariantLike = None,
    line: int | None = None,
    kind: type[B] = Puzzle,  # type: ignore[assignment]
) -> B:
    """A puzzle drawn as rows on lines (see :func:`block_cells`)."""
    box = checked_options(box, variant)
    check_text(text, reader="parse_block", line=line)
    return build_board(kind, block_cells(text, line=line), box, variant, line)


@overload
def parse_puzzle(
    text: str, *, box: BoxLike = ..., variant: VariantLike = ..., line: int | None = ...
) -> Puzzle: ...
@overload
def parse_puzzle(
    text: str,
    *,
    box: BoxLike = ...,
    variant: VariantLike = ...,
    line: int | None = ...,
    kind: type[B],
) -> B: ...
def parse_puzzle(
    text: str,
    *,
    box: BoxLike = None,
    variant: VariantLike = None,
    line: int | None = None,
    kind: type[_Board] = Puzzle,
) -> _Board:
    """Any one puzzle: JSON if it starts with ``{``, a grid block if it spans lines or has decoration,
    else one line."""
    box = checked_options(box, variant)
    reader = "parse_grid" if kind is Grid else "parse_puzzle"
    stripped = check_text(text, reader=reader, line=line).strip()
    if stripped.startswith("{"):
        return parse_json(stripped, box=box, variant=variant, line=line, kind=kind)
    if is_iss(stripped):
        return _parse_iss(stripped, box, variant, line, kind)
    base = variant.digit_base if isinstance(variant, Variant) else 1
    return build_board(kind, text_cells(text, line=line, base=base), box, variant, line)


def _parse_iss(text: str, box: object, variant: object, line: int | None, kind: type[_Board]) -> _Board:
    """A constraint string (:mod:`shudu.formats.iss`): it says its own shape and rules."""
    if kind is not Puzzle:
        raise ParseError("a constraint string holds a puzzle, not a grid", line=line)
    if box is not None or variant is not None:
        raise ParseError(
            "a constraint string says its own shape and rules: give no box or variant", line=line
        )
    try:
        return parse_iss(text)
    except ShuduError as exc:
        raise exc.at_line(line) if line is not None else exc from None


def parse_grid(
    text: str, *, box: BoxLike = None, variant: VariantLike = None, line: int | None = None
) -> Grid:
    """A :class:`Grid` (a solution or a player's work) from any text format, as :func:`parse_puzzle`."""
    return parse_puzzle(text, box=box, variant=variant, line=line, kind=Grid)


#: What the API takes as a puzzle: a Puzzle, or text in any format of docs/formats.md.
PuzzleLike = Puzzle | str


def as_puzzle(puzzle: PuzzleLike, *, box: BoxLike = None, variant: VariantLike = None) -> Puzzle:
    """The Puzzle a puzzle-like argument stands for: a Puzzle as it is, or text in any format.

    ``box`` and ``variant`` apply to text only (a Puzzle already carries its shape), but are
    checked either way: a wrong type is a :class:`TypeError`.
    """
    box = checked_options(box, variant)
    if isinstance(puzzle, Puzzle):
        return puzzle
    if isinstance(puzzle, str):
        return parse_puzzle(puzzle, box=box, variant=variant)
    raise TypeError(f"expected a Puzzle or puzzle text, not {type(puzzle).__name__}")


def format_line(board: _Board) -> str:
    """The one-line form."""
    return board.to_string()


def format_grid(board: _Board) -> str:
    """A drawn grid with box lines; extra regions and jigsaw regions as ``#`` map lines below."""
    geo = board.geometry
    rows, cols = geo.rows, geo.cols
    box_rows, box_cols = geo.box or (rows, cols)
    base = geo.variant.digit_base
    lines = []
    for r in range(rows):
        if r and r % box_rows == 0:
            lines.append("-+-".join("-" * (2 * box_cols - 1) for _ in range(cols // box_cols)))
        groups = [
            " ".join(digit_char(board.cells[r * cols + c], base) for c in range(start, start + box_cols))
            for start in range(0, cols, box_cols)
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
        marks = ["."] * geo.ncells
        for i, house in enumerate(extras):
            for cell in house.cells:
                marks[cell] = letters[i % 26] if marks[cell] == "." else "*"
        legend = ", ".join(f"{letters[i % 26]} = {h.name}" for i, h in enumerate(extras))
        out.append(f"# extra regions: {legend}")
        for r in range(geo.rows):
            out.append("# " + " ".join(marks[r * geo.cols : (r + 1) * geo.cols]))
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
