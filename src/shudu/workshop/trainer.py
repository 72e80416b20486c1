"""The trainer: boards on which one technique is the next step, each with that step as the
answer (docs/workshop.md).

Each board is brought forward from a real puzzle: a puzzle whose simplest-first path uses the
technique is generated (from the seed), its path is walked, and the board is the grid just
before the first round the technique takes, with every candidate the path has not yet
eliminated as a pencil mark. On that board no easier technique has a step (the path takes the
easiest first) and the technique has one.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import OptionError, check_count, check_seconds
from ..formats import to_json as puzzle_json
from ..generator import GeneratorTimeout, generate
from ..logic.engine.budget import LogicTimeout, limits
from ..logic.engine.grid import CandidateGrid, bits
from ..logic.engine.step import Step
from ..logic.naming import lookup
from ..logic.solver import rounds
from ..logic.table import techniques
from ..notation import LEVELS, digit_char
from ..puzzle import Puzzle

__all__ = ["Drill", "Training", "train", "trainable"]

#: How many puzzles are generated, at most, per drill asked for: each generated puzzle's path
#: uses the technique, so a miss is rare.
TRIES_PER_DRILL = 4

TrainStatus = Literal["found", "timeout"]


@dataclass(frozen=True)
class Drill:
    """One board and its answer: ``board`` (the JSON board form: the puzzle's givens, the digits
    placed since as ``entries``, the candidates left as ``pencil``, which :func:`shudu.hint` and
    :func:`shudu.find_steps` read back), ``step`` (the technique's step the path takes there),
    ``puzzle`` (the generated puzzle it comes from), its ``seed`` and ``solution``."""

    puzzle: Puzzle
    seed: int
    board: dict[str, Any]
    step: Step
    solution: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "technique": self.step.technique.name,
            "board": self.board,
            "answer": self.step.to_json(),
            "puzzle": self.puzzle.to_string(),
            "seed": self.seed,
        }


@dataclass(frozen=True)
class Training:
    """What :func:`train` found: ``status`` (``found``: every drill asked for; ``timeout``: the
    time ran out first, and ``drills`` holds those made), ``technique`` (its name), ``drills``,
    ``tried`` (the puzzles generated)."""

    technique: str
    status: TrainStatus
    drills: tuple[Drill, ...]
    tried: int

    def to_json(self) -> dict[str, Any]:
        return {
            "technique": self.technique,
            "status": self.status,
            "count": len(self.drills),
            "tried": self.tried,
            "drills": [d.to_json() for d in self.drills],
        }


def train(
    technique: str,
    count: int = 1,
    *,
    level: str | None = None,
    seed: int | None = None,
    timeout: float | None = None,
) -> Training:
    """``count`` boards on which ``technique`` (shudu's name, HoDoKu's name or code) is the next
    step of the simplest-first path and no easier technique applies, each from its own
    generated puzzle (of ``level`` when given, else any level that uses the technique).

    ``seed`` makes the boards reproducible. ``timeout`` bounds the call; rare techniques may
    need it: then the status is ``timeout`` with the boards made so far. Bad input raises a
    :class:`~shudu.errors.ShuduError`.
    """
    wanted = check_count(count, "count", minimum=1)
    seconds = check_seconds(timeout, "timeout")
    check_count(seed, "seed")
    assert wanted is not None
    name = training_technique(technique)
    if level is not None and level not in LEVELS:
        raise OptionError(
            f"level must be one of {', '.join(LEVELS)}, not {level!r}", option="level", value=level
        )
    deadline = None if seconds is None else time.monotonic() + seconds
    rng = random.Random(seed)
    drills: list[Drill] = []
    tried = 0
    while len(drills) < wanted:
        if tried >= wanted * TRIES_PER_DRILL + 10:
            break
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            return Training(name, "timeout", tuple(drills), tried)
        puzzle_seed = rng.randrange(2**32)
        tried += 1
        try:
            made = generate(level=level, technique=name, seed=puzzle_seed, timeout=left)
        except GeneratorTimeout:
            return Training(name, "timeout", tuple(drills), tried)
        try:
            with limits(None if deadline is None else max(0.0, deadline - time.monotonic()), None):
                found = first_board(made.puzzle, name)
        except LogicTimeout:
            return Training(name, "timeout", tuple(drills), tried)
        if found is not None:
            grid, step, solution = found
            drills.append(Drill(made.puzzle, puzzle_seed, board_json(made.puzzle, grid), step, solution))
    status: TrainStatus = "found" if len(drills) == wanted else "timeout"
    return Training(name, status, tuple(drills), tried)


def training_technique(text: str) -> str:
    """The name of the technique ``text`` names, when the logic engine has a finder for it."""
    found = lookup(text) if isinstance(text, str) else None
    if found is None:
        raise OptionError(f"no technique is called {text!r}", option="technique", value=text)
    name = found.technique.name
    if name not in {f.technique.name for f in techniques(uniqueness=True)}:
        raise OptionError(f"{name}: the logic engine has no finder for it", option="technique", value=text)
    return name


def trainable() -> tuple[tuple[str, str], ...]:
    """The techniques of classic puzzles a drill can train, easiest first, each with its level:
    those of the engine's table that HoDoKu names, but for brute force (no technique to learn)."""
    found: dict[str, str] = {}
    for finder in techniques(uniqueness=True):
        tech = finder.technique
        if tech.hodoku and tech.name != "Brute Force":
            found.setdefault(tech.name, tech.level)
    return tuple(found.items())


def first_board(puzzle: Puzzle, name: str) -> tuple[CandidateGrid, Step, tuple[int, ...]] | None:
    """The grid before the first round of the path of ``puzzle`` that takes technique ``name``,
    that round's first step and the solution the path ends in (None if the path never takes it
    or does not finish)."""
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
    path = rounds(grid, techniques(uniqueness=True))
    found: tuple[CandidateGrid, Step] | None = None
    while True:
        before = grid.copy() if found is None else None
        batch = next(path, None)
        if batch is None:
            break
        if before is not None and batch[0].technique.name == name:
            found = (before, batch[0])
    if found is None or grid.empty:
        return None
    return found[0], found[1], tuple(grid.values)


def board_json(puzzle: Puzzle, grid: CandidateGrid) -> dict[str, Any]:
    """The JSON board form of ``grid``: the givens, the digits placed since and the candidates
    left (``pencil``, one string per cell, empty for a placed one)."""
    entries = "".join(
        "." if g or not v else digit_char(v) for g, v in zip(puzzle.cells, grid.values, strict=True)
    )
    pencil = [
        "" if grid.values[c] else "".join(digit_char(d + 1) for d in bits(grid.cands[c]))
        for c in range(len(puzzle.cells))
    ]
    return {**puzzle_json(puzzle), "entries": entries, "pencil": pencil}
