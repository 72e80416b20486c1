"""Colouring: simple colours and multi colours on the strong links of one digit.

The cells of a digit joined by strong links form clusters that split into two colours: one colour
holds the digit throughout, the other nowhere. Simple colouring: two cells of one colour that see
each other make that colour false (a colour wrap); a cell that sees both colours loses the digit (a
colour trap). Multi colouring relates two clusters through a cell of each that see each other.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...notation import digit_char
from ..engine.grid import CandidateGrid, CellSet, bits
from ..engine.memo import barren, mark_barren
from ..engine.step import Step, distinct, make_step
from .patterns import strong_links

Cluster = tuple[CellSet, CellSet]


def clusters(grid: CandidateGrid, d: int) -> list[Cluster]:
    """The two-coloured clusters (of two cells or more) of digit index ``d``."""
    adjacent: dict[int, list[int]] = {}
    for a, b, _ in strong_links(grid, d):
        adjacent.setdefault(a, []).append(b)
        adjacent.setdefault(b, []).append(a)
    colour: dict[int, int] = {}
    out = []
    for start in sorted(adjacent):
        if start in colour:
            continue
        colour[start] = 0
        sides = [1 << start, 0]
        queue = [start]
        while queue:
            cell = queue.pop()
            for other in adjacent[cell]:
                if other not in colour:
                    colour[other] = 1 - colour[cell]
                    sides[colour[other]] |= 1 << other
                    queue.append(other)
        out.append((sides[0], sides[1]))
    return out


def _sees(grid: CandidateGrid, cells: CellSet) -> CellSet:
    """The cells that see at least one of ``cells``."""
    seen = 0
    for c in bits(cells):
        seen |= grid.t.peer_bits[c]
    return seen


def _sees_each_other(grid: CandidateGrid, cells: CellSet) -> bool:
    return any(grid.t.peer_bits[c] & cells for c in bits(cells))


def find_simple_colours(grid: CandidateGrid) -> Step | None:
    return next(iter_simple_colours(grid), None)


def find_multi_colours(grid: CandidateGrid) -> Step | None:
    return next(iter_multi_colours(grid), None)


def iter_simple_colours(grid: CandidateGrid) -> Iterator[Step]:
    return distinct(_simple_colours(grid))


def iter_multi_colours(grid: CandidateGrid) -> Iterator[Step]:
    return distinct(_multi_colours(grid))


def _simple_colours(grid: CandidateGrid) -> Iterator[Step]:
    # a digit's colouring depends on its places alone: places searched in vain are skipped
    tag = ("simple colours", id(grid.t))
    for d in range(grid.size):
        where = grid.where[d]
        if not where or barren((tag, where)):
            continue
        fruitful = False
        digit = d + 1
        dc = digit_char(digit)
        for on, off in clusters(grid, d):
            for bad in (on, off):
                if _sees_each_other(grid, bad):
                    fruitful = True
                    yield make_step(
                        grid,
                        "Simple Colors",
                        f"the strong links of {dc} colour {grid.names(on | off)} in two colours, and two "
                        f"cells of the colour of {grid.names(bad)} see each other (a colour wrap), "
                        "so that colour is false",
                        eliminations=[(c, digit) for c in bits(bad)],
                        cells=list(bits(on | off)),
                        digits=[digit],
                        kind="Simple Colors Wrap",
                    )
            targets = where & ~(on | off) & _sees(grid, on) & _sees(grid, off)
            if targets:
                fruitful = True
                yield make_step(
                    grid,
                    "Simple Colors",
                    f"the strong links of {dc} colour {grid.names(on)} against {grid.names(off)}; one colour "
                    f"holds {dc}, and some cells see both colours (a colour trap)",
                    eliminations=[(c, digit) for c in bits(targets)],
                    cells=list(bits(on | off)),
                    digits=[digit],
                    kind="Simple Colors Trap",
                )
        if not fruitful:
            mark_barren((tag, where))


def _multi_colours(grid: CandidateGrid) -> Iterator[Step]:
    tag = ("multi colours", id(grid.t))
    for d in range(grid.size):
        where = grid.where[d]
        if not where or barren((tag, where)):
            continue
        fruitful = False
        digit = d + 1
        dc = digit_char(digit)
        found = clusters(grid, d)
        for i, first in enumerate(found):
            for second in found[i + 1 :]:
                cells = list(bits(first[0] | first[1] | second[0] | second[1]))
                # a colour that sees both colours of the other cluster is false
                for one, other in ((first, second), (second, first)):
                    for colour in one:
                        seen = _sees(grid, colour)
                        if seen & other[0] and seen & other[1]:
                            fruitful = True
                            yield make_step(
                                grid,
                                "Multi Colors 2",
                                f"in the colouring of {dc}, the colour of {grid.names(colour)} sees both "
                                f"colours of the cluster {grid.names(other[0] | other[1])}, so it is false",
                                eliminations=[(c, digit) for c in bits(colour)],
                                cells=cells,
                                digits=[digit],
                            )
                # a colour of each that see each other cannot both hold the digit: one of their
                # partner colours does, so the cells that see both partners lose it
                targets = 0
                links = []
                for a in range(2):
                    seen_by_a = _sees(grid, first[a])
                    for b in range(2):
                        if seen_by_a & second[b]:
                            a_other, b_other = first[1 - a], second[1 - b]
                            links.append(f"{grid.names(a_other)} or {grid.names(b_other)}")
                            targets |= (
                                where & _sees(grid, a_other) & _sees(grid, b_other) & ~(a_other | b_other)
                            )
                if targets:
                    fruitful = True
                    yield make_step(
                        grid,
                        "Multi Colors 1",
                        f"in the colouring of {dc}, the clusters {grid.names(first[0] | first[1])} and "
                        f"{grid.names(second[0] | second[1])} see each other, so {dc} is in "
                        + "; and in ".join(links),
                        eliminations=[(c, digit) for c in bits(targets)],
                        cells=cells,
                        digits=[digit],
                    )
        if not fruitful:
            mark_barren((tag, where))
