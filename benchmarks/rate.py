"""Rating speed: shudu.rate against hodoku-py (when installed), same machine, same run.

Prints the median and mean time per puzzle on 17-clue puzzles and on the forum's hardest list.
Targets: median <= 5 ms per 17-clue puzzle, median <= 2 s on forum_hardest_1106.

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


def timed(rate: Callable[[str], object], puzzles: list[str]) -> list[float]:
    out = []
    for puzzle in puzzles:
        started = time.perf_counter()
        rate(puzzle)
        out.append(time.perf_counter() - started)
    return out


def report(name: str, times: list[float]) -> None:
    print(
        f"  {name:<12} median {1000 * statistics.median(times):9.1f} ms   "
        f"mean {1000 * statistics.fmean(times):9.1f} ms   max {1000 * max(times):9.1f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="17-clue puzzles to rate")
    parser.add_argument("--hard", type=int, default=10, help="forum_hardest_1106 puzzles to rate")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    raters: dict[str, Callable[[str], object]] = {"shudu": shudu.rate}
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
        sample = rng.sample(lines, min(count, len(lines)))
        shudu.rate(sample[0])  # warm up caches
        print(f"{file}: {len(sample)} puzzles")
        for name, rate in raters.items():
            report(name, timed(rate, sample))
    return 0


if __name__ == "__main__":
    sys.exit(main())
