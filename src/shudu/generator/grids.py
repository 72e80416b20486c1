"""Random complete grids and random jigsaw layouts.

**Grids.** Givens are drawn one at a time: a random empty cell, a random digit among those its
placed peers leave it, until the fast core says the givens have exactly one completion, which
is the grid. A given that leaves no completion is taken back and that digit barred from the
cell. Every valid grid can come out: at each draw, the cell and the digit the grid holds there
have a positive chance, and a grid's own digits always leave it a completion. The solver does
the heavy part in C, so a 9x9 grid costs some 20 to 30 checks.

**Large grids.** From :data:`SEEDED_SIZE` on, proving that a sparse partial grid has no
completion can take the core longer than any budget, so the draw above rarely ends. There, a
few random givens (each allowed by its placed peers) are completed by the core's first
solution, and the digits of that grid are relabelled at random (every rule of every variant
says only "these cells differ", so a relabelled grid is valid). Not every grid is as likely
this way, but every one that comes out is valid, and the puzzles dug from it are proven unique
as always.

**Layouts.** Start from the boxes (or the rows, for a size without boxes) and trade cells
between neighbouring regions many times: a cell of region A on its border with region B and a
cell of B on its border with A swap regions when both regions stay connected. Trades that
lengthen the borders are taken only sometimes (probability ``exp(-COMPACTNESS * added
border)``), so regions stay compact like those of published jigsaws. Some layouts admit no
grid at all; the search draws another layout when the filler finds none.

**Large jigsaws.** From :data:`SEEDED_SIZE` on, even an empty random layout often defeats the
core's search (none of ten 25x25 layouts was filled in a million nodes), so there the grid
comes first: it is filled on the start layout, and the layout grows around it
(:func:`grow_around`). Each move takes two neighbouring regions, whose union holds every digit
twice, and splits the union anew: one region grows from a random cell of the union, a cell at
a time, never taking a digit it already holds, and each cell it takes sends the other cell
with that digit to the second region. The move is kept when the second region is connected
too. Each region still holds every digit once, and rows, columns and every other rule of the
variant are untouched, so the grid is valid on every layout of the walk.
"""

from __future__ import annotations

import math
import random

from ..errors import ShuduError
from ..geometry import Geometry
from .uniqueness import DIGIT_BYTES, EMPTY, Checker

#: From this size on, grids are completed from a few random givens (see above).
SEEDED_SIZE = 20
#: How many random givens start a large grid, per row.
SEEDS_PER_ROW = 1

#: How strongly layouts favour short region borders (0: not at all).
COMPACTNESS = 0.7
#: Splits of two regions that a layout grown around a grid makes, per unit of size, and how
#: many draws it may spend per split kept.
AROUND_MOVES, AROUND_TRIES = 20, 20


class GridFailed(ShuduError):
    """The random filler gave up on this draw (a search budget ran out); draw again."""


def random_grid(geometry: Geometry, rng: random.Random, checker: Checker, tries: int = 100) -> bytes:
    """A random valid complete grid of ``geometry``, as a one-line text."""
    fill = _try_seeded if geometry.size >= SEEDED_SIZE else _try_fill
    for _ in range(tries):
        grid = fill(geometry, rng, checker)
        if grid is not None:
            return grid
    raise GridFailed(f"could not fill a {geometry.size}x{geometry.size} {geometry.variant.name} grid")


def _try_fill(geometry: Geometry, rng: random.Random, checker: Checker) -> bytes | None:
    n, nc = geometry.size, geometry.ncells
    peers = geometry.peers
    text = bytearray(b"." * nc)
    allowed = [(1 << n) - 1] * nc
    order = list(range(nc))
    rng.shuffle(order)
    # Below n-1 distinct digits no puzzle is unique (swap two missing digits); before that,
    # only impossible givens matter, and those the first check catches.
    first_check = n - 1
    for placed, cell in enumerate(order):
        mask = allowed[cell]
        while mask:
            digits = _DIGITS_OF.get(mask) or _digits_of(mask)
            digit = rng.choice(digits)
            text[cell] = DIGIT_BYTES[digit]
            if placed + 1 < first_check:
                break
            found = checker.check(text)
            if found.status == "unique":
                assert found.solution is not None
                return found.solution
            if found.status == "multiple":
                break
            # none (or a search past its budget): bar the digit here
            text[cell] = EMPTY
            mask &= ~(1 << (digit - 1))
            if found.status == "timeout" or placed < first_check:
                return None
        else:
            return None  # the givens before had no completion after all
        bit = ~(1 << (digit - 1))
        for peer in peers[cell]:
            allowed[peer] &= bit
    return None


#: The digits of a candidate mask, as the filler draws from them (bounded: masks of the larger
#: sizes are too many to keep them all).
_DIGITS_OF: dict[int, tuple[int, ...]] = {}


def _digits_of(mask: int) -> tuple[int, ...]:
    if len(_DIGITS_OF) >= 1 << 12:
        _DIGITS_OF.clear()
    digits = _DIGITS_OF[mask] = tuple(d for d in range(1, mask.bit_length() + 1) if mask >> (d - 1) & 1)
    return digits


