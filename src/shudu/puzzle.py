"""Puzzle (the givens) and Grid (a full or partial assignment): small value objects.

Both hold a :class:`~shudu.geometry.Geometry` and a tuple of n·n ints, 0 for an empty cell.
They are built from ints and checked (size, digit range, and for a Puzzle conflicting givens);
:meth:`~_Board.trusted` builds the boards the library makes itself without checking again. Text
is read and written by :mod:`shudu.formats` alone. Boards compare and hash by value, and their
``repr`` is the :mod:`shudu.formats` call that reads them back.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Self

from .errors import ConflictError, ParseError
from .geometry import CACHE_SIZE, Box, BoxLike, Geometry, default_box, resolve_box, resolve_rules
from .notation import MAX_SIZE, MIN_SIZE, digit_char
from .variants import Cell, Variant, VariantLike

__all__ = ["Grid", "Puzzle", "size_from_cells"]


def size_from_cells(count: int) -> int:
    """The grid size that has ``count`` cells, or a ParseError naming the sizes that would fit."""
    size = math.isqrt(count)
    if size * size == count and MIN_SIZE <= size <= MAX_SIZE:
        return size
    known = ", ".join(f"{n * n} ({n}x{n})" for n in (4, 6, 9, 16, 25))
    raise ParseError(
        f"the puzzle has {count} cells, which is not a square grid of "
        f"{MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE} (e.g. {known})"
    )


def _resolve(size: int, box: BoxLike, variant: VariantLike) -> Geometry:
    shape = resolve_box(box)
    resolved = resolve_rules(variant, size)
    if shape is None and resolved.layout is None:
        shape = default_box(size)
    return Geometry(size, shape, resolved)


def _plain_digits(values: tuple[int, ...], size: int) -> bool:
    """Whether every value is a plain int (no bool, no subclass) in 0 … size: the common case,
    checked at once; the cell-by-cell check names what is wrong otherwise."""
    return set(map(type, values)) <= {int} and min(values, default=0) >= 0 and max(values, default=0) <= size


class _Board:
    __slots__ = ("cells", "geometry")

    geometry: Geometry
    cells: tuple[int, ...]

    def __init__(
        self,
        cells: Sequence[int],
        *,
        box: BoxLike = None,
        variant: VariantLike = None,
        geometry: Geometry | None = None,
    ) -> None:
        """A board from its digits as ints in reading order (0 for empty), checked in full.

        The size is taken from the number of cells unless ``geometry`` is given; ``box`` and
        ``variant`` choose the shape otherwise. Text is read by :mod:`shudu.formats` only
        (``parse_puzzle``, ``parse_grid``, ``as_puzzle``).
        """
        if isinstance(cells, str | bytes | bytearray):
            kind = type(self).__name__
            raise TypeError(
                f"{kind}() takes the digits as ints; read text with shudu.formats."
                f"{'parse_grid' if kind == 'Grid' else 'parse_puzzle'}(text)"
            )
        try:
            values = tuple(cells)
        except TypeError:
            raise ParseError(f"the cells must be a sequence of ints, not {type(cells).__name__}") from None
        if geometry is None and isinstance(variant, Variant) and variant.grid is not None:
            geometry = Geometry(variant.size or max(variant.grid), box, variant)
        if geometry is None:
            geometry = _resolve(size_from_cells(len(values)), box, variant)
        elif len(values) != geometry.ncells:
            raise ParseError(f"{len(values)} cells given for a {geometry.dims} grid")
        size = geometry.size
        if _plain_digits(values, size):
            self.geometry = geometry
            self.cells = values
            self._validate()
            return
        for i, v in enumerate(values):
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= size:
                raise ParseError(
                    f"{geometry.cell_name(i)} holds {v!r}; a {geometry.dims} grid takes 0 (empty) to {size}",
                    column=i + 1,
                )
        self.geometry = geometry
        self.cells = values
        self._validate()

    def _validate(self) -> None:
        """Further checks of a kind of board (a Puzzle forbids conflicting givens)."""

    @classmethod
    def trusted(cls, cells: tuple[int, ...], geometry: Geometry) -> Self:
        """A board the library made itself (a solver's solution, a generated puzzle), not checked again.

        Internal: ``cells`` must already be a tuple of ``geometry.ncells`` ints in 0 … size (and, for
        a Puzzle, free of conflicts). Input from users goes through the checked constructor.
        """
        board = object.__new__(cls)
        board.geometry = geometry
        board.cells = cells
        return board

    def to_string(self) -> str:
        """The one-line form: n·n characters, ``.`` for empty; the digits' values (``0``-``8`` when
        the puzzle's digits run from 0)."""
        base = self.geometry.variant.digit_base
        return "".join(digit_char(d, base) for d in self.cells)

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
            return self.cells[row * self.geometry.cols + col]
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
        # the call of shudu.formats that reads the board back
        args = [repr(self.to_string())]
        geo = self.geometry
        if geo.is_rect:  # the JSON form: it says the shape
            fields = {"size": geo.size, **geo.variant.to_json(), "givens": self.to_string()}
            return f"parse_json({fields!r}{', kind=Grid' if isinstance(self, Grid) else ''})"
        if geo.box is not None and geo.box != default_box(geo.size):
            args.append(f"box={geo.box!r}")
        if not geo.variant.is_standard:
            named = geo.variant.name
            simple = named.replace("jigsaw", "").replace("custom", "") == named
            args.append(f"variant={named!r}" if simple else f"variant={geo.variant!r}")
        reader = "parse_grid" if isinstance(self, Grid) else "parse_puzzle"
        return f"{reader}({', '.join(args)})"

    def __str__(self) -> str:
        """The one-line form (``shudu.formats.format_grid`` draws the grid)."""
        return self.to_string()

    def _repr_svg_(self) -> str:
        """The board drawn, for Jupyter (:mod:`shudu.render`, imported only now)."""
        from .render import render

        return render(self)

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
        digit = digit_char(self.cells[a], geo.variant.digit_base)
        where = f"in {house}" if not house.startswith("a ") else f"{house} apart"
        return ConflictError(
            f"{names[0]} and {names[1]} both hold {digit} {where}",
            cells=names,
            digit=self.cells[a],
            house=house,
        )


class Puzzle(_Board):
    """The givens of a puzzle. Conflicting givens are rejected with a :class:`ConflictError`."""

    __slots__ = ()

    def _validate(self) -> None:
        if _houses_distinct(self.cells, self.geometry):
            return
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


def _houses_distinct(cells: tuple[int, ...], geometry: Geometry) -> bool:
    """Whether no house holds a digit twice and the shape has no peers beyond its houses: then
    there is no conflict, known without naming pairs (:meth:`_Board.conflicts` names them)."""
    slots = _house_slots(geometry)
    if slots is None:
        return False
    seen: set[int] = set()
    count = 0
    for cell, digit in enumerate(cells):
        if digit:
            mine = slots[cell]
            count += len(mine)
            for slot in mine:
                seen.add(slot + digit)
    return len(seen) == count


@lru_cache(maxsize=CACHE_SIZE)
def _house_slots(geometry: Geometry) -> tuple[tuple[int, ...], ...] | None:
    """Per cell, its houses as slots of 32 (a digit placed there fills its house's slot + digit);
    None where cells have peers beyond their houses."""
    if any(geometry.links) or geometry.groups:
        return None
    return tuple(tuple(32 * h for h in houses) for houses in geometry.cell_houses)
