"""The papers' algorithms side by side, and what matching propagation settles alone.

Run from the repository root::

    python benchmarks/algorithms.py                  # the speed table (every registered solver)
    python benchmarks/algorithms.py --settle         # the matching propagation study
    python benchmarks/algorithms.py --sample 10 --cap 0.5 --solvers dlx,matching

Speed: every registered solver runs on the same fixed samples (17-clue, top1465, 6x6 and 16x16
from ``../shared/data``), each puzzle checked for uniqueness (two solutions looked for, as
``shudu.solve`` does) under a per-puzzle time cap. It prints a Markdown table: the median µs per
puzzle (a capped puzzle counts as the cap, so a median at the cap reads ``> cap``), mean nodes and
guesses per puzzle (over the puzzles solved in time), and the share solved within the cap. Every
answer is checked with ``Grid.is_solution_of``. Timings are CPU time of this process.

Settle: on samples of royle_17clue.txt and magictour_top1465.txt, the share of puzzles that
matching propagation settles (every cell down to one candidate) without guessing, with and
without edge dependency, and with the guessing completion.
"""

from __future__ import annotations

import argparse
import itertools
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT / "src"))

from shudu import Grid, Puzzle  # noqa: E402
from shudu.errors import SearchTimeout  # noqa: E402
from shudu.formats import parse_puzzle  # noqa: E402
from shudu.solvers import Budget, Stats, available  # noqa: E402
from shudu.solvers.matching import Matching  # noqa: E402

SETS = [
    ("royle_17clue.txt", "17-clue"),
    ("magictour_top1465.txt", "top1465"),
    ("size6_2x3_unique.txt", "6x6"),
    ("size16_owhy.txt", "16x16"),
]
CLOCK = time.process_time


def machine() -> str:
    """The processor's name (from /proc/cpuinfo where there is one) and the Python version."""
    cpu = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = [
            line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines() if "model name" in line
        ]
        if names:
            cpu = f"{names[0]} ({len(names)} logical CPUs)"
    return f"{cpu}, Python {platform.python_version()}"


def sample(name: str, count: int, seed: int = 1) -> list[Puzzle]:
    lines = (DATA / name).read_text(encoding="utf-8").split()
    return [parse_puzzle(line) for line in random.Random(seed).sample(lines, min(count, len(lines)))]


def run_one(solver_name: str, puzzle: Puzzle, cap: float) -> tuple[float, Stats, bool]:
    """CPU seconds, statistics and whether it finished, for a uniqueness check of one puzzle."""
    solver = available()[solver_name]
    stats = Stats()
    started = CLOCK()
    try:
        found = list(
            itertools.islice(solver.solutions(puzzle, budget=Budget.of(timeout=cap), stats=stats), 2)
        )
    except SearchTimeout:
        return cap, stats, False
    spent = CLOCK() - started
    if len(found) != 1 or not Grid(found[0], geometry=puzzle.geometry).is_solution_of(puzzle):
        raise SystemExit(f"{solver_name} answered {puzzle.to_string()} wrongly: {len(found)} solutions")
    return spent, stats, True


def speed(solvers: list[str], count: int, cap: float) -> None:
    print(f"Per-puzzle cap {cap:g} s CPU; {count} puzzles a set (random.Random(1) sample).\n")
    print("| set | solver | median µs | nodes | guesses | solved in cap |")
    print("|---|---|---:|---:|---:|---:|")
    for name, label in SETS:
        puzzles = sample(name, count)
        for solver_name in solvers:
            run_one(solver_name, puzzles[0], cap)  # warm-up
            times, nodes, guesses, solved = [], [], [], 0
            for puzzle in puzzles:
                spent, stats, done = run_one(solver_name, puzzle, cap)
                times.append(spent)
                if done:
                    solved += 1
                    nodes.append(stats.nodes)
                    guesses.append(stats.guesses)
            median = statistics.median(times)
            shown = f"> {cap * 1e6:,.0f}" if median >= cap else f"{median * 1e6:,.0f}"
            mean_nodes = f"{statistics.mean(nodes):,.0f}" if nodes else "–"
            mean_guesses = f"{statistics.mean(guesses):,.1f}" if guesses else "–"
            print(
                f"| {label} | {solver_name} | {shown} | {mean_nodes} | {mean_guesses} "
                f"| {100 * solved / len(puzzles):.0f}% |",
                flush=True,
            )


def settle(count: int) -> None:
    print(f"{count} puzzles a set (random.Random(1) sample); Régin's rule.\n")
    print(
        "| set | settled by propagation | … with edge dependency | with guessing "
        "| guesses per puzzle (plain / dependency) | CPU s per solve (plain / dependency) |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name, label in SETS[:2]:
        puzzles = sample(name, count)
        row = []
        effort = []
        for dependency in (False, True):
            settled, guesses, started = 0, 0, CLOCK()
            for puzzle in puzzles:
                stats = Stats()
                assert Matching(edge_dependency=dependency).count(puzzle, 2, stats=stats) == 1
                settled += stats.nodes == 0  # no branch tried: propagation settled every cell
                guesses += stats.guesses
            row.append(f"{100 * settled / count:.1f}% ({settled}/{count})")
            effort.append((guesses / count, (CLOCK() - started) / count))
        print(
            f"| {label} | {row[0]} | {row[1]} | 100% ({count}/{count}) "
            f"| {effort[0][0]:.1f} / {effort[1][0]:.1f} | {effort[0][1]:.3f} / {effort[1][1]:.3f} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--settle", action="store_true", help="the matching propagation study instead")
    parser.add_argument("--sample", type=int, help="puzzles a set (default: 30; 200 with --settle)")
    parser.add_argument("--cap", type=float, default=1.0, help="CPU seconds a puzzle (default: 1)")
    parser.add_argument("--solvers", help="comma-separated solver names (default: every registered one)")
    args = parser.parse_args()
    print(machine())
    if args.settle:
        settle(args.sample or 200)
    else:
        solvers = args.solvers.split(",") if args.solvers else list(available())
        speed(solvers, args.sample or 30, args.cap)


if __name__ == "__main__":
    main()
