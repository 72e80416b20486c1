"""The page in Lighthouse: performance, accessibility and best practices of each view, on a phone.

Starts ``shudu serve`` on 127.0.0.1 (a free port, a fresh database in a temporary folder) and runs
Lighthouse's command line against it with its default mobile emulation (a mid-range phone, a slow
4G network simulated) in Debian's Chromium. Each view is a URL the page opens by itself:

- ``landing``: the first visit, a new classic game;
- ``16x16``: a shared 16x16 puzzle (``#puzzle=``);
- ``killer``: a shared 9x9 killer, its cages drawn with their totals;
- ``mixed``: a shared 9x9 with thermometers, an arrow, dots and a whisper line;
- ``explain``: a hard 9x9's explanation opened at its first forcing net, the net drawn on the
  board (``#puzzle=…&view=explain&step=N``);
- ``setter``: the Setter with a puzzle half entered, its panel counting (``#setter=``).

Prints the three scores of each view (0-100), the load average before and after, and the median
of ``--runs`` runs per view. Target: every view at least 95 on each.

Lighthouse comes from npm; 12.2.3 runs on Node 20 (13 does not)::

    mkdir -p /tmp/lh && cd /tmp/lh && npm install lighthouse@12.2.3
    .venv/bin/python benchmarks/lighthouse.py --lighthouse /tmp/lh/node_modules/.bin/lighthouse
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import tempfile
import urllib.parse
from pathlib import Path
from typing import Any

import httpx2 as httpx

import shudu
from shudu.notation import cell_name
from web_load import Server  # the same ``shudu serve`` child as the load benchmark

CATEGORIES = ("performance", "accessibility", "best-practices")
METRICS = (
    "first-contentful-paint",
    "largest-contentful-paint",
    "total-blocking-time",
    "cumulative-layout-shift",
    "speed-index",
)
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
#: A hard 9x9 (magictour's top 1465) whose explanation takes forcing nets.
NET = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5..........."


def fewest_givens(rules: list[dict[str, Any]], solution: list[int], n: int = 9) -> dict[str, Any]:
    """The puzzle's JSON: givens of ``solution`` added until one solution is left, then each
    dropped that is not needed."""
    givens = ["."] * (n * n)
    order = [(i * 37) % (n * n) for i in range(n * n)]

    def puzzle() -> dict[str, Any]:
        return {"size": n, "rules": rules, "givens": "".join(givens)}

    added = 0
    while shudu.count(json.dumps(puzzle()), 2, node_limit=200_000) != 1:
        givens[order[added]] = str(solution[order[added]])
        added += 1
    for spot in order[:added]:
        givens[spot] = "."
        if shudu.count(json.dumps(puzzle()), 2, node_limit=200_000) != 1:
            givens[spot] = str(solution[spot])
    return puzzle()


def solution() -> list[int]:
    solved = shudu.solve(EASY).solution
    assert solved is not None
    return list(solved.cells)


def killer() -> dict[str, Any]:
    """Cages of two or three cells along the rows, each with its total."""
    sol = solution()
    rules = []
    for row in range(9):
        cells = [row * 9 + col for col in range(9)]
        for run in (cells[0:2], cells[2:5], cells[5:7], cells[7:9]):
            rules.append(
                {"rule": "cage", "cells": [cell_name(c, 9) for c in run], "total": sum(sol[c] for c in run)}
            )
    return fewest_givens(rules, sol)


def mixed() -> dict[str, Any]:
    """Thermometers up the columns where the digits rise, an arrow, kropki dots and a whisper."""
    sol = solution()
    rules: list[dict[str, Any]] = []
    for col in range(0, 9, 3):
        run = [col]
        for row in range(1, 9):
            cell = row * 9 + col
            if sol[cell] > sol[run[-1]] and len(run) < 4:
                run.append(cell)
            elif len(run) < 3:
                run = [cell]
        if len(run) >= 3:
            rules.append({"rule": "thermo", "cells": [cell_name(c, 9) for c in run]})
    for row in range(9):
        for col in range(8):
            a, b = row * 9 + col, row * 9 + col + 1
            if abs(sol[a] - sol[b]) == 1 and (row + col) % 3 == 0:
                rules.append({"rule": "white-dot", "cells": [cell_name(a, 9), cell_name(b, 9)]})
            if abs(sol[a] - sol[b]) >= 5 and (row + col) % 4 == 1:
                rules.append({"rule": "whisper", "cells": [cell_name(a, 9), cell_name(b, 9)]})
    return fewest_givens(rules, sol)


def views() -> dict[str, str]:
    big = shudu.generate(size=16, seed=1).puzzle.to_string()

    def shared(puzzle: object) -> str:
        text = puzzle if isinstance(puzzle, str) else json.dumps(puzzle)
        return "#puzzle=" + urllib.parse.quote(text)

    steps = shudu.explain(NET, timeout=60).steps
    net = next(k for k, step in enumerate(steps) if "net" in str(step.technique).lower())
    explain = f"#puzzle={NET}&view=explain&step={net + 1}"
    half = EASY[:45] + "." * 36  # the puzzle half entered: many solutions
    return {
        "landing": "",
        "16x16": shared(big),
        "killer": shared(killer()),
        "mixed": shared(mixed()),
        "explain": explain,
        "setter": "#setter=" + half,
    }


async def ready(server: Server) -> None:
    async with httpx.AsyncClient(timeout=5) as client:
        await server.ready(client)


def audit(lighthouse: str, chrome: str, url: str, out: Path, details: bool) -> dict[str, int]:
    """One Lighthouse run: each category's score, 0-100."""
    command = [
        lighthouse,
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
        "--chrome-flags=--headless=new --no-sandbox",
    ]
    env = {**os.environ, "CHROME_PATH": chrome}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0 or not out.exists():
        raise SystemExit(f"lighthouse failed on {url}: {done.stderr[-2000:]}")
    report = json.loads(out.read_text())
    scores = {name: round(100 * (report["categories"][name]["score"] or 0)) for name in CATEGORIES}
    if details:
        for metric in METRICS:
            found = report["audits"][metric]
            print(f"    {metric:<26} {found.get('displayValue', ''):>10}  score {found['score']}")
        for ref in (
            report["categories"]["accessibility"]["auditRefs"]
            + report["categories"]["best-practices"]["auditRefs"]
        ):
            found = report["audits"][ref["id"]]
            if found["score"] is not None and found["score"] < 1 and ref["weight"]:
                print(f"    failed: {ref['id']}: {found['title']}")
                for item in (found.get("details") or {}).get("items", [])[:6]:
                    print(f"      {json.dumps(item)[:200]}")
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--lighthouse", default="lighthouse", help="the lighthouse command (npm's lighthouse 12.2.3)"
    )
    parser.add_argument("--chrome", default="/usr/bin/chromium", help="the Chromium to run (CHROME_PATH)")
    parser.add_argument("--runs", type=int, default=1, help="runs per view; the median is printed")
    parser.add_argument("--view", action="append", help="only this view (repeatable)")
    parser.add_argument("--details", action="store_true", help="print each run's metrics and failed audits")
    args = parser.parse_args()

    pages = views()
    chosen = args.view or list(pages)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'view':<10}" + "".join(f"{name:>16}" for name in CATEGORIES))
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder), workers=2)
        try:
            asyncio.run(ready(server))
            for view in chosen:
                runs = [
                    audit(
                        args.lighthouse,
                        args.chrome,
                        server.url + "/" + pages[view],
                        Path(folder) / f"{view}{k}.json",
                        args.details,
                    )
                    for k in range(args.runs)
                ]
                medians = {name: statistics.median(run[name] for run in runs) for name in CATEGORIES}
                print(f"{view:<10}" + "".join(f"{medians[name]:>16.0f}" for name in CATEGORIES), flush=True)
        finally:
            server.stop()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
