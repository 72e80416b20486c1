"""The candidate grid: the digits placed so far and the candidates every empty cell may still hold.

Hot data stays plain: ``cands[cell]`` is a digit bitmask (bit ``d - 1`` for digit ``d``) and
``where[d - 1]`` is a cell bitmask (bit ``cell``) of the cells that may still hold ``d``. Houses and
peers are cell bitmasks too, built once per geometry (:func:`tables`), so "the cells of box 3 that
may hold 7" is one ``&``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from ...geometry import Geometry
from ...variants import Cell
from .rule_tables import RuleTables, rule_tables

Digit = int
#: A set of cells as an int: bit ``cell`` set for each cell in it.
CellSet = int
#: A set of digits as an int: bit ``d - 1`` set for each digit ``d`` in it.
DigitSet = int


#: The set bits of every mask below ``2**10`` (a 9x9 grid's digit sets and small cell sets).
_SMALL_BITS = tuple(tuple(i for i in range(10) if m >> i & 1) for m in range(1 << 10))


#: The set bits of the larger masks met lately (cell sets, mostly): a rating asks for the same
#: few thousand again and again. Emptied once it holds :data:`_BIG_BITS_MOST` indices in all.
_BIG_BITS: dict[int, tuple[int, ...]] = {}
_BIG_BITS_MOST = 1 << 17
_big_bits_held = 0


def bits(mask: int) -> Sequence[int]:
    """The indices of the set bits of ``mask`` (not negative), lowest first."""
    global _big_bits_held
    if 0 <= mask < 1024:
        return _SMALL_BITS[mask]
    known = _BIG_BITS.get(mask)
    if known is not None:
        return known
    out = []
    rest = mask
    while rest:
        low = rest & -rest
        out.append(low.bit_length() - 1)
        rest ^= low
    found = tuple(out)
    if _big_bits_held + len(found) > _BIG_BITS_MOST:
        _BIG_BITS.clear()
        _big_bits_held = 0
    _BIG_BITS[mask] = found
    _big_bits_held += len(found)
    return found


def digits_of(mask: DigitSet) -> list[Digit]:
    """The digits of a digit set, ascending."""
    return [i + 1 for i in bits(mask)]


@dataclass(frozen=True)
class Tables:
    """Cell bitmasks of a geometry's houses and peers, shared by every grid of that shape."""

    house_bits: tuple[CellSet, ...]
    peer_bits: tuple[CellSet, ...]
    #: Indices of the houses by kind: rows, columns, boxes (or jigsaw regions), extra regions.
    rows: tuple[int, ...]
    columns: tuple[int, ...]
    boxes: tuple[int, ...]
    extras: tuple[int, ...]
    #: Pairs of houses ``(a, b, a & b)`` that share two or more cells.
    overlaps: tuple[tuple[int, int, CellSet], ...]
    #: Whether a cell has peers beyond its houses: anti-knight or anti-king links, or cells a
    #: constraint rule keeps apart.
    has_links: bool
    #: The ``r1c2`` name of each cell, by index (steps name cells in every explanation).
    names: tuple[str, ...] = ()
    #: The puzzle's constraint rules (None: it has none). Cells a rule keeps apart are peers.
    rules: RuleTables | None = None


#: How many geometries' tables are kept (least recently used ones are dropped): as many as
#: :data:`shudu.geometry.CACHE_SIZE` keeps geometries, so random jigsaw layouts (each a new shape)
#: cannot grow it without end. Tables are rebuilt on demand.
TABLES_CACHE_SIZE = 128


@lru_cache(maxsize=TABLES_CACHE_SIZE)
def tables(geometry: Geometry) -> Tables:
    """The house and peer bitmasks of a geometry, built once and kept in a bounded cache.

    With constraint rules, two cells a rule keeps from holding the same digit are peers too
    (:mod:`~shudu.logic.engine.rule_tables`), as anti-knight cells are. A grid that is not
    square is a ShapeError: the techniques read square grids."""
    geometry.refuse_rect("the logic engine (rate, explain, hint, steps)")
    house_bits = tuple(sum(1 << c for c in cells) for cells in geometry.house_cells)
    peers = [sum(1 << p for p in cell_peers) for cell_peers in geometry.peers]
    rules = rule_tables(geometry)
    linked = any(geometry.links)
    for a, b in rules.apart if rules is not None else ():
        if not peers[a] >> b & 1:
            peers[a] |= 1 << b
            peers[b] |= 1 << a
            linked = True
    peer_bits = tuple(peers)
    kinds: dict[str, list[int]] = {"row": [], "column": [], "box": [], "region": [], "extra": []}
    for h, house in enumerate(geometry.houses):
        kinds[house.kind].append(h)
    overlaps = []
    for a, abits in enumerate(house_bits):
        for b, bbits in enumerate(house_bits):
            if a != b and (abits & bbits).bit_count() >= 2:
                overlaps.append((a, b, abits & bbits))
    return Tables(
        house_bits=house_bits,
        peer_bits=peer_bits,
        rows=tuple(kinds["row"]),
        columns=tuple(kinds["column"]),
        boxes=tuple(kinds["box"] + kinds["region"]),
        extras=tuple(kinds["extra"]),
        overlaps=tuple(overlaps),
        has_links=linked,
        names=tuple(geometry.cell_name(cell) for cell in range(geometry.ncells)),
        rules=rules,
    )


