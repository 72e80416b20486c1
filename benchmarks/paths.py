"""Same paths, by hash: the solving paths and listings of a fixed sample, to compare two trees.

Rates 300 puzzles (seeded random isomorphs from the benchmark sets: 17-clue, easy, top95,
magictour, forum hardest) and hashes each one's HoDoKu path (every step's technique, form,
placements and eliminations, in order), its Sudoku Explainer path and its rating. With
``--listings N`` it also hashes ``find_steps`` on the first N lines of HoDoKu's regression library
(each line's technique, as benchmarks/reglib.py asks). Prints one hash of everything, the count of
puzzles and the seconds spent rating them.

    python benchmarks/paths.py [--seed S] [--listings N] [--thin K] [--dump FILE] [--against OLD/src]

``--dump FILE`` writes one line per puzzle (set, puzzle, hash). ``--against OLD/src`` runs the same
sample in a subprocess with ``PYTHONPATH=OLD/src`` (this file, that tree's shudu) and reports how
many paths are identical, how many differ, and the rating time new / old.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rate import DATA, WARM_UP, isomorph

#: The sets sampled, and how many puzzles of each (300 in all).
SETS = (
    ("royle_17clue.txt", 100),
    ("kaggle_like_easy_10k.txt", 50),
    ("norvig_top95.txt", 50),
    ("magictour_top1465.txt", 50),
    ("forum_hardest_1106.txt", 50),
)
LIBRARY = "hodoku_reglib_even.txt"


def sample(seed: int) -> list[tuple[str, str]]:
    """(set, puzzle) pairs: seeded random isomorphs of each set's seeded random puzzles."""
    rng = Random(seed)
    out = []
    for file, count in SETS:
        lines = [line for line in (DATA / file).read_text().split() if len(line) == 81]
        out += [(file, isomorph(puzzle, rng)) for puzzle in rng.sample(lines, min(count, len(lines)))]
    return out


def step_text(step: Any) -> str:
    """A step as the hash sees it: technique, form, placements and eliminations."""
    return f"{step.technique.name}|{step.name}|{step.placements}|{step.eliminations}"


def digest(parts: Iterable[str]) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode())
        h.update(b"\n")
    return h.hexdigest()[:16]


def run(seed: int, listings: int, thin: int = 1) -> tuple[list[tuple[str, str, str]], float]:
    """(set, puzzle, hash) of every puzzle (every ``thin``-th) and listing, and the seconds
    spent rating."""
    import shudu
    from shudu.logic.rating import se_steps

    shudu.rate(WARM_UP)
    rows = []
    spent = 0.0
    for file, puzzle in sample(seed)[::thin]:
        started = time.process_time()
        rating = shudu.rate(puzzle, steps=True)
        spent += time.process_time() - started
        parts = [f"{rating.status} {rating.level} {rating.score} {rating.se} {rating.hardest}"]
        parts += [step_text(step) for step in rating.steps]
        if rating.status == "unique":
            parts.append("se path")
            parts += [step_text(step) for step in se_steps(rating.puzzle, uniqueness=True)]
        rows.append((file, puzzle, digest(parts)))
    library = DATA / LIBRARY
    if listings and library.exists():
        from shudu.logic.allsteps import find_steps

        lines = [line for line in library.read_text().splitlines() if line.startswith(":")][:listings]
        for line in lines:
            code = line.split(":")[1].split("-")[0]
            try:
                found = find_steps(line, code, node_limit=200_000)
            except Exception as exc:
                rows.append((LIBRARY, line, digest([type(exc).__name__])))
                continue
            rows.append((LIBRARY, line, digest([found.status, *map(step_text, found.steps)])))
    return rows, spent


def total(rows: list[tuple[str, str, str]]) -> str:
    return digest(f"{file} {puzzle} {h}" for file, puzzle, h in rows)


def against(old_src: str, args: argparse.Namespace, rows: list[tuple[str, str, str]], spent: float) -> int:
    """Runs this file with ``old_src`` first on the path and compares the dumps."""
    with tempfile.TemporaryDirectory() as tmp:
        dump = Path(tmp) / "old.json"
        env = {**os.environ, "PYTHONPATH": old_src}
        command = [sys.executable, __file__, "--seed", str(args.seed), "--listings", str(args.listings)]
        command += ["--thin", str(args.thin)]
        subprocess.run([*command, "--dump", str(dump)], env=env, check=True)
        old = json.loads(dump.read_text())
    old_rows = [tuple(row) for row in old["rows"]]
    same = sum(1 for a, b in zip(rows, old_rows, strict=False) if a == b)
    differ = max(len(rows), len(old_rows)) - same
    puzzles = sum(1 for row in rows if row[0] != LIBRARY)
    same_puzzles = sum(1 for a, b in zip(rows, old_rows, strict=False) if a == b and a[0] != LIBRARY)
    print(f"against {old_src}: {same} identical, {differ} different ({same_puzzles}/{puzzles} paths)")
    for a, b in zip(rows, old_rows, strict=False):
        if a != b:
            print(f"  differs: {a[0]} {a[1]}")
    print(f"rating time new / old: {spent:.2f} s / {old['seconds']:.2f} s = {spent / old['seconds']:.3f}")
    return 0 if differ == 0 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--listings", type=int, default=0, help="hash find_steps on this many library lines")
    parser.add_argument("--thin", type=int, default=1, help="rate every THIN-th puzzle of the sample")
    parser.add_argument("--dump", metavar="FILE", help="write every puzzle's hash to FILE (JSON)")
    parser.add_argument("--against", metavar="OLD/src", help="compare with the tree at OLD/src")
    args = parser.parse_args(argv)
    missing = [file for file, _ in SETS if not (DATA / file).exists()]
    if missing:
        print(f"skipped: no benchmark data at {DATA} ({', '.join(missing)})")
        return 0
    rows, spent = run(args.seed, args.listings, args.thin)
    puzzles = sum(1 for row in rows if row[0] != LIBRARY)
    print(f"{puzzles} paths, {len(rows) - puzzles} listings: hash {total(rows)}, rating {spent:.2f} s cpu")
    if args.dump:
        Path(args.dump).write_text(json.dumps({"rows": rows, "seconds": spent, "hash": total(rows)}))
    if args.against:
        return against(args.against, args, rows, spent)
    return 0


if __name__ == "__main__":
    sys.exit(main())
