"""Sums the rules imply beside the houses: the innies and outies of killer solving.

A house of n cells holds each digit once, so its digits add up to n(n + 1)/2; a band of whole
houses (a row, two rows side by side, a box …) adds up to that times their number. The sums of
the rules (cages, little killers …: :class:`WeightedSum` with every coefficient one, over cells
no other such sum takes) that lie inside or mostly inside the band leave a few cells over: those
inside the band that no sum takes (the innies) add up to the band's total less the sums' totals,
plus the digits of the sums' cells outside it (the outies). Such a sum of a few cells, given to
the engine as a :class:`WeightedSum` with coefficients one and minus one, narrows what the cages
alone cannot see until the search is deep. Both engines get the same (the network is built from
the same kinds), so the search stays step for step the same in C and in Python.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ..rules import Kind, WeightedSum

__all__ = ["MAX_CELLS", "implied_sums"]

#: An implied sum of more cells than this is left out: it narrows little, and costs a
#: propagator on each of its cells.
MAX_CELLS = 5


@functools.lru_cache(maxsize=16)
def _bands(
    size: int, houses: tuple[tuple[int, ...], ...], kinds: tuple[str, ...]
) -> tuple[tuple[frozenset[int], int], ...]:
    """The bands to look at, each with how many houses it is: every house of ``size`` cells, then
    every run of two or more rows (columns) side by side, short of the whole grid."""
    bands: list[tuple[frozenset[int], int]] = []
    seen: set[frozenset[int]] = set()
    for cells in houses:
        band = frozenset(cells)
        if len(cells) == size and band not in seen:
            seen.add(band)
            bands.append((band, 1))
    for kind in ("row", "column"):
        lines = [frozenset(cells) for cells, k in zip(houses, kinds, strict=True) if k == kind]
        if len(lines) != size:
            continue
        for width in range(2, size):
            for first in range(size - width + 1):
                band = frozenset().union(*lines[first : first + width])
                if band not in seen:
                    seen.add(band)
                    bands.append((band, width))
    return tuple(bands)


def implied_sums(
    size: int, houses: Sequence[Sequence[int]], house_kinds: Sequence[str], kinds: Sequence[Kind]
) -> list[WeightedSum]:
    """The implied sums of a puzzle's compiled rules (``kinds``) over its houses (the geometry's
    ``house_cells``, each with its kind: ``"row"``, ``"column"`` …), in a fixed order, none
    that a rule already says."""
    sums: list[WeightedSum] = []
    taken: set[int] = set()
    for kind in kinds:  # the unit sums over cells of their own, in order
        if (
            isinstance(kind, WeightedSum)
            and kind.cells
            and all(c == 1 for c in kind.coeffs)
            and len(set(kind.cells)) == len(kind.cells)
            and taken.isdisjoint(kind.cells)
        ):
            sums.append(kind)
            taken.update(kind.cells)
    if not sums:
        return []
    said = {(frozenset(s.cells), s.total) for s in sums}
    house_total = size * (size + 1) // 2
    out: list[WeightedSum] = []
    made: set[tuple[tuple[int, ...], tuple[int, ...], int]] = set()
    bands = _bands(size, tuple(map(tuple, houses)), tuple(house_kinds))
    for band, count in bands:
        total = house_total * count
        inside = set(band)
        outside: set[int] = set()
        for s in sums:
            within = band.intersection(s.cells)
            if not within or 2 * len(within) <= len(s.cells):
                continue  # a sum mostly outside the band: its cells stay innies
            inside -= within
            outside.update(c for c in s.cells if c not in band)
            total -= s.total
        if not 0 < len(inside) + len(outside) <= MAX_CELLS:
            continue
        cells = tuple(sorted(inside)) + tuple(sorted(outside))
        coeffs = (1,) * len(inside) + (-1,) * len(outside)
        key = (cells, coeffs, total)
        if key in made or (not outside and (frozenset(inside), total) in said):
            continue
        made.add(key)
        out.append(WeightedSum(cells, coeffs, total))
    return out
