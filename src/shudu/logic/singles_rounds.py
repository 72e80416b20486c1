"""Rounds of singles carried out in one go, for the paths that need only their tallies.

A solving path (:func:`shudu.logic.solver.rounds`) spends most of its rounds on singles: each
round places every single of the first kind that has one, then starts again from the first kind.
When only the ratings are wanted, nothing needs the steps themselves, so :func:`run` plays those
rounds straight on the grid and reports each as ``(kind's position, count)``.

The kinds are those of the singles finders: :data:`FULL_HOUSE` (``iter_full_house``),
:data:`NAKED` (``iter_naked_single``), :data:`HIDDEN` (``iter_hidden_single``, every house) and
:data:`BOX` (``iter_box_singles``, the boxes and jigsaw regions). A round is the set of
placements the kind's finder lists. Two of them that clash (two digits for a cell, or one digit
twice among peers) stop the run before that round, and the caller's own path takes it from
there.

The C core (``singles`` of ``shudu.solvers._core_c``) runs it for the geometries its
propagation takes (:func:`shudu.logic.propagate.c_tables`); :func:`run_py` below is its
specification and is used otherwise (or with ``SHUDU_SETTLE=python``). The outcome is the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from . import propagate, singles
from .grid import CandidateGrid
from .step import Step

FULL_HOUSE, NAKED, HIDDEN, BOX = 0, 1, 2, 3

#: The listing of each kind: what a singles finder of that kind gives, in its order.
LISTINGS: dict[int, Callable[[CandidateGrid], Iterable[Step]]] = {
    FULL_HOUSE: singles.iter_full_house,
    NAKED: singles.iter_naked_single,
    HIDDEN: singles.iter_hidden_single,
    BOX: singles.iter_box_singles,
}

#: The kind of each singles finder (a path's finder whose ``find`` is one of these).
KIND_OF_FIND: dict[Callable[[CandidateGrid], Step | None], int] = {
    singles.find_full_house: FULL_HOUSE,
    singles.find_naked_single: NAKED,
    singles.find_hidden_single: HIDDEN,
    singles.find_box_single: BOX,
}

#: Why :func:`run` stopped: no kind has a single (or the grid is full), two singles of the next
#: round clash, or ``max_rounds`` were played.
SETTLED, CLASH, ROUNDS = 0, 1, 2


class Run(NamedTuple):
    """What :func:`run` did: why it stopped, and each round as (kind's position, count)."""

    code: int
    rounds: list[tuple[int, int]]


def run(grid: CandidateGrid, kinds: Sequence[int], max_rounds: int = 0) -> Run:
    """Play rounds of singles on ``grid`` (changed in place): each round places every single of
    the first of ``kinds`` that has one; stop when none has, before a round whose singles clash,
    or after ``max_rounds`` rounds (0: no limit)."""
    if not kinds or any(kind not in LISTINGS for kind in kinds) or max_rounds < 0:
        raise ValueError(f"kinds {tuple(kinds)!r} or max_rounds {max_rounds} out of range")
    capsule = propagate.c_tables(grid.geometry)
    if capsule is not None:
        core = propagate.c_core()
        assert core is not None
        code, grid.empty, log = core.singles(
            capsule, grid.cands, grid.where, grid.placed, grid.values, grid.empty,
            bytes(kinds), max_rounds,
        )  # fmt: skip
        return Run(code, [(log[i], log[i + 1]) for i in range(0, len(log), 2)])
    return run_py(grid, kinds, max_rounds)


def run_py(grid: CandidateGrid, kinds: Sequence[int], max_rounds: int = 0) -> Run:
    """:func:`run` in Python: the specification of the C core's."""
    done: list[tuple[int, int]] = []
    found: list[tuple[int, int]] | None
    while grid.empty:
        if max_rounds and len(done) >= max_rounds:
            return Run(ROUNDS, done)
        position, found = 0, None
        for position, kind in enumerate(kinds):  # noqa: B007 (the position is recorded below)
            found = placements(grid, kind)
            if found is None or found:
                break
        if found is None:
            return Run(CLASH, done)
        if not found:
            break
        for cell, digit in found:
            grid.place(cell, digit)
        done.append((position, len(found)))
    return Run(SETTLED, done)


def placements(grid: CandidateGrid, kind: int) -> list[tuple[int, int]] | None:
    """The placements of every single of one kind, each once, or None when two clash."""
    digit_at: dict[int, int] = {}
    by_digit = [0] * grid.size
    peers = grid.t.peer_bits
    out: list[tuple[int, int]] = []
    for step in LISTINGS[kind](grid):
        for cell, digit in step.placements:
            known = digit_at.get(cell)
            if known is not None:
                if known != digit:
                    return None
                continue
            if by_digit[digit - 1] & peers[cell]:
                return None
            digit_at[cell] = digit
            by_digit[digit - 1] |= 1 << cell
            out.append((cell, digit))
    return out
