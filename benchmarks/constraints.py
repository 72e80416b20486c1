"""Constraint benchmark: shudu's ``constraints`` solver on the core puzzles of ISS's collection,
side by side with ISS (the Interactive Sudoku Solver) when its source tree is given.

Run from the repository root::

    python benchmarks/constraints.py                        # shudu alone
    python benchmarks/constraints.py --iss /tmp/iss         # and ISS, same run
    python benchmarks/constraints.py --timeout 5 --only Thermo

For each core puzzle of ``../shared/data/iss_constraint_puzzles.tsv`` that shudu reads, it
counts to two (``shudu.solve``), checks the solution against the published one, and prints the
time (CPU, best of ``--repeat``). With ``--iss PATH`` (a checkout of ISS, run under node; build
nothing of it into shudu) it times ISS's own count to two (``tools/perf/benchmark_puzzles.js``,
its best time of ``--repeat``, in milliseconds inside node, without node's start-up) and reads
ISS's solution (``tools/debug/solve.js``), checks that both found the same unique solution, and
prints each puzzle's ratio and the median ratio per rule family (the ISS types of the puzzle).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import shudu
from shudu.errors import ShuduError
from shudu.rules import digit_base

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "iss_constraint_puzzles.tsv"


def _digits(text: str) -> tuple[int, ...]:
    if any(c.isalpha() for c in text):
        return tuple(ord(c.upper()) - ord("A") + 1 for c in text)
    return tuple(int(c) for c in text)


def _shudu_time(
    puzzle: shudu.Puzzle, timeout: float, repeat: int
) -> tuple[str, tuple[int, ...] | None, float]:
    best, status, solution = float("inf"), "timeout", None
    for _ in range(repeat):
        start = time.process_time()
        result = shudu.solve(puzzle, timeout=timeout)
        best = min(best, time.process_time() - start)
        status = result.status
        # the grid's values (on digits from 0, one less than the engine's digits)
        shift = 1 - digit_base(puzzle.geometry.variant.rules)
        solution = tuple(v - shift for v in result.solution.cells) if result.solution is not None else None
        if status == "timeout":
            break
    return status, solution, best


def _iss(root: Path, text: str, repeat: int, timeout: float) -> tuple[str, tuple[int, ...] | None, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write(text)
        path = handle.name
    try:
        bench = subprocess.run(
            ["node", "tools/perf/benchmark_puzzles.js", "--max-backtracks", "none", "--input-file", path,
             "--json", "--repeat", str(repeat)],
            cwd=root, capture_output=True, text=True, timeout=timeout * repeat + 30,
        )  # fmt: skip
        row = json.loads(bench.stdout)[0]
        shown = subprocess.run(
            ["node", "tools/debug/solve.js", "--max-backtracks", "none", "--input-file", path],
            cwd=root, capture_output=True, text=True, timeout=timeout + 30,
        )  # fmt: skip
    except (subprocess.TimeoutExpired, json.JSONDecodeError, IndexError):
        return "timeout", None, float("inf")
    finally:
        os.unlink(path)
    return str(row["status"]), _iss_solution(shown.stdout), float(row["ms"]) / 1000


def _iss_solution(text: str) -> tuple[int, ...] | None:
    lines = text.splitlines()
    if "=== Solution 1 ===" not in lines:
        return None
    start = lines.index("=== Solution 1 ===") + 1
    cells: list[str] = []
    for line in lines[start:]:
        tokens = line.split()
        if not tokens:
            break
        cells.extend(tokens)
    return tuple(int(t) for t in cells) if all(t.isdigit() for t in cells) else None


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--iss", type=Path, help="an ISS checkout to time beside shudu (needs node)")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds a puzzle (default 20)")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs (default 3)")
    parser.add_argument("--only", help="only puzzles whose name or types contain this text")
    args = parser.parse_args()
    if not DATA.exists():
        print(f"the corpus is absent: {DATA}", file=sys.stderr)
        return 2
    print("load average " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    rows = [r for r in csv.DictReader(DATA.open(encoding="utf-8"), delimiter="\t") if r["scope"] == "core"]
    ratios: dict[str, list[float]] = defaultdict(list)
    every: list[float] = []
    times: list[float] = []
    wrong = unread = 0
    for row in rows:
        if args.only and args.only not in row["name"] + row["types"]:
            continue
        try:
            puzzle = shudu.parse_puzzle(row["iss_input"])
        except ShuduError as exc:
            unread += 1
            print(f"{'not read':>9} {row['name'][:44]:44} {str(exc)[:60]}")
            continue
        status, solution, seconds = _shudu_time(puzzle, args.timeout, args.repeat)
        ok = status != "unique" or solution == _digits(row["solution"])
        wrong += not ok
        times.append(seconds if status == "unique" else float("inf"))
        line = f"{status:>9} {row['name'][:44]:44} shudu {seconds * 1000:9.1f} ms"
        if args.iss:
            iss_status, iss_solution, iss_seconds = _iss(
                args.iss, row["iss_input"], args.repeat, args.timeout
            )
            same = iss_status == status == "unique" and iss_solution == solution
            ratio = seconds / iss_seconds if status == "unique" and iss_seconds > 0 else float("inf")
            every.append(ratio)
            for family in row["types"].split(","):
                ratios[family].append(ratio)
            line += (
                f"  ISS {iss_seconds * 1000:9.1f} ms  ratio {ratio:8.2f}  {'same' if same else 'DIFFERENT'}"
            )
        print(line + ("" if ok else "  WRONG SOLUTION"))
    finite = [t for t in times if t != float("inf")]
    print(
        f"\n{len(times)} read, {unread} not read, {len(finite)} unique within {args.timeout} s, {wrong} wrong"
    )
    if finite:
        print(
            f"median time of those read {statistics.median(times) * 1000:.1f} ms (timeouts count as infinite)"
        )
    if ratios:
        print("\nmedian shudu ÷ ISS per rule family (counting to two):")
        for family, values in sorted(ratios.items()):
            print(f"  {family:18} {statistics.median(values):8.2f}  ({len(values)} puzzles)")
        print(f"  {'all':18} {statistics.median(every):8.2f}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
