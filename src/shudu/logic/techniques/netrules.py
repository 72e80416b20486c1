"""The basic rules a forcing net follows besides singles: pointing, claiming, naked and hidden pair.

Each gives the eliminations ``(cell, digit)`` of the first step its finder would return (the same
step: same search order), without building a :class:`Step`; the net applies thousands of them.
"""

from __future__ import annotations

from functools import cache

from ...geometry import Geometry
from ..engine.grid import CandidateGrid, bits, tables
from ..engine.propagate import Rule, declare_c_rules
from .subsets import locked_partners

Overlap = tuple[int, int, int]  # (index in the overlap list, cells of b outside a, cells of a outside b)
#: Most remembered placements per house (see :func:`_locked`); 2**9 covers every 9x9 house.
_MEMO_LIMIT = 4096


@cache
def _locked_groups(
    geometry: Geometry, pointing: bool
) -> tuple[tuple[int, tuple[Overlap, ...], dict[int, tuple[tuple[int, int], ...]]], ...]:
    """The overlaps a→b of one kind grouped by house a (they come grouped): (cells of a, overlaps,
    memo of which overlaps hold a given set of cells of a)."""
    t = tables(geometry)
    groups: dict[int, list[Overlap]] = {}
    for i, (a, b, inter) in enumerate(t.overlaps):
        if (geometry.houses[a].kind in ("box", "region")) == pointing:
            groups.setdefault(a, []).append((i, t.house_bits[b] & ~inter, t.house_bits[a] & ~inter))
    return tuple((t.house_bits[a], tuple(overlaps), {}) for a, overlaps in groups.items())


def _locked(grid: CandidateGrid, pointing: bool) -> list[tuple[int, int]]:
    # The finder scans overlap by overlap, digit by digit; overlaps of one house a are adjacent, so
    # the least (overlap, digit) hit of the first house with any hit is the same step.
    where = grid.where
    digits = range(grid.size)
    for abits, overlaps, memo in _locked_groups(grid.geometry, pointing):
        best = None
        for d in digits:
            w = where[d]
            inside = w & abits
            if not inside & (inside - 1):
                continue
            holding = memo.get(inside)
            if holding is None:
                holding = tuple((i, rest) for i, rest, outside in overlaps if not inside & outside)
                if len(memo) < _MEMO_LIMIT:
                    memo[inside] = holding
            for i, rest in holding:
                out = w & rest
                if out and (best is None or i < best[0]):
                    best = (i, d, out)
        if best:
            _, d, out = best
            return [(c, d + 1) for c in bits(out)]
    return []


def pointing_rule(grid: CandidateGrid) -> list[tuple[int, int]]:
    """As :func:`intersections.find_pointing`."""
    return _locked(grid, True)


def claiming_rule(grid: CandidateGrid) -> list[tuple[int, int]]:
    """As :func:`intersections.find_claiming`."""
    return _locked(grid, False)


def naked_pair_rule(grid: CandidateGrid) -> list[tuple[int, int]]:
    """As :func:`subsets.find_naked_pair` (locked pairs are left to their own finder)."""
    cands, where, peer_bits, empty = grid.cands, grid.where, grid.t.peer_bits, grid.empty
    ones = twos = more = 0
    for plane in where:
        more |= twos & plane
        twos |= ones & plane
        ones |= plane
    small_cells = empty & ~more
    partners = locked_partners(grid.geometry)
    for hbits in grid.t.house_bits:
        small_here = hbits & small_cells
        if not small_here & (small_here - 1) or (hbits & empty).bit_count() <= 2:
            continue
        small = list(bits(small_here))
        for i, a in enumerate(small):
            for b in small[i + 1 :]:
                union = cands[a] | cands[b]
                if union.bit_count() != 2 or partners[a] >> b & 1:
                    continue
                inside = (1 << a) | (1 << b)
                elims = []
                for d in bits(union):
                    seen = where[d] & ~inside
                    if cands[a] >> d & 1:
                        seen &= peer_bits[a]
                    if cands[b] >> d & 1:
                        seen &= peer_bits[b]
                    elims += [(c, d + 1) for c in bits(seen)]
                if elims:
                    return elims
    return []


def hidden_pair_rule(grid: CandidateGrid) -> list[tuple[int, int]]:
    """As :func:`subsets.find_hidden_pair`."""
    cands, where, empty = grid.cands, grid.where, grid.empty
    digits = range(grid.size)
    for hbits in grid.t.house_bits:
        if (hbits & empty).bit_count() <= 2:
            continue
        few = []
        for d in digits:
            spots = where[d] & hbits
            if spots:
                rest = spots & (spots - 1)
                if not rest & (rest - 1):
                    few.append((d, spots))
        if len(few) < 2:
            continue
        for i, (d1, s1) in enumerate(few):
            for d2, s2 in few[i + 1 :]:
                union = s1 | s2
                if union.bit_count() != 2:
                    continue
                keep = ~((1 << d1) | (1 << d2))
                elims = [(c, e + 1) for c in bits(union) for e in bits(cands[c] & keep)]
                if elims:
                    return elims
    return []


#: The rules of a forcing net, in the order the net tries them.
NET_RULES: tuple[Rule, ...] = (pointing_rule, claiming_rule, naked_pair_rule, hidden_pair_rule)
# the C core of :func:`propagate.settle` follows these four, in this order
declare_c_rules(NET_RULES)
