"""Single-digit patterns built from strong links: Skyscraper, 2-String Kite, Turbot Fish, Empty
Rectangle.

A strong link is a house where a digit has exactly two places: one of them holds it. Two strong
links joined end to end by a weak link (the joined ends see each other) make a chain whose far
ends cannot both be empty, so any cell that sees both far ends loses the digit.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache

from ...notation import digit_char
from ..engine.grid import CandidateGrid, bits
from ..engine.memo import barren, mark_barren
from ..engine.step import Step, distinct, make_step

StrongLink = tuple[int, int, int]  # cell, cell, house


def strong_links(grid: CandidateGrid, d: int) -> tuple[StrongLink, ...]:
    """The houses where digit index ``d`` has exactly two places, as (cell, cell, house)."""
    return _strong_links(grid.t.house_bits, grid.where[d])


@lru_cache(maxsize=4096)
def _strong_links(house_bits: tuple[int, ...], where: int) -> tuple[StrongLink, ...]:
    """:func:`strong_links` of a digit's places. Remembered: the single-digit patterns, the
    colourings and the W-Wing ask for the same ones, and a digit's places change little from
    one grid of a path to the next."""
    out = []
    seen: set[tuple[int, int]] = set()
    for h, hbits in enumerate(house_bits):
        spots = where & hbits
        if spots.bit_count() == 2:
            a = spots.bit_length() - 1
            b = (spots ^ (1 << a)).bit_length() - 1
            if (b, a) not in seen:
                seen.add((b, a))
                out.append((b, a, h))
    return tuple(out)


def _kind(grid: CandidateGrid, h: int) -> str:
    return grid.geometry.houses[h].kind


def _two_link_chains(grid: CandidateGrid, family: str) -> Iterator[Step]:
    peer_bits = grid.t.peer_bits
    houses = grid.geometry.houses
    # a digit's chains depend on its places alone: places searched in vain are skipped
    tag = ("two links", family, id(grid.t))
    for d in range(grid.size):
        where = grid.where[d]
        if not where or barren((tag, where)):
            continue
        fruitful = False
        links = strong_links(grid, d)
        for i, (a1, b1, h1) in enumerate(links):
            for a2, b2, h2 in links[i + 1 :]:
                for start, join1 in ((a1, b1), (b1, a1)):
                    for join2, end in ((a2, b2), (b2, a2)):
                        # the joined ends see each other (so they differ), and the four cells
                        # are apart (each link's two cells differ already)
                        if not peer_bits[join1] >> join2 & 1 or start in (join2, end) or join1 == end:
                            continue
                        targets = where & peer_bits[start] & peer_bits[end]
                        targets &= ~((1 << join1) | (1 << join2))
                        if not targets:
                            continue
                        name = _classify(grid, h1, h2, join1, join2)
                        if name != family:
                            continue
                        digit = d + 1
                        dc = digit_char(digit)
                        return_step = make_step(
                            grid,
                            name,
                            f"{dc} is in {grid.name(start)} or {grid.name(join1)} ({houses[h1].name}) "
                            f"and in {grid.name(join2)} or {grid.name(end)} ({houses[h2].name}); "
                            f"{grid.name(join1)} and {grid.name(join2)} see each other, "
                            f"so {dc} is in {grid.name(start)} or {grid.name(end)}",
                            eliminations=[(c, digit) for c in bits(targets)],
                            cells=[start, join1, join2, end],
                            digits=[digit],
                            houses=[houses[h1].name, houses[h2].name],
                            length=3,
                        )
                        fruitful = True
                        yield return_step
        if not fruitful:
            mark_barren((tag, where))


def _classify(grid: CandidateGrid, h1: int, h2: int, join1: int, join2: int) -> str:
    k1, k2 = _kind(grid, h1), _kind(grid, h2)
    n = grid.size
    if k1 == k2 == "row" and join1 % n == join2 % n:
        return "Skyscraper"
    if k1 == k2 == "column" and join1 // n == join2 // n:
        return "Skyscraper"
    if {k1, k2} == {"row", "column"}:
        shared = set(grid.geometry.cell_houses[join1]) & set(grid.geometry.cell_houses[join2])
        if any(_kind(grid, h) in ("box", "region") for h in shared):
            return "2-String Kite"
    return "Turbot Fish"


def find_skyscraper(grid: CandidateGrid) -> Step | None:
    return next(_two_link_chains(grid, "Skyscraper"), None)


def find_two_string_kite(grid: CandidateGrid) -> Step | None:
    return next(_two_link_chains(grid, "2-String Kite"), None)


def find_turbot_fish(grid: CandidateGrid) -> Step | None:
    return next(_two_link_chains(grid, "Turbot Fish"), None)


def find_empty_rectangle(grid: CandidateGrid) -> Step | None:
    return next(iter_empty_rectangle(grid), None)


def iter_skyscraper(grid: CandidateGrid) -> Iterator[Step]:
    return distinct(_two_link_chains(grid, "Skyscraper"))


def iter_two_string_kite(grid: CandidateGrid) -> Iterator[Step]:
    return distinct(_two_link_chains(grid, "2-String Kite"))


def iter_turbot_fish(grid: CandidateGrid) -> Iterator[Step]:
    return distinct(_two_link_chains(grid, "Turbot Fish"))


def iter_empty_rectangle(grid: CandidateGrid) -> Iterator[Step]:
    """A box whose places for a digit lie on one row and one column (the rest of the box is
    "empty"), plus a strong link in a line from that row (or column): the cell where the link's
    other line meets the box's column (or row) loses the digit."""
    n = grid.size
    t = grid.t
    hb = t.house_bits
    houses = grid.geometry.houses
    tag = ("empty rectangle", id(t))
    for d in range(n):
        where = grid.where[d]
        if not where or barren((tag, where)):
            continue
        fruitful = False
        links = [(a, b, h) for a, b, h in strong_links(grid, d) if _kind(grid, h) in ("row", "column")]
        for box in t.boxes:
            spots = where & hb[box]
            if spots.bit_count() < 2:
                continue
            rows = {c // n for c in bits(spots)}
            cols = {c % n for c in bits(spots)}
            for r in rows:
                for c in cols:
                    line = hb[t.rows[r]] | hb[t.columns[c]]
                    if spots & ~line or not spots & ~hb[t.rows[r]] or not spots & ~hb[t.columns[c]]:
                        continue
                    for a, b, h in links:
                        for near, far in ((a, b), (b, a)):
                            if hb[box] >> near & 1 or hb[box] >> far & 1:
                                continue
                            if _kind(grid, h) == "column" and near // n == r:
                                target = (far // n) * n + c
                            elif _kind(grid, h) == "row" and near % n == c:
                                target = r * n + far % n
                            else:
                                continue
                            if hb[box] >> target & 1 or not where >> target & 1 or target in (near, far):
                                continue
                            digit = d + 1
                            dc = digit_char(digit)
                            fruitful = True
                            yield make_step(
                                grid,
                                "Empty Rectangle",
                                f"{dc} in {houses[box].name} lies only in row {r + 1} and column {c + 1}, "
                                f"and {houses[h].name} holds {dc} in {grid.name(near)} or {grid.name(far)}",
                                eliminations=[(target, digit)],
                                cells=[*bits(spots), near, far],
                                digits=[digit],
                                houses=[houses[box].name, houses[h].name],
                                length=4,
                            )
        if not fruitful:
            mark_barren((tag, where))


def iter_dual_two_string_kite(grid: CandidateGrid) -> Iterator[Step]:
    """Two 2-String Kites of one digit through the same two cells of a box, shown as one step."""
    groups: dict[tuple[int, frozenset[int]], list[Step]] = {}
    for step in iter_two_string_kite(grid):
        groups.setdefault((step.digits[0], frozenset(step.cells[1:3])), []).append(step)
    return distinct(_duals(grid, groups.values(), "Dual 2-String Kite"))


def iter_dual_empty_rectangle(grid: CandidateGrid) -> Iterator[Step]:
    """Two Empty Rectangles of one digit in the same box, shown as one step."""
    groups: dict[tuple[int, str], list[Step]] = {}
    for step in iter_empty_rectangle(grid):
        groups.setdefault((step.digits[0], step.houses[0]), []).append(step)
    return distinct(_duals(grid, groups.values(), "Dual Empty Rectangle"))


def _duals(grid: CandidateGrid, groups: Iterable[list[Step]], name: str) -> Iterator[Step]:
    for group in groups:
        for i, first in enumerate(group):
            for second in group[i + 1 :]:
                if set(first.eliminations) == set(second.eliminations):
                    continue
                yield make_step(
                    grid,
                    name,
                    f"{first.reason}; and {second.reason}",
                    eliminations=[*first.eliminations, *second.eliminations],
                    cells=sorted({*first.cells, *second.cells}),
                    digits=first.digits,
                    houses=list(dict.fromkeys([*first.houses, *second.houses])),
                    length=first.length,
                )


def find_dual_two_string_kite(grid: CandidateGrid) -> Step | None:
    return next(iter_dual_two_string_kite(grid), None)


def find_dual_empty_rectangle(grid: CandidateGrid) -> Step | None:
    return next(iter_dual_empty_rectangle(grid), None)
