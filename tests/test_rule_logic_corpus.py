"""The logic engine on published constraint puzzles (the core half of the shared ISS corpus): each
path it finds ends in the published solution, and how many need no search is counted.

A puzzle whose rating runs past its time counts as not rated, never as wrong; a puzzle in a form
shudu does not read is left out (tests/test_constraint_corpus.py checks those errors), and so is
a grid that is not square, which the logic engine refuses by name (checked here).
"""

from __future__ import annotations

import concurrent.futures
import csv
import multiprocessing
import os
from collections import Counter
from pathlib import Path

import pytest

import shudu
from shudu.errors import ParseError, ShapeError
from shudu.logic.engine.grid import CandidateGrid
from shudu.puzzle import Grid

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "iss_constraint_puzzles.tsv"
#: Seconds a puzzle's rating may take here.
SECONDS = 20.0
#: The steps that settle a cell by trying candidates rather than by a pattern.
SEARCH = {"Brute Force"}
FORCING = {"Forcing Chain", "Forcing Net", "Nested Forcing Net"}

pytestmark = pytest.mark.skipif(not DATA.exists(), reason=f"the shared corpus is absent ({DATA})")


def _rows() -> list[dict[str, str]]:
    if not DATA.exists():
        return []
    with DATA.open(encoding="utf-8") as handle:
        return [row for row in csv.DictReader(handle, delimiter="\t") if row["scope"] == "core"]


def _digits(text: str) -> tuple[int, ...]:
    if any(c.isalpha() for c in text):
        return tuple(ord(c.upper()) - ord("A") + 1 for c in text)
    return tuple(int(c) for c in text)


def _check(row: dict[str, str]) -> tuple[str, str, set[str]]:
    """Rate one puzzle and follow its path: ``(name, outcome, techniques used)``, the outcome
    ``unread``, ``unrated`` (out of time, or not unique) or ``rated``; a path that ends anywhere
    but in the published solution fails here."""
    try:
        puzzle = shudu.parse_puzzle(row["iss_input"])
    except ParseError:
        return row["name"], "unread", set()
    if puzzle.geometry.is_rect:  # the logic engine reads square grids only, and says so
        with pytest.raises(ShapeError, match="square grids"):
            shudu.rate(puzzle)
        return row["name"], "unread", set()
    rating = shudu.rate(puzzle, steps=True, timeout=SECONDS)
    if rating.status != "unique" or not rating.complete:
        return row["name"], "unrated", set()
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
    for step in rating.steps:
        grid.apply(step)
    solved = Grid.trusted(tuple(grid.values), puzzle.geometry).to_string()
    assert solved == row["solution"] or tuple(grid.values) == _digits(row["solution"]), row["name"]
    return row["name"], "rated", {step.technique.name for step in rating.steps}


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_every_path_on_the_core_puzzles_ends_in_the_published_solution() -> None:
    rows = _rows()
    types = {row["name"]: row["types"] for row in rows}
    # one puzzle per core at a time, each with the whole of its time: the same check as one
    # after the other, in a fraction of the time (spawn: each worker starts clean)
    workers = min(
        len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1, 8
    )
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        results = list(pool.map(_check, rows))
    rated = by_logic = without_forcing = 0
    missing: Counter[str] = Counter()
    for name, outcome, used in results:
        if outcome != "rated":
            continue
        rated += 1
        if not used & SEARCH:
            by_logic += 1
            if not used & FORCING:
                without_forcing += 1
        else:
            missing[types[name]] += 1
    print(f"rated {rated}; solved without search {by_logic}; without forcing chains either {without_forcing}")
    print("needing search, by rule types:", dict(missing))
    assert rated >= 10