class CandidateGrid:
    """A grid in the middle of being solved: values placed and candidates left.

    Placing a digit removes it from the candidates of every peer; eliminating keeps ``cands`` and
    ``where`` in step. Nothing here reasons beyond that: the techniques do.
    """

    __slots__ = ("cands", "empty", "geometry", "givens", "placed", "size", "t", "values", "where")

    geometry: Geometry
    size: int
    t: Tables
    values: list[Digit]
    cands: list[DigitSet]
    where: list[CellSet]
    empty: CellSet
    #: The digits placed in each house, as digit sets.
    placed: list[DigitSet]
    #: The cells whose digits are the puzzle's givens (not placed by a solver or a player). Only
    #: techniques that may not move a given read it (Avoidable Rectangles).
    givens: CellSet

    def __init__(
        self,
        geometry: Geometry,
        values: Sequence[Digit],
        cands: Sequence[DigitSet],
        *,
        givens: CellSet | None = None,
    ) -> None:
        """``givens`` (None: every placed cell, the safe reading) marks the puzzle's own digits."""
        self.geometry = geometry
        self.size = geometry.size
        self.t = tables(geometry)
        self.values = list(values)
        self.cands = list(cands)
        self.where = [0] * self.size
        self.empty = 0
        self.placed = [0] * len(self.t.house_bits)
        where, placed, cell_houses = self.where, self.placed, geometry.cell_houses
        empty = 0
        for cell, (value, mask) in enumerate(zip(self.values, self.cands, strict=True)):
            if value:
                for h in cell_houses[cell]:
                    placed[h] |= 1 << (value - 1)
            else:
                bit = 1 << cell
                empty |= bit
                while mask:
                    low = mask & -mask
                    mask ^= low
                    where[low.bit_length() - 1] |= bit
        self.empty = empty
        placed_cells = ((1 << len(self.values)) - 1) & ~self.empty
        self.givens = placed_cells if givens is None else givens & placed_cells

    @classmethod
    def from_values(
        cls, geometry: Geometry, values: Sequence[Digit], *, givens: CellSet | None = None
    ) -> CandidateGrid:
        """The grid of some placed digits, every other cell holding all digits its peers allow.

        ``givens`` marks which placed cells are the puzzle's givens (None: all of them)."""
        t = tables(geometry)
        if not t.has_links:  # a cell's peers are the cells of its houses
            return cls._from_houses(geometry, values, givens)
        full = (1 << geometry.size) - 1
        cands = []
        for cell, value in enumerate(values):  # peers beyond the houses: ask every peer
            if value:
                cands.append(0)
            else:
                seen = 0
                for peer in bits(t.peer_bits[cell]):
                    if values[peer]:
                        seen |= 1 << (values[peer] - 1)
                cands.append(full & ~seen)
        return cls(geometry, values, cands, givens=givens)

    @classmethod
    def _from_houses(
        cls, geometry: Geometry, values: Sequence[Digit], givens: CellSet | None
    ) -> CandidateGrid:
        """:meth:`from_values` for a geometry whose peers are its houses' cells: the digit planes
        follow from the houses at once (a digit may go in every open cell outside the houses that
        hold it), so they need not be gathered cell by cell: a cell sees what its houses hold."""
        own = list(values)
        return cls.of_parts(geometry, own, *start_py(geometry, own), givens=givens)

    @classmethod
    def of_parts(
        cls,
        geometry: Geometry,
        values: list[Digit],
        cands: list[int],
        where: list[int],
        placed: list[int],
        empty: CellSet,
        *,
        givens: CellSet | None = None,
    ) -> CandidateGrid:
        """The grid of :func:`start_py`'s parts (or the C core's, the same), which it keeps."""
        grid = object.__new__(cls)
        grid.geometry, grid.size, grid.t = geometry, geometry.size, tables(geometry)
        grid.values, grid.cands, grid.where = values, cands, where
        grid.empty, grid.placed = empty, placed
        placed_cells = ((1 << len(values)) - 1) & ~empty
        grid.givens = placed_cells if givens is None else givens & placed_cells
        return grid

    def copy(self) -> CandidateGrid:
        new = object.__new__(CandidateGrid)
        new.geometry, new.size, new.t = self.geometry, self.size, self.t
        new.values, new.cands, new.where = self.values[:], self.cands[:], self.where[:]
        new.empty, new.placed, new.givens = self.empty, self.placed[:], self.givens
        return new

    # --- changing the grid -------------------------------------------------------------------

    def place(self, cell: Cell, digit: Digit) -> None:
        """Put ``digit`` in ``cell`` and remove it from the candidates of the cell's peers."""
        bit = 1 << cell
        where, cands = self.where, self.cands
        own = cands[cell]
        while own:
            low = own & -own
            own ^= low
            where[low.bit_length() - 1] &= ~bit
        cands[cell] = 0
        self.values[cell] = digit
        self.empty &= ~bit
        d = digit - 1
        placed = self.placed
        for h in self.geometry.cell_houses[cell]:
            placed[h] |= 1 << d
        seen = where[d] & self.t.peer_bits[cell]
        if seen:
            where[d] &= ~seen
            keep = ~(1 << d)
            while seen:
                low = seen & -seen
                seen ^= low
                cands[low.bit_length() - 1] &= keep

    def eliminate(self, cell: Cell, digit: Digit) -> bool:
        """Remove a candidate; whether it was there."""
        dbit = 1 << (digit - 1)
        if not self.cands[cell] & dbit:
            return False
        self.cands[cell] &= ~dbit
        self.where[digit - 1] &= ~(1 << cell)
        return True

    def apply(self, step: StepLike) -> None:
        """Carry out a step's placements and eliminations."""
        for cell, digit in step.placements:
            if not self.values[cell]:
                self.place(cell, digit)
        for cell, digit in step.eliminations:
            self.eliminate(cell, digit)

    # --- questions ---------------------------------------------------------------------------

    def candidates(self, cell: Cell) -> list[Digit]:
        return digits_of(self.cands[cell])

    def has(self, cell: Cell, digit: Digit) -> bool:
        return bool(self.cands[cell] >> (digit - 1) & 1)

    @property
    def is_solved(self) -> bool:
        return not self.empty

    def is_broken(self) -> bool:
        """Whether the grid has visibly gone wrong: an empty cell without candidates, or a digit
        with no place left in a house that lacks it."""
        for cell in bits(self.empty):
            if not self.cands[cell]:
                return True
        where = self.where
        for h, hbits in enumerate(self.t.house_bits):
            placed = self.placed[h]
            for d in range(self.size):
                if not placed >> d & 1 and not where[d] & hbits:
                    return True
        return False

    def name(self, cell: Cell) -> str:
        return self.t.names[cell]

    def names(self, cells: Sequence[Cell] | CellSet) -> str:
        """``r1c2, r1c5 and r3c4``."""
        if isinstance(cells, int):
            cells = list(bits(cells))
        return and_list([self.name(c) for c in cells])

    def __repr__(self) -> str:
        return f"<CandidateGrid {self.size}x{self.size}, {self.empty.bit_count()} cells open>"


