"""HoDoKu's regression library through shudu.find_steps: pass counts per technique.

A case passes when some step of its technique makes exactly the expected eliminations or
placements; a fail case (``-x``) passes when no step of its technique touches its candidates.
Steps that contradict the board's solution are counted and listed apart (they must be none).

    python benchmarks/reglib.py [FILE] [--technique CODE|NAME] [--failures] [--timeout S]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the harness, shared with the tests

from reglib_cases import Outcome, check_case, read_library
from shudu.logic.allsteps import select

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
LIBRARY = DATA / "hodoku_reglib_even.txt"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(LIBRARY), help="a HoDoKu library file")
    parser.add_argument(
        "--technique", "--code", dest="technique", help="only cases of this code (0300) or technique name"
    )
    parser.add_argument("--failures", action="store_true", help="print every failing line and why")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per case (default 10)")
    args = parser.parse_args(argv)
    path = Path(args.file)
    if not path.exists():
        print(f"no library file at {path}", file=sys.stderr)
        return 2
    cases = read_library(path)
    if args.technique:
        wanted = args.technique.strip()
        names = {f.technique.name for f in select(wanted).finders} if not wanted[:4].isdigit() else set()
        cases = [
            c
            for c in cases
            if c.code == wanted.split("-")[0]
            or c.name.lower() == wanted.lower()
            or (names and any(f.technique.name in names for f in select(c.code).finders))
        ]
    started = time.process_time()
    outcomes = [check_case(case, timeout=args.timeout) for case in cases]
    seconds = time.process_time() - started
    print_table(outcomes)
    unsound = [(o, u) for o in outcomes for u in o.unsound]
    print(f"unsound steps: {len(unsound)}; cpu time {seconds:.1f} s")
    for outcome, text in unsound:
        print(f"  UNSOUND line {outcome.case.line} ({outcome.case.code}): {text}")
    if args.failures:
        for o in outcomes:
            if not o.passed:
                code = f"{o.case.code}-{o.case.variant}" if o.case.variant else o.case.code
                print(f"FAIL line {o.case.line} {code} {o.case.name}: {o.reason}")
                print(f"  {o.case.text}")
    return 0


def table(outcomes: list[Outcome]) -> list[tuple[str, str, int, int]]:
    """(code, name, passed, total) per code, in code order."""
    groups: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for o in outcomes:
        groups[o.case.code, o.case.name].append(o.passed)
    return [(code, name, sum(p), len(p)) for (code, name), p in sorted(groups.items())]


def print_table(outcomes: list[Outcome]) -> None:
    for code, name, passed, total in table(outcomes):
        print(f"{code:>6}  {name:<36} {passed:>3}/{total:<3}")
    passed = sum(o.passed for o in outcomes)
    total = len(outcomes)
    share = 100 * passed / total if total else 0.0
    print(f"{'':>6}  {'total':<36} {passed:>3}/{total:<3} ({share:.1f}%)")


if __name__ == "__main__":
    sys.exit(main())
