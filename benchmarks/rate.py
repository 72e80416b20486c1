"""Rating speed: shudu.rate against hodoku-py (when installed), same machine, same run.

Prints the median, mean and largest time per puzzle (wall clock and CPU) on 17-clue puzzles and on
the forum's hardest list. Each puzzle is rated as a random isomorph of itself (digits relabelled,
rows and columns permuted within bands and stacks, bands and stacks permuted, maybe transposed),
so that nothing learnt from the published form of a puzzle can help.
Targets: median <= 1 ms per 17-clue puzzle, median <= 0.3 s on forum_hardest_1106, none over 2 s.

    python benchmarks/rate.py [--count N] [--hard N] [--seed S] [--no-peers] [--as-published]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import shudu
from shudu.render.plots import PlotError, check_plot, plot_histograms, tally

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
WARM_UP = "4.......8....31.....7...92....57...1.59....6.1......8.8...2..1..3.418..69........"


def isomorph(puzzle: str, rng: random.Random) -> str:
    """A random isomorph of an 81-cell puzzle (``.`` or ``0`` for an empty cell)."""

    def axis() -> list[int]:
        return [3 * band + line for band in rng.sample(range(3), 3) for line in rng.sample(range(3), 3)]

    relabel = dict(zip("123456789", rng.sample("123456789", 9), strict=True))
    rows, columns, transpose = axis(), axis(), rng.random() < 0.5
    cells = []
    for r in rows:
        for c in columns:
            char = puzzle[9 * c + r] if transpose else puzzle[9 * r + c]
            cells.append(relabel.get(char, "."))
    return "".join(cells)


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
    parser.add_argument("--as-published", action="store_true", help="rate the puzzles, not isomorphs")
    parser.add_argument(
        "--plot",
        metavar="FILE",
        help="draw shudu's SE ratings by level and its CPU seconds per set to FILE.svg or .png"
        " (needs matplotlib, the plot extra)",
    )
    args = parser.parse_args(argv)
    if args.plot:
        try:
            check_plot(args.plot)
        except PlotError as exc:
            parser.error(str(exc))
    ratings: dict[str, Counter[float]] = {}
    times: dict[str, Counter[float]] = {}

    def rate_and_keep(puzzle: str) -> object:
        rating = shudu.rate(puzzle)
        if rating.se is not None:
            ratings.setdefault(str(rating.level or "no level"), Counter())[rating.se] += 1
        return rating

    raters: dict[str, Callable[[str], object]] = {"shudu": rate_and_keep if args.plot else shudu.rate}
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
        if not args.as_published:
            sample = [isomorph(puzzle, rng) for puzzle in sample]
        shudu.rate(WARM_UP)  # build the geometry tables (not a sample puzzle: no cached answers)
        print(f"{file}: {len(sample)} puzzles{'' if args.as_published else ' (random isomorphs)'}")
        for name, rate in raters.items():
            measured = timed(rate, sample)
            report(name, measured)
            if name == "shudu":
                times[file] = tally(measured[1], digits=2)
    if args.plot:
        plot_histograms(args.plot, ratings=ratings, times=times, title="benchmarks/rate.py: shudu")
        print(f"wrote {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