class StepLike(Protocol):
    """What :meth:`CandidateGrid.apply` needs of a step: what it places and what it removes."""

    @property
    def placements(self) -> Sequence[tuple[Cell, Digit]]: ...

    @property
    def eliminations(self) -> Sequence[tuple[Cell, Digit]]: ...


def and_list(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def start_py(geometry: Geometry, values: Sequence[Digit]) -> tuple[list[int], list[int], list[int], CellSet]:
    """(cands, where, placed, empty) of :meth:`CandidateGrid._from_houses`: each house's placed
    digits; an open cell holds every digit its houses do not; a digit's places are the open
    cells outside the houses that hold it."""
    t = tables(geometry)
    full = (1 << geometry.size) - 1
    held = [0] * len(t.house_bits)
    cell_houses = geometry.cell_houses
    empty = 0
    for cell, value in enumerate(values):
        if value:
            for h in cell_houses[cell]:
                held[h] |= 1 << (value - 1)
        else:
            empty |= 1 << cell
    blocked = [0] * geometry.size
    for hbits, digits in zip(t.house_bits, held, strict=True):
        while digits:
            low = digits & -digits
            digits ^= low
            blocked[low.bit_length() - 1] |= hbits
    cands = []
    for cell, value in enumerate(values):
        if value:
            cands.append(0)
        else:
            seen = 0
            for h in cell_houses[cell]:
                seen |= held[h]
            cands.append(full & ~seen)
    return cands, [empty & ~block for block in blocked], held, empty
