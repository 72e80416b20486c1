"""How killer puzzles rate, and which steps their score is made of.

Run from the repository root::

    python benchmarks/rule_rating.py                 # 6 grids, 5 layouts each, and the corpus
    python benchmarks/rule_rating.py --grids 12 --layouts 7 --no-corpus

Two samples, each the same on every run (seeded), whatever the rating says:

- generated 9x9 killers with no givens: for each seed a random grid and its cage path grown as
  :mod:`shudu.generator.killer` grows it; the layouts rated are spread evenly along the part of
  the path where every cage has 2 to 5 cells (the first: the most cages, the easiest; the last:
  the fewest);
- the killer puzzles (a ``Cage`` rule, little killers and mixes included) of the core puzzles of
  ``../shared/data/iss_constraint_puzzles.tsv`` (skipped when the file is absent).

For each puzzle :func:`shudu.rate` (with its path) prints the level, score, SE rating, hardest
technique, the level of its hardest step alone (``step``: no raise for the score), and for each
rule technique on the path how many steps it took and its share of the score; then how many
puzzles have each level. A rating past ``--nodes`` (``node_limit``) prints ``timeout``.
"""

from __future__ import annotations

import argparse
import csv
import random
from collections import Counter
from pathlib import Path

import shudu
from shudu.errors import ShuduError
from shudu.generator.cages import cage_rules, geometry_of, grow, merges
from shudu.generator.grids import GridFailed, random_grid
from shudu.generator.killer import NODES_PER_CELL
from shudu.generator.symmetry import permutations
from shudu.generator.uniqueness import Checker, text_cells
from shudu.geometry import Geometry
from shudu.logic.catalog import CATALOG
from shudu.logic.table import rating_of
from shudu.notation import LEVELS
from shudu.puzzle import Puzzle
from shudu.variants import Variant

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "iss_constraint_puzzles.tsv"
#: The rule techniques: the catalog's rows from the first one on.
FIRST_RULE = next(i for i, t in enumerate(CATALOG) if t.name == "Restricted digits")
RULE_TECHNIQUES = tuple(t.name for t in CATALOG[FIRST_RULE:])
SHORT = {
    "Restricted digits": "restr",
    "Pair rule": "pair",
    "Thermometer": "thermo",
    "Sum combinations": "comb",
    "Cage forced digit": "forced",
    "45 rule": "45",
    "Rule contradiction": "contra",
    "Rule Forcing Chain": "rfc",
}


def generated(grids: int, layouts: int) -> list[tuple[str, Puzzle]]:
    """``layouts`` killers along the cage path of each of ``grids`` seeded grids."""
    base = Geometry(9, (3, 3), Variant())
    every = merges(9, permutations("none", 9))
    filler = Checker(base, 40 * base.ncells)
    out = []
    for seed in range(1, grids + 1):
        rng = random.Random(seed)
        try:
            text = random_grid(base, rng, filler, tries=10)
        except GridFailed:
            continue
        solution = text_cells(text)
        givens = b"." * 81
        path = grow(
            base,
            Variant(),
            solution,
            givens,
            every,
            rng,
            largest=5,
            node_limit=NODES_PER_CELL * 81,
            deadline=None,
        )
        steps = [k for k, smallest in enumerate(path.smallest) if smallest >= 2]
        if not steps:
            continue
        picks = sorted({steps[round(i * (len(steps) - 1) / max(1, layouts - 1))] for i in range(layouts)})
        for k in picks:
            rules = cage_rules(path.layout(k), solution)
            puzzle = Puzzle.trusted(text_cells(givens), geometry_of(base, Variant(), rules))
            where = f"{k - steps[0]}/{steps[-1] - steps[0]}"
            out.append((f"seed {seed} layout {where} ({len(rules)} cages)", puzzle))
    return out


def corpus() -> list[tuple[str, Puzzle]]:
    if not DATA.exists():
        print(f"({DATA} is absent: no corpus puzzles)")
        return []
    out = []
    with DATA.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if row["scope"] != "core" or "Cage" not in row["types"].split(","):
                continue
            try:
                puzzle = shudu.parse_puzzle(row["iss_input"])
            except ShuduError:
                continue
            if not puzzle.geometry.is_rect:  # the logic engine reads square grids only
                out.append((row["name"], puzzle))
    return out


def report(name: str, puzzle: Puzzle, nodes: int) -> tuple[str, str]:
    """The puzzle's level (or ``timeout``) and its line."""
    rating = shudu.rate(puzzle, steps=True, node_limit=nodes)
    if not rating.complete:
        return rating.status, f"{name[:40]:40} {rating.status}"
    count: Counter[str] = Counter()
    points: Counter[str] = Counter()
    step_level = 0
    for step in rating.steps:
        level, score, _ = rating_of(step)
        step_level = max(step_level, LEVELS.index(level))
        count[step.technique.name] += 1
        points[step.technique.name] += score
    total = max(1, sum(points.values()))
    shares = " ".join(
        f"{SHORT.get(t, t)} {count[t]}x {100 * points[t] / total:.0f}%" for t in RULE_TECHNIQUES if count[t]
    )
    return rating.level, (
        f"{name[:40]:40} {rating.level:8} {rating.score:6} {rating.se:4.1f} {LEVELS[step_level]:8} "
        f"{rating.hardest[:24]:24} {shares}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, default=6, help="seeded grids (default 6)")
    parser.add_argument("--layouts", type=int, default=5, help="layouts rated along each path (default 5)")
    parser.add_argument("--nodes", type=int, default=300_000, help="node_limit per rating")
    parser.add_argument("--no-corpus", action="store_true", help="generated killers only")
    args = parser.parse_args()
    sample = generated(args.grids, args.layouts) + ([] if args.no_corpus else corpus())
    print(f"{'puzzle':40} {'level':8} {'score':>6} {'SE':>4} {'step':8} {'hardest':24} rule steps")
    levels: Counter[str] = Counter()
    for name, puzzle in sample:
        level, line = report(name, puzzle, args.nodes)
        print(line, flush=True)
        levels[level] += 1
    seen = [f"{level} {levels[level]}" for level in (*LEVELS, "timeout") if levels[level]]
    print("levels: " + ", ".join(seen))


if __name__ == "__main__":
    main()
