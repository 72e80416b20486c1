"""Singles: the last open cell of a house, a cell with one candidate, a digit with one place.

Singles are most of the steps of every solving path, so they are found with whole-grid bit
operations and their steps are built directly (the wording is the one :func:`make_step` gives).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

from ...geometry import Geometry
from ...notation import digit_char
from ..catalog import Technique
from ..engine.grid import TABLES_CACHE_SIZE, CandidateGrid, Tables, tables
from ..engine.step import Step, new_step
from ..naming import resolve


@cache
def _form(name: str) -> tuple[Technique, str]:
    """(technique, form name) of a declared single's name, looked up once."""
    found = resolve(name)
    return found.technique, found.name


def _single(
    grid: CandidateGrid, kind: str, reason: str, cell: int, digit: int, houses: tuple[str, ...]
) -> Step:
    """The step placing ``digit`` in ``cell``, worded as :func:`make_step` words it."""
    technique, name = _form(kind)
    return new_step(
        technique=technique,
        name=name,
        explanation=f"{name}: {reason}, so {grid.t.names[cell]} = {digit_char(digit)}",
        size=grid.size,
        placements=((cell, digit),),
        cells=(cell,),
        digits=(digit,),
        houses=houses,
        reason=reason,
    )


def find_full_house(grid: CandidateGrid) -> Step | None:
    """A house with one open cell: it takes the one digit the house lacks."""
    return next(iter_full_house(grid), None)


def iter_full_house(grid: CandidateGrid) -> Iterator[Step]:
    """Every full house of the grid, each cell once (named by the first house it fills)."""
    empty = grid.empty
    lone = [
        h for h, hbits in enumerate(grid.t.house_bits) if (cells := hbits & empty) and not cells & (cells - 1)
    ]
    cands = grid.cands
    done = 0
    for h in lone:
        open_cells = grid.t.house_bits[h] & empty
        if not open_cells & done:
            cell = open_cells.bit_length() - 1
            mask = cands[cell]
            if mask and not mask & (mask - 1):
                done |= open_cells
                digit = mask.bit_length()
                house = grid.geometry.houses[h].name
                yield _single(
                    grid,
                    "Full house",
                    f"{grid.t.names[cell]} is the last open cell of {house}, "
                    f"which lacks only {digit_char(digit)}",
                    cell,
                    digit,
                    (house,),
                )


def find_naked_single(grid: CandidateGrid) -> Step | None:
    """A cell with one candidate left."""
    return next(iter_naked_single(grid), None)


def lone_candidates(grid: CandidateGrid) -> int:
    """The open cells with exactly one candidate left, as a cell set."""
    ones = twos = 0
    for plane in grid.where:
        twos |= ones & plane
        ones |= plane
    return grid.empty & ones & ~twos


def iter_naked_single(grid: CandidateGrid) -> Iterator[Step]:
    """Every cell with one candidate left, lowest cell first."""
    cands = grid.cands
    names = grid.t.names
    lone = lone_candidates(grid)
    while lone:
        low = lone & -lone
        cell = low.bit_length() - 1
        lone ^= low
        digit = cands[cell].bit_length()
        yield _single(
            grid, "Naked single", f"{names[cell]} can only hold {digit_char(digit)}", cell, digit, ()
        )


def find_hidden_single(grid: CandidateGrid) -> Step | None:
    """A digit with one place left in a house (boxes first, then rows, columns, extra regions)."""
    return next(iter_hidden_single(grid), None)


def iter_hidden_single(grid: CandidateGrid) -> Iterator[Step]:
    """Every hidden single of the grid, each placement once (named by the first house that has it)."""
    houses = _naming_order(grid.t)[0]
    seen: set[tuple[int, int]] = set()
    for rank, digit, cell in _hidden_places(grid, houses):
        if (cell, digit) not in seen:
            seen.add((cell, digit))
            yield _hidden_step(grid, houses[rank], cell, digit)


def find_box_single(grid: CandidateGrid) -> Step | None:
    """A digit with one place left in a box or jigsaw region (Sudoku Explainer's easiest
    hidden single): the first of :func:`iter_box_singles`."""
    return next(iter_box_singles(grid), None)


def iter_box_singles(grid: CandidateGrid) -> Iterator[Step]:
    """The hidden singles of every box (or region) in turn, digits ascending in each: a cell
    and digit once per box that has it."""
    boxes = grid.t.boxes
    for rank, digit, cell in _hidden_places(grid, boxes):
        yield _hidden_step(grid, boxes[rank], cell, digit)


