"""Compare shudu's ratings with the reference programs' on a rated sample.

Reads ``puzzle, source, se_er, se_ep, se_ed, hodoku_level, hodoku_score`` rows (TSV with a header)
and prints: Spearman rank correlation of shudu's SE-compatible rating with SE's ER, the share of
puzzles given HoDoKu's level, and the share rated within ±0.3 of SE's ER (targets 0.985, 97% and
92%), and how often the HoDoKu-style score equals HoDoKu's (or comes within 10% of it).

    python benchmarks/calibrate.py [FILE] [--limit N] [--show N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import shudu

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "rated_calibration.tsv"


def ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: list[float], ys: list[float]) -> float:
    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(DEFAULT))
    parser.add_argument("--limit", type=int, help="rate only the first N rows")
    parser.add_argument("--show", type=int, default=10, help="list the N worst SE misses")
    args = parser.parse_args(argv)

    text = Path(args.file).read_text(encoding="utf-8")
    rows = [line.split("\t") for line in text.splitlines()[1:] if line.strip()]
    rows = rows[: args.limit] if args.limit else rows
    se_ref, se_ours, level_hits, close, n_level = [], [], 0, 0, 0
    score_hits, score_near, n_score = 0, 0, 0
    misses = []
    started = time.perf_counter()
    for puzzle, source, er, _ep, _ed, level, score in rows:
        rating = shudu.rate(puzzle)
        if level:
            n_level += 1
            level_hits += rating.level == level.lower()
        if score:
            n_score += 1
            score_hits += rating.score == int(score)
            score_near += abs(rating.score - int(score)) <= 0.1 * int(score)
        if er:
            se_ref.append(float(er))
            se_ours.append(rating.se)
            close += abs(rating.se - float(er)) <= 0.3 + 1e-9
            misses.append((abs(rating.se - float(er)), float(er), rating.se, rating.hardest, source, puzzle))
    elapsed = time.perf_counter() - started
    print(f"puzzles rated:            {len(rows)} in {elapsed:.1f} s")
    print(f"Spearman(se, SE ER):      {spearman(se_ours, se_ref):.3f}   (target >= 0.985)")
    print(f"same HoDoKu level:        {100 * level_hits / n_level:.1f}%   (target >= 97%)")
    print(f"SE within +-0.3:          {100 * close / len(se_ref):.1f}%   (target >= 92%)")
    near = 100 * score_near / n_score
    print(f"same HoDoKu score:        {100 * score_hits / n_score:.1f}%   (within 10%: {near:.1f}%)")
    if args.show:
        print(f"worst {args.show} SE misses (SE, shudu, hardest, source):")
        for _, er, ours, hardest, source, puzzle in sorted(misses, reverse=True)[: args.show]:
            print(f"  {er:4.1f} {ours:4.1f}  {hardest:<28} {source:<22} {puzzle}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
