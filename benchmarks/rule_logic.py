"""The logic engine on constraint puzzles: the core puzzles of ISS's collection rated, each path
checked against the published solution, and the puzzles that need a search counted.

Run from the repository root::

    python benchmarks/rule_logic.py                  # every core puzzle, 20 s each
    python benchmarks/rule_logic.py --timeout 5 --only Killer
    PYTHONPATH=OLD/src python benchmarks/rule_logic.py    # another tree's shudu

For each core puzzle of ``../shared/data/iss_constraint_puzzles.tsv`` that shudu reads it prints
the status, level, SE rating and hardest technique of ``shudu.rate`` (with its path), the time
(wall clock and the process's CPU time, which a busy machine does not stretch),
whether the path ends in the published solution, and whether it needed the brute-force search
(else: whether a forcing chain or net); then the counts and the median time.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import time
from pathlib import Path

import shudu
from shudu.errors import ShuduError
from shudu.logic.engine.grid import CandidateGrid
from shudu.puzzle import Grid

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "iss_constraint_puzzles.tsv"
FORCING = {"Forcing Chain", "Forcing Net", "Nested Forcing Net", "Rule Forcing Chain"}


def _digits(text: str) -> tuple[int, ...]:
    if any(c.isalpha() for c in text):
        return tuple(ord(c.upper()) - ord("A") + 1 for c in text)
    return tuple(int(c) for c in text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per puzzle")
    parser.add_argument("--only", default="", help="puzzles whose name holds this text")
    args = parser.parse_args()
    with DATA.open(encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle, delimiter="\t") if r["scope"] == "core"]
    rated = logic = no_forcing = wrong = 0
    times = []
    for row in rows:
        if args.only and args.only not in row["name"]:
            continue
        try:
            puzzle = shudu.parse_puzzle(row["iss_input"])
        except ShuduError:
            continue
        start, cpu_start = time.perf_counter(), time.process_time()
        try:
            rating = shudu.rate(puzzle, steps=True, timeout=args.timeout)
        except ShuduError:  # a grid the logic engine does not read (one that is not square)
            continue
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        times.append(seconds)
        used = {step.technique.name for step in rating.steps}
        grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
        for step in rating.steps:
            grid.apply(step)
        done = rating.status == "unique" and rating.complete
        # the published solution is written in the puzzle's own digits (from 0 for some)
        solved = Grid.trusted(tuple(grid.values), puzzle.geometry).to_string()
        right = solved == row["solution"] or tuple(grid.values) == _digits(row["solution"])
        searched = "Brute Force" in used
        if done:
            rated += 1
            wrong += not right
            logic += not searched
            no_forcing += not searched and not used & FORCING
        kind = "search" if searched else ("forcing" if used & FORCING else "patterns")
        print(
            f"{row['name'][:34]:34} {row['types'][:30]:30} {rating.status:8} {rating.level:8} "
            f"{rating.se:4.1f} {rating.hardest[:26]:26} {seconds:6.1f}s {cpu:6.1f}s cpu {kind:8} "
            f"{'ok' if right else ('WRONG' if done else '-')}"
        )
    print(
        f"rated {rated} of {len(times)} read; {logic} without search, {no_forcing} without forcing "
        f"either; {wrong} wrong; median {statistics.median(times):.1f} s, most {max(times):.1f} s"
    )


if __name__ == "__main__":
    main()