def _hidden_places(grid: CandidateGrid, houses: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """(rank of the house in ``houses``, digit, cell) of each digit with one place left in one
    of ``houses`` (house indices), by rank then digit."""
    plan = _plan(grid.geometry, houses)
    where, hb, empty = grid.where, grid.t.house_bits, grid.empty
    found: list[tuple[int, int, int]] = []
    if plan.folds:
        # every digit's places side by side in one int, a slot of ``ncells`` bits per digit
        n = grid.geometry.ncells
        packed = shift = 0
        for plane in where:
            packed |= plane << shift
            shift += n
        rank_of = plan.rank_of
        for fold in plan.folds:
            # count each house's places of each digit at the house's first cell: once, or more
            ones = twos = 0
            for offset in fold.offsets:
                at = packed >> offset & fold.origins
                twos |= ones & at
                ones |= at
            lone = ones & ~twos
            while lone:
                low = lone & -lone
                lone ^= low
                d, origin = divmod(low.bit_length() - 1, n)
                h = fold.house_at[origin]
                found.append((rank_of[h], d + 1, (where[d] & hb[h]).bit_length() - 1))
    if plan.loose:
        # a house with no open cell has no single: late in a path most houses are full
        open_houses = [(rank, hb[h]) for rank, h in plan.loose if hb[h] & empty]
        for d, plane in enumerate(where, 1):
            if plane:
                found += [
                    (rank, d, spots.bit_length() - 1)
                    for rank, hbits in open_houses
                    if (spots := plane & hbits) and not spots & (spots - 1)
                ]
    found.sort()
    return found


@dataclass(frozen=True)
class _Fold:
    """Houses that are translates of one another (the rows, the columns or the boxes of a grid
    with regular boxes), so that shifting every digit's places by each ``offset`` in turn brings
    each house's cells onto its first cell: there ``origins`` (every such first cell, in every
    digit's slot) counts them for all houses and digits at once."""

    offsets: tuple[int, ...]
    origins: int
    #: The house of each first cell.
    house_at: dict[int, int]


@dataclass(frozen=True)
class _Plan:
    """How :func:`_hidden_places` looks at some houses: in folds, and the rest (``(rank,
    house)``: extra regions, jigsaw regions) one by one."""

    rank_of: dict[int, int]
    folds: tuple[_Fold, ...]
    loose: tuple[tuple[int, int], ...]


@lru_cache(maxsize=4 * TABLES_CACHE_SIZE)
def _plan(geometry: Geometry, houses: tuple[int, ...]) -> _Plan:
    t = tables(geometry)
    rank_of = {h: rank for rank, h in enumerate(houses)}
    folds = []
    folded: set[int] = set()
    for kind in (t.rows, t.columns, t.boxes):
        group = [h for h in kind if h in rank_of]
        fold = _fold(geometry, group)
        if fold is not None:
            folds.append(fold)
            folded.update(group)
    loose = tuple((rank, h) for rank, h in enumerate(houses) if h not in folded)
    return _Plan(rank_of, tuple(folds), loose)


def _fold(geometry: Geometry, group: list[int]) -> _Fold | None:
    """The fold of some houses, when each is the first one moved (None when not: jigsaws)."""
    if len(group) < 2:
        return None
    shapes = []
    for h in group:
        cells = sorted(geometry.house_cells[h])
        shapes.append((cells[0], tuple(c - cells[0] for c in cells)))
    origins = [origin for origin, _ in shapes]
    if len({offsets for _, offsets in shapes}) != 1 or len(set(origins)) != len(origins):
        return None
    first = sum(1 << origin for origin in origins)
    n = geometry.ncells
    return _Fold(
        offsets=shapes[0][1],
        origins=sum(first << (d * n) for d in range(geometry.size)),
        house_at={origin: h for origin, h in zip(origins, group, strict=True)},
    )


#: Per :class:`Tables` (by identity, kept alive here): the houses in naming order and their cells.
_NAMING: dict[int, tuple[Tables, tuple[int, ...], tuple[int, ...]]] = {}


def _naming_order(t: Tables) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(house indices, their cell sets) in the order boxes, rows, columns, extra regions."""
    known = _NAMING.get(id(t))
    if known is None or known[0] is not t:
        if len(_NAMING) >= TABLES_CACHE_SIZE:
            _NAMING.clear()
        order = (*t.boxes, *t.rows, *t.columns, *t.extras)
        known = _NAMING[id(t)] = (t, order, tuple(t.house_bits[h] for h in order))
    return known[1], known[2]


def hidden_singles_in(grid: CandidateGrid, h: int) -> Iterator[Step]:
    """The hidden singles of house ``h``: each digit with one place left there."""
    hbits = grid.t.house_bits[h]
    if not hbits & grid.empty:
        return
    for d, where in enumerate(grid.where):
        spots = where & hbits
        if spots and not spots & (spots - 1):
            yield _hidden_step(grid, h, spots.bit_length() - 1, d + 1)


def _hidden_step(grid: CandidateGrid, h: int, cell: int, digit: int) -> Step:
    house = grid.geometry.houses[h]
    if (grid.t.house_bits[h] & grid.empty).bit_count() == 1:
        kind = "Full house"
    elif house.kind in ("box", "region"):
        kind = "Hidden single in box"
    else:
        kind = "Hidden single in line"
    return _single(
        grid,
        kind,
        f"{digit_char(digit)} can only go in {grid.t.names[cell]} within {house.name}",
        cell,
        digit,
        (house.name,),
    )
