"""Almost locked sets: ALS-XZ, ALS-XY-Wing and Death Blossom.

An *almost locked set* (ALS) is N open cells of one house holding N + 1 digits between them: take
one digit away and the rest is locked. Two ALSs A and B are linked by a *restricted common* digit X
when every X of A sees every X of B: X cannot be in both, so one of them locks.

- ALS-XZ: A and B with a restricted common X; for another common digit Z, one of the two holds Z,
  so a cell that sees every Z of both cannot be Z.
- ALS-XY-Wing: A–C restricted by X and B–C by Y (X ≠ Y): C cannot lose both, so A or B locks; a Z
  common to A and B goes from cells that see all their Zs.
- Death Blossom: a stem cell and one ALS (petal) per stem digit whose cells with that digit all see
  the stem; whichever digit the stem takes locks its petal, so a Z in every petal goes from cells
  that see all of their Zs.

ALSs hold at most :data:`MAX_CELLS` cells (larger ones are rare and slow to list). Any house works,
extra and jigsaw regions too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ...geometry import Geometry
from ...notation import digit_char
from ..engine.budget import c_limits, c_spent, checkpoint
from ..engine.chain_structure import Branch, Chain, Implication, LinkKind, Net, Node
from ..engine.grid import CandidateGrid, bits, digits_of
from ..engine.memo import remember
from ..engine.propagate import c_core, c_tables
from ..engine.step import Step, digit_list, make_step

#: The largest ALS looked for, in cells.
MAX_CELLS = 4
#: The largest ALS the all-steps listings look for (HoDoKu's reach), in cells.
MAX_CELLS_ALL = 8


@dataclass(frozen=True)
class Als:
    """An almost locked set: its cells, digits, house, and per digit the cells holding it and the
    cells that see all of those (outside the set)."""

    cells: int
    digits: int
    house: int
    holding: tuple[int, ...]
    seeing: tuple[int, ...]


def almost_locked_sets(grid: CandidateGrid, max_cells: int = MAX_CELLS) -> tuple[Als, ...]:
    """Every ALS of up to ``max_cells`` cells (each cell set once, from its first house)."""
    return _sets_of(grid, tuple(grid.cands), max_cells)


def _sets_of(grid: CandidateGrid, cands: tuple[int, ...], max_cells: int) -> tuple[Als, ...]:
    # Remembered inside a rating (memo.remember, so that a call counts the same work however
    # often it runs): the finders ask for the sets of the same grid, and both rating paths
    # reach the same grids when they need these techniques.
    key = (_sets_of, grid.geometry, cands, grid.empty, max_cells)
    sets: tuple[Als, ...] = remember(key, lambda: _list_sets(grid, cands, max_cells))
    return sets


def _list_sets(grid: CandidateGrid, cands: tuple[int, ...], max_cells: int) -> tuple[Als, ...]:
    """The sets, listed by the C core where the grid fits its tables (:func:`_list_sets_py`
    otherwise, its specification); the C core counts a unit of work a set."""
    found = _c_als_sets(grid, max_cells, SETS)
    if found is None:
        return _list_sets_py(grid.geometry, cands, grid.empty, max_cells)
    return tuple(Als(*raw) for raw in found)


def _list_sets_py(geometry: Geometry, cands: tuple[int, ...], empty: int, max_cells: int) -> tuple[Als, ...]:
    from ..engine.grid import tables

    t = tables(geometry)
    n = geometry.size
    seen: set[int] = set()
    found: list[Als] = []
    for h, hbits in enumerate(t.house_bits):
        open_cells = [c for c in bits(hbits & empty) if cands[c]]
        checkpoint(len(open_cells))
        for mask, union in _locked_but_one(open_cells, cands, 0, 0, 0, 0, max_cells):
            if mask not in seen:
                seen.add(mask)
                found.append(_make(mask, union, h, n, cands, t.peer_bits))
    return tuple(found)


#: What the C core's ``als_sets`` is asked for: the sets, the links of disjoint sets, of any sets,
#: the ALS-XY-Wings over any sets (:func:`_xy_wing_hits_py`).
SETS, LINKS, LINKS_OVERLAPPING, XY_WINGS = 0, 1, 2, 3
#: What it says of its listing: done, or stopped by the limits.
_DONE, _STOPPED = 0, 2


def _c_als_sets(grid: CandidateGrid, max_cells: int, want: int) -> list[Any] | None:
    """The C core's ``als_sets`` of the grid, or None where the grid does not fit its tables;
    LogicTimeout past the limits."""
    capsule = c_tables(grid.geometry)
    core = c_core()
    if capsule is None or core is None:
        return None
    limits = c_limits()
    code, units, found = core.als_sets(capsule, grid.cands, grid.where, grid.empty, max_cells, want, *limits)
    c_spent(units, stopped=code == _STOPPED)
    listed: list[Any] = found
    return listed


def _locked_but_one(
    open_cells: list[int], cands: tuple[int, ...], start: int, cells: int, digits: int, size: int, most: int
) -> Iterator[tuple[int, int]]:
    """(cells, digits) of every set of ``open_cells`` from ``start`` on, added to ``cells``, with one
    digit more than cells."""
    count = len(open_cells)
    for i in range(start, count):
        cell = open_cells[i]
        union = digits | cands[cell]
        width = union.bit_count()
        if width > most + 1 or width > size + 2 + (count - i - 1):
            continue
        mask = cells | 1 << cell
        if width == size + 2:
            yield mask, union
        if size + 1 < most:
            yield from _locked_but_one(open_cells, cands, i + 1, mask, union, size + 1, most)


def _make(
    cells: int, digits: int, house: int, n: int, cands: tuple[int, ...], peer_bits: tuple[int, ...]
) -> Als:
    holding = [0] * n
    seeing = [0] * n
    for d in bits(digits):
        mask = 0
        for c in bits(cells):
            if cands[c] >> d & 1:
                mask |= 1 << c
        holding[d] = mask
        common = -1
        for c in bits(mask):
            common &= peer_bits[c]
        seeing[d] = common & ~cells
    return Als(cells, digits, house, tuple(holding), tuple(seeing))


def restricted_links(
    grid: CandidateGrid, max_cells: int = MAX_CELLS, *, overlap: bool = False
) -> tuple[tuple[Als, ...], tuple[dict[int, int], ...]]:
    """The ALSs and, per ALS, the ALSs it shares restricted common digits with: ``links[i][j]``
    is the digit set of those shared by sets i and j.

    Linked sets are disjoint unless ``overlap``; overlapping sets may share cells, but never a
    place of a restricted common (every place of it in one set sees every place in the other, and
    a cell does not see itself), so one of the two still cannot hold it.
    """
    cands = tuple(grid.cands)
    key = (_links_of, grid.geometry, cands, grid.empty, max_cells, overlap)
    found: tuple[tuple[Als, ...], tuple[dict[int, int], ...]] = remember(
        key, lambda: _links_of(grid, cands, max_cells, overlap)
    )
    return found


def _links_of(
    grid: CandidateGrid, cands: tuple[int, ...], max_cells: int, overlap: bool
) -> tuple[tuple[Als, ...], tuple[dict[int, int], ...]]:
    """The sets and their links, found by the C core where the grid fits its tables (it lists
    the sets again, counting a unit a set), by :func:`_links_of_py` otherwise."""
    sets = _sets_of(grid, cands, max_cells)
    links = _c_als_sets(grid, max_cells, LINKS_OVERLAPPING if overlap else LINKS)
    if links is None:
        return sets, _links_of_py(grid.geometry, sets, overlap)
    return sets, tuple(links)


def _links_of_py(geometry: Geometry, sets: tuple[Als, ...], overlap: bool) -> tuple[dict[int, int], ...]:
    n = geometry.size
    # per digit, the sets indexed by the first of their cells holding it
    first: list[dict[int, list[int]]] = [{} for _ in range(n)]
    for j, s in enumerate(sets):
        for d in bits(s.digits):
            h = s.holding[d]
            first[d].setdefault((h & -h).bit_length() - 1, []).append(j)
    links: list[dict[int, int]] = [{} for _ in sets]
    for i, a in enumerate(sets):
        checkpoint()
        for d in bits(a.digits):
            reach = a.seeing[d]
            index = first[d]
            for c in bits(reach):
                for j in index.get(c, ()):
                    b = sets[j]
                    if j != i and not b.holding[d] & ~reach and (overlap or not a.cells & b.cells):
                        links[i][j] = links[i].get(j, 0) | 1 << d
    return tuple(links)


def _targets(grid: CandidateGrid, sets: list[Als], z: int) -> int:
    """The cells outside ``sets`` that may hold ``z`` and see every ``z`` of them."""
    out = grid.where[z]
    for s in sets:
        out &= s.seeing[z]
    return out


def _describe(grid: CandidateGrid, s: Als) -> str:
    return f"{grid.names(s.cells)} ({digit_list(digits_of(s.digits))})"


# --- every step, with its chain ------------------------------------------------------------------


def als_chain(sets: Sequence[Als], rccs: Sequence[int], z: int) -> Chain:
    """``(z)A=(x)A-(x)B=(y)B-...=(z)Z``: each ALS's strong link from the digit it enters by to the
    one it leaves by, weak links (restricted commons) between the sets."""
    nodes: list[Node] = []
    kinds: list[LinkKind] = []
    enter = z
    for i, s in enumerate(sets):
        leave = rccs[i] if i < len(rccs) else z
        if nodes:
            kinds.append("weak")
        nodes += [_als_node(s, enter), _als_node(s, leave)]
        kinds.append("strong")
        enter = leave
    return Chain(tuple(nodes), tuple(kinds))


def _als_node(s: Als, d: int) -> Node:
    return Node(tuple(bits(s.cells)), (d + 1,), "als")


def _als_step(
    grid: CandidateGrid,
    name: str,
    reason: str,
    sets: Sequence[Als],
    structure: Chain,
    elims: list[tuple[int, int]],
) -> Step:
    cells = 0
    digits = 0
    for s in sets:
        cells |= s.cells
        digits |= s.digits
    return make_step(
        grid,
        name,
        f"{reason}: {structure.text(grid.size)}",
        structure=structure,
        eliminations=elims,
        cells=list(bits(cells)),
        digits=digits_of(digits),
        length=2 * cells.bit_count(),
    )


def iter_als_xz(grid: CandidateGrid) -> Iterator[Step]:
    """Every ALS-XZ, singly linked (a common Z goes from cells seeing all its places in both sets)
    and doubly linked (two restricted commons lock both sets: each set's other digits go from cells
    seeing all their places in it, and each restricted common from cells seeing all of both)."""
    sets, links = restricted_links(grid, MAX_CELLS_ALL)
    seen: set[tuple[tuple[int, int], ...]] = set()
    for i, a in enumerate(sets):
        checkpoint()
        for j, rcc in sorted(links[i].items()):
            if j < i:
                continue
            b = sets[j]
            xs = list(bits(rcc))
            for x in xs:
                elims = []
                for z in bits(a.digits & b.digits & ~(1 << x)):
                    elims += [(c, z + 1) for c in bits(_targets(grid, [a, b], z))]
                if elims and tuple(sorted(set(elims))) not in seen:
                    seen.add(tuple(sorted(set(elims))))
                    z0 = elims[0][1] - 1
                    yield _als_step(
                        grid,
                        "ALS-XZ",
                        f"the sets {_describe(grid, a)} and {_describe(grid, b)} cannot both hold "
                        f"{digit_char(x + 1)}, so one of them is locked",
                        [a, b],
                        als_chain([a, b], [x], z0),
                        sorted(set(elims)),
                    )
            if len(xs) >= 2:
                x1, x2 = xs[:2]
                elims = []
                for x in (x1, x2):
                    elims += [(c, x + 1) for c in bits(_targets(grid, [a, b], x))]
                for s, other in ((a, b), (b, a)):
                    for d in bits(s.digits & ~(1 << x1 | 1 << x2)):
                        elims += [(c, d + 1) for c in bits(grid.where[d] & s.seeing[d] & ~other.cells)]
                if elims and tuple(sorted(set(elims))) not in seen:
                    seen.add(tuple(sorted(set(elims))))
                    yield _als_step(
                        grid,
                        "ALS-XZ",
                        f"the sets {_describe(grid, a)} and {_describe(grid, b)} share the restricted "
                        f"commons {digit_char(x1 + 1)} and {digit_char(x2 + 1)}, so both are locked",
                        [a, b],
                        Chain(
                            (_als_node(a, x1), _als_node(a, x2), _als_node(b, x2), _als_node(b, x1)),
                            ("strong", "weak", "strong", "weak"),
                            loop=True,
                        ),
                        sorted(set(elims)),
                    )


#: The longest ALS-XY-Chain looked for, in sets.
MAX_CHAIN_SETS = 8


def iter_als_xy_wing(grid: CandidateGrid) -> Iterator[Step]:
    """Every ALS-XY-Wing: A and B each restricted to a pivot C by different digits. The sets may
    overlap (A and B freely; each with C outside their restricted common): C cannot lose both
    digits, so A or B is locked whatever cells they share. One step per set of eliminations, the
    first met (:func:`_xy_wing_hits_py` has the order; the C core's ``als_sets`` walks it where the
    grid fits its tables)."""
    sets, links = restricted_links(grid, MAX_CELLS_ALL, overlap=True)
    found = _c_als_sets(grid, MAX_CELLS_ALL, XY_WINGS)
    hits: Iterable[WingHit] = _xy_wing_hits_py(grid, sets, links) if found is None else found
    for k, i, j, x, y, elims in hits:
        a, c, b = sets[i], sets[k], sets[j]
        yield _als_step(
            grid,
            "ALS-XY-Wing",
            f"{_describe(grid, c)} cannot lose both {digit_char(x + 1)} to "
            f"{_describe(grid, a)} and {digit_char(y + 1)} to {_describe(grid, b)}, "
            "so one of those two is locked",
            [a, c, b],
            als_chain([a, c, b], [x, y], elims[0][1] - 1),
            elims,
        )


#: An ALS-XY-Wing met: pivot, wing, wing, x, y, eliminations (cell, digit).
WingHit = tuple[int, int, int, int, int, list[tuple[int, int]]]


def _xy_wing_hits_py(
    grid: CandidateGrid, sets: tuple[Als, ...], links: tuple[dict[int, int], ...]
) -> Iterator[WingHit]:
    """(pivot C, wing A, wing B, x, y, eliminations) of the first ALS-XY-Wing met with each set of
    eliminations: the pivots in set order, each pivot's partners by set index, pairs of them in
    that order, x and y rising; the eliminations by digit, then cell (one unit of work a pivot's
    partner)."""
    seen: set[tuple[tuple[int, int], ...]] = set()
    # per set, the cells that see all its places of each of its digits, digit by digit in
    # fields a grid wide: a pair of wings eliminates nothing unless theirs meet, whatever the
    # pivot, and most pairs are passed over with that one test
    width = len(grid.cands)
    reach = [sum((grid.where[z] & s.seeing[z]) << z * width for z in bits(s.digits)) for s in sets]
    field = (1 << width) - 1
    every_field = sum(1 << z * width for z in range(grid.size))  # a cell set times this: in each field
    for k, c in enumerate(sets):
        partners = sorted(links[k].items())
        outside = ~(c.cells * every_field)  # the pivot's cells lose nothing
        for p, (i, rcc_a) in enumerate(partners):
            checkpoint()
            a = sets[i]
            for j, rcc_b in partners[p + 1 :]:
                both = reach[i] & reach[j] & outside
                if not both:
                    continue
                b = sets[j]
                common = 0  # the digits with cells to lose (both sets hold them)
                for z in bits(a.digits & b.digits):
                    if both >> z * width & field:
                        common |= 1 << z
                for x in bits(rcc_a):
                    for y in bits(rcc_b & ~(1 << x)):
                        zs = common & ~(1 << x) & ~(1 << y)
                        if not zs:
                            continue
                        elims = [(cell, z + 1) for z in bits(zs) for cell in bits(both >> z * width & field)]
                        key = tuple(sorted(elims))
                        if key not in seen:
                            seen.add(key)
                            yield k, i, j, x, y, elims


def find_als_xy_chain(grid: CandidateGrid) -> Step | None:
    return next(iter_als_xy_chain(grid), None)


def iter_als_xy_chain(grid: CandidateGrid) -> Iterator[Step]:
    """Every ALS-XY-Chain: sets A1 … Ak (k ≥ 3, each once), each restricted to the next by a digit
    other than the one it was entered by; a digit Z of A1 and Ak other than the end links is in one
    of them (A1 lacks its exit digit and is locked, or it holds it, so A2 lacks it and is locked and
    holds its own exit digit, and so on to Ak). Sets may share cells, but never a place of the
    restricted common that links them. Breadth first from each A1 and exit digit, so the chain kept
    for each (set, entry digit) is a shortest one."""
    sets, links = restricted_links(grid, MAX_CELLS_ALL, overlap=True)
    seen: set[tuple[tuple[int, int], ...]] = set()
    for first, a in enumerate(sets):
        checkpoint()
        exits = 0
        for rcc in links[first].values():
            exits |= rcc
        for x1 in bits(exits):
            # the cells that could lose each Z of A1: none, no chain from A1 by x1 eliminates
            reach = [
                grid.where[z] & a.seeing[z] if z != x1 and a.digits >> z & 1 else 0 for z in range(grid.size)
            ]
            if not any(reach):
                continue
            yield from _chains_from(grid, sets, links, first, x1, reach, seen)


def _chains_from(
    grid: CandidateGrid,
    sets: tuple[Als, ...],
    links: tuple[dict[int, int], ...],
    first: int,
    x1: int,
    reach: list[int],
    seen: set[tuple[tuple[int, int], ...]],
) -> Iterator[Step]:
    """The chains from set ``first`` leaving by ``x1`` (``reach``: per digit, the cells that see
    every place of it in the first set)."""
    parent: dict[tuple[int, int], tuple[int, int] | None] = {(first, -1): None}
    frontier = [(first, -1)]
    depth = 1
    while frontier and depth < MAX_CHAIN_SETS:
        depth += 1
        grown = []
        checkpoint(len(frontier))
        for state in frontier:
            j, x = state
            for k, rcc in links[j].items():
                digits = (rcc & 1 << x1) if x < 0 else (rcc & ~(1 << x))
                for y in bits(digits):
                    new = (k, y)
                    if k == first or new in parent:
                        continue
                    parent[new] = state
                    grown.append(new)
                    if depth < 3:
                        continue
                    last = sets[k]
                    zs = last.digits & ~(1 << y)
                    if any(reach[z] & last.seeing[z] for z in bits(zs)):
                        step = _xy_chain_step(grid, sets, parent, new, seen)
                        if step is not None:
                            yield step
        frontier = grown


def _xy_chain_step(
    grid: CandidateGrid,
    sets: tuple[Als, ...],
    parent: dict[tuple[int, int], tuple[int, int] | None],
    end: tuple[int, int],
    seen: set[tuple[tuple[int, int], ...]],
) -> Step | None:
    path: list[tuple[int, int]] = []
    state: tuple[int, int] | None = end
    while state is not None:
        path.append(state)
        state = parent[state]
    path.reverse()
    if len({i for i, _ in path}) < len(path):
        return None
    chain_sets = [sets[i] for i, _ in path]
    rccs = [x for _, x in path[1:]]
    used = 0
    for s in chain_sets:
        used |= s.cells
    a, last = chain_sets[0], chain_sets[-1]
    zs = a.digits & last.digits & ~(1 << rccs[0]) & ~(1 << rccs[-1])
    # cells of the chain's sets keep their candidates (as HoDoKu's listing does)
    elims = [(c, z + 1) for z in bits(zs) for c in bits(_targets(grid, [a, last], z) & ~used)]
    key = tuple(sorted(elims))
    if not elims or key in seen:
        return None
    seen.add(key)
    return _als_step(
        grid,
        "ALS-XY-Chain",
        "each set of the chain locks the next or is locked itself, so the first or the last set is locked",
        chain_sets,
        als_chain(chain_sets, rccs, elims[0][1] - 1),
        elims,
    )


def iter_death_blossom(grid: CandidateGrid) -> Iterator[Step]:
    """Every Death Blossom: a stem cell and a petal per stem digit, for each digit Z in all petals."""
    sets = almost_locked_sets(grid, MAX_CELLS_ALL)
    peer_bits = grid.t.peer_bits
    seen: set[tuple[tuple[int, int], ...]] = set()
    for stem in bits(grid.empty):
        stem_digits = grid.cands[stem]
        if not 2 <= stem_digits.bit_count() <= 3:
            continue
        petals = [
            [
                s
                for s in sets
                if not s.cells >> stem & 1 and s.holding[d] and not s.holding[d] & ~peer_bits[stem]
            ]
            for d in bits(stem_digits)
        ]
        if not all(petals):
            continue
        for z in range(grid.size):
            checkpoint()
            if stem_digits >> z & 1:
                continue
            options = [[s for s in ps if s.digits >> z & 1] for ps in petals]
            if not all(options):
                continue
            for chosen, targets in _blossoms(options, z, [], grid.where[z] & ~(1 << stem)):
                elims = [(c, z + 1) for c in bits(targets)]
                key = tuple(elims)
                if key in seen:
                    continue
                seen.add(key)
                yield _blossom_step(grid, stem, chosen, z, targets)


def _blossoms(
    options: list[list[Als]], z: int, chosen: list[Als], targets: int
) -> Iterator[tuple[list[Als], int]]:
    """Every choice of one petal per stem digit leaving cells that see every ``z`` of them.

    Petals may share cells: whichever digit the stem takes locks that digit's petal, whatever the
    other petals hold.
    """
    if len(chosen) == len(options):
        yield list(chosen), targets
        return
    checkpoint()
    for s in options[len(chosen)]:
        narrowed = targets & s.seeing[z]
        if not narrowed:
            continue
        chosen.append(s)
        yield from _blossoms(options, z, chosen, narrowed)
        chosen.pop()


def _blossom_step(grid: CandidateGrid, stem: int, petals: Sequence[Als], z: int, targets: int) -> Step:
    """A Death Blossom step; its structure is a net with one branch per stem digit: the stem takes
    the digit, its petal's places of it go, and the petal, locked, holds ``z``, so the targets lose
    it. The explanation reads each petal as ``(d)stem-(d)petal=(z)petal``."""
    stem_digits = list(bits(grid.cands[stem]))
    branches = []
    petal_texts = []
    cells = 1 << stem
    for d, petal in zip(stem_digits, petals, strict=True):
        cells |= petal.cells
        lines = [Implication(stem, d + 1, True)]
        lines += [
            Implication(c, d + 1, False, (0,), f"sees {grid.name(stem)}") for c in bits(petal.holding[d])
        ]
        locked = (
            f"{_describe(grid, petal)} is locked without {digit_char(d + 1)}, so it holds {digit_char(z + 1)}"
        )
        because = tuple(range(1, len(lines)))
        lines += [Implication(c, z + 1, False, because, locked) for c in bits(targets)]
        branches.append(Branch(tuple(lines)))
        petal_texts.append(
            Chain(
                (Node((stem,), (d + 1,)), _als_node(petal, d), _als_node(petal, z)), ("weak", "strong")
            ).text(grid.size)
        )
    return make_step(
        grid,
        "Death Blossom",
        f"whichever of {digit_list(d + 1 for d in stem_digits)} {grid.name(stem)} takes locks the set "
        f"of that digit, and each holds {digit_char(z + 1)}: {'; '.join(petal_texts)}",
        structure=Net(tuple(branches)),
        eliminations=[(c, z + 1) for c in bits(targets)],
        cells=list(bits(cells)),
        digits=[d + 1 for d in stem_digits] + [z + 1],
        length=2 * cells.bit_count(),
    )
