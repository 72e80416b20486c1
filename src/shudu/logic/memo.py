"""Remembering the slow finders' answers per grid.

Rating walks two paths through a puzzle (HoDoKu's order and Sudoku Explainer's); wherever they need
the slow techniques they mostly stand on the same grids, so the second path asks for steps the
first has just found. A finder wrapped in :func:`remembered` answers those from a small cache keyed
by the whole grid (geometry, values and candidates), so the answer is the one it would compute.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps

from ..geometry import Geometry
from .grid import CandidateGrid
from .step import Step

Finder = Callable[[CandidateGrid], Step | None]


def remembered(find: Finder) -> Finder:
    """``find`` with its answers cached per grid (the last 64 grids)."""

    @lru_cache(maxsize=64)
    def cached(geometry: Geometry, values: tuple[int, ...], cands: tuple[int, ...]) -> Step | None:
        return find(CandidateGrid(geometry, values, cands))

    @wraps(find)
    def finder(grid: CandidateGrid) -> Step | None:
        return cached(grid.geometry, tuple(grid.values), tuple(grid.cands))

    finder.uncached = find  # type: ignore[attr-defined]
    return finder
