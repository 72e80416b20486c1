"""Soundness: every step of every technique, on random pencil-mark states, agrees with the solution.

A hint runs on the player's board, not only on the states a simplest-first path walks through. So
the states here are built as a player's pencil marks would be: start from a real puzzle's candidates
(or a state of the known-answer fixture), perhaps place some correct digits as entries, keep the
solution's digit in every open cell and remove other candidates at random, at varying density. On
each state every technique lists all its steps, and each must place only the solution's digits and
never remove one. Uniqueness techniques run only on puzzles proven to have one solution.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from shudu import solve
from shudu.formats import parse_puzzle
from shudu.logic.engine.budget import LogicTimeout, limits
from shudu.logic.engine.grid import CandidateGrid, bits
from shudu.logic.table import EVERY_FINDER, LISTED_ONLY, Finder
from shudu.puzzle import Puzzle

FIXTURE = json.loads((Path(__file__).parent / "data" / "logic_techniques.json").read_text())
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"

#: How many random states each technique is tried on, and how many steps of each are checked.
STATES = 300
STEPS_PER_STATE = 40
#: The work budget of one technique on one state (checkpoints), so nets stay quick.
NODE_LIMIT = 4000
#: Techniques too slow to list exhaustively on every state: tried on every fourth one.
SLOW = {"Forcing Chain", "Forcing Net", "Nested Forcing Net", "Brute Force"}


@dataclass(frozen=True)
class Source:
    """A puzzle with its one solution, and a state (values, candidate masks) to start from."""

    puzzle: Puzzle
    solution: tuple[int, ...]
    values: tuple[int, ...]
    cands: tuple[int, ...]
    unique: bool


def _source(text: str, values: str | None = None, candidates: list[str] | None = None) -> Source:
    puzzle = parse_puzzle(text)
    result = solve(puzzle)
    assert result.solution is not None
    solution = result.solution.cells
    geo = puzzle.geometry
    if values is None:
        grid = CandidateGrid.from_values(geo, puzzle.cells)
        vals, cands = tuple(grid.values), tuple(grid.cands)
    else:
        vals = tuple(0 if ch == "." else int(ch) for ch in values)
        assert candidates is not None
        cands = tuple(sum(1 << (int(ch) - 1) for ch in c) for c in candidates)
    return Source(puzzle, tuple(solution), vals, cands, result.status == "unique")


def _sources() -> list[Source]:
    out = [_source(c["puzzle"], c["values"], c["candidates"]) for c in FIXTURE]
    out += [_source(c["puzzle"]) for c in FIXTURE[::5]]
    hardest = SHARED / "magictour_top1465.txt"
    if hardest.exists():
        lines = [line.strip() for line in hardest.read_text().splitlines() if len(line.strip()) >= 81]
        out += [_source(line[:81]) for line in lines[:: max(1, len(lines) // 12)][:12]]
    # Two puzzles with several solutions: only techniques that need no uniqueness may run there.
    out.append(_source("." * 30 + FIXTURE[0]["solution"][30:60] + "." * 21))
    return out


def random_state(source: Source, rng: random.Random) -> CandidateGrid:
    """A pencil-mark state of ``source``: correct entries maybe, random candidates removed."""
    geo = source.puzzle.geometry
    grid = CandidateGrid(geo, source.values, source.cands)
    solution = source.solution
    open_cells = list(bits(grid.empty))
    for cell in rng.sample(open_cells, min(len(open_cells), rng.choice((0, 0, 2, 6, 12, 25, 40)))):
        if not grid.values[cell]:
            grid.place(cell, solution[cell])
    density = rng.choice((0.0, 0.1, 0.25, 0.4, 0.6, 0.8, 0.95))
    for cell in bits(grid.empty):
        for d in bits(grid.cands[cell]):
            if d + 1 != solution[cell] and rng.random() < density:
                grid.eliminate(cell, d + 1)
    return grid


def states(seed: int) -> Iterator[tuple[Source, CandidateGrid]]:
    rng = random.Random(seed)
    sources = SOURCES
    for _ in range(STATES):
        source = rng.choice(sources)
        yield source, random_state(source, rng)


SOURCES = _sources()


def wrong_steps(technique: Finder, source: Source, grid: CandidateGrid) -> list[str]:
    """The steps of ``technique`` on ``grid`` that contradict the solution, described."""
    bad = []
    solution = source.solution
    try:
        with limits(node_limit=NODE_LIMIT):
            for n, step in enumerate(technique.iter_steps(grid.copy())):
                if n >= STEPS_PER_STATE:
                    break
                wrong = [f"{grid.name(c)}={d}" for c, d in step.placements if solution[c] != d]
                wrong += [f"{grid.name(c)}<>{d}" for c, d in step.eliminations if solution[c] == d]
                if wrong:
                    bad.append(f"{step.explanation} [wrong: {', '.join(wrong)}] on {library_board(grid)}")
    except LogicTimeout:
        pass
    return bad


def library_board(grid: CandidateGrid) -> str:
    """The state as HoDoKu's library writes a board: ``values:deleted candidates``."""
    full = CandidateGrid.from_values(grid.geometry, grid.values)
    values = "".join(str(v) if v else "." for v in grid.values)
    n = grid.size
    deleted = [
        f"{d + 1}{cell // n + 1}{cell % n + 1}"
        for cell in bits(grid.empty)
        for d in bits(full.cands[cell] & ~grid.cands[cell])
    ]
    return f"{values}:{' '.join(deleted)}"


#: Finders whose check takes most of a minute on the pure-Python core (the other fish of their
#: families run on both).
SLOW_ON_PYTHON = {"Finned Franken Swordfish", "Finned Mutant Jellyfish"}


@pytest.mark.parametrize(
    "technique",
    [pytest.param(t, marks=pytest.mark.c_speed) if t.name in SLOW_ON_PYTHON else t for t in EVERY_FINDER],
    ids=lambda t: t.name,
)
def test_every_step_is_sound_on_random_pencil_marks(technique: Finder) -> None:
    failures: list[str] = []
    checked = 0
    for i, (source, grid) in enumerate(states(seed=2024)):
        if technique.uniqueness and not source.unique:
            continue
        if technique.name in SLOW and i % 4:
            continue
        if technique in LISTED_ONLY and i % 6:
            # the searches only listed (big fish, ALS chains) cost up to a second a board
            continue
        checked += 1
        failures += wrong_steps(technique, source, grid)
    assert checked
    assert not failures, "\n".join(failures[:5])


def test_random_states_keep_the_solution_and_vary() -> None:
    """The generator itself: every state holds the solution, and states differ in density."""
    counts = set()
    for source, grid in states(seed=7):
        for cell in bits(grid.empty):
            assert grid.has(cell, source.solution[cell])
        for cell, value in enumerate(grid.values):
            assert value in (0, source.solution[cell])
        counts.add((source.puzzle.to_string(), sum(m.bit_count() for m in grid.cands)))
    assert len(counts) > STATES // 2  # (puzzle, candidates left): a puzzle's states differ too
