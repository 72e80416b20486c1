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
import os
import platform
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import solve_common as common
from shudu.render.plots import PlotError, check_plot, plot_histograms, tally
from shudu.solvers import _fast_py, fast
from solve_common import (
    ROOT,
    SETS,
    best_of,
    check,
    load_average,
    read_set,
    solve_seconds,
    timed_sample,
)
from solve_general import compare_builds, general_engine, load_core, thread_scaling
from solve_peers import PEERS, Batch, Peer, Schoku, compare_peers

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


def main(argv: list[str] | None = None) -> None:
    parser = _parser()
    args = parser.parse_args(argv)
    thread_counts = _settle(parser, args)
    if _side_by_side(parser, args):
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
    _fast_table(args)


def _parser() -> argparse.ArgumentParser:
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
    return parser


def _settle(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[int]:
    """Check the options, choose the sets and the clock; the thread counts asked for."""
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
    common.CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    if args.quick:
        args.max, args.repeat = args.max or 2000, 2
    return thread_counts


def _side_by_side(parser: argparse.ArgumentParser, args: argparse.Namespace) -> bool:
    """With --tdoku, --fsss2 or --schoku: shudu and those peers side by side; whether it ran."""
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
        return True
    return False


def _fast_table(args: argparse.Namespace) -> None:
    """The default run: the table of every set, then the peers', the twin's and the plot."""

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
        _set_rows(args, filename, label, peers, peer_rows, twin_rows, times)
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


def _set_rows(
    args: argparse.Namespace,
    filename: str,
    label: str,
    peers: dict[str, Callable[[str], str | None]],
    peer_rows: list[str],
    twin_rows: list[str],
    times: dict[str, Counter[float]],
) -> None:
    """Time one set: print its row; add its peers' and the twin's rows and its plot data."""
    path = args.data / filename
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
        f"| {label} | {len(lines):,} | {first} | {timings[2]:.2f} | {guess_text} | {settled:.1f} | {ratio} |"
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
        seconds, _ = best_of(1, lambda twin_lines=twin_lines: fast.solve_many(twin_lines, 2, engine=_fast_py))
        per = seconds / len(twin_lines) * 1e6
        twin_rows.append(f"| {label} | {len(twin_lines)} | {per:,.0f} | {per / timings[2]:,.0f}x |")


if __name__ == "__main__":
    main()
