"""The solve benchmark's peers: tdoku, fsss2 and Schoku side by side with shudu's C core
(``--tdoku``, ``--fsss2``, ``--schoku``), and the pip-installed solvers timed on a sample."""

from __future__ import annotations

import importlib
import importlib.util
import os
import random
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import solve_common as common
from shudu.solvers import fast
from solve_common import (
    SETS,
    check,
    median,
    read_set,
)


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
        started = common.CLOCK()
        self.batch(buffer, 82, count, limit, *extra, solutions, counts, guesses)
        seconds = common.CLOCK() - started
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
                            started = common.CLOCK()
                            ours = fast.solve_many(buffer, limit)
                            seconds, key = common.CLOCK() - started, "shudu"
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
