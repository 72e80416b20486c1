"""Soundness on constraint puzzles: every step of every technique, on random candidate states of
random rule puzzles, holds in every solution that fits the state.

The puzzles are random 4x4, 6x6 and 9x9 grids (from the solver) with random rules, most of them
kept by the grid (killer cages, sums, arrows, thermometers, dots, X and V, whispers, lines …) and
a few givens. Every solution of each puzzle is listed by the constraint engine (a puzzle with
more than :data:`MOST_SOLUTIONS` is passed over). A state places some digits of one solution and
removes candidates at random; sometimes it removes that solution's digit too, so no solution may
fit it. A step is sound when each digit it places is the digit of that cell in every solution
that fits the state, and each candidate it removes is in none of them (where none fits, every
step is). The uniqueness techniques find nothing on a grid with rules, and are tried too.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

import shudu
from shudu.errors import VariantError
from shudu.logic.engine.budget import LogicTimeout, limits
from shudu.logic.engine.grid import CandidateGrid, bits
from shudu.logic.table import EVERY_FINDER, Finder
from shudu.puzzle import Puzzle
from shudu.rules import Rule, lookup
from shudu.variants import Variant
from test_rules import _Skip, random_rule

#: Puzzles with more solutions than this are passed over (each step is checked against all).
MOST_SOLUTIONS = 40
#: The work budget of one technique on one state, so that nets stay quick.
NODE_LIMIT = 3000
#: How many steps of one technique are checked on one state.
STEPS_PER_STATE = 30
#: The searches that cost seconds a state: tried on every eighth state only.
SLOW = {
    "Forcing Chain",
    "Forcing Net",
    "Nested Forcing Net",
    "Brute Force",
    "Kraken Fish",
    "ALS-XY-Chain",
    "Death Blossom",
    "Template Set",
    "Template Delete",
}
#: The rule kinds a puzzle draws from, the common ones more often.
COMMON = ["cage"] * 6 + ["thermo"] * 2 + ["white-dot", "black-dot", "x", "v", "arrow", "whisper"] * 2
RARE = [
    "sum",
    "little-killer",
    "slow-thermo",
    "greater",
    "renban",
    "palindrome",
    "between",
    "odd",
    "even",
    "candidates",
    "quad",
    "parity-line",
    "region-sum-line",
    "zipper",
    "modular",
    "sandwich",
    "x-sum",
    "skyscraper",
    "all-different",
    "double-arrow",
]


@dataclass(frozen=True)
class Source:
    puzzle: Puzzle
    solutions: tuple[tuple[int, ...], ...]


def _solution(n: int, rng: random.Random) -> tuple[int, ...]:
    """A random full grid of size n: random givens on a diagonal band, solved, relabelled."""
    solution = tuple(next(shudu.solutions(Puzzle([0] * (n * n)), algorithm="dlx")).cells)
    perm = list(range(1, n + 1))
    rng.shuffle(perm)
    grid = [perm[d - 1] for d in solution]
    # permute the rows within each band and the bands' columns alike, for variety
    box_rows = {4: 2, 6: 2, 9: 3}[n]
    rows = []
    for band in range(n // box_rows):
        inside = list(range(band * box_rows, (band + 1) * box_rows))
        rng.shuffle(inside)
        rows += inside
    return tuple(grid[r * n + c] for r in rows for c in range(n))


def _rules(n: int, grid: tuple[int, ...], rng: random.Random) -> list[Rule]:
    count = {4: 3, 6: 6, 9: 14}[n]
    rules = []
    for _ in range(count):
        kind = rng.choice(COMMON) if rng.random() < 0.8 else rng.choice(RARE)
        try:
            rule = random_rule(kind, n, grid, rng)
            lookup(kind).validate(rule, n)
        except (_Skip, VariantError, StopIteration):
            continue
        rules.append(rule)
    return rules


def random_source(n: int, rng: random.Random) -> Source | None:
    grid = _solution(n, rng)
    rules = _rules(n, grid, rng)
    if not rules:
        return None
    givens = {4: (0, 3), 6: (4, 12), 9: (18, 32)}[n]
    cells = [0] * (n * n)
    for c in rng.sample(range(n * n), rng.randint(*givens)):
        cells[c] = grid[c]
    try:
        puzzle = Puzzle(cells, variant=Variant().with_rules(tuple(rules), n))
    except VariantError:
        return None
    found = list(itertools.islice(shudu.solutions(puzzle, node_limit=20000), MOST_SOLUTIONS + 1))
    if not found or len(found) > MOST_SOLUTIONS:
        return None
    return Source(puzzle, tuple(tuple(g.cells) for g in found))


def random_state(source: Source, rng: random.Random) -> CandidateGrid:
    """A candidate state: some digits of one solution placed, candidates removed at random
    (that solution's own digit too, now and then)."""
    geo = source.puzzle.geometry
    grid = CandidateGrid.from_values(geo, source.puzzle.cells)
    solution = rng.choice(source.solutions)
    open_cells = list(bits(grid.empty))
    for cell in rng.sample(open_cells, min(len(open_cells), rng.choice((0, 0, 1, 3, 6, 12)))):
        if not grid.values[cell] and grid.has(cell, solution[cell]):
            grid.place(cell, solution[cell])
    density = rng.choice((0.0, 0.1, 0.25, 0.4, 0.6, 0.8))
    honest = rng.random() < 0.8
    for cell in bits(grid.empty):
        for d in bits(grid.cands[cell]):
            if (d + 1 != solution[cell] or not honest) and rng.random() < density:
                grid.eliminate(cell, d + 1)
    return grid


def fitting(source: Source, grid: CandidateGrid) -> list[tuple[int, ...]]:
    """The solutions that fit a state: its placed digits, and a candidate in every open cell."""
    return [
        sol
        for sol in source.solutions
        if all((grid.values[c] == sol[c]) if grid.values[c] else grid.has(c, sol[c]) for c in range(len(sol)))
    ]


def wrong_steps(finder: Finder, source: Source, grid: CandidateGrid) -> tuple[int, list[str]]:
    """(steps checked, the unsound ones described)."""
    fits = fitting(source, grid)
    checked, bad = 0, []
    try:
        with limits(node_limit=NODE_LIMIT):
            for n, step in enumerate(finder.iter_steps(grid.copy())):
                if n >= STEPS_PER_STATE:
                    break
                checked += 1
                wrong = [
                    f"{grid.name(c)}={d}" for c, d in step.placements if any(sol[c] != d for sol in fits)
                ]
                wrong += [
                    f"{grid.name(c)}<>{d}" for c, d in step.eliminations if any(sol[c] == d for sol in fits)
                ]
                if wrong:
                    rules = source.puzzle.geometry.variant.rules
                    bad.append(f"{step.explanation} [wrong: {', '.join(wrong)}] rules {rules}")
    except LogicTimeout:
        pass
    return checked, bad


def sources(seed: int, count: int) -> Iterator[Source]:
    rng = random.Random(seed)
    made = 0
    while made < count:
        n = rng.choice((4, 6, 6, 9))
        source = random_source(n, rng)
        if source is not None:
            made += 1
            yield source


def run(seed: int, puzzles: int, states: int) -> tuple[int, list[str]]:
    rng = random.Random(seed + 1)
    checked, failures = 0, []
    i = 0
    for source in sources(seed, puzzles):
        for _ in range(states):
            grid = random_state(source, rng)
            i += 1
            for finder in EVERY_FINDER:
                if finder.name in SLOW and i % 8:
                    continue
                count, bad = wrong_steps(finder, source, grid)
                checked += count
                failures += bad
    return checked, failures


def test_every_step_is_sound_on_random_rule_puzzles() -> None:
    checked, failures = run(seed=41, puzzles=6, states=5)
    assert not failures, "\n".join(failures[:5])
    assert checked >= 1000


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_every_step_is_sound_on_many_random_rule_puzzles() -> None:
    checked, failures = run(seed=4141, puzzles=45, states=8)
    print(f"{checked} steps checked, {len(failures)} unsound")
    assert not failures, "\n".join(failures[:5])
    assert checked >= 100_000
