"""A stop-gap for the puzzle bank until ``shudu.generate`` exists: a few puzzles shipped with shudu.

``puzzles.jsonl`` beside this module holds them, made once by :func:`main` with shudu's own
solvers: solve a grid seeded with a few random digits, relabel the digits at random, then
remove givens in random order while the puzzle keeps exactly one solution. The level is only
the clue count (easy keeps many, hard digs until no given can go). When the generator lands,
``shudu bank fill`` fills the bank from it and this module can go.
"""

from __future__ import annotations

import json
import random
import sys
from importlib import resources
from typing import Any

import shudu

from ..store import Store

#: Which puzzles ship: (size, variant) → how many per level.
SHIPPED = {
    (4, "standard"): 4,
    (6, "standard"): 4,
    (9, "standard"): 4,
    (9, "x"): 3,
    (9, "windoku"): 3,
    (9, "pyramid"): 3,
}
#: Dig until at most this share of the cells is given (hard: as far as it goes).
LEVELS = {"easy": 0.46, "medium": 0.38, "hard": 0.0}


def shipped() -> list[tuple[dict[str, Any], str]]:
    """The shipped puzzles as ``(puzzle JSON, level)`` pairs."""
    text = resources.files(__package__).joinpath("puzzles.jsonl").read_text(encoding="utf-8")
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [({k: v for k, v in r.items() if k != "level"}, r["level"]) for r in records]


def stock(store: Store) -> None:
    """Put the shipped puzzles in the bank, once per shudu version, while there is no generator."""
    if callable(getattr(shudu, "generate", None)):
        return
    if store.get_meta("shipped-puzzles") != shudu.__version__:
        store.add_to_bank(shipped(), source="shipped")
        store.set_meta("shipped-puzzles", shudu.__version__)


def random_solution(size: int, variant: str, rng: random.Random) -> shudu.Grid:
    """A full grid: the first solution of a few random givens, digits relabelled at random."""
    while True:
        cells = [0] * (size * size)
        for cell in rng.sample(range(size * size), size):
            cells[cell] = rng.randint(1, size)
        try:
            result = shudu.solve(shudu.Puzzle(cells, variant=variant), timeout=2.0)
        except shudu.ShuduError:  # the random givens clash
            continue
        if result.solution is not None:
            relabel = [0, *rng.sample(range(1, size + 1), size)]
            return shudu.Grid([relabel[d] for d in result.solution.cells], variant=variant)


def dig(solution: shudu.Grid, share: float, rng: random.Random) -> shudu.Puzzle:
    """Remove givens in random order while the puzzle stays unique, down to ``share`` of the cells."""
    cells = list(solution.cells)
    floor = int(share * len(cells))
    for cell in rng.sample(range(len(cells)), len(cells)):
        if sum(1 for d in cells if d) <= floor:
            break
        digit, cells[cell] = cells[cell], 0
        try:
            unique = shudu.count(shudu.Puzzle(cells, variant=solution.variant), limit=2, timeout=2.0) == 1
        except shudu.errors.SearchTimeout:
            unique = False
        if not unique:
            cells[cell] = digit
    return shudu.Puzzle(cells, variant=solution.variant)


def main(seed: int = 7) -> None:
    """Print the shipped puzzles as JSON lines (``python -m shudu.web.seed > puzzles.jsonl``)."""
    rng = random.Random(seed)
    for (size, variant), per_level in SHIPPED.items():
        for level, share in LEVELS.items():
            for _ in range(per_level):
                puzzle = dig(random_solution(size, variant, rng), share, rng)
                record = {"size": size, **puzzle.variant.to_json(), "givens": puzzle.to_string()}
                record["level"] = level
                print(json.dumps(record), flush=True)
                print(f"{size}x{size} {variant} {level}: {puzzle.clues} clues", file=sys.stderr)


if __name__ == "__main__":
    main()
