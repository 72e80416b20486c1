"""Rating speed: shudu.rate against hodoku-py (when installed), same machine, same run.

Prints the median, mean and largest time per puzzle (wall clock and CPU) on 17-clue puzzles and on
the forum's hardest list.
Targets: median <= 1 ms per 17-clue puzzle, median <= 0.3 s on forum_hardest_1106, none over 2 s.

    python benchmarks/rate.py [--count N] [--hard N] [--seed S]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import shudu

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
WARM_UP = "4.......8....31.....7...92....57...1.59....6.1......8.8...2..1..3.418..69........"


def timed(rate: Callable[[str], object], puzzles: list[str]) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds per puzzle (CPU time is steadier on a shared machine)."""
    wall, cpu = [], []
    for puzzle in puzzles:
        started, started_cpu = time.perf_counter(), time.process_time()
        rate(puzzle)
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    return wall, cpu


def report(name: str, times: tuple[list[float], list[float]]) -> None:
    for kind, values in zip(("wall", "cpu"), times, strict=True):
        print(
            f"  {name:<12} {kind:<4} median {1000 * statistics.median(values):9.1f} ms   "
            f"mean {1000 * statistics.fmean(values):9.1f} ms   max {1000 * max(values):9.1f} ms"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="17-clue puzzles to rate")
    parser.add_argument("--hard", type=int, default=10, help="forum_hardest_1106 puzzles to rate (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-peers", action="store_true", help="time shudu alone")
    args = parser.parse_args(argv)

    raters: dict[str, Callable[[str], object]] = {"shudu": shudu.rate}
    if not args.no_peers:
        try:
            import hodoku  # type: ignore[import-not-found]

            solver = hodoku.Solver()
            raters["hodoku-py"] = solver.solve
        except ImportError:
            print("(hodoku-py not installed: pip install hodoku-py to compare)")

    rng = random.Random(args.seed)
    print(f"python {platform.python_version()} on {platform.machine()} ({platform.processor() or 'cpu'})")
    for file, count in (("royle_17clue.txt", args.count), ("forum_hardest_1106.txt", args.hard)):
        lines = (DATA / file).read_text().split()
        sample = rng.sample(lines, min(count, len(lines))) if count else lines
        shudu.rate(WARM_UP)  # build the geometry tables (not a sample puzzle: no cached answers)
        print(f"{file}: {len(sample)} puzzles")
        for name, rate in raters.items():
            report(name, timed(rate, sample))
    return 0


if __name__ == "__main__":
    sys.exit(main())
