"""Backtracking (papers 2 and 3): cells in reading order, digits ascending, givens fixed.

The plainest complete search: walk the empty cells in reading order; at each, place the
smallest digit that no peer holds; when a cell has no digit left, step back to the previous
cell and try its next digit. Reaching past the last cell is a solution; stepping back before
the first cell means every possibility has been tried — "no solution" is an answer, not an error.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..puzzle import Puzzle
from .base import UNLIMITED, Budget, Solver, Stats


class Backtrack(Solver):
    name = "backtrack"
    description = "backtracking over the empty cells in reading order, digits ascending (papers 2, 3)"

    def solutions(
        self, puzzle: Puzzle, *, budget: Budget = UNLIMITED, stats: Stats | None = None
    ) -> Iterator[tuple[int, ...]]:
        stats = stats if stats is not None else Stats()
        geo = puzzle.geometry
        cells = list(puzzle.cells)
        cell_houses, links = geo.cell_houses, geo.links
        # used[h]: bit d set when digit d is in house h
        used = [0] * len(geo.houses)
        for h, house in enumerate(geo.house_cells):
            for cell in house:
                used[h] |= 1 << cells[cell]
        every = (1 << (geo.size + 1)) - 2
        empties = [cell for cell, digit in enumerate(cells) if not digit]
        placed = [0] * len(empties)  # the digit at empties[k], 0 while none
        branched = [False] * len(empties)  # whether other digits were open when it was placed
        open_branches = 0
        next_check = budget.check(stats.nodes)
        k = 0
        while k >= 0:
            if k == len(empties):
                yield tuple(cells)
                k -= 1
                continue
            cell = empties[k]
            houses = cell_houses[cell]
            digit = placed[k]
            if digit:  # take back the digit placed here, to try the next one
                for h in houses:
                    used[h] ^= 1 << digit
                cells[cell] = 0
                if branched[k]:
                    open_branches -= 1
            taken = 0
            for h in houses:
                taken |= used[h]
            for other in links[cell]:
                taken |= 1 << cells[other]
            free = every & ~taken & ~((2 << digit) - 1)  # digits above the last one tried
            if not free:
                placed[k] = 0
                k -= 1  # step back a cell
                continue
            digit = (free & -free).bit_length() - 1
            stats.nodes += 1
            if stats.nodes >= next_check:
                next_check = budget.check(stats.nodes)
            branched[k] = free != 1 << digit
            if branched[k]:
                stats.guesses += 1
                open_branches += 1
            elif not open_branches:
                stats.settled += 1
            placed[k] = digit
            cells[cell] = digit
            for h in houses:
                used[h] |= 1 << digit
            k += 1
