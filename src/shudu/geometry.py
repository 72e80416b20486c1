"""Shapes, houses and peers: built once per (size, box, variant) and kept in a bounded cache.

Cells are plain ints in reading order (``row * n + col``). A *house* is a group of n cells
that holds every digit once: the rows, the columns, the boxes (or a jigsaw's regions) and a
variant's extra regions. *Links* join cells that must differ without sharing a house (the
anti-knight and anti-king rules); *peers* are all the cells a cell must differ from.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .errors import ShapeError, VariantError, check_size, shown
from .notation import MAX_SIZE, MIN_SIZE, Cell, cell_name
from .variants import Variant, VariantLike, resolve_variant

__all__ = [
    "CACHE_SIZE",
    "MAX_SIZE",
    "MIN_SIZE",
    "Box",
    "BoxLike",
    "Geometry",
    "House",
    "check_variant",
    "default_box",
    "grid_box",
    "parse_box",
    "resolve_box",
    "resolve_rules",
]

#: How many geometries are kept built (least recently used ones are dropped). A geometry is
#: rebuilt on demand and compares equal to any other of the same shape, so dropping one only
#: costs time; random jigsaw layouts, each a new shape, no longer grow the cache without end.
CACHE_SIZE = 128

Box = tuple[int, int]

#: A box shape as callers may give it: ``(rows, columns)``, ``[rows, columns]`` (as in JSON),
#: ``"RxC"`` text, or None for the default shape. :func:`resolve_box` reads each.
BoxLike = Box | Sequence[int] | str | None

#: ``RxC`` text: two whole numbers of up to 9 ASCII digits (``×`` also separates them).
_BOX_TEXT = re.compile(r"\s*([0-9]{1,9})\s*[x×]\s*([0-9]{1,9})\s*", re.ASCII | re.IGNORECASE)


def default_box(size: int) -> Box:
    """The usual box shape for a size: rows x columns, as near square as the size allows.

    4→2x2, 6→2x3, 8→2x4, 9→3x3, 10→2x5, 12→3x4, 15→3x5, 16→4x4, 20→4x5, 25→5x5.
    """
    size = check_size(size)
    rows = max((r for r in range(2, math.isqrt(size) + 1) if size % r == 0), default=0)
    if not rows:
        raise ShapeError(f"a {size}x{size} grid has no box shape (size is prime); give a jigsaw layout")
    return rows, size // rows


def grid_box(rows: int, cols: int) -> Box | None:
    """The boxes of a grid of ``rows`` x ``cols`` cells, as ISS gives them: of max(rows, cols)
    cells, as near square as tiles the grid (5x10: boxes of 5 rows and 2 columns; 4x6: 2x3),
    or None when no such box tiles it (9x8, 5x5)."""
    cells = max(rows, cols)
    for small in range(math.isqrt(cells), 1, -1):
        if cells % small:
            continue
        large = cells // small
        if rows % small == 0 and cols % large == 0:
            return small, large
        if rows % large == 0 and cols % small == 0:
            return large, small
    return None


def parse_box(text: str) -> Box:
    """A box shape from ``RxC`` text (``2x3``: boxes of 2 rows and 3 columns)."""
    if not isinstance(text, str):
        raise TypeError(f"parse_box() takes RxC text, not {type(text).__name__}")
    match = _BOX_TEXT.fullmatch(text)
    if match is None:
        raise ShapeError(f"box shape {shown(text)} is not of the form RxC (e.g. 2x3)")
    return int(match.group(1)), int(match.group(2))


def resolve_box(box: object) -> Box | None:
    """The box shape a box argument stands for: None (the default shape, chosen with the size),
    ``(rows, columns)``, ``[rows, columns]`` or ``"RxC"`` text.

    The one reader of a box argument. Another type is a :class:`TypeError`; a list or text that
    is not two whole numbers a :class:`ShapeError` (whether the shape tiles the grid is
    :class:`Geometry`'s check).
    """
    if box is None:
        return None
    if isinstance(box, str):
        return parse_box(box)
    if not isinstance(box, tuple | list):
        raise TypeError(
            f"box must be (rows, columns), [rows, columns] or 'RxC' text, not {type(box).__name__}"
        )
    if len(box) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in box):
        raise ShapeError(f"box must be two whole numbers [rows, columns], not {shown(box)}")
    rows, cols = int(box[0]), int(box[1])
    if not (0 < rows <= MAX_SIZE and 0 < cols <= MAX_SIZE):
        raise ShapeError(f"box sides must be whole numbers from 1 to {MAX_SIZE}, not {shown(box)}")
    return rows, cols


def check_variant(variant: object) -> None:
    """Check a variant argument itself: a wrong type is a :class:`TypeError`, an empty name (or
    an empty part of one: ``"x+"``) a :class:`VariantError`. Its fit to a size is
    :func:`resolve_rules`' check."""
    if variant is None or isinstance(variant, Variant):
        return
    if isinstance(variant, Mapping):
        name = variant.get("variant")
        if isinstance(name, str):
            _check_name(name, '"variant"')
        return
    if not isinstance(variant, str):
        raise TypeError(
            f"variant must be a name (e.g. 'x+anti-king'), JSON fields (a dict) or a Variant, "
            f"not {type(variant).__name__}"
        )
    _check_name(variant, "variant")


def _check_name(name: str, option: str) -> None:
    if not name.strip():
        raise VariantError(
            f"{option} must be a name such as 'x' or 'x+anti-king' (see 'shudu variants'), "
            f"not {name!r}; leave it out for the standard rules"
        )
    if any(not part.strip() for part in name.split("+")):
        raise VariantError(
            f"{option} {shown(name)} has an empty part; join names with one + (e.g. 'x+anti-king')"
        )


def resolve_rules(variant: object, size: int) -> Variant:
    """The :class:`Variant` a variant argument stands for on a ``size`` x ``size`` grid:
    :func:`check_variant`, then :func:`~shudu.variants.resolve_variant`."""
    if isinstance(variant, Variant):
        variant.check(size)
        return variant
    check_variant(variant)
    return resolve_variant(variant, size)  # type: ignore[arg-type]  # its type is checked


@dataclass(frozen=True)
class House:
    """A group of n cells that holds every digit once."""

    kind: str  # "row", "column", "box", "region" (jigsaw) or "extra"
    index: int  # 0-based within its kind
    name: str  # "row 1", "box 3", "diagonal 1", "pyramid top" …
    cells: tuple[Cell, ...]


class Geometry:
    """Everything about a grid that does not depend on the digits in it."""

    size: int
    box: Box | None
    variant: Variant
    #: Rows and columns: both ``size`` but on a grid that is not square (:attr:`is_rect`).
    rows: int
    cols: int
    ncells: int
    houses: tuple[House, ...]
    #: Rows, columns and boxes of fewer than ``size`` cells, on a grid that is not square: they
    #: only hold different digits (their cells are peers).
    groups: tuple[House, ...]
    house_cells: tuple[tuple[Cell, ...], ...]
    cell_houses: tuple[tuple[int, ...], ...]
    links: tuple[tuple[Cell, ...], ...]
    peers: tuple[tuple[Cell, ...], ...]
    _hash: int

    def __new__(cls, size: int, box: BoxLike = None, variant: VariantLike = None) -> Geometry:
        size = check_size(size)
        shape = resolve_box(box)
        rules = resolve_rules(variant, size)
        if rules.grid is not None:
            own = None if rules.no_boxes else grid_box(*rules.grid)
            if shape is not None and shape != own:
                raise ShapeError(f"a {rules.grid[0]}x{rules.grid[1]} grid has boxes of {own}, not {shape}")
            shape = own
        elif rules.layout is not None:
            shape = None
        elif shape is None:
            shape = default_box(size)
        return _build(size, shape, rules)

    @property
    def is_rect(self) -> bool:
        """Whether the grid is not square with as many digits as rows (5x10, or 5x5 of 1-9)."""
        return self.variant.grid is not None

    @property
    def dims(self) -> str:
        """The grid in words: ``9x9``; ``5x10``; ``5x5 of digits 1-9``."""
        text = f"{self.rows}x{self.cols}"
        if self.is_rect and max(self.rows, self.cols) != self.size:
            base = self.variant.digit_base
            text += f" of digits {base}-{base + self.size - 1}"
        return text

    def refuse_rect(self, what: str) -> None:
        """Raise :class:`ShapeError` when the grid is not square (:attr:`is_rect`), which
        ``what`` does not read."""
        self.variant.refuse_grid(what)

    def cell_name(self, cell: Cell) -> str:
        return cell_name(cell, self.cols)

    def row(self, cell: Cell) -> int:
        return cell // self.cols

    def col(self, cell: Cell) -> int:
        return cell % self.cols

    def relation(self, a: Cell, b: Cell) -> str:
        """The name of a house holding both cells, or the variant rule that links them."""
        shared = set(self.cell_houses[a]) & set(self.cell_houses[b])
        if shared:
            return self.houses[min(shared)].name
        for group in self.groups:
            if a in group.cells and b in group.cells:
                return group.name
        if b in self.links[a]:
            dr, dc = abs(self.row(a) - self.row(b)), abs(self.col(a) - self.col(b))
            return "a knight's move (anti-knight)" if {dr, dc} == {1, 2} else "a king's move (anti-king)"
        raise ValueError(f"{self.cell_name(a)} and {self.cell_name(b)} are not peers")

    @property
    def key(self) -> tuple[int, Box | None, Variant]:
        return self.size, self.box, self.variant

    def __repr__(self) -> str:
        box = f"{self.box[0]}x{self.box[1]}" if self.box else ("none" if self.is_rect else "jigsaw")
        return f"<Geometry {self.dims} box={box} variant={self.variant.name}>"

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Geometry) and self.key == other.key)

    def __hash__(self) -> int:
        return self._hash  # computed once: geometries key the logic engine's caches

    def __reduce__(self) -> tuple[object, tuple[int, Box | None, Variant]]:
        return Geometry, (self.size, self.box, self.variant)


