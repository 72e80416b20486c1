"""Sudoku Explainer's forms of forcing chains, checked against independent reasoning.

- A Nishio contradiction follows one digit alone, so the candidate it removes lies in no template
  of that digit (no complete placement of the digit in every house).
- A cell or house forcing chain over direct links concludes what the forcing chains that follow
  every single (``settle``) also reach from each of its assumptions: direct links are a part of
  what singles follow.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import shudu
from shudu.formats import parse_puzzle
from shudu.logic.engine.grid import CandidateGrid, bits
from shudu.logic.engine.propagate import settle
from shudu.logic.rating import se_order
from shudu.logic.techniques import nishio, static_forcing, templates

from conftest import KNOWN, shared_lines


def _states(seed: int, count: int) -> Iterator[CandidateGrid]:
    """Random pencil marks on unique puzzles: the solution's candidates kept, others removed."""
    rng = random.Random(seed)
    texts = [k.text for k in KNOWN if k.count == 1 and len(k.text) == 81 and not k.options]
    texts += [line.split()[0] for line in shared_lines("magictour_top1465.txt", 12, step=113)]
    for _ in range(count):
        puzzle = parse_puzzle(rng.choice(texts))
        solution = shudu.solve(puzzle).solution
        assert solution is not None
        grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
        share = rng.choice((0.0, 0.1, 0.25))
        for cell in bits(grid.empty):
            for d in bits(grid.cands[cell]):
                if d + 1 != solution.cells[cell] and rng.random() < share:
                    grid.eliminate(cell, d + 1)
        yield grid


def test_nishio_removes_only_what_no_template_holds() -> None:
    checked = 0
    for grid in _states(11, 40):
        for step in nishio.iter_nishio(grid):
            ((cell, digit),) = step.eliminations
            found = templates.templates(grid, digit - 1)
            if found is None:
                continue
            assert all(not t >> cell & 1 for t in found), step.explanation
            checked += 1
    assert checked


def _options(grid: CandidateGrid, step: object) -> list[tuple[int, int]]:
    cells, digits, houses = step.cells, step.digits, step.houses  # type: ignore[attr-defined]
    if not houses:  # a cell: every candidate of it
        (cell,) = cells
        return [(cell, d) for d in digits]
    (digit,) = digits
    return [(cell, digit) for cell in cells]


def test_static_forcing_concludes_what_every_assumption_leads_to() -> None:
    checked = 0
    for grid in _states(12, 30):
        for step in static_forcing.iter_static_forcing(grid):
            options = _options(grid, step)
            # the options are all a cell's candidates, or all a digit's places in a house
            if step.houses:
                h = next(i for i, house in enumerate(grid.geometry.houses) if house.name == step.houses[0])
                assert sum(1 << c for c, _ in options) == grid.where[options[0][1] - 1] & grid.t.house_bits[h]
            else:
                assert sum(1 << (d - 1) for _, d in options) == grid.cands[options[0][0]]
            for cell, digit in options:
                got = settle(grid.copy(), start=(cell, digit))
                if got.grid is None:
                    continue  # this assumption breaks the grid: anything follows from it
                for c, d in step.placements:
                    assert got.grid.values[c] == d, step.explanation
                for c, d in step.eliminations:
                    assert not got.grid.cands[c] >> (d - 1) & 1 and got.grid.values[c] != d, step.explanation
            checked += 1
    assert checked


def test_the_path_tries_them_where_sudoku_explainer_rates_them() -> None:
    order = [(finder.name, finder.se) for finder in se_order(uniqueness=True)]
    names = [name for name, _ in order]
    assert ("Nishio Forcing Chain", 7.5) in order
    assert ("Cell Forcing Chain", 8.0) in order
    assert ("Forcing Chain", 8.5) in order
    assert (
        names.index("Nishio Forcing Chain") < names.index("Cell Forcing Chain") < names.index("Forcing Chain")
    )
