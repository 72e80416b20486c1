"""What the parts of the solve benchmark (benchmarks/solve.py) share: the sets, the clock,
the timing loops and the answer checks."""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from shudu.notation import BatchCode  # noqa: E402

SETS = [
    ("kaggle_like_easy_10k.txt", "easy (kaggle-like)"),
    ("royle_17clue.txt", "17-clue"),
    ("magictour_top1465.txt", "top1465"),
    ("forum_hardest_1905_11plus.txt", "forum hardest 11+"),
    ("forum_hardest_1106.txt", "hardest 1106"),
    ("serg_benchmark_multisolution.txt", "serg multi-solution"),
]

#: The clock of every timing: CPU time of this process, or wall-clock time (``--clock wall``).
CLOCK = time.process_time
T = TypeVar("T")


def engine_name(shape: object) -> str:
    """Which engine of the C core (or the twin) serves a compiled shape."""
    if getattr(shape, "std9", False):
        return "9x9"
    return "9x9, extra houses" if getattr(shape, "var9", False) else "general"


def check_answers(
    this: tuple[bytes, ...],
    other: tuple[bytes, ...],
    filename: str,
    limit: int,
    first: dict[str, tuple[bytes, ...]],
) -> None:
    """Stop unless two builds agree on every status and count, and on the solution of every
    puzzle found unique. Builds whose search trees differ (another propagation or branch
    rule) may find another first solution of a puzzle with several, and count other nodes."""
    status, solutions, counts = this[:3]
    if (status, counts) != other[0:3:2]:
        sys.exit(f"{filename}: the two builds disagree on statuses or counts (limit {limit})")
    if limit == 1:
        first["this"], first["other"] = this, other
        return
    width = len(solutions) // max(1, len(status))
    unique = [i for i, code in enumerate(status) if code == BatchCode.UNIQUE]
    for one, two in ((this, other), (first["this"], first["other"])):
        if any(one[1][width * i : width * (i + 1)] != two[1][width * i : width * (i + 1)] for i in unique):
            sys.exit(f"{filename}: the two builds give different solutions to a unique puzzle")


def load_average() -> str:
    try:
        return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average unknown"


def read_set(path: Path, max_lines: int) -> list[str]:
    lines = path.read_text().split()
    random.Random(2026).shuffle(lines)
    return lines[:max_lines] if max_lines else lines


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def other_cpu_seconds() -> float | None:
    """CPU seconds spent so far by every process but this one (Linux ``/proc``; None elsewhere)."""
    try:
        with open("/proc/stat") as stream:
            fields = stream.readline().split()[1:]
        with open("/proc/self/stat") as stream:
            mine = stream.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    tick = os.sysconf("SC_CLK_TCK")
    busy = sum(int(x) for x in fields[:3]) + sum(int(x) for x in fields[5:8])  # less idle, iowait
    own = int(mine[11]) + int(mine[12])  # utime, stime
    return (busy - own) / tick


# A timed run of the general-engine table lasts at least this long: a set of 100 variant
# puzzles takes about a millisecond, too short for one clock reading to mean much.
MIN_RUN_SECONDS = 0.05


def best_per_pass(repeat: int, run: Callable[[], T]) -> tuple[float, T]:
    """The best time of one ``run()``, over ``repeat`` timed runs of as many back-to-back
    passes as make each timed run last ``MIN_RUN_SECONDS``; and the last result."""
    started = CLOCK()
    result = run()
    once = max(CLOCK() - started, 1e-6)
    passes = max(1, min(1000, round(MIN_RUN_SECONDS / once)))

    def many() -> T:
        for _ in range(passes - 1):
            run()
        return run()

    seconds, result = best_of(repeat, many)
    return seconds / passes, result


def best_of(repeat: int, run: Callable[[], T]) -> tuple[float, T]:
    """The best CPU (or wall) time of ``repeat`` runs, at least one, and the last result."""
    started = CLOCK()
    result = run()
    best = CLOCK() - started
    for _ in range(repeat - 1):
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


def solve_seconds(lines: list[str]) -> list[float]:
    """Seconds each line takes through the public ``shudu.solve`` (for the --plot histogram)."""
    import shudu

    spent = []
    for line in lines:
        started = time.perf_counter()
        shudu.solve(line)
        spent.append(time.perf_counter() - started)
    return spent


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
