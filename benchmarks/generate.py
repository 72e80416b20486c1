"""Generator benchmark: shudu.generate against hodoku-py's generator, in the same run.

Run from the repository root::

    python benchmarks/generate.py              # every task, best of 3
    python benchmarks/generate.py --quick      # fewer puzzles, one run

Each task makes a number of puzzles with one seed per run and reports puzzles per second and
milliseconds per puzzle, as **CPU time** of this process (``--clock wall`` for wall-clock),
the best of ``--repeat`` runs. Every shudu puzzle is then checked outside the timing: one
solution by the dancing-links solver (not the fast core the generator uses) and, for a level,
the rater's level. hodoku-py (``pip install -e .[bench]``) makes the same kinds where it
can (9x9 only; its puzzles are symmetric under a half turn unless told otherwise), within a
CPU budget per task; ``timeout`` counts its tries that gave up.

A second table times puzzles with rules (``rules="killer"``, no givens, and the rule sets
drawn on the grid: thermo, arrow, kropki, little-killer, sandwich, mixed) one by one, each with its own
seed and a timeout: the median and slowest wall-clock seconds per level (the target: 9x9
killer hard in 10 s or less at the median), and the levels of those made with no level asked
(``--only`` with rule set names runs this table alone, those rows only)::

    python benchmarks/generate.py --only killer,thermo,arrow,kropki,mixed
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import shudu  # noqa: E402
from shudu.generator import GeneratorTimeout, generate, generate_many  # noqa: E402


@dataclass(frozen=True)
class Task:
    name: str
    count: int
    options: dict[str, object]
    target: str  # the target, in words
    hodoku: tuple[str, bool] | None = None  # (level or "unique", symmetric)


TASKS = (
    Task("9x9 unique", 300, {}, "≥ 200/s", ("unique", False)),
    Task("9x9 unique rot180", 300, {"symmetry": "rot180"}, "", ("unique", True)),
    Task("9x9 easy", 100, {"level": "easy"}, "≥ 50/s", ("easy", True)),
    Task("9x9 medium", 100, {"level": "medium"}, "≥ 50/s", ("medium", True)),
    Task("9x9 hard", 40, {"level": "hard"}, "≥ 10/s", ("hard", True)),
    Task("9x9 unfair", 15, {"level": "unfair"}, "≤ 0.5 s each", ("unfair", True)),
    Task("9x9 extreme", 15, {"level": "extreme"}, "≤ 2 s each", ("extreme", True)),
    Task("9x9 hard rot180 minimal", 20, {"level": "hard", "symmetry": "rot180", "minimal": True}, ""),
    Task("9x9 SE 7.0-8.0", 10, {"se": "7.0-8.0"}, ""),
    Task("16x16 unique", 5, {"size": 16}, "≤ 1 s each"),
    Task("16x16 hard", 4, {"size": 16, "level": "hard"}, "well inside the web Maker's cap"),
    Task("25x25 easy", 1, {"size": 25, "level": "easy"}, "well inside the web Maker's cap"),
    Task("25x25 hard", 1, {"size": 25, "level": "hard"}, "well inside the web Maker's cap"),
    Task("9x9 anti-knight hard", 10, {"variant": "anti-knight", "level": "hard"}, ""),
    Task("6x6 unique", 300, {"size": 6}, ""),
    Task("6x6 hard", 20, {"size": 6, "level": "hard"}, ""),
    Task("9x9 X unique", 50, {"variant": "x"}, ""),
    Task("9x9 windoku unique", 50, {"variant": "windoku"}, ""),
    Task("9x9 pyramid unique", 50, {"variant": "pyramid"}, ""),
    Task("9x9 jigsaw unique (random layouts)", 30, {"variant": "jigsaw"}, ""),
)


def clock_of(name: str) -> Callable[[], float]:
    return time.process_time if name == "cpu" else time.perf_counter


def run_shudu(task: Task, count: int, repeat: int, clock: Callable[[], float]) -> tuple[float, list]:
    best, made = float("inf"), []
    for run in range(repeat):
        started = clock()
        made = list(generate_many(count, seed=1000 + run, **task.options))  # type: ignore[arg-type]
        best = min(best, clock() - started)
    return best, made


def check(task: Task, made: list) -> str:
    for result in made:
        if shudu.count(result.puzzle, 2, algorithm="dlx") != 1:
            return f"NOT UNIQUE: {result.puzzle.to_string()}"
        level = task.options.get("level")
        if level is not None and shudu.rate(result.puzzle).level != level:
            return f"WRONG LEVEL: {result.puzzle.to_string()}"
    return "ok"


def run_hodoku(kind: tuple[str, bool], count: int, budget: float, clock: Callable[[], float]) -> str:
    try:
        import hodoku
        from hodoku.generator.generator import SudokuGenerator
    except ImportError:
        return "not installed"
    level, symmetric = kind
    made = failed = 0
    started = clock()
    if level == "unique":
        generator = SudokuGenerator()
        while made < count and clock() - started < budget:
            generator.generate_sudoku(symmetric=symmetric)
            made += 1
    else:
        generator = hodoku.Generator()
        wanted = getattr(hodoku.DifficultyType, level.upper())
        while made < count and clock() - started < budget:
            try:
                generator.generate(wanted, symmetric=symmetric, max_tries=200)
                made += 1
            except RuntimeError:
                failed += 1
    spent = clock() - started
    if not made:
        return f"none in {spent:.0f} s ({failed} × 200 tries gave up)"
    note = f", {failed} × 200 tries gave up" if failed else ""
    return f"{made / spent:,.1f}/s ({1000 * spent / made:,.0f} ms each, {made} made{note})"


#: Rule tasks: (rules, size, level or None for the level distribution, puzzles, timeout seconds).
RULE_TASKS = (
    ("killer", 9, "easy", 8, 60.0),
    ("killer", 9, "medium", 8, 60.0),
    ("killer", 9, "hard", 12, 60.0),
    ("killer", 9, "unfair", 6, 60.0),
    ("killer", 9, "extreme", 6, 60.0),
    ("killer", 9, None, 12, 60.0),
    ("killer", 6, "medium", 8, 30.0),
    ("killer", 6, "hard", 6, 30.0),
    ("killer", 4, "easy", 8, 30.0),
    ("thermo", 9, "easy", 6, 60.0),
    ("thermo", 9, "medium", 6, 60.0),
    ("thermo", 9, "hard", 6, 60.0),
    ("thermo", 9, "unfair", 6, 60.0),
    ("thermo", 9, "extreme", 6, 60.0),
    ("thermo", 9, None, 12, 60.0),
    ("arrow", 9, "hard", 6, 60.0),
    ("kropki", 9, "hard", 6, 60.0),
    ("little-killer", 9, "hard", 6, 60.0),
    ("mixed", 9, "hard", 6, 60.0),
    ("arrow", 9, None, 6, 60.0),
    ("kropki", 9, None, 6, 60.0),
    ("little-killer", 9, None, 6, 60.0),
    ("mixed", 9, None, 6, 60.0),
    ("sandwich", 9, "easy", 6, 60.0),
    ("sandwich", 9, "medium", 6, 60.0),
    ("sandwich", 9, "hard", 6, 60.0),
    ("sandwich", 9, "unfair", 6, 60.0),
    ("sandwich", 9, "extreme", 6, 60.0),
    ("sandwich", 9, None, 6, 60.0),
    ("sandwich", 6, "hard", 6, 30.0),
    ("sandwich", 4, "easy", 6, 30.0),
)


def run_rules(rules: str, size: int, level: str | None, count: int, timeout: float) -> str:
    """One table row: each puzzle made alone (wall time), checked by the other engine's count."""
    seconds: list[float] = []
    levels: dict[str, int] = {}
    for seed in range(count):
        started = time.perf_counter()
        try:
            made = generate(size, rules=rules, level=level, rate=True, seed=seed, timeout=timeout)
        except GeneratorTimeout:
            levels["timeout"] = levels.get("timeout", 0) + 1
            seconds.append(time.perf_counter() - started)
            continue
        seconds.append(time.perf_counter() - started)
        if shudu.count(made.puzzle, 2) != 1:
            return f"| {size}x{size} {rules} {level} | NOT UNIQUE: {shudu.formats.to_json(made.puzzle)} |"
        key = made.level or "rating past its budget"
        levels[key] = levels.get(key, 0) + 1
        if level is not None and made.level != level:
            return f"| {size}x{size} {rules} {level} | WRONG LEVEL {made.level} |"
    seen = ", ".join(f"{name} {n}" for name, n in sorted(levels.items()))
    return (
        f"| {size}x{size} {rules} {level or 'any level'} | {count} | {statistics.median(seconds):.1f} | "
        f"{max(seconds):.1f} | {timeout:g} | {seen} |"
    )


