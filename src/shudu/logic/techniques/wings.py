"""Wings: XY-Wing, XYZ-Wing and W-Wing.

XY-Wing: a pivot {x,y} sees pincers {x,z} and {y,z}; whichever the pivot holds, one pincer is z,
so cells seeing both pincers lose z. XYZ-Wing: the pivot {x,y,z} may be z itself, so the cells must
see the pivot too. W-Wing: two cells {x,y} whose x's are joined by a strong link on x: one of the
two is y, so cells seeing both lose y.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...notation import digit_char
from ..engine.grid import CandidateGrid, bits, digits_of
from ..engine.step import Step, make_step
from .patterns import strong_links


def _bivalue(grid: CandidateGrid) -> list[int]:
    return [c for c in bits(grid.empty) if grid.cands[c].bit_count() == 2]


def find_xy_wing(grid: CandidateGrid) -> Step | None:
    return next(iter_xy_wing(grid), None)


def iter_xy_wing(grid: CandidateGrid) -> Iterator[Step]:
    cands, peer_bits = grid.cands, grid.t.peer_bits
    pairs = _bivalue(grid)
    for pivot in pairs:
        pm = cands[pivot]
        wings = [c for c in pairs if peer_bits[pivot] >> c & 1 and (cands[c] & pm).bit_count() == 1]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                am, bm = cands[a], cands[b]
                if am == bm or am & bm & pm or (am & bm).bit_count() != 1:
                    continue
                if (am | bm) & pm != pm:
                    continue
                z = (am & bm).bit_length() - 1
                targets = grid.where[z] & peer_bits[a] & peer_bits[b]
                if targets:
                    digit = z + 1
                    x, y = digits_of(pm)
                    yield make_step(
                        grid,
                        "XY-Wing",
                        f"{grid.name(pivot)} is {digit_char(x)} or {digit_char(y)}, and either way one of "
                        f"{grid.name(a)} and {grid.name(b)} is {digit_char(digit)}",
                        eliminations=[(c, digit) for c in bits(targets)],
                        cells=[pivot, a, b],
                        digits=digits_of(pm | am | bm),
                    )


def find_xyz_wing(grid: CandidateGrid) -> Step | None:
    return next(iter_xyz_wing(grid), None)


def iter_xyz_wing(grid: CandidateGrid) -> Iterator[Step]:
    cands, peer_bits = grid.cands, grid.t.peer_bits
    pairs = _bivalue(grid)
    for pivot in bits(grid.empty):
        pm = cands[pivot]
        if pm.bit_count() != 3:
            continue
        wings = [c for c in pairs if peer_bits[pivot] >> c & 1 and cands[c] & pm == cands[c]]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                am, bm = cands[a], cands[b]
                if am == bm or (am | bm) != pm:
                    continue
                z = (am & bm).bit_length() - 1
                targets = grid.where[z] & peer_bits[a] & peer_bits[b] & peer_bits[pivot]
                if targets:
                    digit = z + 1
                    yield make_step(
                        grid,
                        "XYZ-Wing",
                        f"one of {grid.name(pivot)}, {grid.name(a)} and {grid.name(b)} "
                        f"is {digit_char(digit)}",
                        eliminations=[(c, digit) for c in bits(targets)],
                        cells=[pivot, a, b],
                        digits=digits_of(pm),
                    )


def find_w_wing(grid: CandidateGrid) -> Step | None:
    return next(iter_w_wing(grid), None)


def iter_w_wing(grid: CandidateGrid) -> Iterator[Step]:
    cands, peer_bits = grid.cands, grid.t.peer_bits
    pairs = _bivalue(grid)
    houses = grid.geometry.houses
    links_by_digit = {}
    for i, a in enumerate(pairs):
        for b in pairs[i + 1 :]:
            if cands[a] != cands[b] or peer_bits[a] >> b & 1:
                continue
            for x in bits(cands[a]):
                y = (cands[a] & ~(1 << x)).bit_length() - 1
                targets = grid.where[y] & peer_bits[a] & peer_bits[b]
                if not targets:
                    continue
                if x not in links_by_digit:
                    links_by_digit[x] = strong_links(grid, x)
                for p, q, h in links_by_digit[x]:
                    for near, far in ((p, q), (q, p)):
                        if near in (a, b) or far in (a, b):
                            continue
                        if peer_bits[a] >> near & 1 and peer_bits[b] >> far & 1:
                            digit = y + 1
                            yield make_step(
                                grid,
                                "W-Wing",
                                f"{grid.name(a)} and {grid.name(b)} are both {digit_char(x + 1)}/"
                                f"{digit_char(digit)}, and {digit_char(x + 1)} in {houses[h].name} is in "
                                f"{grid.name(near)} or {grid.name(far)}, "
                                f"so one of them is {digit_char(digit)}",
                                eliminations=[(c, digit) for c in bits(targets)],
                                cells=[a, b, near, far],
                                digits=[x + 1, digit],
                                houses=[houses[h].name],
                                length=5,
                            )
