"""Published constraint puzzles (the shared half of ISS's collection): read, solved, and each
solution found equal to the published one.

A puzzle the engine cannot finish within the node budget counts as not yet solved, never as
wrong. Every core puzzle is read, the grids that are not square too (tests/test_rect_grids.py
solves those on both engines); a form shudu does not read fails with a ParseError that names it.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import shudu
from shudu.errors import ParseError

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "iss_constraint_puzzles.tsv"
#: Search nodes a puzzle may take here (the pure-Python engine does a few thousand a second).
NODES = 1500

pytestmark = pytest.mark.skipif(not DATA.exists(), reason=f"the shared corpus is absent ({DATA})")


def _rows() -> list[dict[str, str]]:
    if not DATA.exists():
        return []
    with DATA.open(encoding="utf-8") as handle:
        return [row for row in csv.DictReader(handle, delimiter="\t") if row["scope"] == "core"]


def _digits(text: str, base: int = 1) -> tuple[int, ...]:
    """A published solution as digits (1 … n): its values 1-9, then A = 1 … P = 16 on grids of 16
    and more; on digits from 0, the values 0-8 are the digits 1-9."""
    if any(c.isalpha() for c in text):
        return tuple(ord(c.upper()) - ord("A") + 1 for c in text)
    return tuple(int(c) - base + 1 for c in text)


@pytest.mark.slow
def test_the_core_puzzles_that_shudu_reads_solve_to_their_published_solutions() -> None:
    read = solved = 0
    refused: list[str] = []
    for row in _rows():
        try:
            puzzle = shudu.parse_puzzle(row["iss_input"])
        except ParseError as exc:
            assert str(exc), row["name"]
            refused.append(f"{row['name']}: {exc}")
            continue
        read += 1
        result = shudu.solve(puzzle, node_limit=NODES)
        assert result.status in ("unique", "timeout"), (row["name"], result.status)
        if result.status == "unique":
            assert result.solution is not None
            base = puzzle.geometry.variant.digit_base
            assert tuple(result.solution.cells) == _digits(row["solution"], base), row["name"]
            solved += 1
    assert read == len(_rows()), refused
    assert solved >= 25


def test_a_form_shudu_does_not_read_is_named() -> None:
    with pytest.raises(ParseError, match=r"item 1 \(Regex\).*does not read"):
        shudu.parse_puzzle(".Regex~1*~R1C1~R1C2")
    with pytest.raises(ParseError, match="grid type 'Raw' is not read"):
        shudu.parse_puzzle(".Shape~9x9~~Raw.~R1C1_1")


def test_every_core_puzzle_is_read() -> None:
    refused = {}
    for row in _rows():
        try:
            shudu.parse_puzzle(row["iss_input"])
        except ParseError as exc:
            refused[row["name"]] = str(exc)
    assert len(_rows()) >= 68 and not refused, refused


def test_the_small_puzzles_of_digits_from_0_solve_to_their_published_solutions() -> None:
    rows = [r for r in _rows() if r["iss_input"].startswith(".Shape~9x9~0-8") or "6x6~0-5" in r["iss_input"]]
    quick = [r for r in rows if "hard" not in r["name"] and "Skyscraper" not in r["types"]]
    assert len(quick) >= 6
    for row in quick:
        result = shudu.solve(row["iss_input"], node_limit=200_000)
        assert result.status == "unique", row["name"]
        assert result.solution is not None and result.solution.to_string() == row["solution"], row["name"]
