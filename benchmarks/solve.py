"""Solve benchmark: shudu's ``fast`` solver against the peers installed beside it.

Run from the repository root::

    python benchmarks/solve.py                 # every set, peers on a sample of each
    python benchmarks/solve.py --quick         # 2,000 puzzles a set, fewer repeats

For each puzzle file (shuffled, after a warm-up) it times the batch API
``shudu.solvers.fast.solve_many`` on one thread, first solution (``limit=1``) and
counting to two (``limit=2``), takes the best of several runs, checks every answer, and
prints µs per puzzle, guesses per puzzle and the share solved without guessing. Peers
(hodoku-py, pencilmark, lib-sudoku; ``pip install -e .[bench]``) are timed in the same
run on a sample of each file, through their own Python calls, and reported as ratios.
Timings are CPU time of this process (``--clock wall`` for wall-clock), best of several
runs (``--repeat``), so that other work on a shared machine disturbs them less.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from shudu.solvers import _fast_py, fast  # noqa: E402

SETS = [
    ("kaggle_like_easy_10k.txt", "easy (kaggle-like)"),
    ("royle_17clue.txt", "17-clue"),
    ("magictour_top1465.txt", "top1465"),
    ("forum_hardest_1905_11plus.txt", "forum hardest 11+"),
    ("forum_hardest_1106.txt", "hardest 1106"),
    ("serg_benchmark_multisolution.txt", "serg multi-solution"),
]
# tdoku (C++, SIMD) on this machine class, µs per puzzle: first solution, count to 2.
TDOKU = {
    "kaggle_like_easy_10k.txt": (1.2, 1.2),
    "royle_17clue.txt": (3.5, 3.6),
    "magictour_top1465.txt": (6.7, 9.7),
    "forum_hardest_1905_11plus.txt": (30.0, 81.0),
    "forum_hardest_1106.txt": (47.0, 87.0),
}


CLOCK = time.process_time


def best_of(repeat: int, run: Callable[[], object]) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        started = CLOCK()
        result = run()
        best = min(best, CLOCK() - started)
    return best, result


def timed_sample(solve: Callable[[str], str | None], lines: list[str], seconds: float):
    """Solve lines one by one until done or ``seconds`` are spent: (time, answers)."""
    answers: list[str | None] = []
    started = CLOCK()
    for line in lines:
        answers.append(solve(line))
        if CLOCK() - started > seconds:
            break
    return CLOCK() - started, answers


def check(lines: list[str], solutions: list[str | None]) -> int:
    """How many answers are wrong (not a valid grid, or not matching the givens)."""
    wrong = 0
    for line, sol in zip(lines, solutions, strict=True):
        if sol is None or any(g not in ".0" and g != s for g, s in zip(line, sol, strict=True)):
            wrong += 1
            continue
        rows = [sol[9 * r : 9 * r + 9] for r in range(9)]
        cols = [sol[c::9] for c in range(9)]
        boxes = [
            "".join(sol[9 * (3 * (b // 3) + r) + 3 * (b % 3) + c] for r in range(3) for c in range(3))
            for b in range(9)
        ]
        if any(set(unit) != set("123456789") for unit in rows + cols + boxes):
            wrong += 1
    return wrong


# -- peers: each a function from a puzzle line to (solution text or None) ----------------


def peer_hodoku() -> Callable[[str], str | None] | None:
    try:
        accel = importlib.import_module("hodoku.generator._gen_accel")
    except ImportError:
        return None

    def solve(line: str) -> str | None:
        count, solution = accel.solve_string(line)  # counts to two
        return "".join(map(str, solution)) if count >= 1 and solution else None

    return solve


def peer_pencilmark() -> Callable[[str], str | None] | None:
    try:
        pencilmark = importlib.import_module("pencilmark")
    except ImportError:
        return None

    def solve(line: str) -> str | None:
        try:
            return "".join(map(str, pencilmark.solve(line)))  # the unique solution
        except Exception:  # NotUnique / NoSolution
            return None

    return solve


def peer_lib_sudoku() -> Callable[[str], str | None] | None:
    try:
        lib_sudoku = importlib.import_module("lib_sudoku")
    except ImportError:
        return None

    def solve(line: str) -> str | None:
        grid = bytearray(0 if ch in ".0" else ord(ch) - 48 for ch in line)
        return "".join(map(str, lib_sudoku.solve(grid)))  # a first solution

    return solve


PEERS = {
    "hodoku-py (count to 2)": peer_hodoku,
    "pencilmark (unique)": peer_pencilmark,
    "lib-sudoku (first)": peer_lib_sudoku,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--max", type=int, default=0, help="puzzles per set (0: all)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per timing; best is kept")
    parser.add_argument("--peer-sample", type=int, default=300, help="puzzles per set for peers")
    parser.add_argument("--twin-sample", type=int, default=200, help="puzzles for the twin")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="--max 2000 --repeat 2")
    parser.add_argument("--peer-seconds", type=float, default=15.0, help="time cap per peer/set")
    parser.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    parser.add_argument("--no-peers", action="store_true")
    args = parser.parse_args(argv)
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    if args.quick:
        args.max, args.repeat = args.max or 2000, 2

    print(
        f"shudu fast: implementation={fast.IMPLEMENTATION}, threads={args.threads}, "
        f"clock={args.clock}, best of {args.repeat}"
    )
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    peers = {} if args.no_peers else {name: make() for name, make in PEERS.items()}
    peers = {name: solve for name, solve in peers.items() if solve is not None}
    print("peers:", ", ".join(peers) or "none installed")
    print()
    header = (
        "| set | puzzles | first µs | count-2 µs | guesses (first / count-2) | no guess % |"
        " vs tdoku (first / count-2) |"
    )
    print(header)
    print("|" + "---|" * 7)
    peer_rows: list[str] = []
    twin_rows: list[str] = []
    for filename, label in SETS:
        path = args.data / filename
        if not path.exists():
            print(f"| {label} | missing: {path} | | | | | |")
            continue
        lines = path.read_text().split()
        random.Random(2026).shuffle(lines)
        if args.max:
            lines = lines[: args.max]
        data = ("\n".join(lines) + "\n").encode()
        multi = filename.startswith("serg")
        fast.solve_many(data[: 82 * 200], limit=2, threads=args.threads)  # warm-up
        timings = {}
        results = {}
        for limit in (1, 2):
            if multi and limit == 1:
                continue
            seconds, result = best_of(
                args.repeat, lambda limit=limit, data=data: fast.solve_many(data, limit, args.threads)
            )
            timings[limit], results[limit] = seconds / len(lines) * 1e6, result
        for limit, result in results.items():
            statuses = set(result.statuses)
            expected = {"multiple"} if multi else {"solved"} if limit == 1 else {"unique"}
            wrong = check(lines, result.solutions)
            if statuses != expected or wrong:
                sys.exit(f"{filename}: wrong answers (limit {limit}): {statuses}, {wrong} bad")
        guesses = {k: sum(r.guesses) / len(lines) for k, r in results.items()}
        no_guess = next(iter(results.values()))
        settled = 100 * sum(1 for g in no_guess.guesses if g == 0) / len(lines)
        first = f"{timings[1]:.2f}" if 1 in timings else "–"
        tdoku = TDOKU.get(filename)
        ratio = f"{timings[1] / tdoku[0]:.2f}x / {timings[2] / tdoku[1]:.2f}x" if tdoku else "–"
        guess_text = " / ".join(f"{guesses[k]:.1f}" for k in sorted(guesses))
        print(
            f"| {label} | {len(lines):,} | {first} | {timings[2]:.2f} | {guess_text} |"
            f" {settled:.1f} | {ratio} |"
        )
        mine = timings[1] if 1 in timings else timings[2]
        sample = lines[: args.peer_sample]
        for name, solve in peers.items():
            timed_sample(solve, sample[:5], args.peer_seconds / 10)  # warm-up
            seconds, answers = timed_sample(solve, sample, args.peer_seconds)
            per = seconds / len(answers) * 1e6
            mode = 2 if "first" not in name else 1
            ref = timings.get(mode, mine)
            done = sample[: len(answers)]
            bad = "" if multi else f", {check(done, answers)} wrong"
            peer_rows.append(f"| {label} | {name} | {len(answers)} | {per:,.1f} | {per / ref:,.1f}x{bad} |")
        if args.twin_sample and not multi:
            twin_lines = lines[: args.twin_sample]
            seconds, _ = best_of(
                1, lambda twin_lines=twin_lines: fast.solve_many(twin_lines, 2, engine=_fast_py)
            )
            per = seconds / len(twin_lines) * 1e6
            twin_rows.append(f"| {label} | {len(twin_lines)} | {per:,.0f} | {per / timings[2]:,.0f}x |")
    if peer_rows:
        print()
        print("| set | peer | puzzles | µs/puzzle | peer / shudu |")
        print("|---|---|---|---|---|")
        print("\n".join(peer_rows))
    if twin_rows:
        print()
        print("| set (count to 2) | puzzles | pure-Python twin µs | twin / C |")
        print("|---|---|---|---|")
        print("\n".join(twin_rows))
    print()
    from shudu.puzzle import Puzzle

    seconds, found = best_of(1, lambda: fast.Fast().count(Puzzle.from_string("." * 36)))
    print(f"empty 6x6 grid: {found:,} solutions counted in {seconds:.2f} s")


if __name__ == "__main__":
    main()