def rules_table(quick: bool, only: str | None) -> None:
    print()
    print("| rules task | puzzles | median s | slowest s | timeout s | levels seen |")
    print("|---|---:|---:|---:|---:|---|")
    for rules, size, level, count, timeout in RULE_TASKS:
        if only and not any(part in rules for part in only.split(",")):
            continue
        print(run_rules(rules, size, level, max(2, count // 3) if quick else count, timeout), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="a quarter of the puzzles, one run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per task; the best counts (default 3)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--peer-budget", type=float, default=20.0, help="CPU seconds for hodoku per task")
    parser.add_argument("--only", help="run the tasks whose name holds one of these comma-separated texts")
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat
    clock = clock_of(args.clock)
    from shudu.solvers.fast import IMPLEMENTATION

    print(
        f"# shudu {shudu.__version__} ({IMPLEMENTATION} core), Python {platform.python_version()}, "
        f"{platform.machine()}; {args.clock} time, best of {repeat}"
    )
    rule_tasks = args.only is not None and any(
        name in args.only for name in ("killer", "thermo", "arrow", "kropki", "sandwich", "mixed")
    )
    if not rule_tasks:
        print("| task | puzzles | shudu puzzles/s | shudu ms each | target | check | hodoku-py |")
        print("|---|---:|---:|---:|---|---|---|")
    for task in TASKS:
        if args.only and not any(part in task.name for part in args.only.split(",")):
            continue
        count = max(1, task.count // 4) if args.quick else task.count
        seconds, made = run_shudu(task, count, repeat, clock)
        verdict = check(task, made)
        peer = run_hodoku(task.hodoku, count, args.peer_budget, clock) if task.hodoku else "–"
        print(
            f"| {task.name} | {count} | {count / seconds:,.1f} | {1000 * seconds / count:,.1f} | "
            f"{task.target} | {verdict} | {peer} |",
            flush=True,
        )
    if args.only is None or rule_tasks:
        rules_table(args.quick, args.only)


if __name__ == "__main__":
    main()
