"""Kraken fish: every step is sound, its fish is what it says, and each branch of its net holds.

Three independent checks on random pencil-mark states: the eliminations agree with the solution;
each eliminated candidate leaves the grid without any completion (a plain backtracking search over
the candidates, not the engine's propagation); and every branch of the step's net replays line by
line from the board (each placement a naked or hidden single, each removal caused by a placement),
ending at every elimination or at a broken cell or house.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice

import pytest

from shudu.logic.engine import budget
from shudu.logic.engine.chain_structure import Branch, Net
from shudu.logic.engine.grid import CandidateGrid, bits
from shudu.logic.engine.step import Step
from shudu.logic.table import EVERY_FINDER, LISTED_ONLY, TECHNIQUES
from shudu.logic.techniques import kraken
from test_soundness import states


def completion(grid: CandidateGrid) -> bool:
    """Whether the open cells can be filled from their candidates (plain backtracking)."""
    geo = grid.geometry
    cands = list(grid.cands)
    empty = [c for c in range(len(cands)) if not grid.values[c]]

    def fill(left: list[int]) -> bool:
        if not left:
            return True
        cell = min(left, key=lambda c: bin(cands[c]).count("1"))
        rest = [c for c in left if c != cell]
        for d in bits(cands[cell]):
            hit = [p for p in geo.peers[cell] if p in rest and cands[p] >> d & 1]
            if any(cands[p] == 1 << d for p in hit):
                continue
            for p in hit:
                cands[p] &= ~(1 << d)
            if fill(rest):
                return True
            for p in hit:
                cands[p] |= 1 << d
        return False

    return all(cands[c] for c in empty) and fill(empty)


def assert_eliminations_false(grid: CandidateGrid, step: Step, solution: Sequence[int]) -> None:
    """Each candidate ``step`` eliminates is not the solution's, and placing it leaves no
    completion of the grid."""
    for cell, d in step.eliminations:
        assert solution[cell] != d, step.explanation
        trial = grid.copy()
        trial.place(cell, d)
        assert not completion(trial), step.explanation


def _replays(grid: CandidateGrid, branch: Branch, elims: tuple[tuple[int, int], ...]) -> bool:
    """Whether ``branch`` follows from ``grid`` line by line and reaches every elimination (or a
    cell or house left empty)."""
    geo = grid.geometry
    cands = list(grid.cands)
    placed: dict[int, int] = {}
    for i, line in enumerate(branch.lines):
        bit = 1 << (line.digit - 1)
        if line.on:
            alone = cands[line.cell] == bit
            hidden = any(
                all(c == line.cell or not cands[c] & bit for c in house if not grid.values[c])
                for house in geo.house_cells
                if line.cell in house
            )
            if (i and not (alone or hidden)) or not cands[line.cell] & bit:
                return False
            placed[line.cell] = line.digit
            cands[line.cell] = bit
        else:
            cause = (
                any(p in placed and placed[p] == line.digit for p in geo.peers[line.cell])
                or placed.get(line.cell, line.digit) != line.digit
            )
            if not cause:
                return False
            cands[line.cell] &= ~bit
    if branch.contradiction:
        open_cells = [c for c in range(len(cands)) if not grid.values[c]]
        if any(not cands[c] for c in open_cells):
            return True
        for house in geo.house_cells:
            for d in range(grid.size):
                holders = [c for c in house if grid.values[c] == d + 1 or cands[c] >> d & 1]
                if not holders:
                    return True
        return False
    return all(not cands[c] >> (d - 1) & 1 or placed.get(c, d) != d for c, d in elims)


def _house_index(grid: CandidateGrid, name: str) -> int:
    return next(i for i, h in enumerate(grid.geometry.houses) if h.name == name)


def check_step(grid: CandidateGrid, step: Step) -> None:
    assert step.technique.name == "Kraken Fish"
    assert step.name in ("Kraken Fish Type 1", "Kraken Fish Type 2")
    net = step.structure
    assert isinstance(net, Net)
    digit = net.branches[0].lines[0].digit
    houses = [_house_index(grid, name) for name in step.houses]
    k = len(houses) // 2
    base, cover = houses[:k], houses[k:]
    hb = grid.t.house_bits
    where = grid.where[digit - 1]
    base_cells = cover_cells = 0
    for h in base:
        base_cells |= where & hb[h]
    for h in cover:
        cover_cells |= hb[h]
    fins = base_cells & ~cover_cells
    starts = {branch.lines[0].cell for branch in net.branches}
    assert all(b.lines[0].on and b.lines[0].digit == digit for b in net.branches)
    assert fins and set(bits(fins)) <= starts
    if step.name.endswith("1"):
        assert starts == set(bits(fins))
        for cell, d in step.eliminations:
            assert d == digit and cover_cells >> cell & 1 and not base_cells >> cell & 1
    else:
        inside = starts - set(bits(fins))
        assert any(inside == set(bits(base_cells & hb[h])) for h in cover)
        assert all(d != digit for _, d in step.eliminations)
    for branch in net.branches:
        assert _replays(grid, branch, step.eliminations), branch.text(grid.size)


def test_kraken_steps_are_sound_and_their_nets_hold() -> None:
    found = checked = 0
    for i, (source, grid) in enumerate(states(seed=31)):
        if i % 5:
            continue
        checked += 1
        try:
            with budget.limits(node_limit=20000):
                steps = list(islice(kraken.iter_kraken_fish(grid), 12))
        except budget.LogicTimeout:
            continue
        for step in steps:
            found += 1
            assert_eliminations_false(grid, step, source.solution)
            check_step(grid, step)
    assert checked and found >= 10


def test_a_finned_fish_elimination_is_no_kraken_step() -> None:
    """Cells that see every fin belong to the plain finned fish, not to a Kraken step."""
    for i, (_, grid) in enumerate(states(seed=5)):
        if i % 10:
            continue
        for step in islice(kraken.iter_kraken_fish(grid), 12):
            if step.name.endswith("1"):
                fins = [b.lines[0].cell for b in step.structure.branches]  # type: ignore[union-attr]
                for cell, _ in step.eliminations:
                    assert not all(f in grid.geometry.peers[cell] for f in fins)


def test_kraken_fish_is_listed_but_not_on_the_solving_path() -> None:
    names = [f.name for f in LISTED_ONLY]
    assert "Kraken Fish" in names and "Kraken Fish" in [f.name for f in EVERY_FINDER]
    assert "Kraken Fish" not in [f.name for f in TECHNIQUES]
    finder = next(f for f in LISTED_ONLY if f.name == "Kraken Fish")
    assert finder.technique.codes_of("Kraken Fish Type 1") == ("0371",)
    assert finder.technique.codes_of("Kraken Fish Type 2") == ("0372",)


def test_the_search_stops_at_its_node_limit() -> None:
    _, grid = next(iter(states(seed=31)))
    with pytest.raises(budget.LogicTimeout), budget.limits(node_limit=3):
        list(kraken.iter_kraken_fish(grid))
