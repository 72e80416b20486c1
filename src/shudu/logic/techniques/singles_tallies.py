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

:data:`HIDDEN_ONE` is HoDoKu's way with hidden singles: one at a time, then full houses and
naked singles again, so that a hidden single those fill meanwhile counts as one of them. HoDoKu
queues each hidden single as it turns up and places the one waiting longest
(:class:`Waiting` keeps the queue of one path). Of those that turned up in the same round it
places the one scanned first, which depends on how the puzzle is written; here the choice
depends on the grid alone (:func:`hidden_one`): the ones after which full houses and naked
singles fill the most cells, all placed in one round, except that of several leaving the same
grid after those singles only one is (the lowest cell: which one changes only the names of the
singles that follow, never their count).

The C core (``singles`` of ``shudu._core_c``) runs it for the geometries its propagation takes
(:func:`shudu.logic.engine.propagate.c_tables`); :func:`run_py` below is its specification and is used
otherwise (or with ``SHUDU_IMPLEMENTATION=python``). The outcome is the same.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from ..engine import propagate
from ..engine.grid import CandidateGrid
from ..engine.step import Step
from . import singles

FULL_HOUSE, NAKED, HIDDEN, BOX, HIDDEN_ONE = 0, 1, 2, 3, 4

#: The listing of each kind: what a singles finder of that kind gives, in its order.
LISTINGS: dict[int, Callable[[CandidateGrid], Iterable[Step]]] = {
    FULL_HOUSE: singles.iter_full_house,
    NAKED: singles.iter_naked_single,
    HIDDEN: singles.iter_hidden_single,
    BOX: singles.iter_box_singles,
    HIDDEN_ONE: singles.iter_hidden_single,
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


class Waiting:
    """The queue of hidden singles along one path: the round each was first listed in (0: not
    yet), by cell and digit, for :data:`HIDDEN_ONE`."""

    def __init__(self, grid: CandidateGrid) -> None:
        self.size = grid.size
        #: ``since[cell * size + digit - 1]``; a buffer the C core writes too
        self.since = array("I", bytes(4 * len(grid.cands) * grid.size))
        #: the rounds that listed hidden singles so far
        self.rounds = 0


def hidden_one(
    grid: CandidateGrid, found: Sequence[tuple[int, int]], waiting: Waiting
) -> list[tuple[int, int]]:
    """The placements a :data:`HIDDEN_ONE` round makes among the hidden singles ``found`` (all of
    the grid's, none clashing): see the module's text."""
    if not found:
        return []
    size, since = waiting.size, waiting.since
    waiting.rounds += 1
    for cell, digit in found:
        if not since[cell * size + digit - 1]:
            since[cell * size + digit - 1] = waiting.rounds
    first = min(since[cell * size + digit - 1] for cell, digit in found)
    best, kept = -1, dict[int, tuple[int, int]]()
    for cell, digit in found:
        if since[cell * size + digit - 1] != first:
            continue
        trial = grid.copy()
        trial.place(cell, digit)
        done = run_py(trial, (FULL_HOUSE, NAKED))
        fill = len(trial.cands) if done.code == CLASH else sum(count for _, count in done.rounds)
        if fill < best:
            continue
        if fill > best:
            best, kept = fill, {}
        other = kept.get(trial.empty)
        if other is None or cell < other[0]:
            kept[trial.empty] = (cell, digit)
    return list(kept.values())


class Run(NamedTuple):
    """What :func:`run` did: why it stopped, and each round as (kind's position, count)."""

    code: int
    rounds: list[tuple[int, int]]


def run(
    grid: CandidateGrid, kinds: Sequence[int], max_rounds: int = 0, waiting: Waiting | None = None
) -> Run:
    """Play rounds of singles on ``grid`` (changed in place): each round places every single of
    the first of ``kinds`` that has one (:data:`HIDDEN_ONE`: as :func:`hidden_one` says, with
    ``waiting``'s queue); stop when none has, before a round whose singles clash, or after
    ``max_rounds`` rounds (0: no limit)."""
    if not kinds or any(kind not in LISTINGS for kind in kinds) or max_rounds < 0:
        raise ValueError(f"kinds {tuple(kinds)!r} or max_rounds {max_rounds} out of range")
    if HIDDEN_ONE in kinds and (waiting is None or waiting.size != grid.size):
        raise ValueError("hidden singles one at a time need the queue of this grid's path")
    capsule = propagate.c_tables(grid.geometry)
    if capsule is not None:
        core = propagate.c_core()
        assert core is not None
        code, grid.empty, log, stamp = core.singles(
            capsule, grid.cands, grid.where, grid.placed, grid.values, grid.empty,
            bytes(kinds), max_rounds,
            waiting.since if waiting is not None else None,
            waiting.rounds if waiting is not None else 0,
        )  # fmt: skip
        if waiting is not None:
            waiting.rounds = stamp
        return Run(code, [(log[i], log[i + 1]) for i in range(0, len(log), 2)])
    return run_py(grid, kinds, max_rounds, waiting)


def run_py(
    grid: CandidateGrid, kinds: Sequence[int], max_rounds: int = 0, waiting: Waiting | None = None
) -> Run:
    """:func:`run` in Python: the specification of the C core's."""
    done: list[tuple[int, int]] = []
    found: list[tuple[int, int]] | None
    while grid.empty:
        if max_rounds and len(done) >= max_rounds:
            return Run(ROUNDS, done)
        position, found = 0, None
        for position, kind in enumerate(kinds):  # noqa: B007 (the position is recorded below)
            found = placements(grid, kind)
            if found and kind == HIDDEN_ONE:
                assert waiting is not None
                found = hidden_one(grid, found, waiting)
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
