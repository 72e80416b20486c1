"""Fish: X-Wing, Swordfish, Jellyfish, plain, finned and sashimi.

k base lines (rows, or columns) in which a digit's places all fall in k cover lines (columns, or
rows): the digit fills the k crossings, so it goes from the rest of the cover lines. With fins
(base places outside the cover), either the fish holds or a fin is true, so only cells of the
cover lines that also see every fin lose the digit. Rows and columns only: extra regions and
jigsaw regions do not change the logic.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from itertools import combinations

from ..catalog import FISH_NAMES
from ..engine.grid import CandidateGrid, bits
from ..engine.memo import barren, mark_barren, remembered
from ..engine.propagate import c_core, c_tables
from ..engine.step import Step, distinct
from .complex_fish import Fish, fish_step, iter_siamese_fish

#: At most this many cover lines beyond k are tried for finned fish.
_MAX_FIN_LINES = 2
#: A base line: (its house, the digit's places in it, the cover indices of those places).
_Line = tuple[int, int, int]


def find_x_wing(grid: CandidateGrid) -> Step | None:
    return _first(grid, 2, finned=False)


def find_swordfish(grid: CandidateGrid) -> Step | None:
    return _first(grid, 3, finned=False)


def find_jellyfish(grid: CandidateGrid) -> Step | None:
    return _first(grid, 4, finned=False)


@remembered
def find_finned_x_wing(grid: CandidateGrid) -> Step | None:
    return _first(grid, 2, finned=True)


@remembered
def find_finned_swordfish(grid: CandidateGrid) -> Step | None:
    return _first(grid, 3, finned=True)


@remembered
def find_finned_jellyfish(grid: CandidateGrid) -> Step | None:
    return _first(grid, 4, finned=True)


def iter_x_wing(grid: CandidateGrid) -> Iterator[Step]:
    return distinct(_fish(grid, 2, finned=False))


def iter_swordfish(grid: CandidateGrid) -> Iterator[Step]:
    return distinct(_fish(grid, 3, finned=False))


def iter_jellyfish(grid: CandidateGrid) -> Iterator[Step]:
    return distinct(_fish(grid, 4, finned=False))


def iter_finned_x_wing(grid: CandidateGrid) -> Iterator[Step]:
    return iter_finned(grid, 2)


def iter_finned_swordfish(grid: CandidateGrid) -> Iterator[Step]:
    return iter_finned(grid, 3)


def iter_finned_jellyfish(grid: CandidateGrid) -> Iterator[Step]:
    return iter_finned(grid, 4)


def iter_finned(grid: CandidateGrid, size: int, *, siamese: bool = True) -> Iterator[Step]:
    """Finned and Sashimi steps of ``size``, then (``siamese``) the Siamese ones: two on the same
    base lines. The solving path chooses without the Siamese ones, as HoDoKu's solver does (one
    step of two fish's eliminations is for the listing)."""
    found: Iterator[Step] = _fish(grid, size, finned=True)
    if siamese:
        found = itertools.chain(found, iter_siamese_fish(grid, (size,), forms=("Basic",)))
    return distinct(found)


def _fish(grid: CandidateGrid, k: int, *, finned: bool) -> Iterator[Step]:
    n = grid.size
    t = grid.t
    hb = t.house_bits
    peer_bits = t.peer_bits
    low, high = (1, k + _MAX_FIN_LINES) if finned else (2, k)
    # a digit's fish depend on its places alone: places searched in vain are skipped
    tag = ("fish", k, finned, id(t))
    for d, where in enumerate(grid.where):
        if not where or barren((tag, where)):
            continue
        fruitful = False
        for base_houses, cover_houses, across in ((t.rows, t.columns, True), (t.columns, t.rows, False)):
            # each base line: (house, its places, the cover indices of those places)
            lines = []
            for h in base_houses:
                spots = where & hb[h]
                if not spots:
                    continue
                idx = _line_index(spots, n, across)
                if low <= idx.bit_count() <= high:
                    lines.append((h, spots, idx))
            if len(lines) < k:
                continue
            cover_cells = [hb[h] for h in cover_houses]
            for combo, union in _combinations(lines, k, high):
                base_cells = 0
                for _, spots, _ in combo:
                    base_cells |= spots
                extra = union.bit_count() - k
                if not finned:
                    if extra:
                        continue
                    covers = [list(bits(union))]
                elif 1 <= extra <= _MAX_FIN_LINES:
                    covers = [list(c) for c in combinations(bits(union), k)]
                else:
                    continue
                base_bits = 0
                for h, _, _ in combo:
                    base_bits |= hb[h]
                outside = where & ~base_bits
                if not outside:
                    continue
                for cover in covers:
                    cover_bits = 0
                    for i in cover:
                        cover_bits |= cover_cells[i]
                    targets = outside & cover_bits
                    fins = base_cells & ~cover_bits
                    while fins and targets:
                        fin = fins & -fins
                        targets &= peer_bits[fin.bit_length() - 1]
                        fins ^= fin
                    if not targets:
                        continue
                    fruitful = True
                    yield _fish_step(grid, d, k, [h for h, _, _ in combo], [cover_houses[i] for i in cover])
        if not fruitful:
            mark_barren((tag, where))


