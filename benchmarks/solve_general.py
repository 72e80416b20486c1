"""The solve benchmark's other tables: this C core against another build (``--against``), the
batch over threads (``--threads 1,2,4``) and the general engine (``--general``)."""

from __future__ import annotations

import importlib
import importlib.util
import os
import random
import sys
import time
from array import array
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import solve_common as common
from shudu.geometry import Geometry
from shudu.notation import char_digit
from shudu.solvers import _fast_py, fast
from solve_common import (
    MIN_RUN_SECONDS,
    SETS,
    best_per_pass,
    check_answers,
    engine_name,
    load_average,
    other_cpu_seconds,
    read_set,
)


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
                    started = common.CLOCK()
                    answers[key] = shapes[key].solve_many(batch, limit)
                    best[key] = min(best[key], common.CLOCK() - started)
            check_answers(answers["this"], answers["other"], filename, limit, first_found)
            this, that = (best[k] / len(lines) * 1e6 for k in ("this", "other"))
            guesses = (sum(array("Q", answers[k][4])) / len(lines) for k in ("this", "other"))
            print(
                f"| {label} | {engine} | {len(lines):,} | {limit} | {this:,.2f} | {that:,.2f} |"
                f" {this / that:.3f} | {' / '.join(f'{g:.1f}' for g in guesses)} |"
            )


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
    started = common.CLOCK()
    done = 0
    for line in lines:
        solve(line)
        done += 1
        if common.CLOCK() - started > seconds:
            break
    return done


def general_engine(data: Path, max_lines: int, repeat: int, sample: int, seconds: float) -> None:
    """The general engine (every size and variant) on 16x16 and the 9x9 variant sets: µs per
    puzzle as a multiple of a standard 17-clue puzzle (9x9 engine) in the same run and mode,
    then the pure-Python twin and DLX on the first puzzles of each set, against the C core
    on the very same puzzles."""
    print(
        f"every size and variant: clock={common.CLOCK.__name__}, best of {repeat} runs of at least"
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
        peer_rows += _slow_peer_rows(label, lines[:sample], geometry, repeat, seconds)
    print()
    print("| set (count to 2) | peer | puzzles | peer µs | C core µs, same puzzles | peer / C |")
    print("|---|---|---:|---:|---:|---:|")
    print("\n".join(peer_rows))
    print()
    print(
        "No pip package that solves 16x16 was a usable peer: py-sudoku 2.0.0 (plain"
        " backtracking) took 15 s on the first 16x16 puzzle of the set."
    )


def _slow_peer_rows(
    label: str, first: list[str], geometry: Geometry, repeat: int, seconds: float
) -> list[str]:
    """The twin's and DLX's rows of one set, on its ``first`` puzzles until done or out of time."""
    from shudu import solvers
    from shudu.puzzle import Puzzle

    dlx = solvers.get("dlx")
    size = geometry.size
    rows: list[str] = []
    # the twin and DLX, count to two, on the first puzzles until done or out of time; the
    # C core on the same puzzles, since the cost of a set lies mostly in a few puzzles
    peers: list[tuple[str, Callable[[str], object]]] = [
        (
            "pure-Python twin",
            lambda line, geometry=geometry: fast.solve_many([line], 2, geometry=geometry, engine=_fast_py),
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
        started = common.CLOCK()
        for line in done:
            solve(line)
        peer_us = (common.CLOCK() - started) / len(done) * 1e6
        c_seconds, _ = best_per_pass(
            repeat, lambda done=done, geometry=geometry: fast.solve_many(done, 2, geometry=geometry)
        )
        c_us = c_seconds / len(done) * 1e6
        rows.append(
            f"| {label} | {name} | {len(done)} | {peer_us:,.0f} | {c_us:,.1f} | {peer_us / c_us:,.0f}x |"
        )
    return rows