def _try_seeded(geometry: Geometry, rng: random.Random, checker: Checker) -> bytes | None:
    n, nc = geometry.size, geometry.ncells
    text = bytearray(b"." * nc)
    allowed = [(1 << n) - 1] * nc
    for cell in rng.sample(range(nc), SEEDS_PER_ROW * n):
        digits = [d for d in range(1, n + 1) if allowed[cell] >> (d - 1) & 1]
        if not digits:
            return None
        digit = rng.choice(digits)
        text[cell] = DIGIT_BYTES[digit]
        for peer in geometry.peers[cell]:
            allowed[peer] &= ~(1 << (digit - 1))
    grid = checker.first(text)
    if grid is None:
        return None
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    relabel = {DIGIT_BYTES[d]: DIGIT_BYTES[labels[d - 1]] for d in range(1, n + 1)}
    return bytes(relabel[byte] for byte in grid)


# --- jigsaw layouts ----------------------------------------------------------------------------


def _neighbours(size: int) -> list[tuple[int, ...]]:
    out = []
    for cell in range(size * size):
        r, c = divmod(cell, size)
        around = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        out.append(tuple(y * size + x for y, x in around if 0 <= y < size and 0 <= x < size))
    return out


def grow_layout(size: int, rng: random.Random, swaps: int | None = None) -> tuple[int, ...]:
    """A random partition of the ``size`` x ``size`` grid into ``size`` connected regions of
    ``size`` cells (no check that a grid fits it)."""
    near = _neighbours(size)
    label = list(start_layout(size))
    members = [[c for c in range(size * size) if label[c] == r] for r in range(size)]
    wanted = swaps if swaps is not None else 3 * size * size
    done = attempts = 0
    while done < wanted and attempts < 50 * wanted:
        attempts += 1
        a = rng.randrange(size * size)
        ra = label[a]
        others = [label[p] for p in near[a] if label[p] != ra]
        if not others:
            continue
        rb = rng.choice(others)
        # a cell of rb that touches ra, other than a's neighbours' trade back
        candidates = [c for c in members[rb] if any(label[p] == ra for p in near[c])]
        b = rng.choice(candidates)
        before = _boundary(a, near, label) + _boundary(b, near, label)
        label[a], label[b] = rb, ra
        members[ra].remove(a)
        members[ra].append(b)
        members[rb].remove(b)
        members[rb].append(a)
        change = _boundary(a, near, label) + _boundary(b, near, label) - before
        if (
            (change <= 0 or rng.random() < math.exp(-COMPACTNESS * change))
            and _connected(members[ra], near, label)
            and _connected(members[rb], near, label)
        ):
            done += 1
            continue
        label[a], label[b] = ra, rb
        members[ra].remove(b)
        members[ra].append(a)
        members[rb].remove(a)
        members[rb].append(b)
    return tuple(label)


def grow_around(grid: bytes, size: int, rng: random.Random, moves: int | None = None) -> tuple[int, ...]:
    """A random layout on which ``grid`` (complete, valid on :func:`start_layout`) is valid too:
    ``moves`` splits of two neighbouring regions anew (see the module's notes)."""
    near = _neighbours(size)
    label = list(start_layout(size))
    wanted = moves if moves is not None else AROUND_MOVES * size
    done = 0
    for _ in range(AROUND_TRIES * wanted):
        if done >= wanted:
            break
        a = rng.randrange(size * size)
        others = sorted({label[p] for p in near[a]} - {label[a]})
        if not others:
            continue
        ra, rb = label[a], rng.choice(others)
        union = [c for c in range(size * size) if label[c] in (ra, rb)]
        first = _split(union, grid, near, rng, size)
        if first is None:
            continue
        for cell in union:
            label[cell] = ra if cell in first else rb
        done += 1
    return tuple(label)


def _split(
    union: list[int], grid: bytes, near: list[tuple[int, ...]], rng: random.Random, size: int
) -> set[int] | None:
    """A connected half of ``union`` holding each of its digits once whose other half is
    connected too, grown from a random cell (compact halves are likelier), or None."""
    inside = set(union)
    twin = {}
    by_digit: dict[int, int] = {}
    for cell in union:
        other = by_digit.pop(grid[cell], None)
        if other is None:
            by_digit[grid[cell]] = cell
        else:
            twin[cell], twin[other] = other, cell
    start = rng.choice(union)
    first, second = {start}, {twin[start]}
    while len(first) < size:
        frontier = {p for c in first for p in near[c] if p in inside and p not in first and p not in second}
        if not frontier:
            return None
        cells = sorted(frontier)
        weights = [math.exp(COMPACTNESS * sum(1 for q in near[p] if q in first)) for p in cells]
        cell = rng.choices(cells, weights)[0]
        first.add(cell)
        second.add(twin[cell])
    rest = sorted(second)
    label = [0] * len(grid)
    for cell in rest:
        label[cell] = 1
    return first if _connected(rest, near, label) else None


def _boundary(cell: int, near: list[tuple[int, ...]], label: list[int]) -> int:
    """How many of the cell's neighbours lie in another region."""
    own = label[cell]
    return sum(1 for p in near[cell] if label[p] != own)


def start_layout(size: int) -> tuple[int, ...]:
    """Boxes where the size has a box shape, else rows."""
    rows = max((r for r in range(2, int(size**0.5) + 1) if size % r == 0), default=0)
    if not rows:
        return tuple(c // size for c in range(size * size))
    cols = size // rows
    return tuple((c // size) // rows * rows + (c % size) // cols for c in range(size * size))


def _connected(cells: list[int], near: list[tuple[int, ...]], label: list[int]) -> bool:
    region = label[cells[0]]
    seen = {cells[0]}
    stack = [cells[0]]
    while stack:
        cell = stack.pop()
        for p in near[cell]:
            if label[p] == region and p not in seen:
                seen.add(p)
                stack.append(p)
    return len(seen) == len(cells)