def _first(grid: CandidateGrid, k: int, *, finned: bool) -> Step | None:
    """The first step of :func:`_fish`, each digit's search one call of the C core where the grid
    fits its tables (``_fish`` is its specification)."""
    capsule = c_tables(grid.geometry)
    core = c_core()
    if capsule is None or core is None:
        return next(_fish(grid, k, finned=finned), None)
    t = grid.t
    tag = ("fish", k, finned, id(t))  # as in _fish: places searched in vain are skipped
    for d, where in enumerate(grid.where):
        if not where or barren((tag, where)):
            continue
        found = core.fish(capsule, where, t.rows, t.columns, k, finned, _MAX_FIN_LINES)
        if found is None:
            mark_barren((tag, where))
            continue
        across, base, cover = found
        cover_houses = t.columns if across else t.rows
        return _fish_step(grid, d, k, list(base), [cover_houses[i] for i in cover])
    return None


def _fish_step(grid: CandidateGrid, d: int, k: int, base: list[int], covers: list[int]) -> Step:
    """The step of a fish of digit index ``d`` on the ``base`` houses covered by ``covers``."""
    hb = grid.t.house_bits
    where = grid.where[d]
    base_cells = base_bits = cover_bits = 0
    for h in base:
        base_cells |= where & hb[h]
        base_bits |= hb[h]
    for h in covers:
        cover_bits |= hb[h]
    targets = where & ~base_bits & cover_bits
    fins = base_cells & ~cover_bits
    for fin in bits(fins):
        targets &= grid.t.peer_bits[fin]
    name = FISH_NAMES[k]
    if fins:
        sashimi = any((where & hb[h] & cover_bits).bit_count() <= 1 for h in base)
        name = f"{'Sashimi' if sashimi else 'Finned'} {name}"
    return fish_step(
        grid, Fish(d, tuple(base), tuple(covers), base_cells, fins, targets), name, targets, fins
    )


def _combinations(lines: list[_Line], k: int, most: int) -> Iterator[tuple[tuple[_Line, ...], int]]:
    """The k-combinations of ``lines`` (in ``itertools.combinations`` order) whose cover indices
    together number at most ``most``, each with that union."""
    count = len(lines)
    chosen: list[_Line] = []

    def extend(start: int, union: int) -> Iterator[tuple[tuple[_Line, ...], int]]:
        need = k - len(chosen)
        for i in range(start, count - need + 1):
            line = lines[i]
            joined = union | line[2]
            if joined.bit_count() > most:
                continue
            chosen.append(line)
            if need == 1:
                yield tuple(chosen), joined
            else:
                yield from extend(i + 1, joined)
            chosen.pop()

    return extend(0, 0)


_INDEX: dict[tuple[int, int], int] = {}


def _line_index(spots: int, n: int, across: bool) -> int:
    """The cover indices of a line's places: their columns (a row's places) or rows (a column's)."""
    if across:
        return spots >> (spots.bit_length() - 1) // n * n
    shift = (spots & -spots).bit_length() - 1
    column = shift % n
    packed = spots >> column
    key = (packed, n)
    idx = _INDEX.get(key)
    if idx is None:
        idx = 0
        for c in bits(packed):
            idx |= 1 << (c // n)
        if n <= 16:  # at most 2**n entries per size
            _INDEX[key] = idx
    return idx
