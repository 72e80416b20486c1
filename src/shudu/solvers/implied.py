"""Sums the rules imply beside the houses: the innies and outies of killer solving.

A house of n cells holds each digit once, so its digits add up to n(n + 1)/2; a band of whole
houses (a row, two rows side by side, a box …) adds up to that times their number. The sums of
the rules (cages, little killers …: :class:`WeightedSum` with every coefficient one, over cells
no other such sum takes) that lie inside or mostly inside the band leave a few cells over: those
inside the band that no sum takes (the innies) add up to the band's total less the sums' totals,
plus the digits of the sums' cells outside it (the outies). Such a sum of a few cells, given to
the engine as a :class:`WeightedSum` with coefficients one and minus one, narrows what the cages
alone cannot see until the search is deep.

The other way round, a house's cells may all be taken by sums that stick out of it and by
other houses that cross it only where no sum goes (:func:`_covers`): the cells of these pieces
add up to their totals, and, less the house and any whole house among the cells left over, the
rest add up to what is left of the totals (a box on a band of parallel little killers and a
diagonal: the rest of the band less the boxes the band runs through). Both engines get the
same (the network is built from the same kinds), so the search stays step for step the same in C
and in Python.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ..rules import Kind, WeightedSum

__all__ = ["MAX_CELLS", "MAX_COVER_CELLS", "implied_sums"]

#: An implied sum of more cells than this is left out: it narrows little, and costs a
#: propagator on each of its cells.
MAX_CELLS = 5

#: A sum left over from a house's cover (:func:`_covers`) has at most this many cells.
MAX_COVER_CELLS = 12


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
    units: list[tuple[int, int]] = []  # every unit sum over distinct cells: (mask, total)
    taken = 0
    for kind in kinds:  # the unit sums over cells of their own, in order
        if not isinstance(kind, WeightedSum) or not kind.cells or any(c != 1 for c in kind.coeffs):
            continue
        mask = 0
        for c in kind.cells:
            mask |= 1 << c
        if mask.bit_count() == len(kind.cells):
            units.append((mask, kind.total))
            if not mask & taken:
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
    masks = dict.fromkeys(sum(1 << c for c in set(cells)) for cells in houses)
    full = [m for m in masks if m.bit_count() == size]
    for mask, total in _covers(size, full, units):
        low, high = _span(size, full, mask)
        if 4 * min(total - low, high - total) >= high - low:  # loose: it would narrow little
            continue
        if (mask, 0, total) not in made and (mask, total) not in said:
            made.add((mask, 0, total))
            cells = _cells(mask)
            out.append(WeightedSum(cells, (1,) * len(cells), total))
    return out


def _covers(size: int, full: list[int], units: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The sums left over where a house is covered: for each house of ``size`` cells (masks in
    ``full``), the unit sums (``units``, in order) that meet it and none taken before, then the
    other houses that meet it in two or more cells no piece has yet and nothing else already
    taken; when they cover it, their cells less the house, less each whole house among them,
    add up to their totals less those houses' (a mask with its total, when it has at most
    :data:`MAX_COVER_CELLS` cells). The caller keeps those whose total is tight: within a
    quarter of the span of totals their cells can reach from one end or the other
    (:func:`_span`)."""
    house_total = size * (size + 1) // 2
    found: list[tuple[int, int]] = []
    for base in full:
        covered, total = 0, 0
        for mask, s_total in units:
            if mask & base and not mask & covered:
                covered |= mask
                total += s_total
        if not covered:
            continue
        for other in full:
            gap = base & ~covered
            if not gap:
                break
            meet = other & base
            if other != base and meet.bit_count() >= 2 and not meet & ~gap and not other & covered:
                covered |= other
                total += house_total
        if base & ~covered:
            continue
        rest, total = covered & ~base, total - house_total
        for other in full:
            if other & rest == other:
                rest &= ~other
                total -= house_total
        if 0 < rest.bit_count() <= MAX_COVER_CELLS:
            found.append((rest, total))
    return found


def _span(size: int, full: list[int], mask: int) -> tuple[int, int]:
    """The least and the most that the cells of ``mask`` can add up to, known from the houses
    alone: the cells fall into groups, each those of one house (the house with the most cells
    still ungrouped first), whose digits differ; a group of k cells adds up to at least
    1 + … + k and at most n + … + (n - k + 1)."""
    low = high = 0
    while mask:
        group = max((mask & house for house in full), key=int.bit_count, default=0)
        if group.bit_count() < 2:
            group = mask & -mask
        k = group.bit_count()
        low += k * (k + 1) // 2
        high += k * size - k * (k - 1) // 2
        mask &= ~group
    return low, high
