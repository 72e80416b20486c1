"""Workshop benchmark: true candidates, redundancy, make-unique, backdoors, why not, bottlenecks and
the trainer.

Run from the repository root::

    python benchmarks/workshop.py                 # 15 puzzles each, seed 43
    python benchmarks/workshop.py --count 30 --seed 7

The puzzles come from ``../shared/data/royle_17clue.txt`` (17-clue puzzles, unique), with a
fixed seed: for true candidates, each puzzle less givens until it has 500-2,000 solutions; for
make unique, less givens until it has 10-1,000, and the generated puzzles of
``kaggle_like_easy_10k.txt`` less 10-16 givens at once with 10-1,000 solutions (these need
more than one given); for redundancy, the 17-clue puzzles as they are. Each call's answer is
checked (true candidates against the union of every solution; the made-unique puzzle counted
unique), then timed (wall clock, best of ``--repeat``) and the
medians printed with their targets. Backdoors: puzzles drawn from
``forum_hardest_1905_11plus.txt``; why not: a random wrong candidate of each of those and of
17-clue puzzles (its refutation checked found); bottlenecks of 17-clue puzzles; the trainer:
one board of a technique from a seed drawn, timed once (a generated puzzle and its path), its
first step checked.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import shudu

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "royle_17clue.txt"
#: Generated puzzles of 23+ givens (docs of ../shared/data/SOURCES.md): cut deeper, their
#: solutions differ in more places, and making them unique takes more than one given.
GENERATED = DATA.with_name("kaggle_like_easy_10k.txt")
#: "Very many solutions": at least this many, counted.
MANY = 100_000
#: The measures ``--only`` can pick.
ONLY = ("make-unique-many", "why-not-hardest")


def cut(puzzle: str, low: int, high: int, rng: random.Random) -> str | None:
    """The puzzle less random givens, one at a time, until it has ``low``-``high`` solutions."""
    text = list(puzzle)
    givens = [i for i, c in enumerate(text) if c != "."]
    rng.shuffle(givens)
    for cell in givens:
        text[cell] = "."
        found = shudu.count("".join(text), high + 1)
        if found > high:
            return None
        if found >= low:
            return "".join(text)
    return None


def cut_many(puzzle: str, low: int, high: int, rng: random.Random) -> str | None:
    """The puzzle less 10-16 random givens at once, if it then has ``low``-``high`` solutions."""
    givens = [i for i, c in enumerate(puzzle) if c != "."]
    gone = set(rng.sample(givens, rng.randint(10, 16)))
    text = "".join("." if i in gone else c for i, c in enumerate(puzzle))
    return text if low <= shudu.count(text, high + 1) <= high else None


def draw_generated(lines: list[str], count: int, rng: random.Random) -> list[str]:
    out: list[str] = []
    while len(out) < count:
        found = cut_many(rng.choice(lines), 10, 1000, rng)
        if found is not None:
            out.append(found)
    return out


def make_unique_line(what: str, puzzles: list[str]) -> str:
    times, sizes, proven = [], [], 0
    for puzzle in puzzles:
        made = shudu.make_unique(puzzle)
        assert made.result is not None and shudu.count(made.result, 2) == 1
        times.append(best(lambda p=puzzle: shudu.make_unique(p), 1))
        sizes.append(len(made.added))
        proven += made.proven_minimal
    return (
        f"make unique, {what}: median {statistics.median(times) * 1000:.1f} ms, "
        f"max {max(times) * 1000:.0f} ms (target < 2 s); givens added {min(sizes)}-{max(sizes)}, "
        f"{proven}/{len(sizes)} proven minimal"
    )


def make_unique_many_line(lines: list[str], count: int, rng: random.Random) -> str:
    """make_unique on 17-clue puzzles less five givens (12 givens), each with 10^5 solutions or
    more (counted), with no budget and with ``timeout=1``: time, givens added, time past the
    deadline."""
    times, sizes, bounded, over = [], [], [], []
    while len(times) < count:
        line = rng.choice(lines)
        givens = [i for i, c in enumerate(line) if c != "."]
        gone = set(rng.sample(givens, 5))
        puzzle = "".join("." if i in gone else c for i, c in enumerate(line))
        if shudu.count(puzzle, MANY) < MANY:
            continue
        start = time.perf_counter()
        made = shudu.make_unique(puzzle)
        times.append(time.perf_counter() - start)
        assert made.result is not None and shudu.count(made.result, 2) == 1
        sizes.append(len(made.added))
        start = time.perf_counter()
        quick = shudu.make_unique(puzzle, timeout=1)
        over.append(time.perf_counter() - start - 1)
        assert quick.result is None or shudu.count(quick.result, 2) == 1
        bounded.append(quick.status)
    return (
        f"make unique, 17-clue 9x9 less 5 givens, 10^5+ solutions: median {statistics.median(times):.2f} s, "
        f"max {max(times):.2f} s; givens added {min(sizes)}-{max(sizes)} (median "
        f"{statistics.median(sizes):.0f}); with timeout=1: {bounded.count('unique')} unique, "
        f"{bounded.count('timeout')} timeout, at most {max(0.0, max(over)) * 1000:.0f} ms past it"
    )


def why_not_line(what: str, puzzles: list[str], rng: random.Random) -> str:
    """why_not of a random wrong candidate of each puzzle (one its solution does not have)."""
    times, lengths, methods = [], [], []
    for puzzle in puzzles:
        solution = shudu.solve(puzzle).solution
        assert solution is not None
        grid = shudu.parse_board(puzzle).grid()
        wrong = [(c, d) for c in range(81) for d in grid.candidates(c) if d != solution.cells[c]]
        cell, digit = rng.choice(wrong)
        found = shudu.why_not(puzzle, cell, digit)
        assert found.status == "refuted", found.reason
        lengths.append(len(found.steps))
        methods.append(found.method)
        times.append(best(lambda p=puzzle, c=cell, d=digit: shudu.why_not(p, c, d), 1))
    return (
        f"why not, a wrong candidate of a {what}: median {statistics.median(times) * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms (no target in the issue); steps {min(lengths)}-{max(lengths)} "
        f"(median {statistics.median(lengths):.0f}), {methods.count('contradiction')} contradictions"
    )


def draw(lines: list[str], count: int, low: int, high: int, rng: random.Random) -> list[str]:
    out: list[str] = []
    while len(out) < count:
        found = cut(rng.choice(lines), low, high, rng)
        if found is not None:
            out.append(found)
    return out


def best(call: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=15, help="puzzles per measure (default 15)")
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=ONLY, help="run this one measure alone")
    args = parser.parse_args()
    if not DATA.exists():
        print(f"skipped: {DATA} is absent")
        return 0
    lines = DATA.read_text().split()
    rng = random.Random(args.seed)
    if args.only == "make-unique-many":
        print(make_unique_many_line(lines, args.count, random.Random(args.seed)))
        return 0
    hardest = DATA.with_name("forum_hardest_1905_11plus.txt")
    if args.only == "why-not-hardest":
        if hardest.exists():
            puzzles = [line.split()[0][:81] for line in hardest.read_text().splitlines()]
            print(why_not_line("forum hardest 9x9", rng.sample(puzzles, args.count), rng))
        return 0

    times, counts = [], []
    for puzzle in draw(lines, args.count, 500, 2000, rng):
        solutions = [s.cells for s in shudu.solutions(puzzle)]
        union = tuple(tuple(sorted({s[c] for s in solutions})) for c in range(81))
        assert shudu.true_candidates(puzzle).candidates == union
        times.append(best(lambda p=puzzle: shudu.true_candidates(p), args.repeat))
        counts.append(len(solutions))
    print(
        f"true candidates, 9x9 with {min(counts)}-{max(counts)} solutions "
        f"(median {statistics.median(counts):.0f}): "
        f"median {statistics.median(times) * 1000:.1f} ms (target < 50 ms)"
    )

    times = []
    for puzzle in rng.sample(lines, args.count):
        assert shudu.redundant(puzzle).status == "unique"
        times.append(best(lambda p=puzzle: shudu.redundant(p), args.repeat))
    print(f"redundancy, 17-clue 9x9: median {statistics.median(times) * 1000:.2f} ms (target < 20 ms)")

    print(why_not_line("17-clue 9x9", rng.sample(lines, args.count), rng))
    times, stalls, necks = [], [], 0
    for puzzle in rng.sample(lines, args.count):
        found = shudu.bottlenecks(puzzle)
        assert found.status in ("found", "not-found")
        stalls.append(len(found.stalls))
        necks += bool(found.bottlenecks)
        times.append(best(lambda p=puzzle: shudu.bottlenecks(p), 1))
    print(
        f"bottlenecks, 17-clue 9x9: median {statistics.median(times) * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms (no target in the issue); stalls {min(stalls)}-{max(stalls)}, "
        f"{necks}/{len(stalls)} with a bottleneck"
    )
    print(
        make_unique_line(
            "17-clue 9x9 less givens, 10-1,000 solutions", draw(lines, args.count, 10, 1000, rng)
        )
    )
    print(make_unique_many_line(lines, args.count, random.Random(args.seed)))
    if GENERATED.exists():
        generated = draw_generated(GENERATED.read_text().split(), args.count, rng)
        print(make_unique_line("generated 9x9 less 10-16 givens, 10-1,000 solutions", generated))
    if hardest.exists():
        puzzles = rng.sample([line.split()[0][:81] for line in hardest.read_text().splitlines()], args.count)
        times, sizes = [], []
        for puzzle in puzzles:
            found = shudu.backdoors(puzzle)
            assert found.status == "found" and found.complete and found.size is not None
            sizes.append(found.size)
            times.append(best(lambda p=puzzle: shudu.backdoors(p), 1))
        print(
            f"backdoors (singles), forum hardest 9x9 (sizes {min(sizes)}-{max(sizes)}): "
            f"median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms"
        )
        print(why_not_line("forum hardest 9x9", puzzles, rng))
    for technique in ("Naked pair", "Locked candidates (pointing)"):
        times = []
        for _ in range(args.count):
            seed = rng.randrange(2**32)
            start = time.perf_counter()
            drill = shudu.train(technique, seed=seed).drills[0]
            times.append(time.perf_counter() - start)
            assert shudu.find_steps(drill.board, technique).steps
        print(
            f"trainer, one {technique} board (a generated puzzle walked): "
            f"median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms (target < 1 s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
