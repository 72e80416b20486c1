"""Solve benchmark: shudu's ``fast`` solver against the peers installed beside it.

Run from the repository root::

    python benchmarks/solve.py                 # every set, peers on a sample of each
    python benchmarks/solve.py --quick         # 2,000 puzzles a set, fewer repeats
    python benchmarks/solve.py --against OLD.so --max 3000 --repeat 3 --no-peers
                                               # this build against another build of the
                                               # C core, same run, interleaved (docs/core.md)
    python benchmarks/solve.py --tdoku /tmp/libtdoku_batch.so --max 10000
                                               # side by side with tdoku, same run,
                                               # interleaved (build: tools/build_tdoku.sh)
    python benchmarks/solve.py --tdoku /tmp/libtdoku_batch.so --fsss2 /tmp/libfsss2_batch.so \\
        --schoku /tmp/schoku --isomorphs 1 --max 10000
                                               # and with fsss2 and Schoku (tools/build_*.sh),
                                               # on random isomorphs of the puzzles
    python benchmarks/solve.py --threads 1,2   # batch scaling over threads (wall clock)
    python benchmarks/solve.py --general       # the general engine: 16x16 and the 9x9
                                               # variant sets against the 17-clue set,
                                               # the pure-Python twin and DLX

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
import importlib.util
import os
import platform
import random
import re
import sys
import time
from array import array
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from shudu.geometry import Geometry  # noqa: E402
from shudu.notation import BatchCode, char_digit  # noqa: E402
from shudu.render.plots import PlotError, check_plot, plot_histograms, tally  # noqa: E402
from shudu.solvers import _fast_py, fast  # noqa: E402

SETS = [
    ("kaggle_like_easy_10k.txt", "easy (kaggle-like)"),
    ("royle_17clue.txt", "17-clue"),
    ("magictour_top1465.txt", "top1465"),
    ("forum_hardest_1905_11plus.txt", "forum hardest 11+"),
    ("forum_hardest_1106.txt", "hardest 1106"),
    ("serg_benchmark_multisolution.txt", "serg multi-solution"),
]
# Reference figures, used only without --tdoku: tdoku (built from its source with its own
# flags, -O3 -march=native) measured side by side with shudu on this machine class, µs per
# puzzle, first solution and count to 2.
TDOKU = {
    "kaggle_like_easy_10k.txt": (1.30, 1.22),
    "royle_17clue.txt": (3.16, 3.18),
    "magictour_top1465.txt": (7.58, 11.94),
    "forum_hardest_1905_11plus.txt": (28.05, 53.55),
    "forum_hardest_1106.txt": (44.76, 83.48),
    "serg_benchmark_multisolution.txt": (1.98, 2.31),
}


CLOCK = time.process_time
T = TypeVar("T")


def load_core(path: Path) -> ModuleType:
    """Another build of the C core (a ``_core_c*.so`` file), loaded beside this one."""
    spec = importlib.util.spec_from_file_location("_core_c", path)
    if spec is None or spec.loader is None:
        sys.exit(f"{path} is not an extension module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compare_builds(other: ModuleType, data: Path, max_lines: int, repeat: int) -> None:
    """Time this build's C core and another on the same puzzles (one bytes buffer of lines),
    interleaved, best of ``repeat``; both engines on 9x9 (the general one forced), the 9x9
    variant sets and the 16x16 set."""
    from shudu import _core_c  # type: ignore[attr-defined]

    cases: list[tuple[str, str, int, bool, str | None]]
    cases = [(name, label, 9, False, None) for name, label in SETS]
    cases += [("magictour_top1465.txt", "top1465, general engine", 9, True, None)]
    cases += [(name, label, size, False, variant) for name, label, size, variant in GENERAL_SETS]
    print("| set | engine | puzzles | limit | this µs | other µs | this / other | guesses this / other |")
    print("|---|---|---|---|---|---|---|---|")
    for filename, label, size, general, variant in cases:
        path = data / filename
        if not path.exists():
            print(f"| {label} | missing: {path} | | | | | |")
            continue
        lines = path.read_text().split()
        random.Random(2026).shuffle(lines)
        lines = lines[: max_lines if size == 9 else max(1, max_lines // 75)]
        batch = ("\n".join(lines) + "\n").encode()  # one buffer, as the batch API is fed most
        houses = fast.shape_houses(Geometry(size, variant=variant))
        shapes = {
            "this": _core_c.Shape(size, houses, None, general),
            "other": other.Shape(size, houses, None, general),
        }
        engine = engine_name(shapes["this"])
        first_found: dict[str, tuple[bytes, ...]] = {}
        for limit in (1, 2):
            best = {"this": float("inf"), "other": float("inf")}
            answers = {}
            for run in range(repeat):
                for key in ("this", "other") if run % 2 == 0 else ("other", "this"):
                    started = CLOCK()
                    answers[key] = shapes[key].solve_many(batch, limit)
                    best[key] = min(best[key], CLOCK() - started)
            check_answers(answers["this"], answers["other"], filename, limit, first_found)
            this, that = (best[k] / len(lines) * 1e6 for k in ("this", "other"))
            guesses = (sum(array("Q", answers[k][4])) / len(lines) for k in ("this", "other"))
            print(
                f"| {label} | {engine} | {len(lines):,} | {limit} | {this:,.2f} | {that:,.2f} |"
                f" {this / that:.3f} | {' / '.join(f'{g:.1f}' for g in guesses)} |"
            )


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


def isomorph(puzzle: str, rng: random.Random) -> str:
    """A random isomorph of an 81-cell puzzle: digits relabelled, rows permuted within bands
    and bands among themselves, columns likewise, and the grid transposed half the time."""

    def axis() -> list[int]:
        return [3 * band + line for band in rng.sample(range(3), 3) for line in rng.sample(range(3), 3)]

    relabel = dict(zip("123456789", rng.sample("123456789", 9), strict=True))
    rows, columns, transpose = axis(), axis(), rng.random() < 0.5
    return "".join(
        relabel.get(puzzle[9 * c + r] if transpose else puzzle[9 * r + c], ".") for r in rows for c in columns
    )


class Peer:
    """Another solver timed side by side with shudu on a buffer of 82-byte lines."""

    name = "peer"
    modes: tuple[int, ...] = (1, 2)

    def prepare(self, buffer: bytes, count: int) -> None:
        """Called once per set, before any timing of it."""

    def solve(self, buffer: bytes, count: int, limit: int) -> tuple[float, list[int] | None, bytes | None]:
        """Solve the ``count`` lines of ``buffer``: (seconds, each puzzle's solution count up
        to ``limit`` or None where the peer does not tell them, solution text or None)."""
        raise NotImplementedError


class Batch(Peer):
    """A library with a batch entry point (tools/build_tdoku.sh, tools/build_fsss2.sh),
    through ctypes: one call per pass, no Python per puzzle."""

    def __init__(self, name: str, path: Path, symbol: str, modes: tuple[int, ...], configuration: int | None):
        import ctypes

        self.ctypes, self.name, self.modes, self.configuration = ctypes, name, modes, configuration
        try:
            self.batch = getattr(ctypes.CDLL(str(path)), symbol)
        except (OSError, AttributeError) as exc:
            sys.exit(f"{path}: not a {name} build from tools/build_{name}.sh ({exc})")
        u64 = ctypes.POINTER(ctypes.c_uint64)
        size = ctypes.c_size_t
        extra = [] if configuration is None else [ctypes.c_uint32]
        self.batch.argtypes = [ctypes.c_char_p, size, size, size, *extra, ctypes.c_char_p, u64, u64]
        self.batch.restype = None

    def solve(self, buffer: bytes, count: int, limit: int) -> tuple[float, list[int] | None, bytes | None]:
        ctypes = self.ctypes
        solutions = ctypes.create_string_buffer(81 * count)
        counts = (ctypes.c_uint64 * count)()
        guesses = (ctypes.c_uint64 * count)()
        extra = [] if self.configuration is None else [self.configuration]
        started = CLOCK()
        self.batch(buffer, 82, count, limit, *extra, solutions, counts, guesses)
        seconds = CLOCK() - started
        self.guesses = sum(guesses) / max(1, count)
        return seconds, list(counts), solutions.raw if self.name == "tdoku" else None


class Schoku(Peer):
    """The Schoku program (tools/build_schoku.sh) on a file of the set, one thread: ``-rO``
    finds a first solution, ``-rM`` counts to two. On the wall clock the time is the solving
    time it prints with ``-y`` (from opening the input file to the last answer); on the CPU
    clock it is the CPU time of the process less that of a run on a one-puzzle file (the
    start-up), the best of several."""

    name = "Schoku"

    def __init__(self, path: Path, wall: bool) -> None:
        import tempfile

        if not os.access(path, os.X_OK):
            sys.exit(f"{path}: not a Schoku program (tools/build_schoku.sh)")
        self.path, self.wall = path, wall
        self.folder = tempfile.TemporaryDirectory(prefix="schoku-")
        self.puzzles = Path(self.folder.name) / "puzzles.txt"
        self.answers = Path(self.folder.name) / "solutions.txt"
        self.start_up = 0.0

    def prepare(self, buffer: bytes, count: int) -> None:
        if not self.wall:
            self.puzzles.write_bytes(buffer[:82])
            self.start_up = min(self.run(1, 1)[1] for _ in range(7))
        self.puzzles.write_bytes(buffer)

    def run(self, count: int, limit: int) -> tuple[float, float, str]:
        """One run: (its ``-y`` seconds, its CPU seconds, what it printed)."""
        import resource
        import subprocess

        rules = "-rO" if limit == 1 else "-rM"
        self.answers.unlink(missing_ok=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        run = subprocess.run(
            [str(self.path), "-t1", rules, "-y", str(self.puzzles), str(self.answers)],
            capture_output=True,
            text=True,
            check=False,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        found = re.search(r"([0-9.]+)(µs|ns)/puzzle", run.stdout)
        if run.returncode or found is None:
            sys.exit(f"{self.path} {rules} failed ({run.returncode}): {run.stdout} {run.stderr}")
        return float(found[1]) * (1e-6 if found[2] == "µs" else 1e-9) * count, cpu, run.stdout

    def solve(self, buffer: bytes, count: int, limit: int) -> tuple[float, list[int] | None, bytes | None]:
        if len(buffer) != self.puzzles.stat().st_size:  # the warm-up's slice
            self.puzzles.write_bytes(buffer)
        wall, cpu, printed = self.run(count, limit)
        several = re.search(r"(\d+)\s+puzzles had (?:more than one|multiple) solution", printed)
        none = re.search(r"(\d+)\s+puzzles had no solution", printed)
        self.several = int(several[1]) if several else 0
        self.unsolved = int(none[1]) if none else 0
        text = self.answers.read_bytes()
        solutions = b"".join(text[164 * i + 82 : 164 * i + 163] for i in range(count))
        return (wall if self.wall else max(cpu - self.start_up, 0.0)), None, solutions


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def compare_peers(
    peers: list[Peer], data: Path, max_lines: int, rounds: int, passes: int, seed: int | None
) -> None:
    """shudu's batch API and each peer on the same puzzles (the same isomorphs of them with
    ``seed``), one thread each, in ``rounds`` interleaved rounds of ``passes`` passes: best
    pass of each tool in each round; shudu's time over the fastest peer's in each round, its
    median and range; answers and solution counts cross-checked."""
    names = [peer.name for peer in peers]
    print(
        "| set | puzzles | mode | "
        + " | ".join(f"{name} µs" for name in names)
        + " | shudu µs | shudu ÷ fastest (median, range) | fastest | guesses "
        + " / ".join(name for name in names if name != "Schoku")
        + " / shudu | load |"
    )
    print("|---|---:|---|" + "---:|" * (len(names) + 1) + "---|---|---|---|")
    for filename, label in SETS:
        path = data / filename
        if not path.exists():
            print(f"| {label} | missing: {path} |")
            continue
        lines = [line.replace("0", ".") for line in read_set(path, max_lines)]
        if any(len(line) != 81 for line in lines):
            print(f"| {label} | not all lines are 9x9 puzzles |")
            continue
        if seed is not None:
            rng = random.Random(f"{seed}:{filename}")
            lines = [isomorph(line, rng) for line in lines]
        buffer = ("\n".join(lines) + "\n").encode()
        count = len(lines)
        multi = filename.startswith("serg")
        for peer in peers:
            peer.prepare(buffer, count)
        for limit in (1, 2):
            tools = [peer for peer in peers if limit in peer.modes]
            if not tools:
                continue
            fast.solve_many(buffer[: 82 * 200], limit)  # warm-up
            for peer in tools:
                peer.solve(buffer[: 82 * min(count, 200)], min(count, 200), limit)
            best = dict.fromkeys([peer.name for peer in tools] + ["shudu"], float("inf"))
            ratios, fastest = [], Counter[str]()
            theirs: dict[str, tuple[list[int] | None, bytes | None]] = {}
            for run in range(rounds):
                round_best = dict.fromkeys(best, float("inf"))
                order: list[Peer | None] = [*tools, None]
                shift = run % len(order)
                for tool in order[shift:] + order[:shift]:
                    for _ in range(passes):
                        if tool is None:
                            started = CLOCK()
                            ours = fast.solve_many(buffer, limit)
                            seconds, key = CLOCK() - started, "shudu"
                        else:
                            seconds, *answer = tool.solve(buffer, count, limit)
                            key, theirs[tool.name] = tool.name, (answer[0], answer[1])
                        round_best[key] = min(round_best[key], seconds)
                peer_best = min(round_best[peer.name] for peer in tools)
                ratios.append(round_best["shudu"] / peer_best)
                fastest[min((round_best[peer.name], peer.name) for peer in tools)[1]] += 1
                for key in best:
                    best[key] = min(best[key], round_best[key])
            cross_check(tools, theirs, ours, lines, filename, limit, multi)
            mode = "first" if limit == 1 else "count-2"
            guesses = [
                f"{peer.guesses:.1f}" if peer in tools else "–" for peer in peers if isinstance(peer, Batch)
            ]
            cells = [f"{best[name] / count * 1e6:.2f}" if name in best else "–" for name in names]
            guesses.append(f"{sum(ours.guesses) / count:.1f}")
            print(
                f"| {label} | {count:,} | {mode} | {' | '.join(cells)} | {best['shudu'] / count * 1e6:.2f} |"
                f" **{median(ratios):.2f}** ({min(ratios):.2f}–{max(ratios):.2f}) |"
                f" {fastest.most_common(1)[0][0]} | {' / '.join(guesses)} |"
                f" {os.getloadavg()[0]:.1f} |"
            )


def cross_check(
    peers: list[Peer],
    theirs: dict[str, tuple[list[int] | None, bytes | None]],
    ours: fast.BatchResult,
    lines: list[str],
    filename: str,
    limit: int,
    multi: bool,
) -> None:
    """Stop unless every peer agrees with shudu: the same solution counts where a peer tells
    them, the same solution of every unique puzzle, a valid solution of every puzzle."""
    count = len(lines)
    mine = ours.solution_text
    for peer in peers:
        counts, solutions = theirs[peer.name]
        if counts is not None and list(ours.counts) != counts:
            sys.exit(f"{filename}: shudu and {peer.name} count different solutions (limit {limit})")
        if isinstance(peer, Schoku):
            several = sum(1 for n in ours.counts if n > 1)
            unsolved = sum(1 for n in ours.counts if n == 0)
            if (limit == 2 and peer.several != several) or peer.unsolved != unsolved:
                sys.exit(f"{filename}: shudu and Schoku count different solutions (limit {limit})")
        if solutions is None or limit != 1:
            continue
        if check(lines, [solutions[81 * i : 81 * i + 81].decode() for i in range(count)]):
            sys.exit(f"{filename}: {peer.name} gives a wrong solution")
        if not multi and solutions != mine:
            sys.exit(f"{filename}: shudu and {peer.name} give different solutions")


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


def thread_scaling(data: Path, max_lines: int, threads: list[int], repeat: int) -> None:
    """Wall-clock time of one batch on each thread count, interleaved, best of ``repeat``."""
    cores = os.cpu_count() or 1
    print(f"batch scaling, wall clock, best of {repeat}, {cores} CPUs, {load_average()} at start")
    print(
        "| set | puzzles | limit | "
        + " | ".join(f"{t} thread{'s' * (t > 1)} µs" for t in threads)
        + " | speed-up | load |"
    )
    print("|---|---:|---|" + "---:|" * len(threads) + "---|---|")
    busy = False
    for filename, label in SETS:
        path = data / filename
        if not path.exists():
            continue
        lines = read_set(path, max_lines)
        buffer = ("\n".join(lines) + "\n").encode()
        limit = 2
        fast.solve_many(buffer[: 82 * 200], limit, max(threads))  # warm-up
        started_set, others_before = time.perf_counter(), other_cpu_seconds()
        best = dict.fromkeys(threads, float("inf"))
        for run in range(repeat):
            for t in threads if run % 2 == 0 else threads[::-1]:
                started = time.perf_counter()
                fast.solve_many(buffer, limit, t)
                best[t] = min(best[t], time.perf_counter() - started)
        load = os.getloadavg()[0]
        others = other_cpu_seconds()
        if others is not None and others_before is not None:
            # what other processes ran meanwhile, in CPUs on average (the load average counts
            # this benchmark's own threads too)
            spent = time.perf_counter() - started_set
            busy |= (others - others_before) / spent > 0.25
        else:
            busy |= load + max(threads) > cores + 0.5
        base = best[threads[0]]
        speed = " / ".join(f"{base / best[t]:.2f}x" for t in threads[1:])
        print(
            f"| {label} | {len(lines):,} | {limit} | "
            + " | ".join(f"{best[t] / len(lines) * 1e6:.2f}" for t in threads)
            + f" | {speed} | {load:.1f} |"
        )
    if busy:
        print(
            f"\nThe machine was busy (other processes used more than a quarter of a CPU, or where"
            f" that cannot be read, load average plus {max(threads)} threads above its {cores}"
            " CPUs): these speed-ups measure the sharing, not the scaling."
        )


# The general engine's sets: (file, label, size, variant).
GENERAL_SETS = [
    ("variant_x.txt", "X (both diagonals)", 9, "x"),
    ("variant_windoku.txt", "windoku", 9, "windoku"),
    ("variant_pyramid.txt", "pyramid", 9, "pyramid"),
    ("size16_owhy.txt", "16x16", 16, None),
]
# Each variant set should cost at most this many standard 17-clue puzzles (same run, same mode).
VARIANT_TARGET = 3.0


def check_general(geometry: Geometry, lines: list[str], solutions: list[str | None]) -> int:
    """How many answers are wrong: not matching the givens, or a house without every digit."""
    wrong = 0
    size = geometry.size
    for line, sol in zip(lines, solutions, strict=True):
        if sol is None:
            wrong += 1
            continue
        given = all(g in ".0" or g == s for g, s in zip(line, sol, strict=True))
        if not given or any(len({sol[c] for c in house}) != size for house in geometry.house_cells):
            wrong += 1
    return wrong


def per_puzzle_sample(solve: Callable[[str], object], lines: list[str], seconds: float) -> int:
    """Solve lines one at a time until done or ``seconds`` of CPU time are spent: how many."""
    started = CLOCK()
    done = 0
    for line in lines:
        solve(line)
        done += 1
        if CLOCK() - started > seconds:
            break
    return done


def general_engine(data: Path, max_lines: int, repeat: int, sample: int, seconds: float) -> None:
    """The general engine (every size and variant) on 16x16 and the 9x9 variant sets: µs per
    puzzle as a multiple of a standard 17-clue puzzle (9x9 engine) in the same run and mode,
    then the pure-Python twin and DLX on the first puzzles of each set, against the C core
    on the very same puzzles."""
    from shudu import solvers
    from shudu.puzzle import Puzzle

    print(
        f"every size and variant: clock={CLOCK.__name__}, best of {repeat} runs of at least"
        f" {MIN_RUN_SECONDS * 1000:g} ms each, one thread, {load_average()}"
    )
    reference_path = data / "royle_17clue.txt"
    if not reference_path.exists():
        print(f"missing: {reference_path} (the 17-clue reference set)")
        return
    reference = read_set(reference_path, max_lines)
    ref_data = ("\n".join(reference) + "\n").encode()
    fast.solve_many(ref_data[: 82 * 200], 2)  # warm-up
    ref_us = {}
    for limit in (1, 2):
        seconds_taken, _ = best_per_pass(repeat, lambda limit=limit: fast.solve_many(ref_data, limit))
        ref_us[limit] = seconds_taken / len(reference) * 1e6
    print(
        f"reference: 17-clue, {len(reference):,} puzzles, 9x9 engine:"
        f" {ref_us[1]:.2f} µs first / {ref_us[2]:.2f} µs count-2"
    )
    print()
    print(
        "| set | puzzles | engine | first µs | count-2 µs | × 17-clue (first / count-2) |"
        " guesses (first / count-2) | nodes (count-2) |"
    )
    print("|---|---:|---|---:|---:|---|---|---:|")
    dlx = solvers.get("dlx")
    peer_rows: list[str] = []
    for filename, label, size, variant in GENERAL_SETS:
        path = data / filename
        if not path.exists():
            print(f"| {label} | missing: {path} | | | | | | |")
            continue
        geometry = Geometry(size, variant=variant)
        lines = read_set(path, 0)
        buffer = ("\n".join(lines) + "\n").encode()
        fast.solve_many(buffer, 2, geometry=geometry)  # warm-up
        us, results = {}, {}
        for limit in (1, 2):
            seconds_taken, result = best_per_pass(
                repeat,
                lambda limit=limit, buffer=buffer, geometry=geometry: fast.solve_many(
                    buffer, limit, geometry=geometry
                ),
            )
            us[limit], results[limit] = seconds_taken / len(lines) * 1e6, result
        for limit, result in results.items():
            expected = {"solved"} if limit == 1 else {"unique"}
            wrong = check_general(geometry, lines, result.solutions)
            if set(result.statuses) != expected or wrong:
                sys.exit(f"{filename}: wrong answers (limit {limit}): {set(result.statuses)}, {wrong} bad")
        engine = engine_name(fast._shape(geometry))
        times = " / ".join(f"{us[k] / ref_us[k]:.1f}x" for k in (1, 2))
        if size == 9 and max(us[k] / ref_us[k] for k in (1, 2)) > VARIANT_TARGET:
            times += f" (target ≤ {VARIANT_TARGET:g}x)"
        guesses = " / ".join(f"{sum(results[k].guesses) / len(lines):.1f}" for k in (1, 2))
        print(
            f"| {label} | {len(lines):,} | {engine} | {us[1]:,.2f} | {us[2]:,.2f} | {times} |"
            f" {guesses} | {sum(results[2].nodes) / len(lines):,.1f} |"
        )
        # the twin and DLX, count to two, on the first puzzles until done or out of time; the
        # C core on the same puzzles, since the cost of a set lies mostly in a few puzzles
        first = lines[:sample]
        peers: list[tuple[str, Callable[[str], object]]] = [
            (
                "pure-Python twin",
                lambda line, geometry=geometry: fast.solve_many(
                    [line], 2, geometry=geometry, engine=_fast_py
                ),
            ),
            (
                "dlx",
                lambda line, size=size, geometry=geometry: dlx.count(
                    Puzzle([char_digit(ch, size) or 0 for ch in line], geometry=geometry), 2
                ),
            ),
        ]
        for name, solve in peers:
            solve(first[0])  # warm-up
            done = first[: per_puzzle_sample(solve, first, seconds)]
            started = CLOCK()
            for line in done:
                solve(line)
            peer_us = (CLOCK() - started) / len(done) * 1e6
            c_seconds, _ = best_per_pass(
                repeat, lambda done=done, geometry=geometry: fast.solve_many(done, 2, geometry=geometry)
            )
            c_us = c_seconds / len(done) * 1e6
            peer_rows.append(
                f"| {label} | {name} | {len(done)} | {peer_us:,.0f} | {c_us:,.1f} | {peer_us / c_us:,.0f}x |"
            )
    print()
    print("| set (count to 2) | peer | puzzles | peer µs | C core µs, same puzzles | peer / C |")
    print("|---|---|---:|---:|---:|---:|")
    print("\n".join(peer_rows))
    print()
    print(
        "No pip package that solves 16x16 was a usable peer: py-sudoku 2.0.0 (plain"
        " backtracking) took 15 s on the first 16x16 puzzle of the set."
    )


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
    parser.add_argument(
        "--threads",
        default="1",
        help="threads for the batch; a list (1,2,4) times the batch on each, wall clock",
    )
    parser.add_argument("--quick", action="store_true", help="--max 2000 --repeat 2")
    parser.add_argument("--peer-seconds", type=float, default=15.0, help="time cap per peer/set")
    parser.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument(
        "--general",
        action="store_true",
        help="only the general engine: 16x16 and the 9x9 variant sets against the 17-clue set,"
        " the pure-Python twin and DLX (--peer-sample puzzles, --peer-seconds each)",
    )
    parser.add_argument(
        "--against",
        type=Path,
        metavar="SO",
        help="only compare this C core with another build of it (a _core_c*.so file)",
    )
    parser.add_argument(
        "--tdoku",
        type=Path,
        metavar="SO",
        help="compare with tdoku, side by side (a build from tools/build_tdoku.sh)",
    )
    parser.add_argument(
        "--fsss2",
        type=Path,
        metavar="SO",
        help="compare with fsss2 counting to two, side by side (a build from tools/build_fsss2.sh)",
    )
    parser.add_argument(
        "--schoku",
        type=Path,
        metavar="PROGRAM",
        help="compare with Schoku, side by side (a build from tools/build_schoku.sh; AVX2)",
    )
    parser.add_argument(
        "--isomorphs",
        type=int,
        metavar="SEED",
        help="with the peers: time a random isomorph of each puzzle (digits relabelled, rows,"
        " columns, bands and stacks permuted, transposed), the same one for every tool",
    )
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds with the peers")
    parser.add_argument(
        "--plot",
        metavar="FILE",
        help="a histogram of shudu.solve's seconds per puzzle for each set (its first"
        " --peer-sample puzzles) to FILE.svg or .png (needs matplotlib, the plot extra)",
    )
    parser.add_argument(
        "--sets",
        default="",
        help="only the sets whose file name or label holds one of these words (comma-separated)",
    )
    args = parser.parse_args(argv)
    if args.plot:
        try:
            check_plot(args.plot)
        except PlotError as exc:
            parser.error(str(exc))
    if args.sets:
        words = [word.strip().lower() for word in args.sets.split(",") if word.strip()]
        chosen = [
            (name, label)
            for name, label in SETS
            if any(w in name.lower() or w in label.lower() for w in words)
        ]
        if not chosen:
            parser.error(f"--sets {args.sets!r} names none of: " + ", ".join(label for _, label in SETS))
        SETS[:] = chosen
    try:
        thread_counts = [int(t) for t in str(args.threads).split(",")]
    except ValueError:
        parser.error(f"--threads takes a number or a list such as 1,2,4, not {args.threads!r}")
    if any(t < 1 for t in thread_counts):
        parser.error("--threads: each count must be at least 1")
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    if args.quick:
        args.max, args.repeat = args.max or 2000, 2
    peers: list[Peer] = []
    if args.tdoku is not None:
        peers.append(Batch("tdoku", args.tdoku, "tdoku_batch", (1, 2), None))
    if args.fsss2 is not None:
        peers.append(Batch("fsss2", args.fsss2, "fsss2_batch", (2,), 0))
    if args.schoku is not None:
        peers.append(Schoku(args.schoku, wall=args.clock == "wall"))
    if args.isomorphs is not None and not peers:
        parser.error("--isomorphs times the peers: give --tdoku, --fsss2 or --schoku too")
    if peers:
        print(
            f"shudu ({fast.IMPLEMENTATION}) against {', '.join(peer.name for peer in peers)}:"
            f" clock={args.clock}, one thread, {args.rounds} interleaved rounds of best of"
            f" {args.repeat} passes, "
            + ("the puzzles as filed" if args.isomorphs is None else f"isomorphs (seed {args.isomorphs})")
        )
        print(
            f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs,"
            f" {load_average()}"
        )
        compare_peers(peers, args.data, args.max, args.rounds, args.repeat, args.isomorphs)
        print(f"at the end: {load_average()}")
        return
    if args.general:
        general_engine(args.data, args.max or 10000, args.repeat, args.peer_sample, args.peer_seconds)
        return
    if len(thread_counts) > 1:
        thread_scaling(args.data, args.max or 10000, thread_counts, args.repeat)
        return
    args.threads = thread_counts[0]
    if args.against is not None:
        print(f"this C core against {args.against}: clock={args.clock}, best of {args.repeat}, interleaved")
        print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
        compare_builds(load_core(args.against), args.data, args.max or 3000, args.repeat)
        return

    print(
        f"shudu fast: implementation={fast.IMPLEMENTATION}, threads={args.threads}, "
        f"clock={args.clock}, best of {args.repeat}"
    )
    print(
        "vs tdoku: against reference figures of tdoku on this machine class, not this run"
        " (--tdoku SO runs both side by side)"
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
    times: dict[str, Counter[float]] = {}
    for filename, label in SETS:
        path = args.data / filename
        if not path.exists():
            print(f"| {label} | missing: {path} | | | | | |")
            continue
        lines = read_set(path, args.max)
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
        ratio = "–"
        if tdoku:  # reference figures, not this run: say so
            ratio = f"{timings[1] / tdoku[0]:.2f}x / " if 1 in timings else "– / "
            ratio += f"{timings[2] / tdoku[1]:.2f}x (reference)"
        guess_text = " / ".join(f"{guesses[k]:.1f}" for k in sorted(guesses))
        print(
            f"| {label} | {len(lines):,} | {first} | {timings[2]:.2f} | {guess_text} |"
            f" {settled:.1f} | {ratio} |"
        )
        mine = timings[1] if 1 in timings else timings[2]
        sample = lines[: args.peer_sample]
        if args.plot:
            times[label] = tally(solve_seconds(sample), digits=2)
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
    if args.plot:
        plot_histograms(args.plot, times=times, title="benchmarks/solve.py: seconds per puzzle, shudu.solve")
        print(f"wrote {args.plot}")
    print()
    from shudu.formats import parse_puzzle

    seconds, found = best_of(1, lambda: fast.Fast().count(parse_puzzle("." * 36)))
    print(f"empty 6x6 grid: {found:,} solutions counted in {seconds:.2f} s")


if __name__ == "__main__":
    main()
