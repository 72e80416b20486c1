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
) -> tuple[tuple[int, int], ...]:
    """The bands to look at, each a mask of cells (bit c for cell c) with how many houses it is:
    every house of ``size`` cells, then every run of two or more rows (columns) side by side,
    short of the whole grid."""
    bands: list[tuple[int, int]] = []
    seen: set[int] = set()
    for cells in houses:
        band = sum(1 << c for c in set(cells))
        if len(cells) == size and band not in seen:
            seen.add(band)
            bands.append((band, 1))
    for kind in ("row", "column"):
        lines = [sum(1 << c for c in cells) for cells, k in zip(houses, kinds, strict=True) if k == kind]
        if len(lines) != size:
            continue
        for width in range(2, size):
            for first in range(size - width + 1):
                band = 0
                for line in lines[first : first + width]:
                    band |= line
                if band not in seen:
                    seen.add(band)
                    bands.append((band, width))
    return tuple(bands)


def _cells(mask: int) -> tuple[int, ...]:
    """The cells of a mask, in order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def implied_sums(
    size: int, houses: Sequence[Sequence[int]], house_kinds: Sequence[str], kinds: Sequence[Kind]
) -> list[WeightedSum]:
    """The implied sums of a puzzle's compiled rules (``kinds``) over its houses (the geometry's
    ``house_cells``, each with its kind: ``"row"``, ``"column"`` …), in a fixed order, none
    that a rule already says."""
    sums: list[tuple[int, int, int]] = []  # (mask of cells, how many, total)
    taken = 0
    for kind in kinds:  # the unit sums over cells of their own, in order
        if not isinstance(kind, WeightedSum) or not kind.cells or any(c != 1 for c in kind.coeffs):
            continue
        mask = 0
        for c in kind.cells:
            mask |= 1 << c
        if mask.bit_count() == len(kind.cells) and not mask & taken:
            sums.append((mask, len(kind.cells), kind.total))
            taken |= mask
    if not sums:
        return []
    said = {(mask, total) for mask, _, total in sums}
    house_total = size * (size + 1) // 2
    out: list[WeightedSum] = []
    made: set[tuple[int, int, int]] = set()
    for band, count in _bands(size, tuple(map(tuple, houses)), tuple(house_kinds)):
        total = house_total * count
        inside, outside = band, 0
        for mask, k, s_total in sums:
            within = band & mask
            if within and 2 * within.bit_count() > k:  # a sum mostly outside stays innies
                inside ^= within
                outside |= mask ^ within
                total -= s_total
        if not 0 < inside.bit_count() + outside.bit_count() <= MAX_CELLS:
            continue
        key = (inside, outside, total)
        if key in made or (not outside and (inside, total) in said):
            continue
        made.add(key)
        ins, outs = _cells(inside), _cells(outside)
        out.append(WeightedSum(ins + outs, (1,) * len(ins) + (-1,) * len(outs), total))
    return out
