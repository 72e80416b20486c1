"""Ratings are properties of a puzzle, not of how it is written down.

An isomorph of a 9x9 puzzle is the same puzzle with its digits relabelled, rows permuted within
bands, columns within stacks, bands and stacks permuted, and possibly transposed. Every isomorph
must get the same rating on both scales (Sudoku Explainer's rating, HoDoKu's level and score).
"""

from __future__ import annotations

import random

import pytest

import shudu
from shudu.logic.catalog import resolve
from shudu.logic.rating import Rating

from conftest import KNOWN, shared_lines

Transform = tuple[list[int], list[int], list[int], bool]


def random_transform(rng: random.Random) -> Transform:
    """A random member of the 9x9 isomorph group: (digit map, row order, column order, transpose)."""

    def axis() -> list[int]:
        bands = rng.sample(range(3), 3)
        return [3 * band + inner for band in bands for inner in rng.sample(range(3), 3)]

    digits = [0, *rng.sample(range(1, 10), 9)]  # digits[old] = new; 0 stays empty
    return digits, axis(), axis(), rng.random() < 0.5


def transformed(cells: str, transform: Transform) -> str:
    """``cells`` (81 characters, ``.`` for empty) rewritten by ``transform``."""
    digits, rows, columns, transpose = transform
    out = []
    for r in range(9):
        for c in range(9):
            source_row, source_column = rows[r], columns[c]
            if transpose:
                source_row, source_column = source_column, source_row
            char = cells[9 * source_row + source_column]
            out.append("." if char in ".0" else str(digits[int(char)]))
    return "".join(out)


def fingerprint(puzzle: str) -> tuple[str, float, str, int]:
    rating = shudu.rate(puzzle)
    assert rating.complete, puzzle
    return rating.status, rating.se, rating.level, rating.score


#: Techniques whose finders still let the order of their search decide which chain they give for
#: an outcome (the chain finders keep the first chain found for each outcome, not the shortest)
#: or which of several contradictions of the least length (the forcing finders give one).
SEARCH_ORDERED = frozenset(
    {
        "X-Chain",
        "XY-Chain",
        "AIC",
        "Continuous Nice Loop",
        "Grouped Chain",
        "Forcing Chain",
        "Forcing Net",
        "Nested Forcing Net",
        "Brute Force",
    }
)


def search_ordered(rating: Rating) -> bool:
    return bool(rating.hardest) and resolve(rating.hardest).technique.name in SEARCH_ORDERED


def fixture_puzzles() -> list[str]:
    """The unique 9x9 standard puzzles of the known-answer file."""
    return [k.text for k in KNOWN if len(k.text) == 81 and k.count == 1 and not k.options]


def test_the_transform_maps_solutions_to_solutions() -> None:
    # the transform itself is checked independently: an isomorph's solution is the transformed
    # solution, and a transform changes the text (no rating can pass by seeing the same string)
    rng = random.Random(3)
    for puzzle in fixture_puzzles():
        solution = shudu.solve(puzzle).solution
        assert solution is not None
        answer = "".join(str(d) for d in solution.cells)
        transform = random_transform(rng)
        image = shudu.solve(transformed(puzzle, transform)).solution
        assert image is not None
        assert "".join(str(d) for d in image.cells) == transformed(answer, transform)
        assert transformed(puzzle, transform) != puzzle


def mismatches(puzzles: list[str], seed: int, *, chained: bool) -> list[tuple[object, ...]]:
    """The puzzles (those whose hardest step is a chain or net, or the others) whose random
    isomorphs get another rating than they do."""
    rng = random.Random(seed)
    out: list[tuple[object, ...]] = []
    for puzzle in puzzles:
        rating = shudu.rate(puzzle)
        if search_ordered(rating) != chained:
            continue
        for _ in range(2):
            image = transformed(puzzle, random_transform(rng))
            if fingerprint(image) != fingerprint(puzzle):
                out.append((puzzle, fingerprint(puzzle), image, fingerprint(image)))
    return out


def test_fixture_isomorphs_rate_alike() -> None:
    assert not mismatches(fixture_puzzles(), 1, chained=False)


def test_sample_isomorphs_rate_alike() -> None:
    puzzles = [
        *shared_lines("royle_17clue.txt", 8, step=331),
        *shared_lines("radcliffe3m_sample.txt", 12, step=53),
        *shared_lines("magictour_top1465.txt", 8, step=97),
    ]
    assert not mismatches([p.split()[0] for p in puzzles], 2, chained=False)


@pytest.mark.xfail(
    reason="HoDoKu's path takes the first of steps tied in every way it compares, and the chain "
    "finders keep the first chain found for an outcome; SE ratings and levels mostly agree",
    strict=False,
)
def test_chained_isomorphs_rate_alike() -> None:
    puzzles = shared_lines("magictour_top1465.txt", 6, step=131)
    assert not mismatches(puzzles, 3, chained=True)
