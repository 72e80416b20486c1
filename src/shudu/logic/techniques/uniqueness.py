"""Uniqueness techniques: Unique Rectangles (types 1-6), Hidden Rectangle and BUG+1.

They assume the puzzle has exactly one solution, so the solver uses them only when told it has
(``uniqueness=True``). A *deadly pattern* is one that could be swapped into a second solution: four
cells on two rows, two columns and two boxes holding only the same two digits. The techniques
eliminate whatever would leave one. They need plain rows, columns and boxes (or jigsaw regions):
extra regions and anti-knight/king links could break the swap, so there they find nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations

from ...geometry import Geometry
from ...notation import digit_char
from ...variants import Cell
from ..engine.grid import CandidateGrid, and_list, bits, digits_of, tables
from ..engine.memo import remember
from ..engine.step import Step, digit_list, distinct, make_step

#: The four cells of a rectangle: (r1, c1), (r1, c2), (r2, c1), (r2, c2).
Rectangle = tuple[Cell, Cell, Cell, Cell]


def _plain(grid: CandidateGrid) -> bool:
    """Whether the uniqueness patterns hold: no extra region, link or constraint rule (a digit
    swap that rows, columns and boxes allow may break a cage or a dot)."""
    return not grid.t.extras and not grid.t.has_links and grid.t.rules is None


def _rectangles(grid: CandidateGrid, *, missing: bool = False) -> Iterator[tuple[Rectangle, int, int]]:
    """Every (cells, a, b): four open cells on two rows, columns and boxes sharing digits a and b,
    one of them at least holding no other digit (every Unique and Hidden Rectangle has such a
    corner).

    With ``missing``, instead the rectangles where some cell lacks a or b but every cell holds one
    of them, and each column of the rectangle holds both (a pencil mark may have gone by other
    logic: four cells that may only hold a and b still make the deadly pattern).

    Searched a pair of digits at a time on the rows' bits of the cells holding them, so that the
    rows and columns tried are only those the pair can close a rectangle on, and only for the
    pairs some open cell holds nothing beyond. They come in the order of their rows, then their
    columns, then their digits, so the finders' first step is the one of the first rectangle.
    """
    n = grid.size

    def order(it: tuple[Rectangle, int, int]) -> tuple[int, ...]:
        (first, second, third, _), a, b = it
        return (first // n, third // n, first % n, second % n, a, b)

    def listed() -> tuple[tuple[Rectangle, int, int], ...]:
        return tuple(sorted(_pair_rectangles(grid, missing=missing), key=order))

    # the Unique and Hidden Rectangle finders ask for the same grid's rectangles: remembered
    # inside a rating
    key = (_rectangles, grid.geometry, tuple(grid.cands), grid.empty, missing)
    found: tuple[tuple[Rectangle, int, int], ...] = remember(key, listed)
    return iter(found)


def _pair_rectangles(grid: CandidateGrid, *, missing: bool) -> Iterator[tuple[Rectangle, int, int]]:
    """The rectangles of :func:`_rectangles`, a pair of digits at a time."""
    n = grid.size
    where, cands = grid.where, grid.cands
    box_of = _box_of(grid.geometry)
    line = (1 << n) - 1
    # per pair of digits, the open cells that hold nothing else (one or two candidates, all of
    # the pair): the only corners that can anchor its rectangles
    anchors_of: dict[int, int] = {}
    for c in bits(grid.empty):
        m = cands[c]
        count = m.bit_count()
        if count == 2:
            anchors_of[m] = anchors_of.get(m, 0) | 1 << c
        elif count == 1:
            for other in range(n):
                pair = m | 1 << other
                if pair != m:
                    anchors_of[pair] = anchors_of.get(pair, 0) | 1 << c
    for a, z in combinations(range(n), 2):
        anchors = anchors_of.get((1 << a) | (1 << z), 0)
        if not anchors:
            continue
        places_a, places_z = where[a], where[z]
        both = places_a & places_z
        if missing:
            either = places_a | places_z
            if either == both or either.bit_count() < 4:
                continue
            # per row: the columns holding a or z, a, z, and both
            rows = []
            for r in range(n):
                shift = r * n
                held = either >> shift & line
                if held & (held - 1):
                    row_a, row_z = places_a >> shift & line, places_z >> shift & line
                    rows.append((r, held, row_a, row_z, row_a & row_z))
        else:
            if both.bit_count() < 4:
                continue
            rows = []
            for r in range(n):
                held = both >> (r * n) & line
                if held & (held - 1):
                    rows.append((r, held, held, held, held))
        for i, (r1, held1, a1, z1, both1) in enumerate(rows):
            for r2, held2, a2, z2, both2 in rows[i + 1 :]:
                # the columns where both rows are open for the pair and the column holds a and z
                columns = held1 & held2 & (a1 | a2) & (z1 | z2)
                if not columns & (columns - 1):
                    continue
                # the columns with an anchor in either row: a rectangle needs one
                anchored = (anchors >> (r1 * n) | anchors >> (r2 * n)) & line & columns
                if not anchored:
                    continue
                full = both1 & both2
                shared = list(bits(columns))
                for j, c1 in enumerate(shared):
                    for c2 in shared[j + 1 :]:
                        if missing and full >> c1 & 1 and full >> c2 & 1:
                            continue
                        if not (anchored >> c1 | anchored >> c2) & 1:
                            continue
                        cells = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
                        b = [box_of[c] for c in cells]
                        if -1 in b or len(set(b)) != 2 or b.count(b[0]) != 2:
                            continue
                        yield cells, a, z


@cache
def _box_of(geometry: Geometry) -> tuple[int, ...]:
    """Per cell, its box (or jigsaw region): -1 for none."""
    boxes = set(tables(geometry).boxes)
    return tuple(next((h for h in hs if h in boxes), -1) for hs in geometry.cell_houses)


def find_unique_rectangle(grid: CandidateGrid) -> Step | None:
    """Unique Rectangle types 1 to 6 (the first rectangle that gives any)."""
    return next(_unique_rectangle(grid, type_6=True), None)


def find_unique_rectangle_1_to_5(grid: CandidateGrid) -> Step | None:
    """Unique Rectangle types 1 to 5: the forms Sudoku Explainer knows (its type 2 covers 5)."""
    return next(_unique_rectangle(grid, type_6=False), None)


def iter_unique_rectangle(grid: CandidateGrid) -> Iterator[Step]:
    """Every Unique Rectangle step, types 1 to 6: with every corner holding both digits, then with
    some corner missing one."""
    return distinct(
        itertools.chain(
            _unique_rectangle(grid, type_6=True), _unique_rectangle(grid, type_6=True, missing=True)
        )
    )


def _unique_rectangle(grid: CandidateGrid, *, type_6: bool, missing: bool = False) -> Iterator[Step]:
    if not _plain(grid):
        return
    cands, peer_bits, where = grid.cands, grid.t.peer_bits, grid.where
    hb = grid.t.house_bits
    for cells, a, b in _rectangles(grid, missing=missing):
        pair = (1 << a) | (1 << b)
        extra = [c for c in cells if cands[c] & ~pair]
        ab = digit_list([a + 1, b + 1])
        base = f"{grid.names(cells)} would form a deadly pattern of {ab}"
        if len(extra) == 1:
            cell = extra[0]
            yield make_step(
                grid,
                "Unique Rectangle Type 1",
                f"{base} unless {grid.name(cell)} is neither",
                eliminations=[(cell, x + 1) for x in (a, b) if cands[cell] >> x & 1],
                cells=cells,
                digits=[a + 1, b + 1],
                kind="Unique Rectangle Type 1",
            )
        rest = {cands[c] & ~pair for c in extra}
        if 2 <= len(extra) <= 3 and len(rest) == 1:
            more = rest.pop()
            if more.bit_count() == 1:
                z = more.bit_length() - 1
                targets = where[z]
                for c in extra:
                    targets &= peer_bits[c]
                if targets:
                    same_line = len(extra) == 2 and (
                        extra[0] // grid.size == extra[1] // grid.size
                        or extra[0] % grid.size == extra[1] % grid.size
                    )
                    name = "Unique Rectangle Type 2" if same_line else "Unique Rectangle Type 5"
                    yield make_step(
                        grid,
                        name,
                        f"{base} unless one of {grid.names(extra)} is {digit_char(z + 1)}",
                        eliminations=[(c, z + 1) for c in bits(targets)],
                        cells=cells,
                        digits=[a + 1, b + 1, z + 1],
                        kind=name,
                    )
        if len(extra) == 2:
            both = (1 << extra[0]) | (1 << extra[1])
            for h, hbits in enumerate(hb):
                if hbits & both != both:
                    continue
                for keep, drop in ((a, b), (b, a)):
                    spots = where[keep] & hbits
                    if not spots or spots & ~both or not any(cands[c] >> drop & 1 for c in extra):
                        continue
                    yield make_step(
                        grid,
                        "Unique Rectangle Type 4",
                        f"{base}; {digit_char(keep + 1)} in {grid.geometry.houses[h].name} must go in "
                        f"{grid.names(extra)}, so neither may be {digit_char(drop + 1)}",
                        eliminations=[(c, drop + 1) for c in extra if cands[c] >> drop & 1],
                        cells=cells,
                        digits=[a + 1, b + 1],
                        houses=[grid.geometry.houses[h].name],
                        kind="Unique Rectangle Type 4",
                    )
            yield from _type_3(grid, cells, extra, a, b, base)
            if type_6:
                yield from _type_6(grid, cells, extra, a, b, base)


_SETS = {2: "pair", 3: "triple", 4: "quad"}


def _type_3(
    grid: CandidateGrid, cells: Rectangle, extra: Sequence[Cell], a: int, b: int, base: str
) -> Iterator[Step]:
    """Type 3: the two extra cells share a house, and their extra digits with k - 1 other cells of
    that house make a naked set of k digits (one of the extra cells must hold an extra digit)."""
    cands, where, hb = grid.cands, grid.where, grid.t.house_bits
    pair = (1 << a) | (1 << b)
    more = (cands[extra[0]] | cands[extra[1]]) & ~pair
    if more.bit_count() < 2:
        return
    both = (1 << extra[0]) | (1 << extra[1])
    for h in grid.geometry.cell_houses[extra[0]]:
        hbits = hb[h]
        if not hbits >> extra[1] & 1:
            continue
        others = [c for c in bits(hbits & grid.empty & ~both) if cands[c].bit_count() <= 4]
        for size in range(1, 4):
            for combo in combinations(others, size):
                union = more
                for c in combo:
                    union |= cands[c]
                if union.bit_count() != size + 1:
                    continue
                inside = both | sum(1 << c for c in combo)
                # the set holds in every house that has all its cells (a line and a box, often)
                shared = [g for g in grid.geometry.cell_houses[extra[0]] if hb[g] & inside == inside]
                span = 0
                for g in shared:
                    span |= hb[g]
                elims = [(c, d + 1) for d in bits(union) for c in bits(where[d] & span & ~inside)]
                if not elims:
                    continue
                house = and_list([grid.geometry.houses[g].name for g in shared])
                kind = f"Unique Rectangle Type 3 ({_SETS[size + 1]})"
                yield make_step(
                    grid,
                    "Unique Rectangle Type 3",
                    f"{base} unless {grid.names(extra)} hold one of {digit_list(digits_of(more))}; as one "
                    f"cell with {grid.names(combo)} they make a naked {_SETS[size + 1]} of "
                    f"{digit_list(digits_of(union))} in {house}",
                    eliminations=elims,
                    cells=[*cells, *combo],
                    digits=[a + 1, b + 1, *digits_of(union)],
                    houses=[grid.geometry.houses[g].name for g in shared],
                    kind=kind,
                )


def _type_6(
    grid: CandidateGrid, cells: Rectangle, extra: Sequence[Cell], a: int, b: int, base: str
) -> Iterator[Step]:
    """Type 6: the two extra cells lie diagonally and a UR digit lies only in the rectangle in both
    of its rows (or both columns): it cannot go in the extra cells, or the other digit would fill
    the remaining corners."""
    n, where, hb, t = grid.size, grid.where, grid.t.house_bits, grid.t
    e1, e2 = extra
    if e1 // n == e2 // n or e1 % n == e2 % n:
        return
    rect = sum(1 << c for c in cells)
    lines = (
        [hb[t.rows[e1 // n]], hb[t.rows[e2 // n]]],
        [hb[t.columns[e1 % n]], hb[t.columns[e2 % n]]],
    )
    for x in (a, b):
        if not any(grid.cands[e] >> x & 1 for e in extra):
            continue
        for pair_of_lines in lines:
            if all(_only_inside(where[x], line, rect) for line in pair_of_lines):
                yield make_step(
                    grid,
                    "Unique Rectangle Type 6",
                    f"{base}; {digit_char(x + 1)} lies only in the rectangle along both of its lines, "
                    f"so it cannot go in {grid.names(extra)}",
                    eliminations=[(e, x + 1) for e in extra if grid.cands[e] >> x & 1],
                    cells=cells,
                    digits=[a + 1, b + 1],
                    kind="Unique Rectangle Type 6",
                )


def find_hidden_rectangle(grid: CandidateGrid) -> Step | None:
    return next(iter_hidden_rectangle(grid), None)


def iter_hidden_rectangle(grid: CandidateGrid) -> Iterator[Step]:
    """Every Hidden Rectangle: with every corner holding both digits, then with some corner
    missing one."""
    return distinct(itertools.chain(_hidden_rectangle(grid), _hidden_rectangle(grid, missing=True)))


def _hidden_rectangle(grid: CandidateGrid, *, missing: bool = False) -> Iterator[Step]:
    """Hidden Rectangle: one corner may hold only the two digits; if one of them lies only in the
    rectangle along both the row and the column of the opposite corner, the opposite corner cannot
    hold the other digit (the two corners between would hold the first, and the deadly pattern
    would close)."""
    if not _plain(grid):
        return
    n, cands, where, hb, t = grid.size, grid.cands, grid.where, grid.t.house_bits, grid.t
    for cells, a, b in _rectangles(grid, missing=missing):
        pair = (1 << a) | (1 << b)
        rect = sum(1 << c for c in cells)
        for i, corner in enumerate(cells):
            if cands[corner] & ~pair:
                continue
            opposite = cells[3 - i]
            row, column = hb[t.rows[opposite // n]], hb[t.columns[opposite % n]]
            for x, y in ((a, b), (b, a)):
                if not cands[opposite] >> y & 1:
                    continue
                if _only_inside(where[x], row, rect) and _only_inside(where[x], column, rect):
                    yield make_step(
                        grid,
                        "Hidden Rectangle",
                        f"{grid.names(cells)} would form a deadly pattern of {digit_list([a + 1, b + 1])}; "
                        f"{digit_char(x + 1)} lies only in the rectangle along the row and the column of "
                        f"{grid.name(opposite)}, so {grid.name(opposite)} cannot be {digit_char(y + 1)}",
                        eliminations=[(opposite, y + 1)],
                        cells=cells,
                        digits=[a + 1, b + 1],
                    )


def find_bug_plus_one(grid: CandidateGrid) -> Step | None:
    return next(iter_bug_plus_one(grid), None)


def iter_bug_plus_one(grid: CandidateGrid) -> Iterator[Step]:
    """Bivalue Universal Grave + 1: every open cell has two candidates but one, which has three, and
    taking one digit out of that cell would leave every digit exactly twice (or placed) in every
    house. Such a grave has no or two solutions (the other candidate of every cell is one too), so in
    a puzzle with one solution the odd cell holds that digit: its other candidates go."""
    if grid.t.has_links or grid.t.rules is not None:
        return
    odd = None
    for cell in bits(grid.empty):
        count = grid.cands[cell].bit_count()
        if count == 2:
            continue
        if count != 3 or odd is not None:
            return
        odd = cell
    if odd is None:
        return
    houses = grid.geometry.houses
    for d in bits(grid.cands[odd]):
        if not _is_grave(grid, odd, d):
            continue
        digit = d + 1
        odd_houses = [houses[h].name for h in grid.geometry.cell_houses[odd]]
        yield make_step(
            grid,
            "Bivalue Universal Grave + 1",
            f"every open cell but {grid.name(odd)} holds two candidates, and without {digit_char(digit)} "
            f"in {grid.name(odd)} every digit would have exactly two places in every house (a grave "
            "with no or two solutions)",
            eliminations=[(odd, e + 1) for e in bits(grid.cands[odd]) if e != d],
            cells=[odd],
            digits=digits_of(grid.cands[odd]),
            houses=odd_houses,
        )


def _is_grave(grid: CandidateGrid, odd: Cell, d: int) -> bool:
    """Whether removing digit index ``d`` from ``odd`` leaves every digit not placed in a house with
    exactly two places in it, in every house of the geometry."""
    odd_bit = 1 << odd
    for h, hbits in enumerate(grid.t.house_bits):
        placed = grid.placed[h]
        for e in range(grid.size):
            if placed >> e & 1:
                continue
            spots = grid.where[e] & hbits
            if e == d:
                spots &= ~odd_bit
            if spots.bit_count() != 2:
                return False
    return True


def find_avoidable_rectangle(grid: CandidateGrid) -> Step | None:
    return next(iter_avoidable_rectangle(grid), None)


def iter_avoidable_rectangle(grid: CandidateGrid) -> Iterator[Step]:
    """Avoidable Rectangles: corners of a rectangle on two boxes already filled by the solver (not
    given) with two digits in the crossing order, so that the open corners would close a deadly
    pattern. Type 1: one corner open, so it cannot hold the digit that closes the pattern. Type 2:
    two corners open, each with that digit and one more, the same: one of them holds that one, so
    the cells that see both lose it.

    Only digits the solver placed count (``grid.givens`` marks the rest): givens cannot be swapped.
    """
    if not _plain(grid):
        return
    n, values, cands, peer_bits, where = grid.size, grid.values, grid.cands, grid.t.peer_bits, grid.where
    for r1, r2, c1, c2 in _avoidable_rectangles(grid):
        cells = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
        want = _crossing(cells, [values[c] for c in cells])
        if want is None:
            continue
        a, z = sorted(set(want))

        def because(cells: Rectangle = cells, a: int = a, z: int = z) -> str:
            placed = [c for c in cells if values[c]]
            return (
                f"{grid.names(placed)} hold {digit_list([a, z])} (placed, not given), and "
                f"{grid.names(cells)} must not form a deadly pattern of them"
            )

        open_cells = [c for c in cells if not values[c]]
        if len(open_cells) == 1:
            cell = open_cells[0]
            digit = want[cells.index(cell)]
            if cands[cell] >> (digit - 1) & 1:
                yield make_step(
                    grid,
                    "Avoidable Rectangle Type 1",
                    f"{because()}, so {grid.name(cell)} cannot be {digit_char(digit)}",
                    eliminations=[(cell, digit)],
                    cells=cells,
                    digits=[a, z],
                )
        elif len(open_cells) == 2:
            o1, o2 = open_cells
            v1, v2 = want[cells.index(o1)], want[cells.index(o2)]
            more1 = cands[o1] & ~(1 << (v1 - 1))
            more2 = cands[o2] & ~(1 << (v2 - 1))
            if not (cands[o1] >> (v1 - 1) & 1 and cands[o2] >> (v2 - 1) & 1):
                continue
            if more1 != more2 or more1.bit_count() != 1:
                continue
            x = more1.bit_length() - 1
            targets = where[x] & peer_bits[o1] & peer_bits[o2]
            if targets:
                yield make_step(
                    grid,
                    "Avoidable Rectangle Type 2",
                    f"{because()}, so {grid.name(o1)} or {grid.name(o2)} is {digit_char(x + 1)}",
                    eliminations=[(c, x + 1) for c in bits(targets)],
                    cells=cells,
                    digits=[a, z, x + 1],
                )


def _avoidable_rectangles(grid: CandidateGrid) -> list[tuple[int, int, int, int]]:
    """The rectangles (rows r1 < r2, columns c1 < c2) that may be avoidable, in that order. A
    deadly pattern's placed corners fix both its digits only where one corner of each diagonal
    is placed, and two such corners share a row or a column: so from each two cells of a line
    the solver filled with different digits p and q, the rectangles on two boxes that reach
    another line whose two corners are open or hold the digit of the opposite corner (q across
    from p), not both filled."""
    n, values, givens = grid.size, grid.values, grid.givens
    box_of = _box_of(grid.geometry)
    lines: dict[tuple[int, int], list[int]] = {}
    for c in range(n * n):
        if values[c] and not givens >> c & 1:
            lines.setdefault((0, c // n), []).append(c)
            lines.setdefault((1, c % n), []).append(c)
    step = {0: n, 1: 1}  # from a cell to the same place in another line: rows, then columns
    found: set[tuple[int, int, int, int]] = set()
    for (across, line), cells in lines.items():
        for p, q in combinations(cells, 2):
            if values[p] == values[q] or box_of[p] < 0 or box_of[q] < 0:
                continue
            for other in range(n):
                if other == line:
                    continue
                shift = (other - line) * step[across]
                p2, q2 = p + shift, q + shift  # p2 across from q, q2 across from p
                if givens >> p2 & 1 or givens >> q2 & 1 or (values[p2] and values[q2]):
                    continue
                if values[p2] not in (0, values[q]) or values[q2] not in (0, values[p]):
                    continue
                boxes = (box_of[p], box_of[q], box_of[p2], box_of[q2])
                if -1 in boxes or len(set(boxes)) != 2 or boxes.count(boxes[0]) != 2:
                    continue
                a, b = min(line, other), max(line, other)
                # a row pair gives the columns of p and q; a column pair, their rows
                found.add((a, b, p % n, q % n) if across == 0 else (p // n, q // n, a, b))
    return sorted(found)


def _crossing(cells: Rectangle, values: Sequence[int]) -> list[int] | None:
    """The digits each corner would hold in the deadly pattern the placed corners (non-zero
    ``values``) begin: opposite corners alike, neighbours different; None if they begin none."""
    want = [0, 0, 0, 0]
    for i, v in enumerate(values):
        if v:
            want[i] = v
    # corners 0 and 3 are opposite, as are 1 and 2
    for i, j in ((0, 3), (3, 0), (1, 2), (2, 1)):
        if want[i] and not want[j]:
            want[j] = want[i]
        elif want[i] and want[j] != want[i]:
            return None
    if not want[0] or not want[1]:
        # only one diagonal is known: the other's digit is not fixed
        return None
    if want[0] == want[1]:
        return None
    return want


def _only_inside(places: int, line: int, rect: int) -> bool:
    """Whether a digit with ``places`` still open in ``line`` has them all inside ``rect``."""
    return bool(places & line) and not places & line & ~rect
