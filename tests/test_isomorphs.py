"""Ratings are properties of a puzzle, not of how it is written down.

An isomorph of a 9x9 puzzle is the same puzzle with its digits relabelled, rows permuted within
bands, columns within stacks, bands and stacks permuted, and possibly transposed. Every isomorph
must get the same rating on both scales (Sudoku Explainer's rating, HoDoKu's level and score).
"""

from __future__ import annotations

import random

import pytest

import shudu
from shudu.formats.text import as_puzzle
from shudu.logic.engine.grid import CandidateGrid
from shudu.logic.engine.invariant import fingerprint as grid_fingerprint
from shudu.logic.naming import resolve
from shudu.logic.rating import Rating
from shudu.logic.techniques import aic

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


#: Techniques whose finders once let the order of their search decide which chain they gave for
#: an outcome, or which of several contradictions of the least length: the puzzles whose hardest
#: step is one of them are checked on their own, on a sample of the hardest published puzzles.
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


@pytest.mark.c_speed  # a minute on the pure-Python core; the unchained isomorphs above run on both
def test_chained_isomorphs_rate_alike() -> None:
    puzzles = shared_lines("magictour_top1465.txt", 6, step=131)
    assert not mismatches(puzzles, 3, chained=True)


def transformed_grid(grid: CandidateGrid, transform: Transform) -> CandidateGrid:
    """A 9x9 candidate grid rewritten by ``transform``: values and candidates moved and relabelled."""
    digits, rows, columns, transpose = transform
    values, cands, givens = [0] * 81, [0] * 81, 0
    for r in range(9):
        for c in range(9):
            source_row, source_column = rows[r], columns[c]
            if transpose:
                source_row, source_column = source_column, source_row
            source = 9 * source_row + source_column
            values[9 * r + c] = digits[grid.values[source]]
            cands[9 * r + c] = sum(1 << (digits[d + 1] - 1) for d in range(9) if grid.cands[source] >> d & 1)
            givens |= (grid.givens >> source & 1) << (9 * r + c)
    return CandidateGrid(grid.geometry, values, cands, givens=givens)


def pencilled(puzzle: str, rng: random.Random, most: float = 0.5) -> CandidateGrid:
    """The puzzle's grid with a random share (up to ``most``) of the candidates its solution
    does not use removed, as a player's pencil marks might leave it."""
    parsed = as_puzzle(puzzle)
    solution = shudu.solve(puzzle).solution
    assert solution is not None
    grid = CandidateGrid.from_values(parsed.geometry, parsed.cells)
    share = rng.random() * most
    for cell in range(81):
        for d in range(1, 10):
            if grid.has(cell, d) and d != solution.cells[cell] and rng.random() < share:
                grid.eliminate(cell, d)
    return grid


def test_fingerprints_agree_on_isomorphs_and_tell_grids_apart() -> None:
    rng = random.Random(11)
    for puzzle in fixture_puzzles():
        grid = pencilled(puzzle, rng)
        print_ = grid_fingerprint(grid)
        for _ in range(3):
            assert grid_fingerprint(transformed_grid(grid, random_transform(rng))) == print_, puzzle
        # one candidate less is another grid
        cell = next(c for c in range(81) if grid.cands[c].bit_count() >= 2)
        other = grid.copy()
        other.eliminate(cell, grid.candidates(cell)[0])
        assert grid_fingerprint(other) != print_, puzzle


def _outlines(listing: object, grid: CandidateGrid) -> list[tuple[int, int, int, str]]:
    return sorted(
        (len(s.placements), len(s.eliminations), s.length, s.name)
        for s in listing(grid.copy())  # type: ignore[operator]
    )


def test_chain_listings_give_each_outcome_its_shortest_chain_on_every_isomorph() -> None:
    """The chains listed (how many, what they do, how long) do not depend on the order the
    search tries its starts in: each outcome comes with its shortest chain."""
    listings = [
        aic.iter_x_chain,
        aic.iter_xy_chain,
        aic.iter_remote_pair,
        aic.iter_aic,
        aic.iter_discontinuous_nice_loop,
    ]
    rng = random.Random(12)
    checked = 0
    for puzzle in [p for p in fixture_puzzles() for _ in range(3)]:
        grid = pencilled(puzzle, rng, most=0.3)
        image = transformed_grid(grid, random_transform(rng))
        for listing in listings:
            outline = _outlines(listing, grid)
            assert outline == _outlines(listing, image), (puzzle, listing.__name__)
            checked += bool(outline)
    assert checked >= 10  # the grids hold chains to compare
