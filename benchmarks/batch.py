"""Batch throughput: ``shudu batch`` solve, rate and generate on 1 and 2 local processes and on a
2-worker Dask LocalCluster, beside the single-process API in the same run; and ``shudu bank
fill`` (generate into SQLite) the same three ways.

Every configuration gets the same puzzles (and the same seeds): a puzzle's work does not depend
on what ran before it (the engine keeps nothing between calls). Prints puzzles/s, the ratio to
the API, and the Dask overhead per worker, with the load average: on a shared machine
the two-process figures mean little when the load is above the core count.
Targets (docs/scaling.md): >= 1.8x on 2 workers for rating; Dask overhead <= 10% per worker.

    python benchmarks/batch.py [--solve N] [--rate N] [--generate N] [--bank N] [--no-dask]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import shudu
from shudu.batch import Item, Job, Spec
from shudu.batch.bank import export, fill, import_records
from shudu.store import Store

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
RATE_OPTIONS = {"timeout": None, "node_limit": None, "box": None, "variant": None, "allow_multiple": False}


def load(name: str, count: int) -> list[str]:
    path = DATA / name
    if not path.is_file():
        sys.exit(f"benchmark data not found: {path} (see ../shared/data/SOURCES.md)")
    with open(path) as stream:
        return [line.strip() for _, line in zip(range(count), stream, strict=False)]


def items(puzzles: list[str]) -> Iterator[Item]:
    """The puzzles as ``shudu batch`` reads a file of one puzzle a line: parsed by the workers."""
    for line, text in enumerate(puzzles, start=1):
        yield Item(line, text, None, None, parsed=False)


def timed(work: Callable[[], Any]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def batch(spec: Spec, work: Any, folder: str, name: str, **how: Any) -> float:
    job = Job(spec, os.path.join(folder, name + ".jsonl"), "jsonl", timing=False, **how)
    return timed(lambda: shudu.batch.run_job(job, work))


def row(name: str, count: int, seconds: float, base: float | None) -> float:
    rate = count / seconds
    ratio = f"{rate / base:5.2f}x" if base else "  1.00x"
    print(f"  {name:<28} {count:>6} in {seconds:7.2f} s  {rate:10.1f}/s  {ratio}")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solve", type=int, default=20000, help="puzzles to solve (default 20000)")
    parser.add_argument("--rate", type=int, default=300, help="puzzles to rate (default 300)")
    parser.add_argument("--generate", type=int, default=24, help="puzzles to generate (default 24)")
    parser.add_argument("--bank", type=int, default=5000, help="puzzles to import and export (default 5000)")
    parser.add_argument("--no-dask", action="store_true", help="leave out the Dask LocalCluster")
    args = parser.parse_args()
    dask = not args.no_dask
    if dask:
        try:
            import distributed
        except ImportError:
            print("dask[distributed] is not installed: the cluster rows are left out")
            dask = False
    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    cluster = (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") if dask else None
    )
    address = cluster.scheduler_address if cluster is not None else None
    with tempfile.TemporaryDirectory() as folder:
        _solve_rows(args, folder, address)
        _rate_rows(args, folder, address)
        _generate_rows(args, folder, address)
        _bank_rows(args, folder, address)
    if cluster is not None:
        cluster.close()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def _solve_rows(args: argparse.Namespace, folder: str, address: str | None) -> None:
    """The C batch on 17-clue puzzles: the API, one job, two threads, Dask."""
    # solve: the C batch, 17-clue puzzles
    puzzles = load("royle_17clue.txt", args.solve)
    spec = Spec("solve", {"algorithm": "auto"})
    print(f"solve ({len(puzzles)} 17-clue puzzles; batch chunks of 4096)")
    base = row(
        "api solve_many, 1 thread", len(puzzles), timed(lambda: shudu.solve_many(puzzles, limit=2)), None
    )
    parsed = timed(
        lambda: shudu.solve_many(
            [p.puzzle.to_string() for p in shudu.read_puzzles(puzzles) if p.puzzle], limit=2
        )
    )
    row("api read_puzzles + solve_many", len(puzzles), parsed, base)
    row("batch --jobs 1", len(puzzles), batch(spec, items(puzzles), folder, "s1"), base)
    two = Spec("solve", {"algorithm": "auto"}, threads=2)
    row("batch --jobs 2 (threads)", len(puzzles), batch(two, items(puzzles), folder, "s2"), base)
    if address:
        row(
            "batch --dask (2 workers)",
            len(puzzles),
            batch(spec, items(puzzles), folder, "sd", dask=address),
            base,
        )


def _rate_rows(args: argparse.Namespace, folder: str, address: str | None) -> None:
    """The logic engine, one puzzle at a time: the API, one and two processes, Dask."""
    # rate: the logic engine, one puzzle at a time
    rated = load("radcliffe3m_sample.txt", args.rate)
    print(f"rate ({len(rated)} puzzles of the radcliffe sample; chunks of 32)")
    spec = Spec("rate", RATE_OPTIONS)
    base = row("api shudu.rate", len(rated), timed(lambda: [shudu.rate(p) for p in rated]), None)
    one = row(
        "batch --jobs 1",
        len(rated),
        batch(spec, items(rated), folder, "r1"),
        base,
    )
    two_rate = row(
        "batch --jobs 2 (processes)",
        len(rated),
        batch(spec, items(rated), folder, "r2", jobs=2),
        base,
    )
    print(f"  speed-up on 2 processes: {two_rate / one:.2f}x (target >= 1.8x)")
    if address:
        work = items(rated)
        on_dask = row(
            "batch --dask (2 workers)", len(rated), batch(spec, work, folder, "rd", dask=address), base
        )
        print(f"  Dask per worker vs the API: {on_dask / 2 / base:.2f} (target >= 0.90)")


def _generate_rows(args: argparse.Namespace, folder: str, address: str | None) -> None:
    """One puzzle per seed, then the same stored in a SQLite bank as they come."""
    # generate: one puzzle per seed
    count = args.generate
    print(f"generate ({count} 9x9 puzzles, rated)")
    spec = Spec("generate", {"seed": 0})
    base = row(
        "api shudu.generate",
        count,
        timed(lambda: [shudu.generate(seed=s, rate=True) for s in range(count)]),
        None,
    )
    pairs = [(k + 1, k) for k in range(count)]
    row("batch --jobs 1", count, batch(spec, pairs, folder, "g1"), base)
    pairs = [(k + 1, k) for k in range(count)]
    row("batch --jobs 2 (processes)", count, batch(spec, pairs, folder, "g2", jobs=2), base)
    if address:
        pairs = [(k + 1, k) for k in range(count)]
        row("batch --dask (2 workers)", count, batch(spec, pairs, folder, "gd", dask=address), base)

    # bank fill: the same puzzles, stored in SQLite by this process as they come
    print(f"bank fill ({count} 9x9 puzzles into a SQLite bank)")
    ways: list[tuple[str, dict[str, Any]]] = [
        ("bank fill, 1 process", {}),
        ("bank fill --jobs 2", {"jobs": 2}),
    ]
    if address:
        ways.append(("bank fill --dask (2 workers)", {"dask": address}))
    for number, (name, how) in enumerate(ways):
        store = Store(os.path.join(folder, f"bank{number}.sqlite3"))
        row(name, count, timed(lambda s=store, h=how: fill(s, spec, count, **h)), base)


def _bank_rows(args: argparse.Namespace, folder: str, address: str | None) -> None:
    """Bank import and export of 17-clue records with a level."""
    # bank import and export: records of 17-clue puzzles with a level (not rated here: an
    # import takes the rating from the record and checks the solution)
    banked = load("royle_17clue.txt", args.bank)
    records = os.path.join(folder, "records.jsonl")
    with open(records, "w") as stream:
        for text in banked:
            stream.write(json.dumps({"puzzle": text, "status": "unique", "level": "hard"}) + "\n")
    print(f"bank import and export ({len(banked)} 17-clue records)")
    store = Store(os.path.join(folder, "imported.sqlite3"))
    row("bank import (jsonl)", len(banked), timed(lambda: import_records(store, records)), None)
    for form in ("jsonl", "parquet"):
        path = os.path.join(folder, f"exported.{form}")
        row(f"bank export ({form})", len(banked), timed(lambda p=path: export(store, p)), None)


if __name__ == "__main__":
    main()