@lru_cache(maxsize=CACHE_SIZE)
def _build(size: int, box: Box | None, variant: Variant) -> Geometry:
    check_size(size)
    variant.check(size)
    if variant.grid is not None:
        return _build_rect(size, box, variant)
    n = size
    houses: list[House] = []
    houses += [House("row", r, f"row {r + 1}", tuple(r * n + c for c in range(n))) for r in range(n)]
    houses += [House("column", c, f"column {c + 1}", tuple(r * n + c for r in range(n))) for c in range(n)]
    if box is not None:
        rows, cols = box
        if rows * cols != n or rows < 1 or cols < 1:
            raise ShapeError(f"boxes of {rows}x{cols} do not tile a {n}x{n} grid ({rows}*{cols} != {n})")
        if rows == 1 or cols == 1:
            raise ShapeError(
                f"boxes of {rows}x{cols} would only repeat the rows or columns; pick another shape"
            )
        for b in range(n):
            top, left = (b // (n // cols)) * rows, (b % (n // cols)) * cols
            cells = tuple((top + r) * n + left + c for r in range(rows) for c in range(cols))
            houses.append(House("box", b, f"box {b + 1}", cells))
    else:
        assert variant.layout is not None
        for label in range(n):
            cells = tuple(i for i, v in enumerate(variant.layout) if v == label)
            houses.append(House("region", label, f"region {label + 1}", cells))
    for i, (name, cells) in enumerate(zip(variant.region_names, variant.regions, strict=True)):
        houses.append(House("extra", i, name, tuple(cells)))

    cell_houses: list[list[int]] = [[] for _ in range(n * n)]
    for h, house in enumerate(houses):
        for cell in house.cells:
            cell_houses[cell].append(h)
    house_peers: list[set[Cell]] = [set() for _ in range(n * n)]
    for house in houses:
        for cell in house.cells:
            house_peers[cell].update(house.cells)
    links = [_moves(cell, n, variant) - house_peers[cell] for cell in range(n * n)]

    geo = object.__new__(Geometry)
    geo.size, geo.box, geo.variant, geo.ncells = n, box, variant, n * n
    geo.rows = geo.cols = n
    geo.groups = ()
    geo._hash = hash(geo.key)
    geo.houses = tuple(houses)
    geo.house_cells = tuple(h.cells for h in houses)
    geo.cell_houses = tuple(tuple(hs) for hs in cell_houses)
    geo.links = tuple(tuple(sorted(s)) for s in links)
    geo.peers = tuple(tuple(sorted((house_peers[c] | links[c]) - {c})) for c in range(n * n))
    return geo


def _build_rect(size: int, box: Box | None, variant: Variant) -> Geometry:
    """A grid that is not square (docs/constraints.md, "Grids that are not square"): its rows,
    columns and boxes (``box``, or none) are houses when they have ``size`` cells, and groups
    of different digits when they have fewer; the variant's extra regions are houses."""
    assert variant.grid is not None
    rows, cols = variant.grid
    if box is not None and (rows % box[0] or cols % box[1] or box[0] * box[1] > size):
        raise ShapeError(f"boxes of {box[0]}x{box[1]} do not tile a {rows}x{cols} grid of {size} digits")
    parts = [House("row", r, f"row {r + 1}", tuple(r * cols + c for c in range(cols))) for r in range(rows)]
    parts += [
        House("column", c, f"column {c + 1}", tuple(r * cols + c for r in range(rows))) for c in range(cols)
    ]
    if box is not None:
        high, wide = box
        across = cols // wide
        for b in range(rows * cols // (high * wide)):
            top, left = (b // across) * high, (b % across) * wide
            cells = tuple((top + r) * cols + left + c for r in range(high) for c in range(wide))
            parts.append(House("box", b, f"box {b + 1}", cells))
    houses = [h for h in parts if len(h.cells) == size]
    houses += [
        House("extra", i, name, tuple(cells))
        for i, (name, cells) in enumerate(zip(variant.region_names, variant.regions, strict=True))
    ]
    groups = tuple(h for h in parts if 1 < len(h.cells) < size)
    ncells = rows * cols
    cell_houses: list[list[int]] = [[] for _ in range(ncells)]
    peers: list[set[Cell]] = [set() for _ in range(ncells)]
    for h, house in enumerate(houses):
        for cell in house.cells:
            cell_houses[cell].append(h)
    for house in (*houses, *groups):
        for cell in house.cells:
            peers[cell].update(house.cells)
    geo = object.__new__(Geometry)
    geo.size, geo.box, geo.variant, geo.ncells = size, box, variant, ncells
    geo.rows, geo.cols = rows, cols
    geo.groups = groups
    geo._hash = hash(geo.key)
    geo.houses = tuple(houses)
    geo.house_cells = tuple(h.cells for h in houses)
    geo.cell_houses = tuple(tuple(hs) for hs in cell_houses)
    geo.links = tuple(() for _ in range(ncells))
    geo.peers = tuple(tuple(sorted(p - {c})) for c, p in enumerate(peers))
    return geo


_KNIGHT = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
_KING = ((1, 1), (1, -1), (-1, 1), (-1, -1), (0, 1), (1, 0), (0, -1), (-1, 0))


def _moves(cell: Cell, n: int, variant: Variant) -> set[Cell]:
    steps: tuple[tuple[int, int], ...] = ()
    if variant.anti_knight:
        steps += _KNIGHT
    if variant.anti_king:
        steps += _KING
    r, c = divmod(cell, n)
    return {(r + dr) * n + c + dc for dr, dc in steps if 0 <= r + dr < n and 0 <= c + dc < n}


#: How many choices of houses :func:`implied_houses` tries at most, so that a layout with many
#: overlapping regions cannot make it slow; the houses found before the limit all hold.
IMPLIED_SEARCH_LIMIT = 50_000


def implied_houses(geo: Geometry) -> tuple[tuple[Cell, ...], ...]:
    """Sets of cells that hold every digit once because of the houses, though no house names
    them (the "law of leftovers").

    ``k`` rows hold each digit ``k`` times. If ``k - 1`` of the variant's extra regions (or
    sets found before) lie wholly inside those rows and share no cell, they hold each digit
    ``k - 1`` times, so the ``n`` cells they leave hold each digit once. The same goes for
    columns. On a windoku grid the columns 2-4 hold two windows, so their cells in rows 1, 5
    and 9 are such a set; so are four more, the last one found from the first four. Sets found
    take part in finding more, and sets equal to a house are left out. Only the solver uses
    them: more houses, fewer guesses.
    """
    n = geo.size
    masks = [sum(1 << c for c in cells) for cells in geo.house_cells]
    rows = [sum(1 << (r * n + c) for c in range(n)) for r in range(n)]
    cols = [sum(1 << (r * n + c) for r in range(n)) for c in range(n)]
    # the variant's extra regions, then the sets found from them
    parts = [m for h, m in zip(geo.houses, masks, strict=True) if h.kind == "extra"]
    known = set(masks)
    found: list[int] = []
    budget = [IMPLIED_SEARCH_LIMIT]

    def spans(mask: int) -> list[tuple[int, frozenset[int]]]:
        cells = [c for c in range(n * n) if mask >> c & 1]
        return [(0, frozenset(c // n for c in cells)), (1, frozenset(c % n for c in cells))]

    def sum_masks(ms: list[int]) -> int:
        union = 0
        for m in ms:
            union |= m
        return union

    def leftovers(area: int, inside: list[int]) -> list[int]:
        """The ways to cover ``area`` with disjoint masks of ``inside`` and ``n`` cells left
        over: the cells left over, each way. Cell by cell, lowest first: a mask covers it or
        it is left over."""
        out: list[int] = []

        def cover(rest: int, left: int, room: int) -> None:
            budget[0] -= 1
            if budget[0] < 0:
                return
            fits = [m for m in inside if not m & ~rest]
            if (rest & ~sum_masks(fits)).bit_count() > room:
                return  # more cells no mask can cover than may be left over
            if not rest:
                out.append(left)
                return
            low = rest & -rest
            for m in fits:
                if m & low:
                    cover(rest & ~m, left, room)
            if room:
                cover(rest ^ low, left | low, room - 1)

        cover(area, 0, n)
        return [left for left in out if left.bit_count() == n]

    # runs of two or more lines, and the lines each part spans
    runs = [frozenset(range(lo, hi)) for lo in range(n) for hi in range(lo + 2, n + 1)]
    line_sets = {(axis, lines) for axis in (0, 1) for lines in runs}
    for m in parts:
        line_sets.update(spans(m))
    grew = True
    while grew and budget[0] > 0:  # until a pass over every set of lines finds nothing new
        grew = False
        for axis, lines in sorted(line_sets, key=lambda s: (len(s[1]), s[0], sorted(s[1]))):
            if not 1 < len(lines) < n:
                continue
            area = sum((rows if axis == 0 else cols)[i] for i in lines)
            for left in leftovers(area, [m for m in parts if not m & ~area]):
                if left not in known:
                    known.add(left)
                    found.append(left)
                    parts.append(left)
                    grew = True
        for m in found:
            line_sets.update(spans(m))
    return tuple(tuple(c for c in range(n * n) if m >> c & 1) for m in found)
