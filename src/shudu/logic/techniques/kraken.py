"""Kraken fish: a finned fish whose fins need not see the target, each linked to it by a chain.

A finned fish on digit X (k base lines, k cover lines, fins: the base places outside the cover)
says: either some fin holds X, or the fish holds. When it holds, each cover line gets its X from a
base place inside it, and X goes from the cover lines' other cells.

- Type 1: X goes from a cover cell outside the base when assuming X in each fin removes it there
  too (by singles: the implication lines of a forcing chain). A cell that sees every fin is the
  plain finned fish's, left to it.
- Type 2: take one cover line; X is in one of its base places or in a fin. A candidate Y (another
  digit) that every one of those assumptions removes is false.

Each assumption is followed with naked and hidden singles only, so every implication is a chain
of strong and weak links; one that breaks the grid proves its branch at once. Basic fish (rows
against columns) of sizes 2 to 4 are searched, with at most :data:`MAX_FINS` fins.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from ...notation import digit_char
from ..catalog import FISH_NAMES
from ..engine.budget import checkpoint
from ..engine.chain_structure import Branch, Net
from ..engine.grid import CandidateGrid, CellSet, bits
from ..engine.implications import conclusion_branch, contradiction_branch
from ..engine.propagate import settle
from ..engine.step import Step, describe_outcome, make_step

#: At most this many fins (each needs its own chain to the target).
MAX_FINS = 4

Candidate = tuple[int, int]


class _Consequences:
    """Per candidate (cell, digit index), the candidates that assuming it removes by singles,
    as one cell set per digit; computed once per candidate, when first asked for."""

    def __init__(self, grid: CandidateGrid) -> None:
        self.grid = grid
        self.everything = [grid.where[d] for d in range(grid.size)]
        self._known: dict[tuple[int, int], list[CellSet]] = {}

    def removed(self, cell: int, d: int) -> list[CellSet]:
        key = (cell, d)
        got = self._known.get(key)
        if got is None:
            checkpoint()
            outcome = settle(self.grid.copy(), start=(cell, d + 1))
            after = outcome.grid
            if after is None:
                # the assumption breaks the grid: anything follows from it
                got = self.everything
            else:
                # a cell the assumption fills keeps its digit (placing clears its own planes)
                kept = list(after.where)
                for c in bits(self.grid.empty & ~after.empty):
                    kept[after.values[c] - 1] |= 1 << c
                got = [self.grid.where[e] & ~kept[e] for e in range(self.grid.size)]
            self._known[key] = got
        return got

    def common(self, cells: CellSet, d: int) -> list[CellSet]:
        """Per digit, the candidates removed whichever of ``cells`` holds digit index ``d``."""
        out = list(self.everything)
        for cell in bits(cells):
            gone = self.removed(cell, d)
            out = [a & b for a, b in zip(out, gone, strict=True)]
            if not any(out):
                break
        return out


def iter_kraken_fish(grid: CandidateGrid, sizes: Sequence[int] = (2, 3, 4)) -> Iterator[Step]:
    """Every Kraken fish (Type 1, then Type 2 for the same fish), smallest fish first."""
    t = grid.t
    peer_bits = t.peer_bits
    hb = t.house_bits
    links = _Consequences(grid)
    # a step is listed only when it removes something no earlier (smaller) one did
    seen = [0] * grid.size  # per digit, the cells some step listed already removes it from
    for k in sizes:
        for d in range(grid.size):
            where = grid.where[d]
            for base_pool, cover_pool in ((t.rows, t.columns), (t.columns, t.rows)):
                lines = [h for h in base_pool if where & hb[h]]
                for base in combinations(lines, k):
                    checkpoint()
                    base_cells = 0
                    for h in base:
                        base_cells |= where & hb[h]
                    touched = [h for h in cover_pool if base_cells & hb[h]]
                    if len(touched) <= k:
                        continue  # a plain fish (or less): nothing for fins to do
                    for cover in combinations(touched, k):
                        cover_cells = 0
                        for h in cover:
                            cover_cells |= hb[h]
                        fins = base_cells & ~cover_cells
                        if fins.bit_count() > MAX_FINS:
                            continue
                        yield from _steps(grid, links, d, base, cover, base_cells, fins, seen, peer_bits)


def _steps(
    grid: CandidateGrid,
    links: _Consequences,
    d: int,
    base: tuple[int, ...],
    cover: tuple[int, ...],
    base_cells: CellSet,
    fins: CellSet,
    seen: list[CellSet],
    peer_bits: Sequence[CellSet],
) -> Iterator[Step]:
    hb = grid.t.house_bits
    where = grid.where[d]
    cover_cells = 0
    for h in cover:
        cover_cells |= hb[h]
    from_fins = links.common(fins, d)
    # Type 1: cover cells outside the base, but not those every fin sees (the finned fish's own)
    plain = where
    for fin in bits(fins):
        plain &= peer_bits[fin]
    targets = where & cover_cells & ~base_cells & ~plain & from_fins[d]
    if targets & ~seen[d]:
        seen[d] |= targets
        elims = tuple((c, d + 1) for c in bits(targets))
        yield _step(grid, "Kraken Fish Type 1", d, base, cover, base_cells, fins, fins, elims, "")
    # Type 2: one cover line's base places and the fins; every one of them removes the candidate
    if not any(from_fins[e] for e in range(grid.size) if e != d):
        return
    for h in cover:
        inside = base_cells & hb[h]
        gone = [a & b for a, b in zip(from_fins, links.common(inside, d), strict=True)]
        gone[d] = 0
        if any(g & ~old for g, old in zip(gone, seen, strict=True)):
            for e, g in enumerate(gone):
                seen[e] |= g
            elims = tuple(sorted((c, e + 1) for e, g in enumerate(gone) for c in bits(g)))
            house = grid.geometry.houses[h].name
            yield _step(
                grid, "Kraken Fish Type 2", d, base, cover, base_cells, fins, fins | inside, elims, house
            )


def _step(
    grid: CandidateGrid,
    name: str,
    d: int,
    base: tuple[int, ...],
    cover: tuple[int, ...],
    base_cells: CellSet,
    fins: CellSet,
    starts: CellSet,
    elims: tuple[Candidate, ...],
    line: str,
) -> Step:
    houses = grid.geometry.houses
    digit = d + 1
    base_names = [houses[h].name for h in base]
    cover_names = [houses[h].name for h in cover]
    fish = (
        f"{FISH_NAMES[len(base)]} of {digit_char(digit)} in {', '.join(base_names)} "
        f"over {', '.join(cover_names)}"
    )
    several = fins & (fins - 1)
    fin_text = (
        f"one of the fins {grid.names(fins)}" if several else f"the fin {grid.name(fins.bit_length() - 1)}"
    )
    x = digit_char(digit)
    if line:
        reason = (
            f"{x} of {line} is at {grid.names(starts & ~fins)} unless {fin_text} holds it (the {fish}), "
            "and each of these removes the candidates"
        )
    else:
        reason = f"the {fish} holds unless {fin_text} holds {x}, and {x} in each fin removes it too"
    branches = tuple(_branch(grid, cell, digit, elims) for cell in bits(starts))
    net = Net(branches, outcome=describe_outcome(grid.size, [], elims))
    return make_step(
        grid,
        name,
        reason,
        structure=net,
        eliminations=elims,
        cells=list(bits(base_cells)),
        digits=sorted({digit, *(e for _, e in elims)}),
        houses=base_names + cover_names,
        length=sum(len(b.lines) for b in branches),
    )


def _branch(grid: CandidateGrid, cell: int, digit: int, elims: Sequence[Candidate]) -> Branch:
    """The implication lines from ``digit`` in ``cell`` to the eliminations (or to a broken grid)."""
    got = conclusion_branch(grid, (), cell, digit, [], list(elims))
    if got is None:
        got = contradiction_branch(grid, (), cell, digit)
    return got if got is not None else Branch(())


def find_kraken_fish(grid: CandidateGrid) -> Step | None:
    return next(iter_kraken_fish(grid), None)
