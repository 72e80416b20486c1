"""Random candidate states of real puzzles, for the tests that hold the logic engine's C parts
against their Python specifications (test_settle_core, test_forcing_core, test_fish_als_core,
test_chain_core)."""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator

import pytest

from shudu import parse_puzzle, solve
from shudu.geometry import Geometry
from shudu.logic.engine import propagate
from shudu.logic.engine.grid import CandidateGrid

from conftest import KNOWN, shared_lines


def random_state(
    geometry: Geometry, values: list[int], solution: list[int], rng: random.Random
) -> CandidateGrid:
    """A random candidate state: the solution's candidates kept (except, sometimes, one, for a
    contradiction), others removed at random, a few solution digits placed."""
    base = CandidateGrid.from_values(geometry, values)
    keep = rng.choice((0.5, 0.8, 0.95, 1.0, 1.0, 1.0))
    placed = list(values)
    fill = rng.choice((0.0, 0.0, 0.05, 0.15))
    for cell in range(geometry.ncells):
        if not placed[cell] and rng.random() < fill:
            placed[cell] = solution[cell]
    grid = CandidateGrid.from_values(geometry, placed)
    cands = list(grid.cands)
    for cell in range(geometry.ncells):
        if placed[cell]:
            continue
        own = 1 << (solution[cell] - 1)
        others = cands[cell] & ~own & base.cands[cell]
        kept = own
        for d in range(geometry.size):
            if others >> d & 1 and rng.random() < keep:
                kept |= 1 << d
        cands[cell] = kept
    if rng.random() < 0.15:  # break it: a solution digit goes
        cell = rng.choice([c for c in range(geometry.ncells) if not placed[c]] or [0])
        cands[cell] &= ~(1 << (solution[cell] - 1)) if not placed[cell] else cands[cell]
    return CandidateGrid(geometry, placed, cands)


def grid_fields(grid: CandidateGrid) -> tuple[object, ...]:
    return (list(grid.cands), list(grid.where), list(grid.values), list(grid.placed), grid.empty)


def _puzzles() -> list[tuple[str, Geometry, list[int], list[int]]]:
    """(id, geometry, givens, solution) of every unique puzzle of the known-answer file."""
    out = []
    for known in KNOWN:
        if known.count != 1 or not known.solution:
            continue
        puzzle = known.puzzle()
        givens = list(puzzle.cells)
        result = solve(puzzle).solution
        assert result is not None
        solution = list(result.cells)
        out.append((known.id, puzzle.geometry, givens, solution))
    return out


PUZZLES = _puzzles()


def hard_states(
    hard: int, hard_step: int, variants: int, variant_step: int, seed: int, each: int
) -> Iterator[CandidateGrid]:
    """``each`` random candidate states of hardest puzzles and of the X, windoku and pyramid
    sets (``hard`` and ``variants`` lines of them, every ``*_step``-th)."""
    cases = [(line, None) for line in shared_lines("forum_hardest_1106.txt", hard, step=hard_step)]
    for name in ("variant_x.txt", "variant_windoku.txt", "variant_pyramid.txt"):
        variant = name.removeprefix("variant_").removesuffix(".txt")
        cases += [(line, variant) for line in shared_lines(name, variants, step=variant_step)]
    rng = random.Random(seed)
    for line, variant in cases:
        puzzle = parse_puzzle(line.split()[0][:81], variant=variant)
        result = solve(puzzle).solution
        if result is None:
            continue
        for _ in range(each):
            yield random_state(puzzle.geometry, list(puzzle.cells), list(result.cells), rng)


def quiet_states(states: Iterator[CandidateGrid]) -> Iterator[CandidateGrid]:
    """Each state settled (no single left), where it does not break and cells are still open."""
    for grid in states:
        settled = propagate._settle_py(grid.copy())
        if settled.grid is not None and settled.grid.empty:
            yield settled.grid


def known_states(
    ident: str,
    geometry: Geometry,
    givens: list[int],
    solution: list[int],
    salt: int,
    count: int,
    *,
    settled: bool,
) -> list[CandidateGrid]:
    """``count`` random candidate states of a known-answer puzzle (and, with ``settled``, each
    settled); the test is skipped for a puzzle beyond the C tables, where both paths are the
    Python one."""
    if propagate._c_tables(geometry) is None:
        pytest.skip(f"{ident}: {geometry.ncells} cells, beyond the C tables")
    rng = random.Random(zlib.crc32(ident.encode()) + salt)
    states = [random_state(geometry, givens, solution, rng) for _ in range(count)]
    return [*states, *quiet_states(iter(states))] if settled else states
