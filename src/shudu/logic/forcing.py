"""Forcing chains and nets: the last resort that makes every valid puzzle solvable step by step.

Each candidate is assumed true in turn and the consequences followed (singles only for a forcing
chain, singles plus the basic techniques for a forcing net). An assumption that breaks the grid is
false. Where every candidate of a cell, or every place of a digit in a house, leads to the same
placement or elimination, that result holds. When even nets find nothing, a trial by search settles
one cell ("Brute Force"), so the path always completes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..puzzle import digit_char
from .grid import CandidateGrid, bits
from .step import Step, make_step

Finder = Callable[[CandidateGrid], Step | None]


@dataclass
class Outcome:
    """Where an assumption leads: the grid after it (None: a contradiction) and how many
    deductions it took to get there."""

    grid: CandidateGrid | None
    steps: int


def settle(grid: CandidateGrid, helpers: tuple[Finder, ...] = ()) -> Outcome:
    """Apply singles (and ``helpers``) to ``grid`` in place until nothing changes or it breaks."""
    n = grid.size
    hb = grid.t.house_bits
    count = 0
    while True:
        progress = False
        for cell in bits(grid.empty):
            mask = grid.cands[cell]
            if not mask:
                return Outcome(None, count)
            if not mask & (mask - 1):
                grid.place(cell, mask.bit_length())
                count += 1
                progress = True
        for h, hbits in enumerate(hb):
            if not hbits & grid.empty:
                continue
            placed = grid.placed[h]
            for d in range(n):
                if placed >> d & 1:
                    continue
                spots = grid.where[d] & hbits
                if not spots:
                    return Outcome(None, count)
                if not spots & (spots - 1):
                    grid.place(spots.bit_length() - 1, d + 1)
                    placed = grid.placed[h]
                    count += 1
                    progress = True
        if progress:
            continue
        for find in helpers:
            step = find(grid)
            if step:
                grid.apply(step)
                count += 1
                progress = True
                break
        if not progress:
            return Outcome(grid, count)


def _assume(grid: CandidateGrid, cell: int, digit: int, helpers: tuple[Finder, ...]) -> Outcome:
    trial = grid.copy()
    trial.place(cell, digit)
    return settle(trial, helpers)


def find_forcing_chain(grid: CandidateGrid) -> Step | None:
    """Forcing chains: follow singles from each candidate (contradictions, cell and house forcing)."""
    return _forcing(grid, (), "Forcing Chain")


def find_forcing_net(grid: CandidateGrid) -> Step | None:
    """Forcing nets: as forcing chains, but following the basic techniques too."""
    from .intersections import find_claiming, find_pointing
    from .subsets import find_hidden_pair, find_naked_pair

    helpers = (find_pointing, find_claiming, find_naked_pair, find_hidden_pair)
    return _forcing(grid, helpers, "Forcing Net")


def _forcing(grid: CandidateGrid, helpers: tuple[Finder, ...], name: str) -> Step | None:
    n = grid.size
    outcomes: dict[tuple[int, int], Outcome] = {}

    def outcome(cell: int, d: int) -> Outcome:
        key = (cell, d)
        if key not in outcomes:
            outcomes[key] = _assume(grid, cell, d + 1, helpers)
        return outcomes[key]

    open_cells = sorted(bits(grid.empty), key=lambda c: grid.cands[c].bit_count())
    # 1. an assumption that breaks the grid is false (the shortest such)
    best: tuple[int, int, int] | None = None
    for cell in open_cells:
        for d in bits(grid.cands[cell]):
            got = outcome(cell, d)
            if got.grid is None and (best is None or got.steps < best[0]):
                best = (got.steps, cell, d)
    if best:
        steps, cell, d = best
        return make_step(
            grid,
            f"{name} (contradiction)",
            f"if {grid.name(cell)} were {digit_char(d + 1)}, {steps} deductions later the grid breaks",
            eliminations=[(cell, d + 1)],
            cells=[cell],
            digits=[d + 1],
            length=steps + 1,
            kind=name + " Contradiction",
        )
    # 2. every candidate of a cell, or every place of a digit in a house, agrees on something
    choices: list[tuple[str, list[tuple[int, int]], list[str]]] = []
    for cell in open_cells:
        cands = [(cell, d) for d in bits(grid.cands[cell])]
        choices.append((f"whichever digit {grid.name(cell)} holds", cands, []))
    for h, hbits in enumerate(grid.t.house_bits):
        house = grid.geometry.houses[h].name
        for d in range(n):
            spots = grid.where[d] & hbits
            if spots.bit_count() >= 2:
                where = [(c, d) for c in bits(spots)]
                choices.append((f"wherever {digit_char(d + 1)} goes in {house}", where, [house]))
    found: tuple[int, Step] | None = None
    for label, options, houses in choices:
        results = [outcome(c, d) for c, d in options]
        grids = [r.grid for r in results if r.grid is not None]
        if not grids:
            continue
        cost = sum(r.steps for r in results)
        if found and cost >= found[0]:
            continue
        placements = []
        eliminations = []
        for cell in bits(grid.empty):
            value = grids[0].values[cell]
            if value and all(g.values[cell] == value for g in grids[1:]):
                placements.append((cell, value))
                continue
            gone = grid.cands[cell]
            for g in grids:
                gone &= ~(g.cands[cell] | (1 << (g.values[cell] - 1) if g.values[cell] else 0))
            eliminations += [(cell, e + 1) for e in bits(gone)]
        if placements or eliminations:
            involved = sorted({c for c, _ in options})
            step = make_step(
                grid,
                name,
                f"{label}, the consequences agree",
                placements=placements[:1],
                eliminations=[] if placements else eliminations,
                cells=involved,
                digits=sorted({d + 1 for _, d in options}),
                houses=houses,
                length=cost + len(options),
                kind=name + (" (cell)" if not houses else " (house)"),
            )
            found = (cost, step)
    return found[1] if found else None


def find_brute_force(grid: CandidateGrid) -> Step | None:
    """Settle the open cell with the fewest candidates by search: the last resort of all."""
    if not grid.empty:
        return None
    cell = min(bits(grid.empty), key=lambda c: (grid.cands[c].bit_count(), c))
    for d in bits(grid.cands[cell]):
        trial = grid.copy()
        trial.place(cell, d + 1)
        if search(trial) is not None:
            return make_step(
                grid,
                "Brute Force",
                f"trying the candidates of {grid.name(cell)} by search, "
                f"{digit_char(d + 1)} leads to a solution",
                placements=[(cell, d + 1)],
                cells=[cell],
                digits=[d + 1],
            )
    return None


def search(grid: CandidateGrid) -> list[int] | None:
    """A solution of ``grid`` that respects its candidates (singles, then guesses), or None."""
    if settle(grid).grid is None:
        return None
    if not grid.empty:
        return grid.values
    cell = min(bits(grid.empty), key=lambda c: grid.cands[c].bit_count())
    for d in bits(grid.cands[cell]):
        trial = grid.copy()
        trial.place(cell, d + 1)
        found = search(trial)
        if found is not None:
            return found
    return None
