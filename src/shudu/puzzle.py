"""Puzzle (the givens) and Grid (a full or partial assignment): small value objects.

Both hold a :class:`~shudu.geometry.Geometry` and a tuple of n·n ints, 0 for an empty cell.
They compare and hash by value, and their ``repr`` rebuilds them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Self

from .errors import ConflictError, ParseError
from .geometry import Box, Geometry, default_box
from .variants import Cell, Variant
from .variants import get as get_variant

#: The characters of digits 1, 2, … : 1-9, then A-Z (10 = A, 16 = G, 25 = P).
DIGITS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
EMPTY = ".0"


def digit_char(digit: int) -> str:
    """The character of a digit (``.`` for 0, an empty cell)."""
    return DIGITS[digit - 1] if digit else "."


def char_digit(char: str, size: int) -> int | None:
    """The digit a character stands for in a grid of ``size``; 0 for empty; None if invalid."""
    if char in EMPTY:
        return 0
    value = DIGITS.find(char.upper()) + 1
    return value if 1 <= value <= size else None


def digit_range(size: int) -> str:
    """Human description of the digits of a size: ``1-9``, ``1-9, A-G``."""
    if size <= 9:
        return f"1-{size}"
    return f"1-9, A-{DIGITS[size - 1]}"


def size_from_cells(count: int) -> int:
    """The grid size that has ``count`` cells, or a ParseError naming the sizes that would fit."""
    size = math.isqrt(count)
    if size * size == count and 4 <= size <= 25:
        return size
    known = ", ".join(f"{n * n} ({n}x{n})" for n in (4, 6, 9, 16, 25))
    raise ParseError(
        f"the puzzle has {count} cells, which is not a square grid of 4x4 to 25x25 (e.g. {known})"
    )


#: A variant as callers may give it: resolved, a name ("x+anti-king"), or JSON fields.
VariantLike = Variant | str | Mapping[str, Any] | None


def _resolve(size: int, box: Box | str | None, variant: VariantLike) -> Geometry:
    if isinstance(box, str):
        from .geometry import parse_box

        box = parse_box(box)
    if isinstance(variant, str):
        variant = get_variant(variant, size)
    elif isinstance(variant, Mapping):
        from .variants import from_json

        variant = from_json(variant, size)
    variant = variant or Variant()
    if box is None and variant.layout is None:
        box = default_box(size)
    return Geometry(size, box, variant)


class _Board:
    __slots__ = ("cells", "geometry")

    geometry: Geometry
    cells: tuple[int, ...]

    def __init__(
        self,
        cells: str | Sequence[int],
        *,
        box: Box | str | None = None,
        variant: VariantLike = None,
        geometry: Geometry | None = None,
    ) -> None:
        if isinstance(cells, str):
            cells = _parse_cells(cells)
        values = tuple(cells)
        if geometry is None:
            geometry = _resolve(size_from_cells(len(values)), box, variant)
        elif len(values) != geometry.ncells:
            raise ParseError(f"{len(values)} cells given for a {geometry.size}x{geometry.size} grid")
        size = geometry.size
        for i, v in enumerate(values):
            if not isinstance(v, int) or not 0 <= v <= size:
                raise ParseError(
                    f"{geometry.cell_name(i)} holds {v!r}; a {size}x{size} grid takes 0 (empty) to {size}",
                    column=i + 1,
                )
        self.geometry = geometry
        self.cells = values
        self._validate()

    def _validate(self) -> None:
        """Further checks of a kind of board (a Puzzle forbids conflicting givens)."""

    @classmethod
    def from_string(cls, text: str, *, box: Box | str | None = None, variant: VariantLike = None) -> Self:
        """Parse any text format: one line, a grid block, or JSON (see docs/formats.md)."""
        from .formats import parse_puzzle

        return parse_puzzle(text, box=box, variant=variant, kind=cls)

    def to_string(self) -> str:
        """The one-line form: n·n characters, ``.`` for empty."""
        return "".join(map(digit_char, self.cells))

    @property
    def size(self) -> int:
        return self.geometry.size

    @property
    def box(self) -> Box | None:
        return self.geometry.box

    @property
    def variant(self) -> Variant:
        return self.geometry.variant

    def __getitem__(self, cell: Cell | tuple[int, int]) -> int:
        if isinstance(cell, tuple):
            row, col = cell
            return self.cells[row * self.size + col]
        return self.cells[cell]

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self) -> Iterator[int]:
        return iter(self.cells)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Board)
        return self.cells == other.cells and self.geometry == other.geometry

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.cells, self.geometry))

    def __repr__(self) -> str:
        args = [repr(self.to_string())]
        geo = self.geometry
        if geo.box is not None and geo.box != default_box(geo.size):
            args.append(f"box={geo.box!r}")
        if not geo.variant.is_standard:
            named = geo.variant.name
            simple = named.replace("jigsaw", "").replace("custom", "") == named
            args.append(f"variant={named!r}" if simple else f"variant={geo.variant!r}")
        return f"{type(self).__name__}({', '.join(args)})"

    def __str__(self) -> str:
        from .formats import format_grid

        return format_grid(self)

    def conflicts(self) -> Iterator[tuple[Cell, Cell]]:
        """Pairs of filled cells that hold the same digit but must differ, in reading order."""
        cells = self.cells
        for cell, peers in enumerate(self.geometry.peers):
            digit = cells[cell]
            if digit:
                for peer in peers:
                    if peer > cell and cells[peer] == digit:
                        yield cell, peer

    def _conflict_error(self, a: Cell, b: Cell) -> ConflictError:
        geo = self.geometry
        names = (geo.cell_name(a), geo.cell_name(b))
        house = geo.relation(a, b)
        digit = digit_char(self.cells[a])
        where = f"in {house}" if not house.startswith("a ") else f"{house} apart"
        return ConflictError(
            f"{names[0]} and {names[1]} both hold {digit} {where}",
            cells=names,
            digit=self.cells[a],
            house=house,
        )


def _parse_cells(text: str) -> tuple[int, ...]:
    from .formats import text_cells

    return text_cells(text)


class Puzzle(_Board):
    """The givens of a puzzle. Conflicting givens are rejected with a :class:`ConflictError`."""

    __slots__ = ()

    def _validate(self) -> None:
        for a, b in self.conflicts():
            raise self._conflict_error(a, b)

    @property
    def givens(self) -> tuple[int, ...]:
        return self.cells

    @property
    def clues(self) -> int:
        """How many cells are given."""
        return sum(1 for v in self.cells if v)


class Grid(_Board):
    """A full or partial assignment of digits: a solution, or a player's work."""

    __slots__ = ()

    @property
    def is_complete(self) -> bool:
        return all(self.cells)

    @property
    def is_valid(self) -> bool:
        """No two cells that must differ hold the same digit."""
        return next(self.conflicts(), None) is None

    def is_solution_of(self, puzzle: Puzzle) -> bool:
        """Complete, valid, same rules, and agrees with every given of ``puzzle``."""
        return (
            self.geometry == puzzle.geometry
            and self.is_complete
            and self.is_valid
            and all(g == 0 or g == v for g, v in zip(puzzle.cells, self.cells, strict=True))
        )
