"""Remembering the slow finders' answers per grid, within one rating.

Rating walks two paths through a puzzle (HoDoKu's order and Sudoku Explainer's); wherever they need
the slow techniques they mostly stand on the same grids, so the second path asks for steps the
first has just found. A finder wrapped in :func:`remembered` answers those from a cache keyed by the
whole grid (geometry, values and candidates), so the answer is the one it would compute.

The cache lives only inside a :func:`memo_scope` block (one rate, explain or hint call): a call
then does the same work, and counts the same work units, however often it is repeated, so a
``node_limit`` gives the same answer every run. Outside a block every call computes afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Any

from .grid import CandidateGrid
from .step import Step

Find = Callable[[CandidateGrid], Step | None]

#: The most answers one block keeps; the oldest goes first. A hardest rating keeps 230 to 1,000
#: (both paths reach the same grids: an answer dropped is computed again).
MEMO_SIZE = 2048

_cache: ContextVar[dict[Any, Any] | None] = ContextVar("shudu_logic_memo", default=None)
#: The searches known to find nothing (see :func:`barren`), inside a block.
_barren: ContextVar[set[Hashable] | None] = ContextVar("shudu_logic_barren", default=None)
#: The most barren searches one block keeps (then it starts afresh).
BARREN_SIZE = 100_000


@contextmanager
def memo_scope() -> Iterator[None]:
    """Remember the wrapped finders' answers until the block ends."""
    token = _cache.set({})
    barren_token = _barren.set(set())
    try:
        yield
    finally:
        _barren.reset(barren_token)
        _cache.reset(token)


def barren(key: Hashable) -> bool:
    """Whether a search was marked as finding nothing (:func:`mark_barren`) in this block.

    A finder whose search for one digit depends only on that digit's places (fish,
    single-digit patterns) marks the places it searched in vain, keyed by everything the search
    depends on; the next round, most digits' places are unchanged and need no second look."""
    known = _barren.get()
    return known is not None and key in known


def mark_barren(key: Hashable) -> None:
    """Remember, until the block ends, that the search ``key`` stands for finds nothing."""
    known = _barren.get()
    if known is not None:
        if len(known) >= BARREN_SIZE:
            known.clear()
        known.add(key)


def remember(key: Hashable, compute: Callable[[], Any]) -> Any:
    """``compute()``, kept under ``key`` until the block ends (computed afresh outside one).
    For a search several finders share; ``key`` must hold everything its answer depends on."""
    cache = _cache.get()
    if cache is None:
        return compute()
    if key not in cache:
        if len(cache) >= MEMO_SIZE:
            del cache[next(iter(cache))]
        cache[key] = compute()
    return cache[key]


def remembered(find: Find) -> Find:
    """``find`` with its answers cached per grid inside a :func:`memo_scope` block."""

    @wraps(find)
    def finder(grid: CandidateGrid) -> Step | None:
        cache = _cache.get()
        if cache is None:
            return find(grid)
        key = (find, grid.geometry, tuple(grid.values), tuple(grid.cands))
        if key in cache:
            known: Step | None = cache[key]
            return known
        step = find(grid)
        if len(cache) >= MEMO_SIZE:
            del cache[next(iter(cache))]
        cache[key] = step
        return step

    finder.uncached = find  # type: ignore[attr-defined]
    return finder


def remembered_steps(
    every: Callable[[CandidateGrid], Iterable[Step]],
) -> Callable[[CandidateGrid], list[Step]]:
    """A listing of every step, with its answers cached per grid as :func:`remembered` does (a
    finder that gives the first of the list then costs nothing more)."""

    @wraps(every)
    def listing(grid: CandidateGrid) -> list[Step]:
        cache = _cache.get()
        if cache is None:
            return list(every(grid))
        key = (every, grid.geometry, tuple(grid.values), tuple(grid.cands))
        if key not in cache:
            if len(cache) >= MEMO_SIZE:
                del cache[next(iter(cache))]
            cache[key] = list(every(grid))
        found: list[Step] = cache[key]
        return found

    return listing
